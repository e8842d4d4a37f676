"""A lot's story (DESIGN 28): where a (product, lot) came from, where it went, and what is left.

A read over the bookings that exist, never a second record beside them: every line of the lot on
a warehouse document, one event a document, told apart by what names the document: a write-off
(stock/write_offs.py) or a return (stock/returns.py) by its row, a count by its stocktaking, a
goods-in or a delivery by its batch and the order the batch named. A move (DESIGN 27) is told
from its own row instead, so that one within a warehouse (no document) is told too, and the two
documents of one between warehouses are one event. `in_stock` is per warehouse and location.
So the story always adds up:
received + returned + counted + moved (its `change`) = delivered + written off + in stock (`adds_up`).
"""
from sqlalchemy import and_, func, or_, select

from models import (Batch, BestBefore, Customer, CustomerReturn, Location, LocationBalance, Move, MoveItem, Product,
                    Stocktaking, WarehouseDocument, WarehouseDocumentItem, WriteOff)
from stock.caller import Caller
from stock.errors import NotFound, say
from stock.locations import WALKING_ORDER
from stock.naming import lot_words

KINDS = ("received", "delivered", "moved", "counted", "written_off", "returned")


def trace(session, caller: Caller, product_code: str, lot: str) -> dict:
    """The lot's story in the warehouses the caller sees; NotFound for a lot never booked there."""
    warehouses = caller.narrow([])
    item, doc = WarehouseDocumentItem, WarehouseDocument
    lines = (select(item.document_id, func.sum(item.amount_base_milli).label("amount"),
                    func.max(item.date_exp).label("date_exp"))
             .where(item.product_code == product_code, item.lot == lot))
    if warehouses is not None:
        lines = lines.where(item.id_warehouse.in_(warehouses))
    lines = lines.group_by(item.document_id).subquery()
    rows = session.connection().execute(
        select(doc.id, doc.doc_number, doc.ufid, doc.id_warehouse, doc.direction, doc.date, doc.id_customer,
               doc.batch_number, lines.c.amount, lines.c.date_exp, Batch.document_number,
               WriteOff.write_off_id, WriteOff.reason, CustomerReturn.return_id,
               CustomerReturn.reason, CustomerReturn.document_number, Customer.name, Customer.city)
        .join(doc, doc.id == lines.c.document_id)
        .outerjoin(Batch, (Batch.batch_number == doc.batch_number) & (doc.batch_number >= 0))
        .outerjoin(WriteOff, WriteOff.document_id == doc.id)
        .outerjoin(CustomerReturn, CustomerReturn.document_id == doc.id)
        .outerjoin(Customer, (Customer.id_customer == doc.id_customer) & (doc.id_customer != 0))
        .order_by(doc.date, doc.doc_number)).all()
    if not rows:
        name = session.scalar(select(Product.name).where(Product.product_code == product_code)) or product_code
        raise NotFound(say("%(product)s, %(lot)s, was never booked.", product=name, lot=lot_words(lot)))
    story = {kind: [] for kind in KINDS}
    numbers = {row[0]: row[1] for row in rows}
    story["moved"], moving = _moves(session, warehouses, product_code, lot, numbers)
    # Read as plain tuples: a lot delivered to thousands of customers is thousands of rows.
    counts = _count_documents(session, [row[0] for row in rows if row[7] < 0 and row[11] is None and row[13] is None
                                        and row[0] not in moving])
    received, delivered = story["received"], story["delivered"]
    for (document_id, doc_number, ufid, warehouse, direction, day, id_customer, batch_number, amount, date_exp,
         order, write_off_id, write_off_reason, return_id, return_reason, returned_on, name, city) in rows:
        amount = int(amount)
        if document_id in moving:
            continue  # told by its move
        if write_off_id is not None:
            story["written_off"].append({"date": day, "id_warehouse": warehouse, "amount_milli": amount,
                                         "doc_number": doc_number, "ufid": ufid, "write_off_id": write_off_id,
                                         "reason": write_off_reason})
        elif return_id is not None:
            story["returned"].append({"date": day, "id_warehouse": warehouse, "amount_milli": amount,
                                      "doc_number": doc_number, "ufid": ufid, "return_id": return_id,
                                      "reason": return_reason, "document_number": returned_on,
                                      "customer": {"id_customer": id_customer, "name": name or "", "city": city or ""}})
        elif document_id in counts:
            story["counted"].append({"date": day, "id_warehouse": warehouse,
                                     "amount_milli": amount if direction == "I" else -amount,
                                     "doc_number": doc_number, "ufid": ufid})
        elif direction == "I":
            received.append({"date": day, "id_warehouse": warehouse, "amount_milli": amount, "doc_number": doc_number,
                             "ufid": ufid, "document_number": order or "", "batch_number": batch_number,
                             "date_exp": date_exp or ""})
        else:
            delivered.append({"date": day, "id_warehouse": warehouse, "amount_milli": amount, "doc_number": doc_number,
                              "ufid": ufid, "document_number": order or "", "batch_number": batch_number,
                              "customer": {"id_customer": id_customer, "name": name or "", "city": city or ""}})
    lb = LocationBalance
    stock = (select(lb.id_warehouse, lb.location, lb.amount_milli)
             .outerjoin(Location, and_(Location.id_warehouse == lb.id_warehouse, Location.code == lb.location))
             .where(lb.product_code == product_code, lb.lot == lot, lb.amount_milli != 0))
    if warehouses is not None:
        stock = stock.where(lb.id_warehouse.in_(warehouses))
    # Per warehouse: unplaced first (no location row), then the walking order.
    stock = stock.order_by(lb.id_warehouse, Location.code.is_not(None), *WALKING_ORDER, lb.location)
    story["in_stock"] = [{"id_warehouse": w, "location": location, "amount_milli": amount}
                         for w, location, amount in session.execute(stock)]
    date_exp = session.scalar(select(BestBefore.date_exp).where(BestBefore.product_code == product_code,
                                                                 BestBefore.lot == lot))
    return {"product_code": product_code, "lot": lot, "date_exp": date_exp or "", **story}


