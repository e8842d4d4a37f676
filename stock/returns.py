"""Customer returns (DESIGN 28): goods sent back against a delivered order.

Booked as a goods-in document of the order's warehouse, for the order's customer; the row of
`returns` names the document, the order, why, and the location the goods went to: the one named,
else the warehouse's first hold location (returns wait there to be looked at), else unplaced.
Never more of a (product, lot) than the order's goods-out documents delivered, less what came back already. The order's lines keep their
delivered amounts: a return is not an undelivery, and the order's state is left as it is.
Retry-safe by the client's `return_id`, as write-offs are by theirs.
"""
from collections import defaultdict
from datetime import date

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from models import Batch, CustomerReturn, OrderDocument, WarehouseDocument, WarehouseDocumentItem
from stock import outbox
from stock.audit import Actor, record
from stock.balances import NUMBERED, add_document_items, change_balances, new_document
from stock.caller import Caller
from stock.errors import Invalid, invalid_field, say, say_count
from stock.lot_bookings import check_lines, digest, document_lines, is_retry, return_location, summed
from stock.naming import lot_words, product_names
from stock.policy import Policy
from stock.quantities import from_milli
from storage.db import before_commit, notes_of, utc_now, writing


def book_return(session, caller: Caller, actor: Actor, fields: dict, policy: Policy) -> bool:
    """Book a return (as schemas.return_schema loads it); False when it was a retry that booked
    nothing. An order the caller does not see is unknown (422), as a batch's order is."""
    order = _order(session, caller, fields["document_number"])
    fingerprint = digest({key: fields.get(key) for key in ("document_number", "reason", "items", "location")})
    what = say("Return %(id)r exists already with other content.", id=fields["return_id"])
    try:
        with writing(session, [order.id_warehouse]):
            if is_retry(_stored(session, fields["return_id"]), fingerprint, what):
                return False
            _book(session, caller, actor, _order(session, caller, fields["document_number"]), fields,
                  fingerprint, policy)
    except IntegrityError:
        stored = _stored(session, fields["return_id"])
        if stored is None:
            raise
        return not is_retry(stored, fingerprint, what)
    return True


def _order(session, caller: Caller, number: str) -> OrderDocument:
    order = session.get(OrderDocument, number)
    if order is None or not caller.sees(order.id_warehouse):
        raise invalid_field(("data", "document_number"), say("No order document %(number)r.", number=number))
    return order


def _stored(session, return_id: str) -> str | None:
    return session.scalar(select(CustomerReturn.content_digest).where(CustomerReturn.return_id == return_id))


def _book(session, caller: Caller, actor: Actor, order: OrderDocument, fields: dict, fingerprint: str,
          policy: Policy) -> None:
    items, warehouse = fields["items"], order.id_warehouse
    location = return_location(session, warehouse, fields.get("location", ""), ("data", "location"))
    products = check_lines(session, items)
    wanted = summed(items)
    _refuse_beyond_delivered(session, order.document_number, wanted, items)
    change_balances(session, warehouse, wanted, policy, gains_to=location)
    today = date.today()
    document_id = new_document(session, warehouse, "I", today, today, id_customer=order.id_customer)
    add_document_items(session, document_id, warehouse, "I", today, today, document_lines(session, items, products))
    session.add(CustomerReturn(return_id=fields["return_id"], document_number=order.document_number,
                               id_warehouse=warehouse, reason=fields["reason"], location=location, date=today,
                               document_id=document_id, content_digest=fingerprint,
                               posted_by=caller.name[:100], posted_from=actor.address[:100], created_at=utc_now()))
    session.flush()
    record(session, actor, "return.book", fields["return_id"],
           {"document_number": [None, order.document_number], "reason": [None, fields["reason"]],
            "location": [None, location],
            "items": [None, [[code, lot, from_milli(amount)] for (code, lot), amount in wanted.items()]]},
           reach=frozenset({warehouse}))

    def note(session):
        outbox.emit(session, "return.booked", {
            "return_id": fields["return_id"], "document_number": order.document_number, "id_warehouse": warehouse,
            "id_customer": order.id_customer, "reason": fields["reason"], "location": location, "date": today.isoformat(),
            "doc_number": notes_of(session).get(NUMBERED, {}).get(document_id),
            "booked_by": caller.name[:100], "booked_by_kind": caller.kind,
            "items": [{"product_code": code, "lot": lot, "amount": from_milli(amount)}
                      for (code, lot), amount in wanted.items()]})
    before_commit(session, note)


