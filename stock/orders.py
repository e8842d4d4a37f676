"""Order documents: import, read, acquire by a scanner, and filling by the batches booked against them.

Plain functions on a session; each write is one transaction (storage.db.writing).
Posting a batch (stock/posting.py) calls order_for_batch and fill_order here.
"""
import json
from datetime import date, timedelta

from sqlalchemy import func, or_, select
from sqlalchemy.exc import IntegrityError

from models import ApiKey, AuditEntry, Batch, Customer, OrderDocument, OrderItem, Product, WarehouseDocument
from stock import audit, outbox
from stock.audit import Actor
from stock.caller import Caller
from stock.errors import Conflict, Forbidden, Invalid, NotFound, item_errors, say, say_count
from stock.naming import warehouse_words
from stock.policy import Policy
from stock.quantities import from_milli, within_places
from stock.text_search import ascii_lower, folded_column
from stock.warehouses import require_warehouse
from storage.db import utc_now, writing

CLOSED, IMPORTED, PROCESSING, BATCH_EXISTS = 0, 1, 2, 3


def create_order(session, caller: Caller, fields: dict) -> None:
    """Import an order document (as schemas.order_create_schema loads it: every line has its
    direction); it starts in state 1 (imported)."""
    caller.require_warehouse(fields["id_warehouse"])
    # An order is changed only by writers of its warehouse (its batches, acquire).
    with writing(session, [fields["id_warehouse"]]):
        add_order(session, fields)


def add_order(session, fields: dict) -> None:
    """create_order's rules inside the caller's write transaction (an import of many orders);
    the caller has checked that the key may act in the order's warehouse."""
    lines = fields["items"]
    if session.get(OrderDocument, fields["document_number"]) is not None:
        raise Conflict(say("Order document %(number)r exists already.", number=fields["document_number"]))
    require_warehouse(session, fields["id_warehouse"])
    errors = _check_order_products(session, lines)
    if errors:
        raise Invalid(say("The order document has invalid items."), {"data": {"items": errors}})
    if fields["id_customer"] and session.get(Customer, fields["id_customer"]) is None:
        raise Invalid(say("No customer %(number)s.", number=fields["id_customer"]),
                      {"data": {"id_customer": [say("Unknown customer.")]}})
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
        ) for item in lines],
    ))
    try:
        session.flush()
    except IntegrityError:
        # Imported meanwhile for another warehouse (PostgreSQL): the key decided.
        raise Conflict(say("Order document %(number)r exists already.", number=fields["document_number"])) from None


def _check_order_products(session, items: list[dict]) -> dict[int, dict]:
    """Errors of the lines by index: the product exists, and a lot only where the product has lots.

    Batch items of a product not kept by lot carry no lot, so a line naming one
    could never be filled. A line without a lot for a product kept by lot is
    meant: it takes items of any lot (DESIGN 6), after the lines naming theirs.
    """
    codes = {item["product_code"] for item in items}
    products = {code: (level, places) for code, level, places in session.execute(
        select(Product.product_code, Product.lot_level, Product.decimal_places)
        .where(Product.product_code.in_(codes)))}
    errors = {}
    for index, item in enumerate(items):
        level, places = products.get(item["product_code"], (None, None))
        if level is None:
            errors[index] = {"product_code": [say("No product %(code)r.", code=item["product_code"])]}
        elif level == 0 and item["lot"]:
            errors[index] = {"lot": [say("The product is not kept by lot: the lot must be empty.")]}
        elif not within_places(item["amount_ordered_milli"], places):
            errors[index] = {"amount_ordered": [say_count(
                "The product is counted to %(count)s decimal place.", "The product is counted to %(count)s decimal places.",
                places, text="The product is counted to %(count)s decimal place(s).")]}
    return errors


def get_order(session, caller: Caller, document_number: str) -> OrderDocument:
    """The order document, or NotFound (also when it lies in a warehouse the key may not see).

    It carries its expiration_limit_date as of today, as every order read does.
    """
    order = session.get(OrderDocument, document_number)
    if order is None or not caller.sees(order.id_warehouse):
        raise NotFound(say("No order document %(number)r.", number=document_number))
    return _dated(order)


