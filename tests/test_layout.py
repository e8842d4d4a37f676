"""The layout (README, "Where things are"): each package imports only what its docstring allows."""
import ast
import os

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# What each part may not import of the project (a prefix forbids the module and all below it).
FORBIDDEN = {
    "stock": ("app", "routes", "pages", "operations", "schemas", "flask"),
    "storage": ("app", "routes", "pages", "operations", "schemas", "models", "stock.orders", "stock.posting",
                "stock.balances", "stock.stocktaking", "stock.catalog", "stock.api_keys",
                "stock.records", "stock.reports", "stock.policy"),
    "schemas": ("app", "routes", "pages", "operations", "storage", "models", "stock.orders",
                   "stock.posting", "stock.balances", "stock.stocktaking", "stock.catalog",
                   "stock.api_keys", "stock.records", "stock.reports", "stock.policy"),
    "models.py": ("app", "routes", "pages", "operations", "schemas", "stock"),
    "routes": ("app", "pages", "operations"),
    "pages": ("app", "routes", "operations"),
    "operations": ("app", "routes", "pages"),
}
# Within the rules, posting sits on orders, balances and stocktaking; stocktaking on balances.
BELOW = {
    "stock/balances.py": ("stock.orders", "stock.posting", "stock.stocktaking"),
    "stock/orders.py": ("stock.posting", "stock.stocktaking", "stock.balances"),
    "stock/stocktaking.py": ("stock.posting", "stock.orders"),
}


def python_files(part: str) -> list[str]:
    path = os.path.join(REPO, part)
    if os.path.isfile(path):
        return [path]
    return sorted(os.path.join(path, name) for name in os.listdir(path) if name.endswith(".py"))


def imported(path: str) -> set[str]:
    """Every module the file imports, at the top or inside a function, as dotted names."""
    with open(path, encoding="utf-8") as file:
        tree = ast.parse(file.read())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def breaches(path: str, forbidden: tuple) -> list[str]:
    return sorted(name for name in imported(path)
                  if any(name == bad or name.startswith(bad + ".") for bad in forbidden))


@pytest.mark.parametrize("part", sorted(FORBIDDEN))
def test_each_part_imports_only_what_its_docstring_allows(part):
    found = {os.path.relpath(path, REPO): breaches(path, FORBIDDEN[part]) for path in python_files(part)}
    assert {path: names for path, names in found.items() if names} == {}


@pytest.mark.parametrize("module", sorted(BELOW))
def test_the_rules_call_only_downwards(module):
    assert breaches(os.path.join(REPO, module), BELOW[module]) == []


def test_every_package_says_what_lives_in_it():
    for package in ("routes", "pages", "schemas", "stock", "storage", "operations"):
        with open(os.path.join(REPO, package, "__init__.py"), encoding="utf-8") as file:
            docstring = ast.get_docstring(ast.parse(file.read())) or ""
        assert "import" in docstring, package

