"""Bodies the tests build again and again."""


def product(code="P1", **fields):
    """A product body with the required fields."""
    return {"product_code": code, "name": f"Product {code}", "base_unit": "pc", **fields}
