"""Posting the batches scanners report: checks, safe retries, and booking them.

A type R batch moves stock on one new warehouse document (stock/balances.py),
filling its order document if it names one (stock/orders.py); a type V batch is
a count for the day's stocktaking (stock/stocktaking.py). Each post is one
transaction (storage.db.writing): anything raised leaves the database as it was.
"""
import hashlib
import json
from collections import defaultdict
from datetime import date
from operator import itemgetter

from sqlalchemy import bindparam, insert, select
from sqlalchemy.exc import IntegrityError

from models import Batch, BatchExtra, BatchItem, Packaging, Product, Stocktaking, WarehouseDocument
from stock import outbox, placement
from stock.balances import NUMBERED, add_document_lines_of_batch, change_balances, keep_best_before, new_document
from stock.batch_numbers import refuse_number_of_another
from stock.caller import Caller
from stock.errors import Conflict, item_errors, say, say_count
from stock.naming import product_words
from stock.orders import closed_event, fill_order, order_for_batch
from stock.policy import Policy, refuse_far_future
from stock.quantities import LIMIT, SCALE, from_milli, within_places
from stock.stocktaking import count_stock
from stock.warehouses import require_warehouse
from storage.db import before_commit, insert_tuples, notes_of, writing


def batch_digest(batch: dict) -> str:
    """A fingerprint of the parsed batch: a retry must carry exactly the same content.

    The items go in as lists of values under the names of their fields, written once
    per set of fields: a thousand items alike cost a thousand short lists, not a
    thousand objects that each spell out their field names.
    """
    shapes: dict[tuple, int] = {}  # the sorted names of an item's fields -> their index
    reading: dict[tuple, tuple] = {}  # an item's names as sent -> (index, getter in sorted order)
    item_shapes, item_values = [], []
    for item in batch["batch_items"]:
        names = tuple(item)
        known = reading.get(names)
        if known is None:
            ordered = tuple(sorted(names))
            # Every item has its required fields, so the getter always answers a tuple.
            known = reading[names] = (shapes.setdefault(ordered, len(shapes)), itemgetter(*ordered))
        item_shapes.append(known[0])
        item_values.append(known[1](item))
    content = {key: value for key, value in batch.items() if key != "batch_items"}
    content["batch_settings"] = _sent_settings(batch)
    content.update(item_fields=list(shapes), item_shapes=item_shapes, item_values=item_values)
    return _sha256_of_json(content)


def digest_of_earlier_releases(batch: dict) -> str:
    """The fingerprint releases until November 2026 stored: the items as objects with their names.

    A retry of a batch they booked, sent after the upgrade, is known by this one.
    """
    return _sha256_of_json({**batch, "batch_settings": _sent_settings(batch)})


def _sent_settings(batch: dict) -> dict:
    # created_date is the server's to set: a retry may carry another one.
    return {k: v for k, v in batch["batch_settings"].items() if k != "created_date"}


