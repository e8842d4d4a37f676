"""What write-offs and returns share (DESIGN 28): the client's id that makes a retry safe, the
lines of (product, lot, amount) they book, and the places (DESIGN 27) they may name.

Both are booked as an ordinary warehouse document (stock/balances.py), so every figure the seed's
operations read stays right; a row of their own table names the document and says why.
"""
import hashlib
import json

from sqlalchemy import select

from models import BestBefore, Location, Product
from stock import placement
from stock.errors import Conflict, InsufficientStock, Invalid, invalid_field, say, say_count
from stock.locations import WALKING_ORDER
from stock.naming import lot_words, product_names, product_words, warehouse_words
from stock.quantities import LIMIT, SCALE, from_milli, within_places

# The service's own operations name a place by `location` and, unlike a batch's `wplace` (free
# text the seed's scanners send), never as free text: in a warehouse without locations, as a
# move does, they take only "" (unplaced).
NO_LOCATIONS = say("This warehouse has no locations: leave the location empty (unplaced).")


def digest(content: dict) -> str:
    """A fingerprint of the request as parsed: a retry must carry exactly the same content."""
    text = json.dumps(content, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def is_retry(stored: str | None, digest_now: str, refusal: str) -> bool:
    """True when the id is stored with this content; Conflict, saying `refusal`, when with other content."""
    if stored is None:
        return False
    if stored != digest_now:
        raise Conflict(refusal)
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
        raise Invalid(say_count("%(count)s line refused, e.g.: %(message)s", "%(count)s lines refused, e.g.: %(message)s",
                                len(errors), text="%(count)s line(s) refused, e.g.: %(message)s",
                                message=next(iter(first.values()))[0]),
                      {"data": {path: errors}})
    return products


def _line_problem(item: dict, product: dict | None) -> tuple[str, str] | None:
    code = item["product_code"]
    if product is None:
        return "product_code", say("No product %(code)r.", code=code)
    if not product["active"]:
        return "product_code", say("%(product)s (%(code)s) is not active.",
                                   product=product_words(product["name"], code), code=code)
    if product["lot_level"] == 1 and not item["lot"]:
        return "lot", say("The product is kept by lot: a lot is required.")
    if product["lot_level"] == 0 and item["lot"]:
        return "lot", say("The product is not kept by lot: the lot must be empty.")
    amount = item["amount_milli"]
    if amount <= 0:
        return "amount", say("Must be greater than 0.")
    if amount >= LIMIT * SCALE:
        return "amount", say("Must be less than %(limit)s.", limit=LIMIT)
    if not within_places(amount, product["decimal_places"]):
        return "amount", say_count("More than %(count)s decimal place, as %(product)s is counted.",
                                   "More than %(count)s decimal places, as %(product)s is counted.",
                                   product["decimal_places"],
                                   text="More than %(count)s decimal place(s), as %(product)s is counted.",
                                   product=product_words(product["name"], code))
    return None


def return_location(session, id_warehouse: int, text: str, path: tuple) -> str:
    """Where returned goods go: the location named (an active one of the warehouse, else 422
    naming `path`), else the warehouse's first hold location in walking order, else unplaced."""
    has_locations, _ = placement.warehouse_places(session, id_warehouse)
    if text:
        if not has_locations:
            raise invalid_field(path, NO_LOCATIONS)
        return placement.resolve(session, id_warehouse, text, path)
    if not has_locations:
        return placement.UNPLACED
    return session.scalar(select(Location.code).where(Location.id_warehouse == id_warehouse, Location.hold == 1,
                                                      Location.active == 1)
                          .order_by(*WALKING_ORDER).limit(1)) or placement.UNPLACED


def item_locations(session, id_warehouse: int, items: list[dict]) -> list[str | None]:
    """Each line's location (its code as kept), None where it names none; 422 naming each line
    whose location is not an active one of the warehouse (every named one where it has none)."""
    texts = [item.get("location") or "" for item in items]
    if not any(texts):
        return [None] * len(items)
    if not placement.warehouse_places(session, id_warehouse)[0]:
        problems = {str(index): {"location": [NO_LOCATIONS]} for index, text in enumerate(texts) if text}
        raise Invalid(say_count("%(count)s line refused, e.g.: %(message)s", "%(count)s lines refused, e.g.: %(message)s",
                                len(problems), text="%(count)s line(s) refused, e.g.: %(message)s",
                                message=NO_LOCATIONS), {"data": {"items": problems}})
    return placement.resolve_items(session, id_warehouse, items, field="location", lines="items")


def refuse_short_at(session, id_warehouse: int, items: list[dict], places: list[str | None]) -> None:
    """409 naming each line whose location holds less of its (product, lot) than the lines
    taking from there ask for in all (a goods-out batch's `wplace` rule)."""
    wanted: dict[tuple[str, str, str], int] = {}
    for item, location in zip(items, places):
        if location is not None:
            key = (item["product_code"], item["lot"], location)
            wanted[key] = wanted.get(key, 0) + item["amount_milli"]
    if not wanted:
        return
    there = placement.amounts_at(session, id_warehouse, {code for code, _, _ in wanted},
                                 {location for _, _, location in wanted})
    short = {key: amount - there.get(key, 0) for key, amount in wanted.items() if there.get(key, 0) < amount}
    if not short:
        return
    names = product_names(session, {code for code, _, _ in short})
    where = warehouse_words(session, id_warehouse)

    def text(key):
        code, lot, location = key
        return say("Not enough stock of %(product)s, %(lot)s, at location %(location)s of %(warehouse)s: "
                   "%(amount)s there, short by %(short)s.", product=names[code], lot=lot_words(lot),
                   location=location, warehouse=where, amount=from_milli(there.get(key, 0)),
                   short=from_milli(short[key]))

    problems = {str(index): {"location": [text(key)]} for index, (item, location) in enumerate(zip(items, places))
                if (key := (item["product_code"], item["lot"], location)) in short}
    raise InsufficientStock(say_count("%(count)s product/lot short at its location. %(first)s",
                                      "%(count)s products/lots short at their location. %(first)s", len(short),
                                      text="%(count)s product/lot(s) short at their location. %(first)s",
                                      first=text(next(iter(short)))),
                            {"data": {"items": problems}})


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
