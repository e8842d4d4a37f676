"""Write-offs (DESIGN 28): stock that leaves for a reason (expired, damaged, lost, a sample...),
not to a customer.

Booked as a goods-out document like any other, so the book stock, the movements and every figure
of the seed's operations read it unchanged; the row of `write_offs` names that document and says
why. Retry-safe by the client's `write_off_id`, as batches are by their number: the same id with
the same content books nothing more, with other content is a conflict.
"""
from collections import defaultdict
from datetime import date

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from models import Balance, LocationBalance, WarehouseDocument, WarehouseDocumentItem, WriteOff
from stock import outbox
from stock.audit import Actor, record
from stock.balances import NUMBERED, add_document_items, balances_of, change_balances, new_document
from stock.caller import Caller
from stock.errors import InsufficientStock, say, say_count
from stock.lot_bookings import (check_lines, digest, document_lines, is_retry, item_locations, refuse_short_at,
                                summed)
from stock.naming import lot_words, product_names, warehouse_words
from stock.policy import Policy
from stock.quantities import from_milli
from stock.warehouses import require_warehouse
from storage.db import before_commit, notes_of, utc_now, writing

REASONS = ("expired", "damaged", "lost", "sample", "other")


def stock_to_write_off(session, id_warehouse: int, product_code: str, lot: str, location: str | None) -> int:
    """Thousandths of the lot there are to write off: at `location` ("" its unplaced stock, which a
    write-off without a location takes first), or in the whole warehouse (None)."""
    if location is None:
        return session.scalar(select(Balance.amount_milli).where(
            Balance.id_warehouse == id_warehouse, Balance.product_code == product_code, Balance.lot == lot)) or 0
    return session.scalar(select(LocationBalance.amount_milli).where(
        LocationBalance.id_warehouse == id_warehouse, LocationBalance.location == location,
        LocationBalance.product_code == product_code, LocationBalance.lot == lot)) or 0


def write_off(session, caller: Caller, actor: Actor, fields: dict, policy: Policy) -> bool:
    """Book a write-off (as schemas.write_off_schema loads it); False when it was a retry that
    booked nothing. The caller must reach the warehouse (403); the stock must be there, and at the
    line's location where it names one (409 naming the line, as for a goods-out batch, unless the
    depot allows negative stock)."""
    caller.require_warehouse(fields["id_warehouse"])
    fingerprint = digest({key: fields.get(key) for key in ("id_warehouse", "reason", "note", "items")})
    what = say("Write-off %(id)r exists already with other content.", id=fields["write_off_id"])
    try:
        with writing(session, [fields["id_warehouse"]]):
            if is_retry(_stored(session, fields["write_off_id"]), fingerprint, what):
                return False
            _book(session, caller, actor, fields, fingerprint, policy)
    except IntegrityError:
        stored = _stored(session, fields["write_off_id"])
        if stored is None:  # not a copy of this write-off: another constraint
            raise
        return not is_retry(stored, fingerprint, what)
    return True


def _stored(session, write_off_id: str) -> str | None:
    return session.scalar(select(WriteOff.content_digest).where(WriteOff.write_off_id == write_off_id))


def _book(session, caller: Caller, actor: Actor, fields: dict, fingerprint: str, policy: Policy) -> None:
    warehouse, items = fields["id_warehouse"], fields["items"]
    require_warehouse(session, warehouse)
    products = check_lines(session, items)
    places = item_locations(session, warehouse, items)
    wanted = summed(items)
    refuse_short(session, warehouse, wanted, items, policy)
    if not policy.allow_negative_stock:
        refuse_short_at(session, warehouse, items, places)
    # A line naming its location takes from there; the rest as a goods-out without a location
    # takes (unplaced first, the locations in walking order, hold locations last).
    taken: dict[tuple[str, str, str], int] = defaultdict(int)
    for item, location in zip(items, places):
        if location is not None:
            taken[(item["product_code"], item["lot"], location)] -= item["amount_milli"]
    change_balances(session, warehouse, {key: -amount for key, amount in wanted.items()}, policy, placed=taken)
    today = date.today()
    document_id = new_document(session, warehouse, "O", today, today)
    add_document_items(session, document_id, warehouse, "O", today, today, document_lines(session, items, products))
    session.add(WriteOff(write_off_id=fields["write_off_id"], id_warehouse=warehouse, reason=fields["reason"],
                         note=fields.get("note", ""), date=today, document_id=document_id,
                         content_digest=fingerprint, posted_by=caller.name[:100],
                         posted_from=actor.address[:100], created_at=utc_now()))
    session.flush()
    record(session, actor, "write_off.book", fields["write_off_id"],
           {"id_warehouse": [None, warehouse], "reason": [None, fields["reason"]],
            "items": [None, [[code, lot, from_milli(amount)] for (code, lot), amount in wanted.items()]]},
           reach=frozenset({warehouse}))

    def note(session):
        outbox.emit(session, "write_off.booked", {
            "write_off_id": fields["write_off_id"], "id_warehouse": warehouse, "reason": fields["reason"],
            "note": fields.get("note", ""), "date": today.isoformat(),
            "doc_number": notes_of(session).get(NUMBERED, {}).get(document_id),
            "booked_by": caller.name[:100], "booked_by_kind": caller.kind,
            "items": [{"product_code": code, "lot": lot, "amount": from_milli(amount)}
                      for (code, lot), amount in wanted.items()]})
    before_commit(session, note)


