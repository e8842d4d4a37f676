"""The stock rules: order documents, posting batches, balances and stocktaking.

Plain functions on a SQLAlchemy session; nothing here knows about HTTP. Each
public function that writes is one transaction (db.writing): it commits once
at the end, and anything raised leaves the database as it was.
"""
import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta

from sqlalchemy import delete, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from auth import Caller
from db import insert_rows, utc_now, writing
from errors import Conflict, InsufficientStock, Invalid, NotFound
from models import (Balance, Batch, BatchExtra, BatchItem, Counter, Customer, OrderDocument,
                    OrderItem, Packaging, Product, Stocktaking, StocktakingItem, WarehouseDocument,
                    WarehouseDocumentItem)
from quantities import LIMIT, SCALE, from_milli

CLOSED, IMPORTED, PROCESSING, BATCH_EXISTS = 0, 1, 2, 3


@dataclass(frozen=True)
class Policy:
    """The depot's settings that the rules obey."""

    allow_negative_stock: bool = False
    acquire_timeout: timedelta = timedelta(seconds=1800)


def item_errors(errors: dict[int, dict]) -> Invalid:
    first = next(iter(errors.values()))
    message = next(iter(first.values()))[0]
    return Invalid(f"{len(errors)} batch item(s) refused, e.g.: {message}",
                   {"data": {"batch_items": errors}})


# --- order documents ------------------------------------------------------------------------

def create_order(session, caller: Caller, fields: dict) -> None:
    """Import an order document; it starts in state 1 (imported)."""
    # Rules the body alone decides are shape errors: they answer before the key's
    # warehouse and a duplicate document_number (DESIGN §3, order of errors).
    errors = _check_order_lines(fields)
    if errors:
        raise Invalid("The order document has invalid items.", {"data": {"items": errors}})
    caller.require_warehouse(fields["id_warehouse"])
    # An order is changed only by writers of its warehouse (its batches, acquire).
    with writing(session, [fields["id_warehouse"]]):
        if session.get(OrderDocument, fields["document_number"]) is not None:
            raise Conflict(f"Order document {fields['document_number']!r} exists already.")
        errors = _check_order_products(session, fields["items"])
        if errors:
            raise Invalid("The order document has invalid items.", {"data": {"items": errors}})
        if fields["id_customer"] and session.get(Customer, fields["id_customer"]) is None:
            raise Invalid(f"No customer {fields['id_customer']}.",
                          {"data": {"id_customer": ["Unknown customer."]}})
        settings = fields["batch_settings"]
        session.add(OrderDocument(
            document_number=fields["document_number"], description=fields["description"],
            id_warehouse=fields["id_warehouse"], id_customer=fields["id_customer"],
            expiration_limit=fields["expiration_limit"], state=IMPORTED,
            # Both kept in the order the interface names them (R, V and I, O).
            allowed_types=",".join(sorted(set(settings["allowed_types"]))),
            allowed_directions=",".join(sorted(set(settings["allowed_directions"]))),
            items=[OrderItem(
                item_number=item["item_number"], product_code=item["product_code"], lot=item["lot"],
                amount_ordered_milli=item["amount_ordered_milli"], amount_delivered_milli=0,
                direction=item["direction"], wplace=json.dumps(item["wplace"]),
                note=item["meta"]["note"],
            ) for item in fields["items"]],
        ))
        try:
            session.flush()
        except IntegrityError:
            # Imported meanwhile for another warehouse (PostgreSQL): the key decided.
            raise Conflict(f"Order document {fields['document_number']!r} exists already.") from None


def _check_order_lines(fields: dict) -> dict[int, dict]:
    """Errors of the lines by index: item_number unique, direction allowed.

    A line without a direction gets the only allowed one; where both are allowed it must say.
    """
    directions = fields["batch_settings"]["allowed_directions"]
    errors = {}
    numbers = set()
    for index, item in enumerate(fields["items"]):
        problems = {}
        if item["item_number"] in numbers:
            problems["item_number"] = ["Repeats an item_number of this document."]
        numbers.add(item["item_number"])
        if "direction" not in item:
            if len(set(directions)) > 1:
                problems["direction"] = ["Required when the document allows both directions."]
            else:
                item["direction"] = directions[0]
        elif item["direction"] not in directions:
            problems["direction"] = ["Not among the document's allowed_directions."]
        if problems:
            errors[index] = problems
    return errors