def product_and_lot(session, address: str) -> tuple[str, str]:
    """The (product, lot) that `address`, "<product>/<lot>" as a lot's page is named, means when
    either code may hold "/" ("A/B/C": product A/B's lot C, or product A's lot B/C). Of the ways to
    cut it at a "/": the one whose lot was booked (a line of a warehouse document, as `trace` asks);
    else one whose product exists; else the longest product. Where two qualify, the longer product
    wins (truly ambiguous: both lots exist). An address with one "/" has one cut and reads nothing."""
    cuts = [(address[:at], address[at + 1:]) for at in range(len(address) - 2, 0, -1) if address[at] == "/"]
    if len(cuts) < 2:
        return cuts[0] if cuts else (address, "")
    item = WarehouseDocumentItem
    booked = {(code, lot) for code, lot in session.execute(select(item.product_code, item.lot).distinct().where(
        or_(*(and_(item.product_code == code, item.lot == lot) for code, lot in cuts))))}
    known = set(session.scalars(select(Product.product_code).where(Product.product_code.in_([c for c, _ in cuts]))))
    for found in ([cut for cut in cuts if cut in booked], [cut for cut in cuts if cut[0] in known]):
        if found:
            return found[0]
    return cuts[0]


def _moves(session, warehouses, product_code: str, lot: str, numbers: dict[int, int]) -> tuple[list[dict], set]:
    """The moves of the lot that touch the caller's warehouses, oldest first, and the documents of
    those between warehouses. An event's `amount` is what moved; its `change` what it changed in
    the stock the caller sees: + into a warehouse seen from one not, - the other way, 0 else."""
    # The lot's lines of moves (move_items, written with each move), through their (product, lot)
    # index: never the lines of every move the depot made. A move may name the lot on two lines.
    lines = (select(MoveItem.move_id, func.sum(MoveItem.amount_milli).label("amount"))
             .where(MoveItem.product_code == product_code, MoveItem.lot == lot)
             .group_by(MoveItem.move_id).subquery())
    query = (select(Move.move_id, Move.created_at, Move.from_warehouse, Move.from_location, Move.to_warehouse,
                    Move.to_location, Move.out_document_id, Move.in_document_id, Move.note, Move.posted_by,
                    lines.c.amount)
             .join(lines, lines.c.move_id == Move.move_id)
             .order_by(Move.created_at, Move.move_id))
    if warehouses is not None:
        query = query.where(Move.from_warehouse.in_(warehouses) | Move.to_warehouse.in_(warehouses))
    events, documents = [], set()
    for row in session.connection().execute(query):
        amount = int(row.amount)
        if not amount:
            continue
        into = warehouses is None or row.to_warehouse in warehouses
        out_of = warehouses is None or row.from_warehouse in warehouses
        documents.update((row.out_document_id, row.in_document_id))
        events.append({"date": row.created_at.date(), "move_id": row.move_id,
                       "from": {"id_warehouse": row.from_warehouse, "location": row.from_location},
                       "to": {"id_warehouse": row.to_warehouse, "location": row.to_location},
                       "amount_milli": amount, "change_milli": (amount if into else 0) - (amount if out_of else 0),
                       "out_doc": (numbers.get(row.out_document_id) or 0) if out_of else 0,
                       "in_doc": (numbers.get(row.in_document_id) or 0) if into else 0,
                       "note": row.note, "posted_by": row.posted_by})
    documents.discard(0)
    return events, documents