def _sha256_of_json(content) -> str:
    # check_circular off: a parsed request holds no cycles, and the text is the same without the check.
    text = json.dumps(content, sort_keys=True, default=str, separators=(",", ":"), check_circular=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def post_batch(session, caller: Caller, batch: dict, policy: Policy, posted_from: str = "") -> bool:
    """Book a batch a scanner reported. Returns False when it was a retry that booked nothing.

    Type R moves stock on one new warehouse document; type V is a count that
    feeds the stocktaking of its warehouse and day. In this order: the key may
    write the warehouse (403); the digest of the batch as parsed; under the
    warehouse's lock, a stored batch of the same number is a retry (same digest:
    nothing is booked) or a conflict (409); only then the checks of products,
    units and the order document (422, 409), and the booking. The batch keeps the caller's
    name and `posted_from` (the client's address) as who posted it. A new batch whose number
    lies in a block reserved for another key is a conflict too (stock/batch_numbers.py).
    """
    settings = batch["batch_settings"]
    caller.require_warehouse(settings["id_warehouse"])
    # Of the batch as the scanner sent it: the checks below derive amounts into copies,
    # never into the request, so a retry digests exactly like its first copy.
    digest = batch_digest(batch)
    # Copies racing each other in one warehouse queue on its lock, so the second sees
    # the first; in two warehouses (PostgreSQL) the batches' key decides between them.
    try:
        with writing(session, [settings["id_warehouse"]]):
            if _is_retry(batch, digest, _stored_digest(session, batch)):
                return False
            refuse_number_of_another(session, caller, settings["batch_number"])
            _book_batch(session, caller, batch, digest, policy, posted_from)
    except IntegrityError:
        stored = _stored_digest(session, batch)
        if stored is None:  # not a copy of this batch: another constraint
            raise
        return not _is_retry(batch, digest, stored)
    return True


# Statements a booking runs every time, built once: building one costs more than SQLite's work.
_STORED_DIGEST = select(Batch.content_digest).where(Batch.batch_number == bindparam("number"))
_PRODUCTS_WITH_PACKAGINGS = (
    select(Product.product_code, Product.name, Product.active, Product.base_unit, Product.lot_level,
           Product.decimal_places, Packaging.unit, Packaging.amount_base_units_milli)
    .outerjoin(Packaging, Packaging.product_code == Product.product_code)
    .where(Product.product_code.in_(bindparam("codes", expanding=True))))


_INSERT_BATCH = insert(Batch)


def _stored_digest(session, batch: dict) -> str | None:
    return session.connection().scalar(_STORED_DIGEST, {"number": batch["batch_settings"]["batch_number"]})


def _is_retry(batch: dict, digest: str, stored: str | None) -> bool:
    """True when a batch of this number is stored with this content; Conflict when with other."""
    if stored is None:
        return False
    if stored != digest and stored != digest_of_earlier_releases(batch):
        raise Conflict(say("Batch %(number)s exists already with other content.",
                           number=batch["batch_settings"]["batch_number"]))
    return True


def _book_batch(session, caller: Caller, batch: dict, digest: str, policy: Policy, posted_from: str) -> None:
    settings = batch["batch_settings"]
    today = date.today()
    business_date = settings.get("date", today)
    require_warehouse(session, settings["id_warehouse"], ("data", "batch_settings", "id_warehouse"))
    refuse_far_future(business_date, today, policy, ("data", "batch_settings", "date"))
    is_count = settings["type"] == "V"
    # First, so that a copy being booked in another warehouse stops us before any work.
    session.connection().execute(_INSERT_BATCH, dict(
        batch_number=settings["batch_number"], id_warehouse=settings["id_warehouse"],
        direction=settings["direction"], type=settings["type"], date=business_date,
        created_date=today, app_version=settings.get("app_version", ""),
        name=settings.get("name", ""), truck=settings.get("truck", 0),
        document_number=settings.get("document_number", ""), content_digest=digest,
        posted_by=caller.name[:100], posted_from=posted_from[:100],
    ))
    products, items = _check_items(session, batch["batch_items"], is_count)
    # Where a warehouse has locations, each wplace must name one (None: free text, as ever).
    places = placement.resolve_items(session, settings["id_warehouse"], items)
    order = order_for_batch(session, caller, settings, policy)
    order_closed = None
    if order is not None and fill_order(order, settings, items, is_count):
        order_closed = closed_event(order, caller.name, caller.kind, batch_number=settings["batch_number"])
    if batch.get("batch_extras"):
        session.execute(insert(BatchExtra), [
            {"batch_number": settings["batch_number"], "position": i, **extra}
            for i, extra in enumerate(batch["batch_extras"], start=1)
        ])
    if is_count:
        _write_batch_items(session, settings["batch_number"], items, on_document=False)
        count_stock(session, settings["id_warehouse"], business_date, items, products, today, places)
        stocktaking = session.get(Stocktaking, (settings["id_warehouse"], business_date))
        document_ids = [d for d in (stocktaking.in_document_id, stocktaking.out_document_id) if d]
    else:
        document_ids = [_book_movement(session, settings, order, items, policy, business_date, today, places)]
    before_commit(session, lambda session: _note_booking(session, settings, business_date, document_ids, order_closed))


def _note_booking(session, settings: dict, day: date, document_ids: list[int],
                  order_closed: tuple[str, dict] | None = None) -> None:
    """The booking's events, in its own transaction: one statement, however many items it has.

    Run as a last step before the commit, after its documents got their numbers (stock/balances.py
    number_documents), which the events carry. `order_closed` is the order.closed event when the batch
    delivered the last of its order: it comes after batch.booked, so that a receiver knows the
    batch before it hears that the order is done.
    """
    numbers = notes_of(session).get(NUMBERED, {})
    earlier = [document_id for document_id in document_ids if document_id not in numbers]
    if earlier:  # a recount that kept the adjustment documents of the day's first count
        numbers = {**numbers, **dict(session.execute(select(WarehouseDocument.id, WarehouseDocument.doc_number)
                                                     .where(WarehouseDocument.id.in_(earlier))).all())}
    doc_numbers = [numbers[document_id] for document_id in document_ids]
    booked = {"batch_number": settings["batch_number"], "id_warehouse": settings["id_warehouse"],
              "direction": settings["direction"], "type": settings["type"], "date": day.isoformat(),
              "document_number": settings.get("document_number", ""), "doc_numbers": doc_numbers}
    events = [("batch.booked", booked)]
    if settings["type"] == "V":
        events.append(("stocktaking.booked", {
            "id_warehouse": settings["id_warehouse"], "date": day.isoformat(),
            "batch_number": settings["batch_number"], "doc_numbers": doc_numbers}))
    if order_closed is not None:
        events.append(order_closed)
    outbox.emit_many(session, events)


def _check_items(session, items: list[dict], is_count: bool) -> tuple[dict[str, dict], list[dict]]:
    """Product, unit, conversion and lot rules; the products, and the items with amount_base_milli.

    The request stays as it came: an item that lacks amount_base_milli is returned
    as a new dict that has it (a scanner sends it, and _scan_problem checked it).
    """
    # A batch scans the same product, unit and amount many times: each such scan is checked once.
    try:
        scans = list(map(_SCAN, items))  # a scanner sends every field
        complete = True
    except KeyError:
        scans = [(item["product_code"], item["unit"], item["amount_milli"], item.get("amount_base_milli"),
                  item.get("lot", "")) for item in items]
        complete = False
    distinct = set(scans)
    codes = {scan[0] for scan in distinct}
    products: dict[str, dict] = {}
    # One statement: a product's row comes once per packaging (once, with no unit, without one).
    for code, name, active, base_unit, lot_level, places, unit, factor in session.connection().execute(
            _PRODUCTS_WITH_PACKAGINGS, {"codes": list(codes)}).all():
        product = products.get(code)
        if product is None:
            product = products[code] = {"product_code": code, "name": name, "active": active,
                                        "base_unit": base_unit, "lot_level": lot_level,
                                        "decimal_places": places,
                                        "factors": {base_unit: SCALE}}
        if unit is not None:
            product["factors"][unit] = factor

    problems = {scan: problem for scan in distinct
                if (problem := _scan_problem(*scan, products.get(scan[0]), is_count))}
    if problems:
        raise item_errors({index: {problems[scan][0]: [problems[scan][1]]}
                           for index, scan in enumerate(scans) if scan in problems})
    if complete:
        return products, items
    return products, [item if "amount_base_milli" in item
                      else {**item, "amount_base_milli": _base_amount(item, products[item["product_code"]])}
                      for item in items]


# What identifies a scan for the checks: product, unit, amount, amount in base units, lot.
_SCAN = itemgetter("product_code", "unit", "amount_milli", "amount_base_milli", "lot")


def _base_amount(item: dict, product: dict) -> int:
    """The item's amount in the product's base unit, in thousandths (exact: _scan_problem checked)."""
    return item["amount_milli"] * product["factors"][item["unit"]] // SCALE


def _scan_problem(code: str, unit: str, amount: int, amount_base: int | None, lot: str,
                  product: dict | None, is_count: bool) -> tuple[str, str] | None:
    """The field at fault and why, or None: the product, its unit, the amounts and the lot."""
    if product is None:
        return "product_code", say("No product %(code)r.", code=code)
    if not product["active"]:
        return "product_code", say("%(product)s (%(code)s) is not active.",
                                   product=product_words(product["name"], code), code=code)
    factor = product["factors"].get(unit)
    if factor is None:
        return "unit", say("%(unit)r is neither the base unit nor a packaging of the product.", unit=unit)
    if amount < 0 or (amount == 0 and not is_count):
        return "amount", say("Must be greater than 0.") if not is_count else say("Must not be negative.")
    base, remainder = divmod(amount * factor, SCALE)
    if remainder:
        return "amount", say("In base units this has more than 3 decimal places.")
    if not within_places(base, product["decimal_places"]):
        # 0.5 of a product counted in whole pieces is a mistake, not a half piece.
        return "amount", say_count("In base units this has more than %(count)s decimal place, as %(product)s is counted.",
                                   "In base units this has more than %(count)s decimal places, as %(product)s is "
                                   "counted.", product["decimal_places"],
                                   text="In base units this has more than %(count)s decimal place(s), as %(product)s "
                                   "is counted.", product=product_words(product["name"], code))
    if base >= LIMIT * SCALE:
        return "amount", say("In base units this must be less than %(limit)s.", limit=LIMIT)
    if amount_base is not None and amount_base != base:
        return "amount_base_unit", say("Must equal amount x %(factor)s = %(base)s.", factor=from_milli(factor),
                                       base=from_milli(base))
    if product["lot_level"] == 1 and not lot:
        return "lot", say("The product is kept by lot: a lot is required.")
    if product["lot_level"] == 0 and lot:
        return "lot", say("The product is not kept by lot: the lot must be empty.")
    return None


# What a scanner sends of an item, in the order of the columns below.
_SCANNED = ("product_code", "unit", "amount_milli", "amount_base_milli", "barcode", "date_exp", "lot",
            "name", "palette", "status", "timestamp_client", "wplace")
_EVERY_FIELD = itemgetter(*_SCANNED)
BATCH_ITEM_COLUMNS = ["batch_number", "position", *_SCANNED, "doc_item_number"]


def _write_batch_items(session, batch_number: int, items: list[dict], on_document: bool) -> None:
    """The batch's items as sent; on a goods document each is the line of the same number."""
    rows = []
    for position, item in enumerate(items, start=1):
        try:
            scanned = _EVERY_FIELD(item)  # a scanner sends every field: one call
        except KeyError:
            scanned = (item["product_code"], item["unit"], item["amount_milli"], item["amount_base_milli"],
                       item.get("barcode", ""), item.get("date_exp", ""), item.get("lot", ""),
                       item.get("name", ""), item.get("palette", 0), item.get("status", 0),
                       item.get("timestamp_client", ""), item.get("wplace", ""))
        rows.append((batch_number, position, *scanned, position if on_document else 0))
    insert_tuples(session, BatchItem.__table__, BATCH_ITEM_COLUMNS, rows)


def _book_movement(session, settings, order, items, policy: Policy, day: date, today: date,
                   places: list[str | None] | None = None) -> int:
    """Change the balances, open the document and write its lines; it is numbered at the commit.
    `places`: each item's location where the warehouse has locations. Returns the document's internal id."""
    direction, warehouse = settings["direction"], settings["id_warehouse"]
    sign = 1 if direction == "I" else -1
    deltas: dict[tuple[str, str], int] = defaultdict(int)
    received: dict[tuple[str, str], str] = {}
    placed: dict[tuple[str, str, str], int] = defaultdict(int)
    for index, item in enumerate(items):
        key = (item["product_code"], item.get("lot", ""))
        deltas[key] += sign * item["amount_base_milli"]
        if sign > 0 and item.get("date_exp"):
            received[key] = item["date_exp"]
        if places is not None and places[index] is not None:
            placed[(*key, places[index])] += sign * item["amount_base_milli"]
    change_balances(session, warehouse, deltas, policy, items, received,
                    placed=placed, gains_to=placement.RECEIVING, item_places=places)
    if sign > 0:
        keep_best_before(session, items)
    session.flush()  # the order's changes
    document_id = new_document(session, warehouse, direction, day, today,
                               id_customer=order.id_customer if order else 0,
                               batch_number=settings["batch_number"])
    _write_batch_items(session, settings["batch_number"], items, on_document=True)
    add_document_lines_of_batch(session, document_id, warehouse, direction, day, today, settings["batch_number"])
    return document_id
