"""What write-offs and returns share (DESIGN 28): the client's id that makes a retry safe, the
lines of (product, lot, amount) they book, and the place (DESIGN 27) they may name.

Both are booked as an ordinary warehouse document (stock/balances.py), so every figure the seed's
operations read stays right; a row of their own table names the document and says why.
"""
import hashlib
import json

from sqlalchemy import select

from models import BestBefore, Product
from stock.errors import Conflict, Invalid, invalid_field
from stock.naming import product_words
from stock.quantities import LIMIT, SCALE, from_milli, within_places

# Until the warehouses have locations (DESIGN 27, another branch), the only place is "unplaced".
NO_LOCATIONS = "This warehouse has no locations: leave the location empty (unplaced)."


def digest(content: dict) -> str:
    """A fingerprint of the request as parsed: a retry must carry exactly the same content."""
    text = json.dumps(content, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def is_retry(stored: str | None, digest_now: str, what: str) -> bool:
    """True when the id is stored with this content; Conflict when with other content."""
    if stored is None:
        return False
    if stored != digest_now:
        raise Conflict(f"{what} exists already with other content.")
    return True


def check_lines(session, items: list[dict], path: str = "items") -> dict[str, dict]:
    """Each line's product (known, active), its lot (as the product is kept) and its amount (the
    product's decimal places); a 422 naming every line at fault. The products by code."""
    codes = sorted({item["product_code"] for item in items})
    products = {row.product_code: row._asdict() for row in session.execute(
        select(Product.product_code, Product.name, Product.active, Product.lot_level, Product.decimal_places)
        .where(Product.product_code.in_(codes)))}
    errors: dict[str, dict] = {}
    for index, item in enumerate(items):
        problem = _line_problem(item, products.get(item["product_code"]))
        if problem:
            errors[str(index)] = {problem[0]: [problem[1]]}
    if errors:
        first = next(iter(errors.values()))
        raise Invalid(f"{len(errors)} line(s) refused, e.g.: {next(iter(first.values()))[0]}",
                      {"data": {path: errors}})
    return products


def _line_problem(item: dict, product: dict | None) -> tuple[str, str] | None:
    code = item["product_code"]
    if product is None:
        return "product_code", f"No product {code!r}."
    if not product["active"]:
        return "product_code", f"{product_words(product['name'], code)} ({code}) is not active."
    if product["lot_level"] == 1 and not item["lot"]:
        return "lot", "The product is kept by lot: a lot is required."
    if product["lot_level"] == 0 and item["lot"]:
        return "lot", "The product is not kept by lot: the lot must be empty."
    amount = item["amount_milli"]
    if amount <= 0:
        return "amount", "Must be greater than 0."
    if amount >= LIMIT * SCALE:
        return "amount", f"Must be less than {LIMIT}."
    if not within_places(amount, product["decimal_places"]):
        return "amount", (f"More than {product['decimal_places']} decimal place(s), as "
                          f"{product_words(product['name'], code)} is counted.")
    if item.get("location"):
        return "location", NO_LOCATIONS
    return None


def refuse_location(location: str, path: tuple) -> None:
    """A place named where the warehouse has none (DESIGN 27 lands later): 422 naming the field."""
    if location:
        raise invalid_field(path, NO_LOCATIONS)


def summed(items: list[dict]) -> dict[tuple[str, str], int]:
    """The lines' amounts summed per (product, lot), in the order first named."""
    sums: dict[tuple[str, str], int] = {}
    for item in items:
        key = (item["product_code"], item["lot"])
        sums[key] = sums.get(key, 0) + item["amount_milli"]
    return sums


def document_lines(session, items: list[dict], products: dict) -> list[dict]:
    """The warehouse document's lines: one a line sent, each with its lot's best-before."""
    keys = {(item["product_code"], item["lot"]) for item in items if item["lot"]}
    dates = {}
    if keys:
        dates = {(code, lot): day for code, lot, day in session.execute(
            select(BestBefore.product_code, BestBefore.lot, BestBefore.date_exp)
            .where(BestBefore.product_code.in_({code for code, _ in keys}),
                   BestBefore.lot.in_({lot for _, lot in keys})))
                 if (code, lot) in keys}
    return [{"product_code": item["product_code"], "name": products[item["product_code"]]["name"],
             "lot": item["lot"], "date_exp": dates.get((item["product_code"], item["lot"]), ""),
             "amount_base_milli": item["amount_milli"]} for item in items]


def amount_text(milli: int) -> str:
    return str(from_milli(milli))