def _dated(order: OrderDocument) -> OrderDocument:
    order.expiration_limit_date = expiration_limit_date(order)
    return order


def expiration_limit_date(order: OrderDocument, today: date | None = None) -> date:
    """Goods for this order must keep at least until this day (today + expiration_limit days).

    `today` is the day as the reader sees it: the office's pages and paper give the depot's
    (pages/clock.py depot_today); None is the machine's, as a booking reads it."""
    return (today or date.today()) + timedelta(days=order.expiration_limit)


def acquire_order(session, caller: Caller, document_number: str, policy: Policy) -> OrderDocument:
    """Hold the order for this key (state 2) while its scanner works on it."""
    # An order never changes warehouse: its warehouse's lock is known before taking it.
    id_warehouse = get_order(session, caller, document_number).id_warehouse
    with writing(session, [id_warehouse]):
        order = get_order(session, caller, document_number)
        if order.state == CLOSED:
            raise Conflict(say("Order document %(number)r is closed.", number=document_number))
        refuse_foreign_lock(session, order, caller, policy)
        order.state = PROCESSING
        order.locked_by = caller.key_id
        order.locked_at = utc_now()
    return get_order(session, caller, document_number)


def refuse_foreign_lock(session, order: OrderDocument, caller: Caller, policy: Policy) -> None:
    held = order.locked_by is not None and order.locked_by != caller.key_id \
        and order.locked_at is not None and utc_now() - order.locked_at < policy.acquire_timeout
    if held:
        # Named, so that the picker knows whom to ask (the keys are the depot's own devices).
        raise Conflict(say("Order document %(number)r is being processed by another key (%(holder)r, since %(since)s UTC).",
                           number=order.document_number, holder=lock_holder(session, order),
                           since=order.locked_at.strftime("%Y-%m-%d %H:%M")))


def list_orders(session, caller: Caller, state: int | None, after: str | None = None,
                limit: int | None = None) -> list[OrderDocument]:
    """Order documents by document_number; `after` (the last number of the page before) and
    `limit` page them by keyset."""
    query = _orders(select(OrderDocument), caller, state).order_by(OrderDocument.document_number).limit(limit)
    if after is not None:
        query = query.where(OrderDocument.document_number > after)
    return [_dated(order) for order in session.scalars(query)]


def count_orders(session, caller: Caller, state: int | None) -> int:
    """How many order documents list_orders finds in all its pages."""
    return session.scalar(_orders(select(func.count()).select_from(OrderDocument), caller, state))


def _orders(query, caller: Caller, state: int | None):
    if state is not None:
        query = query.where(OrderDocument.state == state)
    if caller.warehouses is not None:
        query = query.where(OrderDocument.id_warehouse.in_(caller.warehouses))
    return query



OPEN_STATES = (IMPORTED, PROCESSING, BATCH_EXISTS)


def search_orders(session, caller: Caller, states=OPEN_STATES, id_warehouse: int | None = None,
                  id_customer: int | None = None, text: str = "", after: int | None = None,
                  limit: int | None = None) -> list[OrderDocument]:
    """Order documents for the office, newest first: the last imported comes first.

    Orders carry no import time; their lines' ids grow with every import, so the
    largest line id of an order says how recent it is (each order's is kept as
    `newest_line`, its place in this list: `after` pages on from it, by keyset).
    `text` matches the document number or description (ASCII letters in any case).
    """
    newest = _newest_lines()
    query = _searched_orders(session, select(OrderDocument, newest.c.last), newest, caller, states,
                             id_warehouse, id_customer, text).order_by(newest.c.last.desc()).limit(limit)
    if after is not None:
        query = query.where(newest.c.last < after)
    found = []
    for order, last in session.execute(query):
        order.newest_line = last
        found.append(_dated(order))
    return found


