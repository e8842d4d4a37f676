"""The layout (docs/development.md, "Floors"): imports run one way, downwards, with no circle.

Every import of every project module is read with `ast`, at the top of a file or inside a
function alike, and drawn as an arrow between modules. Two checks run on that drawing: no
circle between modules, and no arrow from a floor to a higher one (FLOORS). Beside them, each
package's own list of what it may not import (FORBIDDEN) and the order of the rules (BELOW).
"""
import ast
import os
import re

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The floors, highest first. A module may import what lies on its own part or on a lower floor;
# two parts of one floor never import each other (routes/ and pages/ share no code but below).
# A part is a package, a module, or a module inside a package that sits lower than the rest of
# its package (stock/errors.py and stock/quantities.py: every layer names its errors and amounts).
# A new package gets its line here, placed by what it may import (its docstring says that).
FLOORS = [
    ("bench",),                                   # speed, measured from outside the service
    ("app",),                                     # the app factory: settings, storage, blueprints
    ("operations",),                              # commands, settings, logs, serving, upgrades, backups
    ("routes", "pages", "scanner"),               # the API, the office pages, the browser scanner: side by side
    ("transfer", "printing", "background", "safekeeping",  # import/export, labels and paper, the outbox's
     "language"),                                 # sender, backups, the depot's language (DESIGN 29)
    ("schemas",),                                 # request and answer shapes
    ("identity",),                                # keys, people, sessions: rules on a session
    ("stock",),                                   # the rules
    ("models", "migrations"),                     # the tables and their history (Alembic runs env.py)
    ("storage",),                                 # db.writing, readers, the cache
    ("stock.caller",),                            # who a request acts for, and what it may manage
    ("stock.errors", "stock.quantities", "identity.client", "version",  # named errors, amounts, the request's
     "page_policy", "static_files"),                                      # client, the release, the browser's rules,
                                                                          # static files under hashed addresses
    ("storage.errors",),                          # the errors storage raises, which stock/errors.py names again
]
# Arrows against the floors that are known and being removed, each to go with its fix: an entry
# that no longer matches an import fails the test too, so none outlives its reason.
BEING_REMOVED: set[tuple[str, str]] = set()
SKIPPED = {".git", ".venv", "tests", "__pycache__", "node_modules", "static", "templates"}