def _check_order_products(session, items: list[dict]) -> dict[int, dict]:
    """Errors of the lines by index: the product exists, and a lot only where the product has lots.

    Batch items of a product not kept by lot carry no lot, so a line naming one
    could never be filled. A line without a lot for a product kept by lot is
    meant: it takes items of any lot (DESIGN 6), after the lines naming theirs.
    """
    codes = {item["product_code"] for item in items}
    lot_levels = {code: level for code, level in session.execute(
        select(Product.product_code, Product.lot_level).where(Product.product_code.in_(codes)))}
    errors = {}
    for index, item in enumerate(items):
        level = lot_levels.get(item["product_code"])
        if level is None:
            errors[index] = {"product_code": [f"No product {item['product_code']!r}."]}
        elif level == 0 and item["lot"]:
            errors[index] = {"lot": ["The product is not kept by lot: the lot must be empty."]}
    return errors


def get_order(session, caller: Caller, document_number: str) -> OrderDocument:
    """The order document, or NotFound (also when it lies in a warehouse the key may not see).

    It carries its expiration_limit_date as of today, as every order read does.
    """
    order = session.get(OrderDocument, document_number)
    if order is None or not caller.sees(order.id_warehouse):
        raise NotFound(f"No order document {document_number!r}.")
    return _dated(order)


def _dated(order: OrderDocument) -> OrderDocument:
    order.expiration_limit_date = expiration_limit_date(order)
    return order


def expiration_limit_date(order: OrderDocument) -> date:
    """Goods for this order must keep at least until this day (today + expiration_limit days)."""
    return date.today() + timedelta(days=order.expiration_limit)


def acquire_order(session, caller: Caller, document_number: str, policy: Policy) -> OrderDocument:
    """Hold the order for this key (state 2) while its scanner works on it."""
    # An order never changes warehouse: its warehouse's lock is known before taking it.
    id_warehouse = get_order(session, caller, document_number).id_warehouse
    with writing(session, [id_warehouse]):
        order = get_order(session, caller, document_number)
        if order.state == CLOSED:
            raise Conflict(f"Order document {document_number!r} is closed.")
        _refuse_foreign_lock(order, caller, policy)
        order.state = PROCESSING
        order.locked_by = caller.key_id
        order.locked_at = utc_now()
    return get_order(session, caller, document_number)


def _refuse_foreign_lock(order: OrderDocument, caller: Caller, policy: Policy) -> None:
    held = order.locked_by is not None and order.locked_by != caller.key_id \
        and order.locked_at is not None and utc_now() - order.locked_at < policy.acquire_timeout
    if held:
        raise Conflict(f"Order document {order.document_number!r} is being processed by another key.")


def list_orders(session, caller: Caller, state: int | None, offset: int = 0,
                limit: int | None = None) -> list[OrderDocument]:
    """Order documents by document_number; `offset` and `limit` page them."""
    query = select(OrderDocument).order_by(OrderDocument.document_number).offset(offset or None).limit(limit)
    if state is not None:
        query = query.where(OrderDocument.state == state)
    if caller.warehouses is not None:
        query = query.where(OrderDocument.id_warehouse.in_(caller.warehouses))
    return [_dated(order) for order in session.scalars(query)]


# --- batches --------------------------------------------------------------------------------