def count_searched_orders(session, caller: Caller, states=OPEN_STATES, id_warehouse: int | None = None,
                          id_customer: int | None = None, text: str = "") -> int:
    """How many orders search_orders finds in all its pages."""
    newest = _newest_lines()
    return session.scalar(_searched_orders(session, select(func.count()).select_from(OrderDocument), newest,
                                           caller, states, id_warehouse, id_customer, text))


def _newest_lines():
    return (select(OrderItem.document_number, func.max(OrderItem.document_item_id).label("last"))
            .group_by(OrderItem.document_number).subquery())


def _searched_orders(session, query, newest, caller, states, id_warehouse, id_customer, text):
    query = (query.join(newest, newest.c.document_number == OrderDocument.document_number)
             .where(OrderDocument.state.in_(list(states))))
    if caller.warehouses is not None:
        query = query.where(OrderDocument.id_warehouse.in_(caller.warehouses))
    if id_warehouse is not None:
        query = query.where(OrderDocument.id_warehouse == id_warehouse)
    if id_customer is not None:
        query = query.where(OrderDocument.id_customer == id_customer)
    if text:
        folded = ascii_lower(text)
        query = query.where(or_(*(folded_column(session, column).contains(folded, autoescape=True)
                                  for column in (OrderDocument.document_number, OrderDocument.description))))
    return query


def closing(session, document_number: str) -> dict | None:
    """Who closed the order by hand, when and why (from the audit trail), or None."""
    entry = session.scalars(select(AuditEntry).where(AuditEntry.kind == "order.close",
                                                      AuditEntry.record == document_number)
                            .order_by(AuditEntry.id.desc()).limit(1)).first()
    if entry is None:
        return None
    return {"who": entry.who, "at": entry.at, "reason": json.loads(entry.changes).get("reason", ["", ""])[1]}


def delivering_documents(session, document_number: str) -> list[dict]:
    """The warehouse documents booked from batches for this order, by doc_number."""
    rows = session.execute(
        select(WarehouseDocument.doc_number, WarehouseDocument.ufid, WarehouseDocument.date,
               WarehouseDocument.direction, WarehouseDocument.batch_number)
        .join(Batch, Batch.batch_number == WarehouseDocument.batch_number)
        .where(Batch.document_number == document_number)
        .order_by(WarehouseDocument.doc_number))
    return [dict(row._mapping) for row in rows]


# --- batches against their order document ----------------------------------------------------

def order_for_batch(session, caller: Caller, settings: dict, policy: Policy) -> OrderDocument | None:
    number = settings.get("document_number", "")
    if not number:
        return None
    order = session.get(OrderDocument, number)
    if order is None or not caller.sees(order.id_warehouse):
        raise Invalid(say("No order document %(number)r.", number=number),
                      {"data": {"batch_settings": {"document_number": [say("Unknown order document.")]}}})
    problems = {}
    if order.id_warehouse != settings["id_warehouse"]:
        problems["id_warehouse"] = [say("The order document is for %(warehouse)s.",
                                          warehouse=warehouse_words(session, order.id_warehouse))]
    if settings["type"] not in order.allowed_types.split(","):
        problems["type"] = [say("The order document allows types %(types)s.", types=order.allowed_types)]
    if settings["direction"] not in order.allowed_directions.split(","):
        problems["direction"] = [say("The order document allows directions %(directions)s.",
                                         directions=order.allowed_directions)]
    if problems:
        raise Invalid(say("The batch does not fit its order document."), {"data": {"batch_settings": problems}})
    if order.state == CLOSED:
        raise Conflict(say("Order document %(number)r is closed.", number=number))
    refuse_foreign_lock(session, order, caller, policy)
    return order