# What each part may not import of the project (a prefix forbids the module and all below it).
FORBIDDEN = {
    # The rules know nothing of keys, people and sessions: identity/ leans on stock/, never back.
    "stock": ("app", "routes", "pages", "operations", "schemas", "flask", "identity"),
    "identity": ("app", "routes", "pages", "operations", "schemas", "flask"),
    "storage": ("app", "routes", "pages", "operations", "schemas", "models", "stock", "identity"),
    "schemas": ("app", "routes", "pages", "operations", "storage", "models", "stock.orders",
                   "stock.posting", "stock.balances", "stock.stocktaking", "stock.catalog",
                   "identity", "stock.records", "stock.reports", "stock.policy"),
    "models.py": ("app", "routes", "pages", "operations", "schemas", "stock"),
    "routes": ("app", "pages", "operations"),
    "pages": ("app", "routes", "operations"),
    "scanner": ("app", "routes", "pages", "operations", "stock", "storage", "models", "schemas"),
    "operations": ("app", "routes", "pages"),
    "printing": ("app", "routes", "pages", "operations", "schemas", "flask"),
    "safekeeping": ("app", "routes", "pages", "operations", "schemas", "flask"),
    # Paper gets its words as a translator given by the page (printing/ knows no Flask).
    "language": ("app", "routes", "pages", "operations", "scanner", "schemas"),
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


def project_modules() -> dict[str, str]:
    """Every Python module of the project outside tests/, by dotted name: its path."""
    found = {}
    for root, folders, files in os.walk(REPO):
        folders[:] = sorted(folder for folder in folders if folder not in SKIPPED and not folder.startswith("."))
        for name in files:
            if name.endswith(".py"):
                dotted = os.path.relpath(os.path.join(root, name[:-3]), REPO).replace(os.sep, ".")
                found[dotted.removesuffix(".__init__")] = os.path.join(root, name)
    return found


def package_of(module: str) -> str:
    return module.rpartition(".")[0]


def arrows(modules: dict[str, str]) -> dict[str, dict[str, str]]:
    """For each module, the project modules it imports, each with the import as written.

    `from a.b import c` is an arrow to a.b.c when that is a module, else to a.b; a relative
    import is resolved from the importing module. A package's __init__ importing its own
    modules (to register their views, or to let `from schemas import ...` read them) is the
    package made of its parts, not an arrow between floors, and is left out.
    """
    drawn = {}
    for module, path in modules.items():
        with open(path, encoding="utf-8") as file:
            tree = ast.parse(file.read(), path)
        here = module if path.endswith("__init__.py") else package_of(module)
        targets = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                named = [(alias.name, f"import {alias.name}") for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = here
                    for _ in range(node.level - 1):
                        anchor = package_of(anchor)
                    base = f"{anchor}.{base}".strip(".")
                written = f"from {'.' * node.level}{node.module or ''} import "
                named = [(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base,
                          written + alias.name) for alias in node.names]
            else:
                continue
            for target, line in named:
                while target and target not in modules:  # import a.b.c of a module a.b: a.b
                    target = package_of(target)
                if target and target != module and not (path.endswith("__init__.py")
                                                        and target.startswith(module + ".")):
                    targets.setdefault(target, f"{os.path.relpath(path, REPO)}:{node.lineno}: {line}")
        drawn[module] = targets
    return drawn


def part_of(module: str) -> str | None:
    parts = [part for floor in FLOORS for part in floor
             if module == part or module.startswith(part + ".")]
    return max(parts, key=len, default=None)


def floor_of(part: str) -> int:
    return next(number for number, floor in enumerate(FLOORS) if part in floor)


def upward(drawn: dict[str, dict[str, str]]) -> list[str]:
    """Every arrow to a higher floor, or sideways to another part of the same floor."""
    found = []
    for module, targets in drawn.items():
        for target, line in targets.items():
            mine, theirs = part_of(module), part_of(target)
            if mine != theirs and floor_of(theirs) <= floor_of(mine):
                found.append(f"{line}  ({mine} may not import {theirs}: "
                             f"{'the same floor' if floor_of(theirs) == floor_of(mine) else 'a higher floor'})")
    return sorted(found)


def circles(drawn: dict[str, dict[str, str]]) -> list[str]:
    """Each circle of imports once, as the imports that make it."""
    found, state = [], {}
    path: list[str] = []

    def visit(module):
        state[module] = "open"
        path.append(module)
        for target in sorted(drawn.get(module, ())):
            if state.get(target) == "open":
                ring = path[path.index(target):] + [target]
                found.append(" -> ".join(ring) + "\n    " + "\n    ".join(
                    drawn[a][b] for a, b in zip(ring, ring[1:])))
            elif target not in state:
                visit(target)
        path.pop()
        state[module] = "done"

    for module in sorted(drawn):
        if module not in state:
            visit(module)
    return found


def test_every_module_stands_on_a_floor():
    lost = [module for module in project_modules() if part_of(module) is None]
    assert lost == [], f"on no floor (give their part a line in FLOORS): {lost}"


def test_no_import_runs_in_a_circle():
    found = circles(arrows(project_modules()))
    assert not found, "imports in a circle:\n" + "\n".join(found)


def test_no_import_reaches_up_a_floor():
    drawn = arrows(project_modules())
    stale = sorted(pair for pair in BEING_REMOVED if pair[1] not in drawn.get(pair[0], {}))
    assert stale == [], "gone from the code: remove from BEING_REMOVED"
    found = upward({module: {target: line for target, line in targets.items()
                             if (module, target) not in BEING_REMOVED}
                    for module, targets in drawn.items()})
    assert not found, "imports against the floors:\n" + "\n".join(found)


def test_a_migration_names_nothing_of_the_project():
    """A migration is history: it must read the same when models.py has moved on."""
    drawn = arrows(project_modules())
    found = [line for module, targets in drawn.items() if module.startswith("migrations.versions.")
             for line in targets.values()]
    assert found == []


@pytest.mark.parametrize("part", sorted(FORBIDDEN))
def test_each_part_imports_only_what_its_docstring_allows(part):
    found = {os.path.relpath(path, REPO): breaches(path, FORBIDDEN[part]) for path in python_files(part)}
    assert {path: names for path, names in found.items() if names} == {}


@pytest.mark.parametrize("module", sorted(BELOW))
def test_the_rules_call_only_downwards(module):
    assert breaches(os.path.join(REPO, module), BELOW[module]) == []


def test_every_package_says_what_lives_in_it():
    packages = sorted(module for module, path in project_modules().items()
                      if path.endswith("__init__.py") and "." not in module and module != "bench")
    assert {"routes", "pages", "schemas", "stock", "storage", "operations", "identity"} <= set(packages)
    for package in packages:
        with open(os.path.join(REPO, package, "__init__.py"), encoding="utf-8") as file:
            docstring = ast.get_docstring(ast.parse(file.read())) or ""
        assert "import" in docstring, package



def room_of(module: str) -> str:
    """The room a module stands in: its top-level package (or the module itself, as app.py)."""
    return module.partition(".")[0]


def test_no_two_rooms_lean_on_each_other():
    """Floors are drawn between modules; rooms (top-level packages) must also lean one way only:
    a room whose modules import another room that imports it back is one room in two places."""
    leaning: dict[str, dict[str, str]] = {}
    for module, targets in arrows(project_modules()).items():
        for target, line in targets.items():
            if room_of(target) != room_of(module):
                leaning.setdefault(room_of(module), {}).setdefault(room_of(target), line)
    found = circles(leaning)
    assert not found, "rooms in a circle:\n" + "\n".join(found)


def test_the_scanners_modules_import_only_those_listed_below_them():
    """The browser scanner's modules as scanner/__init__.py lists them, the page module first: each
    imports only modules listed after it (so never in a circle), and every module of static/ is there."""
    static = os.path.join(REPO, "scanner", "static")
    with open(os.path.join(REPO, "scanner", "__init__.py"), encoding="utf-8") as file:
        docstring = ast.get_docstring(ast.parse(file.read()))
    listed = [name for names in re.findall(r"^ {4}((?:[a-z_]+\.js(?:, )?)+) ", docstring, re.MULTILINE)
              for name in names.split(", ")]
    assert sorted(listed) == sorted(name for name in os.listdir(static) if name.endswith(".js"))
    upwards = []
    for place, name in enumerate(listed):
        with open(os.path.join(static, name), encoding="utf-8") as file:
            upwards += [(name, target) for target in re.findall(r'^import .* from "\./([\w.]+)";$', file.read(), re.MULTILINE)
                        if target not in listed[place + 1:]]
    assert upwards == []


def test_no_bench_script_takes_the_name_of_a_room():
    """bench/run.py runs with bench/ first on the path: a bench/language.py stood in for the
    language/ room, and the scenarios that build the app in their own process failed to import it."""
    rooms = {name for name in os.listdir(REPO) if os.path.isfile(os.path.join(REPO, name, "__init__.py"))}
    rooms |= {name[:-3] for name in os.listdir(REPO) if name.endswith(".py")}
    scripts = {name[:-3] for name in os.listdir(os.path.join(REPO, "bench")) if name.endswith(".py")}
    assert scripts & rooms == set()