def _refuse_beyond_delivered(session, document_number: str, wanted: dict, items: list[dict]) -> None:
    left = returnable(session, document_number)
    over = {key: amount for key, amount in wanted.items() if amount > left.get(key, (0, 0, 0))[2]}
    if not over:
        return
    names = product_names(session, {code for code, _ in over})

    def text(key):
        delivered, returned, free = left.get(key, (0, 0, 0))
        if not delivered:
            return say("Order %(number)s delivered nothing of %(product)s, %(lot)s.", number=document_number,
                       product=names[key[0]], lot=lot_words(key[1]))
        return say("More than order %(number)s delivered of %(product)s, %(lot)s, less what came back: "
                   "%(delivered)s delivered, %(returned)s returned already, at most %(free)s.",
                   number=document_number, product=names[key[0]], lot=lot_words(key[1]),
                   delivered=from_milli(delivered), returned=from_milli(returned), free=from_milli(free))

    errors = {str(index): {"amount": [text(key)]} for index, item in enumerate(items)
              if (key := (item["product_code"], item["lot"])) in over}
    raise Invalid(say_count("%(count)s product/lot beyond what was delivered. %(first)s",
                            "%(count)s products/lots beyond what was delivered. %(first)s", len(over),
                            text="%(count)s product/lot(s) beyond what was delivered. %(first)s",
                            first=text(next(iter(over)))),
                  {"data": {"items": errors}})


def returnable(session, document_number: str) -> dict[tuple[str, str], tuple[int, int, int]]:
    """{(product, lot): (delivered, returned, what may still come back)} of an order: delivered by
    the goods-out documents of its batches, returned by its returns."""
    delivered = dict(((code, lot), amount) for code, lot, amount in session.execute(
        select(WarehouseDocumentItem.product_code, WarehouseDocumentItem.lot,
               func.sum(WarehouseDocumentItem.amount_base_milli))
        .join(WarehouseDocument, WarehouseDocument.id == WarehouseDocumentItem.document_id)
        .join(Batch, Batch.batch_number == WarehouseDocument.batch_number)
        .where(Batch.document_number == document_number, Batch.type == "R", WarehouseDocument.direction == "O")
        .group_by(WarehouseDocumentItem.product_code, WarehouseDocumentItem.lot)))
    returned = dict(((code, lot), amount) for code, lot, amount in session.execute(
        select(WarehouseDocumentItem.product_code, WarehouseDocumentItem.lot,
               func.sum(WarehouseDocumentItem.amount_base_milli))
        .join(CustomerReturn, CustomerReturn.document_id == WarehouseDocumentItem.document_id)
        .where(CustomerReturn.document_number == document_number)
        .group_by(WarehouseDocumentItem.product_code, WarehouseDocumentItem.lot)))
    return {key: (delivered.get(key, 0), returned.get(key, 0), delivered.get(key, 0) - returned.get(key, 0))
            for key in {*delivered, *returned}}


def returns_of_order(session, document_number: str) -> list[dict]:
    """The order's returns, oldest first, each with its reason and lines (the order's page)."""
    found = session.execute(select(CustomerReturn, WarehouseDocument.doc_number)
                            .join(WarehouseDocument, WarehouseDocument.id == CustomerReturn.document_id)
                            .where(CustomerReturn.document_number == document_number)
                            .order_by(CustomerReturn.date, CustomerReturn.id)).all()
    lines = defaultdict(list)
    if found:
        for line in session.execute(
                select(WarehouseDocumentItem.document_id, WarehouseDocumentItem.product_code,
                       WarehouseDocumentItem.name, WarehouseDocumentItem.lot, WarehouseDocumentItem.amount_base_milli)
                .where(WarehouseDocumentItem.document_id.in_([r.CustomerReturn.document_id for r in found]))
                .order_by(WarehouseDocumentItem.document_id, WarehouseDocumentItem.item_number)):
            lines[line.document_id].append({"product_code": line.product_code, "name": line.name, "lot": line.lot,
                                            "amount_milli": line.amount_base_milli})
    return [{"return_id": r.return_id, "date": r.date, "reason": r.reason, "doc_number": doc_number,
             "booked_by": r.posted_by, "location": r.location, "items": lines[r.document_id]}
            for r, doc_number in found]