def fill_order(order: OrderDocument, settings: dict, items: list[dict], is_count: bool) -> bool:
    """Deliver each item against the order's lines; close the order when all is delivered, and
    answer whether this closed it.

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
            errors[index] = {"product_code": [say("Not on the order document (product, lot, direction).")]}
            continue
        if order.expiration_limit > 0:
            expires = item.get("date_exp", "")
            if not expires or date.fromisoformat(expires) < limit:
                errors[index] = {"date_exp": [say("The order needs goods that keep until %(day)s.",
                                                     day=limit)]}
                continue
        left = item["amount_base_milli"]
        for line in matching:
            take = min(left, max(line.amount_ordered_milli - line.amount_delivered_milli, 0))
            line.amount_delivered_milli += take
            left -= take
        if left and is_count:
            matching[0].amount_delivered_milli += left
        elif left:
            errors[index] = {"amount": [say("More than ordered, by %(amount)s.", amount=from_milli(left))]}
    if errors:
        raise item_errors(errors)
    finished = all(line.amount_delivered_milli >= line.amount_ordered_milli for line in order.items)
    order.state = CLOSED if finished else BATCH_EXISTS
    order.locked_by = None
    order.locked_at = None
    return finished


def closed_event(order: OrderDocument, closed_by: str, closed_by_kind: str, reason: str = "",
                 batch_number: int = 0) -> tuple[str, dict]:
    """The `order.closed` event of an order its caller just closed, for stock/outbox.py.

    Closed by hand it carries the office's reason and batch_number 0; closed by the batch that
    delivered its last line, that batch's number and no reason (the office gave none). Either way
    `closed_by` is the person's or key's name cut to 100 characters, as a batch keeps who posted
    it, and `closed_by_kind` says which it was ("person", "key", or "cli" for a command on the
    depot's PC), as the audit trail's who_kind does: a key and a person may share a name.
    """
    return "order.closed", {"document_number": order.document_number, "id_warehouse": order.id_warehouse,
                            "closed_by": closed_by[:100], "closed_by_kind": closed_by_kind,
                            "reason": reason, "batch_number": batch_number}



# --- the office's hand on an order ----------------------------------------------------------

def close_order(session, caller: Caller, actor: Actor, document_number: str, reason: str) -> None:
    """Close an order by hand: state 0, nothing more expected on it, whoever held it lets go."""
    id_warehouse = get_order(session, caller, document_number).id_warehouse
    with writing(session, [id_warehouse]):
        order = get_order(session, caller, document_number)
        if order.state == CLOSED:
            raise Conflict(say("Order document %(number)r is closed already.", number=document_number))
        before = order.state
        order.state = CLOSED
        order.locked_by = None
        order.locked_at = None
        audit.record(session, actor, "order.close", document_number,
                     {"state": [before, CLOSED], "reason": ["", reason]}, reach=frozenset({id_warehouse}))
        outbox.emit(session, *closed_event(order, actor.who, actor.kind, reason))


def release_order(session, caller: Caller, actor: Actor, document_number: str) -> None:
    """End the lock of whoever holds the order at once, so another scanner may take it.

    The order goes back to 1 when nothing was delivered on it yet, else to 3. An admin releases
    any lock (the office's hand on a stuck order); a scanner puts back only an order it holds
    itself (the browser scanner's "put back", DESIGN 24).
    """
    id_warehouse = get_order(session, caller, document_number).id_warehouse
    with writing(session, [id_warehouse]):
        order = get_order(session, caller, document_number)
        if order.state != PROCESSING or order.locked_by is None:
            raise Conflict(say("Order document %(number)r is not held by anyone (state %(state)s).",
                               number=document_number, state=order.state))
        if not caller.has_role("admin") and order.locked_by != caller.key_id:
            raise Forbidden(say("Order document %(number)r is held by another key; only an admin may release it.",
                                number=document_number))
        holder = lock_holder(session, order)
        delivered = any(line.amount_delivered_milli for line in order.items)
        order.state = BATCH_EXISTS if delivered else IMPORTED
        order.locked_by = None
        order.locked_at = None
        audit.record(session, actor, "order.release", document_number,
                     {"state": [PROCESSING, order.state], "locked_by": [holder, ""]}, reach=frozenset({id_warehouse}))


def lock_holder(session, order: OrderDocument) -> str:
    """The name of the key holding the order, or "" when none does."""
    if order.locked_by is None:
        return ""
    return session.scalar(select(ApiKey.name).where(ApiKey.id == order.locked_by)) or ""