def batch_digest(batch: dict) -> str:
    """A fingerprint of the parsed batch: a retry must carry exactly the same content."""
    settings = {k: v for k, v in batch["batch_settings"].items() if k != "created_date"}
    content = {**batch, "batch_settings": settings}
    text = json.dumps(content, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def post_batch(session, caller: Caller, batch: dict, policy: Policy) -> bool:
    """Book a batch a scanner reported. Returns False when it was a retry that booked nothing.

    Type R moves stock on one new warehouse document; type V is a count that
    feeds the stocktaking of its warehouse and day.
    """
    settings = batch["batch_settings"]
    caller.require_warehouse(settings["id_warehouse"])
    digest = batch_digest(batch)
    # Copies racing each other in one warehouse queue on its lock, so the second sees
    # the first; in two warehouses (PostgreSQL) the batches' key decides between them.
    try:
        with writing(session, [settings["id_warehouse"]]):
            if _is_retry(session, settings["batch_number"], digest):
                return False
            _book_batch(session, caller, batch, digest, policy)
    except IntegrityError:
        if session.scalar(select(Batch.batch_number)
                          .where(Batch.batch_number == settings["batch_number"])) is None:
            raise
        return not _is_retry(session, settings["batch_number"], digest)
    return True


def _is_retry(session, batch_number: int, digest: str) -> bool:
    stored = session.scalar(select(Batch.content_digest).where(Batch.batch_number == batch_number))
    if stored is None:
        return False
    if stored != digest:
        raise Conflict(f"Batch {batch_number} exists already with other content.")
    return True


def _book_batch(session, caller: Caller, batch: dict, digest: str, policy: Policy) -> None:
    settings, items = batch["batch_settings"], batch["batch_items"]
    today = date.today()
    business_date = settings.get("date", today)
    is_count = settings["type"] == "V"
    # First, so that a copy being booked in another warehouse stops us before any work.
    session.execute(insert(Batch).values(
        batch_number=settings["batch_number"], id_warehouse=settings["id_warehouse"],
        direction=settings["direction"], type=settings["type"], date=business_date,
        created_date=today, app_version=settings.get("app_version", ""),
        name=settings.get("name", ""), truck=settings.get("truck", 0),
        document_number=settings.get("document_number", ""), content_digest=digest,
    ))
    products = _check_items(session, items, is_count)
    order = _order_for(session, caller, settings, policy)
    if order is not None:
        _fill_order(order, settings, items, is_count)
    if batch.get("batch_extras"):
        session.execute(insert(BatchExtra), [
            {"batch_number": settings["batch_number"], "position": i, **extra}
            for i, extra in enumerate(batch["batch_extras"], start=1)
        ])
    rows = [_batch_item_row(settings["batch_number"], position, item)
            for position, item in enumerate(items, start=1)]
    if is_count:
        insert_rows(session, BatchItem.__table__, rows)
        count_stock(session, settings["id_warehouse"], business_date, items, products)
    else:
        _book_movement(session, settings, order, items, products, policy, rows)


def _check_items(session, items: list[dict], is_count: bool) -> dict[str, dict]:
    """Product, unit, conversion and lot rules; fills amount_base_milli. Returns the products."""
    codes = {item["product_code"] for item in items}
    products = {row.product_code: {**row._mapping, "factors": {row.base_unit: SCALE}}
                for row in session.execute(
                    select(Product.product_code, Product.name, Product.active, Product.base_unit,
                           Product.lot_level).where(Product.product_code.in_(codes)))}
    for code, unit, factor in session.execute(
            select(Packaging.product_code, Packaging.unit, Packaging.amount_base_units_milli)
            .where(Packaging.product_code.in_(codes))):
        products[code]["factors"][unit] = factor

    errors: dict[int, dict] = {}
    for index, item in enumerate(items):
        product = products.get(item["product_code"])
        problem = _item_problem(item, product, is_count)
        if problem:
            errors[index] = {problem[0]: [problem[1]]}
    if errors:
        raise item_errors(errors)
    return products


def _item_problem(item: dict, product: dict | None, is_count: bool) -> tuple[str, str] | None:
    if product is None:
        return "product_code", f"No product {item['product_code']!r}."
    if not product["active"]:
        return "product_code", f"Product {item['product_code']!r} is not active."
    factor = product["factors"].get(item["unit"])
    if factor is None:
        return "unit", f"{item['unit']!r} is neither the base unit nor a packaging of the product."
    amount = item["amount_milli"]
    if amount < 0 or (amount == 0 and not is_count):
        return "amount", "Must be greater than 0." if not is_count else "Must not be negative."
    base, remainder = divmod(amount * factor, SCALE)
    if remainder:
        return "amount", "In base units this has more than 3 decimal places."
    if base >= LIMIT * SCALE:
        return "amount", f"In base units this must be less than {LIMIT}."
    if item.setdefault("amount_base_milli", base) != base:
        return "amount_base_unit", f"Must equal amount x {from_milli(factor)} = {from_milli(base)}."
    lot = item.get("lot", "")
    if product["lot_level"] == 1 and not lot:
        return "lot", "The product is kept by lot: a lot is required."
    if product["lot_level"] == 0 and lot:
        return "lot", "The product is not kept by lot: the lot must be empty."
    return None


def _batch_item_row(batch_number: int, position: int, item: dict) -> dict:
    # Named one by one: the parsed item may carry keys that are no columns.
    return {
        "batch_number": batch_number, "position": position,
        "product_code": item["product_code"], "unit": item["unit"],
        "amount_milli": item["amount_milli"], "amount_base_milli": item["amount_base_milli"],
        "barcode": item.get("barcode", ""), "date_exp": item.get("date_exp", ""),
        "lot": item.get("lot", ""), "name": item.get("name", ""),
        "palette": item.get("palette", 0), "status": item.get("status", 0),
        "timestamp_client": item.get("timestamp_client", ""), "wplace": item.get("wplace", ""),
        "doc_number": 0, "doc_item_number": 0,
    }


# --- batches against their order document ----------------------------------------------------

def _order_for(session, caller: Caller, settings: dict, policy: Policy) -> OrderDocument | None:
    number = settings.get("document_number", "")
    if not number:
        return None
    order = session.get(OrderDocument, number)
    if order is None or not caller.sees(order.id_warehouse):
        raise Invalid(f"No order document {number!r}.",
                      {"data": {"batch_settings": {"document_number": ["Unknown order document."]}}})
    problems = {}
    if order.id_warehouse != settings["id_warehouse"]:
        problems["id_warehouse"] = [f"The order document is for warehouse {order.id_warehouse}."]
    if settings["type"] not in order.allowed_types.split(","):
        problems["type"] = [f"The order document allows types {order.allowed_types}."]
    if settings["direction"] not in order.allowed_directions.split(","):
        problems["direction"] = [f"The order document allows directions {order.allowed_directions}."]
    if problems:
        raise Invalid("The batch does not fit its order document.", {"data": {"batch_settings": problems}})
    if order.state == CLOSED:
        raise Conflict(f"Order document {number!r} is closed.")
    _refuse_foreign_lock(order, caller, policy)
    return order


def _fill_order(order: OrderDocument, settings: dict, items: list[dict], is_count: bool) -> None:
    """Deliver each item against the order's lines; close the order when all is delivered.

    An item fills the lines naming its lot first, then the lines without a lot,
    each by item_number, up to what was ordered. A count (type V) may exceed
    the order: what is left goes to the first matching line.
    """
    lines = [line for line in order.items if line.direction == settings["direction"]]
    errors: dict[int, dict] = {}
    limit = expiration_limit_date(order)
    for index, item in enumerate(items):
        lot = item.get("lot", "")
        matching = [line for line in lines if line.product_code == item["product_code"]
                    and line.lot in ("", lot)]
        matching.sort(key=lambda line: (line.lot == "", line.item_number))
        if not matching:
            errors[index] = {"product_code": ["Not on the order document (product, lot, direction)."]}
            continue
        if order.expiration_limit > 0:
            expires = item.get("date_exp", "")
            if not expires or date.fromisoformat(expires) < limit:
                errors[index] = {"date_exp": [f"The order needs goods that keep until {limit.isoformat()}."]}
                continue
        left = item["amount_base_milli"]
        for line in matching:
            take = min(left, max(line.amount_ordered_milli - line.amount_delivered_milli, 0))
            line.amount_delivered_milli += take
            left -= take
        if left and is_count:
            matching[0].amount_delivered_milli += left
        elif left:
            errors[index] = {"amount": [f"More than ordered, by {from_milli(left)}."]}
    if errors:
        raise item_errors(errors)
    finished = all(line.amount_delivered_milli >= line.amount_ordered_milli for line in order.items)
    order.state = CLOSED if finished else BATCH_EXISTS
    order.locked_by = None
    order.locked_at = None


# --- warehouse documents and balances -------------------------------------------------------

def next_number(session, name: str) -> int:
    """The next value of a sequence, in one statement that locks its row.

    The row stays locked until the transaction ends: no two transactions get one
    number, and one that rolls back takes its number with it (no gap). Every other
    transaction that numbers waits meanwhile, in every warehouse: number last, just
    before the commit (db.writing, lock order 4). "doc_number" is always taken
    first, so only its holder ever waits for a ufid row: no deadlock.
    """
    dialect = session.get_bind().dialect.name
    upsert = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(Counter)
    upsert = upsert.values(name=name, value=1).on_conflict_do_update(
        index_elements=[Counter.name], set_={"value": Counter.value + 1})
    return session.execute(upsert.returning(Counter.value)).scalar_one()


def new_document(session, id_warehouse: int, direction: str, day: date,
                 id_customer: int = 0, batch_number: int = -1) -> int:
    """Open a warehouse document with the next doc_number and ufid of its direction and year."""
    doc_number = next_number(session, "doc_number")
    serial = next_number(session, f"ufid:{direction}:{day.year}")
    session.execute(insert(WarehouseDocument).values(
        doc_number=doc_number, id_warehouse=id_warehouse, direction=direction, date=day,
        doc_created_date=date.today(), id_customer=id_customer, batch_number=batch_number,
        ufid=f"{direction}-{day.year}-{serial:06d}",
    ))
    return doc_number


def add_document_items(session, doc_number: int, id_warehouse: int, direction: str, day: date,
                       lines: list[dict]) -> None:
    """Write a document's lines (product_code, name, lot, date_exp, amount_base_milli, ...)."""
    today = date.today()
    insert_rows(session, WarehouseDocumentItem.__table__, [{
        "doc_number": doc_number, "item_number": number, "id_warehouse": id_warehouse,
        "direction": direction, "date": day, "doc_created_date": today,
        "timestamp_from_client": "", "date_exp": "", **line,
    } for number, line in enumerate(lines, start=1)])


def _book_movement(session, settings, order, items, products, policy: Policy,
                   batch_rows: list[dict]) -> None:
    """Change the balances, then number the document and write what carries its number."""
    direction, warehouse = settings["direction"], settings["id_warehouse"]
    sign = 1 if direction == "I" else -1
    deltas: dict[tuple[str, str], int] = defaultdict(int)
    for item in items:
        deltas[(item["product_code"], item.get("lot", ""))] += sign * item["amount_base_milli"]
    change_balances(session, warehouse, deltas, policy, items)
    day = settings.get("date", date.today())
    lines = [{
        "product_code": item["product_code"], "name": products[item["product_code"]]["name"],
        "lot": item.get("lot", ""), "date_exp": item.get("date_exp", ""),
        "amount_base_milli": item["amount_base_milli"],
        "timestamp_from_client": item.get("timestamp_client", ""),
    } for item in items]
    session.flush()  # the order's changes, before the numbering is held
    doc_number = new_document(session, warehouse, direction, day,
                              id_customer=order.id_customer if order else 0,
                              batch_number=settings["batch_number"])
    add_document_items(session, doc_number, warehouse, direction, day, lines)
    for row in batch_rows:
        row["doc_number"], row["doc_item_number"] = doc_number, row["position"]
    insert_rows(session, BatchItem.__table__, batch_rows)


def balances_of(session, id_warehouse: int, keys) -> dict[tuple[str, str], int]:
    codes = {code for code, _ in keys}
    rows = session.execute(
        select(Balance.product_code, Balance.lot, Balance.amount_milli)
        .where(Balance.id_warehouse == id_warehouse, Balance.product_code.in_(codes)))
    return {(row.product_code, row.lot): row.amount_milli for row in rows}


def change_balances(session, id_warehouse: int, deltas: dict[tuple[str, str], int],
                    policy: Policy, items: list[dict] | None = None) -> None:
    """Add the signed deltas to the book stock; refuse to go below zero unless allowed.

    The check sums every line of one booking per (product, lot), so two lines
    of one batch cannot each pass against the same stock.
    """
    deltas = {key: delta for key, delta in deltas.items() if delta}
    if not deltas:
        return
    current = balances_of(session, id_warehouse, deltas)
    new = {key: current.get(key, 0) + delta for key, delta in sorted(deltas.items())}
    short = {key: amount for key, amount in new.items() if amount < 0 and deltas[key] < 0}
    if short and not policy.allow_negative_stock:
        raise _short_error(id_warehouse, short, current, items)
    _write_balances(session, id_warehouse, new)


def _short_error(id_warehouse, short, current, items) -> InsufficientStock:
    def text(key):
        return (f"Not enough stock of {key[0]!r} lot {key[1]!r} in warehouse {id_warehouse}: "
                f"{from_milli(current.get(key, 0))} in stock, short by {from_milli(-short[key])}.")

    fields = {}
    if items is not None:
        fields = {"data": {"batch_items": {
            index: {"amount": [text(key)]} for index, item in enumerate(items)
            if (key := (item["product_code"], item.get("lot", ""))) in short}}}
    first = text(next(iter(short)))
    return InsufficientStock(f"{len(short)} product/lot(s) short. {first}", fields)


def _write_balances(session, id_warehouse: int, amounts: dict[tuple[str, str], int]) -> None:
    dialect = session.get_bind().dialect.name
    upsert = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(Balance)
    upsert = upsert.on_conflict_do_update(
        index_elements=[Balance.id_warehouse, Balance.product_code, Balance.lot],
        set_={"amount_milli": upsert.excluded.amount_milli},
    )
    session.execute(upsert, [
        {"id_warehouse": id_warehouse, "product_code": code, "lot": lot, "amount_milli": amount}
        for (code, lot), amount in amounts.items()
    ])


# --- stocktaking ------------------------------------------------------------------------------

def count_stock(session, id_warehouse: int, day: date, items: list[dict], products: dict) -> None:
    """Add a count batch to the stocktaking of (warehouse, day) and book the differences.

    Counts of one (product, lot) on one day add up. The snapshot is the book
    stock without this stocktaking's own adjustments, taken anew at each count,
    so that after it the book stock of everything counted equals the count.
    """
    stocktaking = session.get(Stocktaking, (id_warehouse, day))
    if stocktaking is None:
        stocktaking = Stocktaking(id_warehouse=id_warehouse, date=day, status=1, in_doc=0, out_doc=0)
        session.add(stocktaking)
        session.flush()
    counted: dict[tuple[str, str], dict] = {}
    for item in items:
        key = (item["product_code"], item.get("lot", ""))
        entry = counted.setdefault(key, {"amount": 0, "date_exp": item.get("date_exp", "")})
        entry["amount"] += item["amount_base_milli"]

    adjustments = stocktaking_adjustments(session, stocktaking)
    existing = {(row.product_code, row.lot): row for row in session.scalars(
        select(StocktakingItem).where(StocktakingItem.id_warehouse == id_warehouse,
                                      StocktakingItem.date == day))}
    book = balances_of(session, id_warehouse, set(counted) | set(existing))
    for key, entry in sorted(counted.items()):
        row = existing.get(key)
        if row is None:
            row = StocktakingItem(id_warehouse=id_warehouse, date=day, product_code=key[0], lot=key[1],
                                  date_exp=entry["date_exp"], name=products[key[0]]["name"],
                                  amount_real_milli=0, amount_snap_milli=0)
            session.add(row)
            existing[key] = row
        row.amount_real_milli += entry["amount"]
        row.date_exp = entry["date_exp"] or row.date_exp
    # Every item of the stocktaking is snapped anew, not only those of this batch:
    # goods moved since an earlier count of the day are absorbed, and the book stock
    # of everything counted that day ends equal to the count.
    for key, row in existing.items():
        row.amount_snap_milli = book.get(key, 0) - adjustments.get(key, 0)
    session.flush()
    wanted = {key: row.amount_real_milli - row.amount_snap_milli for key, row in existing.items()}
    expiry = {key: row.date_exp for key, row in existing.items()}
    _rewrite_adjustments(session, stocktaking, adjustments, wanted, Policy(allow_negative_stock=True),
                         expiry)


def stocktaking_adjustments(session, stocktaking: Stocktaking) -> dict[tuple[str, str], int]:
    """What the stocktaking's own documents add to the book stock, per (product, lot)."""
    result: dict[tuple[str, str], int] = defaultdict(int)
    for doc_number, sign in ((stocktaking.in_doc, 1), (stocktaking.out_doc, -1)):
        if not doc_number:
            continue
        for code, lot, amount in session.execute(
                select(WarehouseDocumentItem.product_code, WarehouseDocumentItem.lot,
                       WarehouseDocumentItem.amount_base_milli)
                .where(WarehouseDocumentItem.doc_number == doc_number)):
            result[(code, lot)] += sign * amount
    return result


def _rewrite_adjustments(session, stocktaking: Stocktaking, old: dict, wanted: dict,
                         policy: Policy, expiry: dict | None = None) -> None:
    """Make the goods-in/goods-out documents of the stocktaking carry exactly `wanted`.

    `expiry` gives the date_exp of each (product, lot) for the document lines.
    """
    keys = set(old) | set(wanted)
    change_balances(session, stocktaking.id_warehouse,
                    {key: wanted.get(key, 0) - old.get(key, 0) for key in keys}, policy)
    listed = {code for (code, _), amount in wanted.items() if amount}
    names = dict(session.execute(select(Product.product_code, Product.name)
                                 .where(Product.product_code.in_(listed))).all()) if listed else {}
    expiry = expiry or {}
    unnumbered = []
    for attribute, direction, sign in (("in_doc", "I", 1), ("out_doc", "O", -1)):
        lines = [{"product_code": code, "name": names.get(code, ""), "lot": lot,
                  "date_exp": expiry.get((code, lot), ""), "amount_base_milli": sign * amount}
                 for (code, lot), amount in sorted(wanted.items()) if sign * amount > 0]
        doc_number = getattr(stocktaking, attribute)
        if doc_number:
            session.execute(delete(WarehouseDocumentItem).where(WarehouseDocumentItem.doc_number == doc_number))
            if lines:
                add_document_items(session, doc_number, stocktaking.id_warehouse, direction,
                                   stocktaking.date, lines)
            else:
                session.execute(delete(WarehouseDocument).where(WarehouseDocument.doc_number == doc_number))
                setattr(stocktaking, attribute, 0)
        elif lines:
            unnumbered.append((attribute, direction, lines))
    session.flush()
    # New documents last: numbering holds up every warehouse (next_number).
    for attribute, direction, lines in unnumbered:
        doc_number = new_document(session, stocktaking.id_warehouse, direction, stocktaking.date)
        setattr(stocktaking, attribute, doc_number)
        add_document_items(session, doc_number, stocktaking.id_warehouse, direction,
                           stocktaking.date, lines)


def delete_stocktaking(session, caller: Caller, id_warehouse: int, day: date, policy: Policy) -> None:
    """Remove a stocktaking and its adjustments: book stock returns to what it was without it."""
    caller.require_warehouse(id_warehouse)
    with writing(session, [id_warehouse]):
        stocktaking = session.get(Stocktaking, (id_warehouse, day))
        if stocktaking is None:
            raise NotFound(f"No stocktaking of warehouse {id_warehouse} on {day.isoformat()}.")
        old = stocktaking_adjustments(session, stocktaking)
        _rewrite_adjustments(session, stocktaking, old, {}, policy)
        session.execute(delete(StocktakingItem).where(StocktakingItem.id_warehouse == id_warehouse,
                                                      StocktakingItem.date == day))
        session.delete(stocktaking)