def _count_documents(session, document_ids: list[int]) -> set[int]:
    """Which of these documents are a stocktaking's adjustments (the table holds a row a count day)."""
    if not document_ids:
        return set()
    wanted = set(document_ids)
    found = set()
    for in_id, out_id in session.execute(select(Stocktaking.in_document_id, Stocktaking.out_document_id)):
        found.update(number for number in (in_id, out_id) if number in wanted)
    return found


def totals(story: dict) -> dict[str, int]:
    """The story's sums in thousandths: each kind of event, and what is in stock."""
    sums = {kind: sum(event["amount_milli"] for event in story[kind]) for kind in KINDS}
    sums["moved"] = sum(event["change_milli"] for event in story["moved"])
    sums["in_stock"] = sum(row["amount_milli"] for row in story["in_stock"])
    return sums


def adds_up(story: dict) -> bool:
    """received + returned + counted + moved (in, less out, of the warehouses seen) = delivered +
    written off + in stock."""
    sums = totals(story)
    return (sums["received"] + sums["returned"] + sums["counted"] + sums["moved"]
            == sums["delivered"] + sums["written_off"] + sums["in_stock"])


def recall_list(session, story: dict) -> list[dict]:
    """Who got the lot (the recall's list): a row a customer with the address, what was delivered
    and what came back, the orders and the days; deliveries to no customer under id 0."""
    rows: dict[int, dict] = {}
    for kind, sign in (("delivered", 1), ("returned", -1)):
        for event in story[kind]:
            number = event["customer"]["id_customer"]
            row = rows.setdefault(number, {"id_customer": number, "delivered_milli": 0, "returned_milli": 0,
                                           "orders": [], "first": event["date"], "last": event["date"]})
            row["delivered_milli" if sign > 0 else "returned_milli"] += event["amount_milli"]
            if event["document_number"] and event["document_number"] not in row["orders"]:
                row["orders"].append(event["document_number"])
            row["first"], row["last"] = min(row["first"], event["date"]), max(row["last"], event["date"])
    addresses = {}
    numbers = [number for number in rows if number]
    for start in range(0, len(numbers), 500):
        for number, name, street, zip_code, city, country in session.execute(
                select(Customer.id_customer, Customer.name, Customer.street, Customer.zip, Customer.city,
                       Customer.country).where(Customer.id_customer.in_(numbers[start:start + 500]))):
            addresses[number] = {"name": name, "street": street, "zip": zip_code, "city": city, "country": country,
                                 "address": ", ".join(part for part in (street, f"{zip_code} {city}".strip(), country)
                                                      if part)}
    blank = {"name": "", "street": "", "zip": "", "city": "", "country": "", "address": ""}
    return [{**row, **(addresses.get(number) or blank), "kept_milli": row["delivered_milli"] - row["returned_milli"]}
            for number, row in sorted(rows.items())]
