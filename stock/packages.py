"""Stock counted in packaging units beside its base units: 192 pc is 16 crates of 12.

The rule: the largest packaging unit of the product that fits into the amount at least once,
as many whole times as it fits, and what is left over in base units (200 pc with crates of 12
and pallets of 480: 16 crate + 8 pc). One unit only, never a cascade of pallets, crates and
boxes: a count of one unit and a remainder can be checked on the shelf at a glance. An
amount below the smallest package, or a product without packaging, has no packaging count.
A negative amount (stock below zero) is counted the same way, with both parts negative.

Read-only; the pages call it (the stock page and a product's page).
"""
from sqlalchemy import select

from models import Packaging


def in_packages(amount_milli: int, packaging) -> dict | None:
    """{count, unit, rest_milli} of `amount_milli` in the largest package that fits; None if none fits.

    `packaging`: the product's units in its own order, each with `unit` and
    `amount_base_units_milli` (a product's answer, or packaging_of's rows); of two units of
    one size the first is taken.
    """
    size = abs(amount_milli)
    fitting = [package for package in packaging if 0 < package["amount_base_units_milli"] <= size]
    if not fitting:
        return None
    largest = max(fitting, key=lambda package: package["amount_base_units_milli"])
    count, rest = divmod(size, largest["amount_base_units_milli"])
    sign = -1 if amount_milli < 0 else 1
    return {"count": sign * count, "unit": largest["unit"], "rest_milli": sign * rest}


def packaging_of(session, product_codes) -> dict[str, list[dict]]:
    """{product_code: [{unit, amount_base_units_milli}, ...]} of these products, in one statement."""
    found: dict[str, list[dict]] = {}
    codes = sorted(set(product_codes))
    if not codes:
        return found
    for row in session.execute(select(Packaging.product_code, Packaging.unit, Packaging.amount_base_units_milli)
                               .where(Packaging.product_code.in_(codes))
                               .order_by(Packaging.product_code, Packaging.position)):
        found.setdefault(row.product_code, []).append(
            {"unit": row.unit, "amount_base_units_milli": row.amount_base_units_milli})
    return found