def refuse_short(session, warehouse: int, wanted: dict, items: list[dict], policy: Policy,
                 path: str = "items") -> None:
    """409 naming each line of a (product, lot) the warehouse holds less of than `wanted`."""
    if policy.allow_negative_stock:
        return
    current = balances_of(session, warehouse, wanted)
    short = {key: amount - current.get(key, 0) for key, amount in wanted.items() if current.get(key, 0) < amount}
    if not short:
        return
    names = product_names(session, {code for code, _ in short})
    where = warehouse_words(session, warehouse)

    def text(key):
        return say("Not enough stock of %(product)s, %(lot)s, in %(warehouse)s: %(amount)s in stock, short by "
                   "%(short)s.", product=names[key[0]], lot=lot_words(key[1]), warehouse=where,
                   amount=from_milli(current.get(key, 0)), short=from_milli(short[key]))

    fields = {"data": {path: {str(index): {"amount": [text(key)]} for index, item in enumerate(items)
                              if (key := (item["product_code"], item["lot"])) in short}}}
    raise InsufficientStock(say_count("%(count)s product/lot short. %(first)s", "%(count)s products/lots short. %(first)s",
                                      len(short), text="%(count)s product/lot(s) short. %(first)s",
                                      first=text(next(iter(short)))), fields)


def _within(query, caller: Caller, id_warehouse: int | None, since: date | None, until: date | None):
    """The list's and the totals' one filter: the caller's warehouses (or the one asked), the days."""
    warehouses = caller.narrow([] if id_warehouse is None else [id_warehouse])
    if warehouses is not None:
        query = query.where(WriteOff.id_warehouse.in_(warehouses))
    if since is not None:
        query = query.where(WriteOff.date >= since)
    if until is not None:
        query = query.where(WriteOff.date <= until)
    return query


def list_write_offs(session, caller: Caller, id_warehouse: int | None = None, since: date | None = None,
                    until: date | None = None, reason: str | None = None) -> list[dict]:
    """The write-offs in the caller's warehouses, oldest first, each with its lines."""
    query = (select(WriteOff, WarehouseDocument.doc_number)
             .join(WarehouseDocument, WarehouseDocument.id == WriteOff.document_id)
             .order_by(WriteOff.date, WriteOff.id))
    query = _within(query, caller, id_warehouse, since, until)
    if reason:
        query = query.where(WriteOff.reason == reason)
    found = session.execute(query).all()
    lines = defaultdict(list)
    ids = [row.WriteOff.document_id for row in found]
    for start in range(0, len(ids), 500):
        for line in session.execute(
                select(WarehouseDocumentItem.document_id, WarehouseDocumentItem.product_code,
                       WarehouseDocumentItem.name, WarehouseDocumentItem.lot, WarehouseDocumentItem.date_exp,
                       WarehouseDocumentItem.amount_base_milli)
                .where(WarehouseDocumentItem.document_id.in_(ids[start:start + 500]))
                .order_by(WarehouseDocumentItem.document_id, WarehouseDocumentItem.item_number)):
            lines[line.document_id].append({"product_code": line.product_code, "name": line.name, "lot": line.lot,
                                            "date_exp": line.date_exp, "amount_milli": line.amount_base_milli})
    return [{"write_off_id": w.write_off_id, "id_warehouse": w.id_warehouse, "reason": w.reason, "note": w.note,
             "date": w.date, "doc_number": doc_number, "booked_by": w.posted_by, "items": lines[w.document_id]}
            for w, doc_number in found]


def totals(session, caller: Caller, id_warehouse: int | None = None, since: date | None = None,
           until: date | None = None) -> list[dict]:
    """What was written off per month, reason and product (amounts in base units), newest month first."""
    query = (select(WriteOff.date, WriteOff.reason, WarehouseDocumentItem.product_code,
                    WarehouseDocumentItem.name, WarehouseDocumentItem.amount_base_milli, WriteOff.id)
             .join(WarehouseDocumentItem, WarehouseDocumentItem.document_id == WriteOff.document_id))
    query = _within(query, caller, id_warehouse, since, until)
    sums: dict[tuple, dict] = {}
    for day, reason, code, name, amount, write_off in session.execute(query):
        key = (day.strftime("%Y-%m"), reason, code)
        row = sums.setdefault(key, {"month": key[0], "reason": reason, "product_code": code, "name": name,
                                    "amount_milli": 0, "write_offs": set()})
        row["amount_milli"] += amount
        row["write_offs"].add(write_off)
    rows = sorted(sums.values(), key=lambda row: (row["month"], REASONS.index(row["reason"]), row["product_code"]))
    rows.sort(key=lambda row: row["month"], reverse=True)
    return [{**row, "write_offs": len(row["write_offs"])} for row in rows]
