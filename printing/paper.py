"""The printed pages of the day's work: what a delivery note, a count sheet and a pick list show.

Each function gathers a plain dict from the read functions of stock/; the office pages render it
as HTML for the browser to print (pages/templates/delivery_note.html, count_sheet.html,
pick_list.html). Each carries the depot's profile (stock/depot.py), printed as the sender of a
delivery note and at the head of every sheet, and its warehouse by name (DESIGN 17).
"""
from datetime import date

from sqlalchemy import select, tuple_

from stock.caller import Caller
from models import Batch, BestBefore, Customer, Warehouse
from stock import depot, locations, pick_plan, picking, placed_stock, reports, records
from stock.errors import NotFound


def delivery_note(session, caller: Caller, doc_number: int) -> dict:
    """A goods-out document with its order's number, its sender (the depot and the warehouse), its
    customer and its lines (lot, best-before, amount in base units).

    A line's best-before is the one booked with it or, where the scanner sent none, the lot's
    own (the earliest booked on a goods-in: stock/balances.py keeps it). A document the key may
    not see is NotFound, as is a goods-in one (nothing is delivered).
    """
    document = records.get_document(session, caller, doc_number)
    if document["direction"] != "O":
        raise NotFound(f"Document {document['ufid']} is goods-in: a delivery note is for goods-out documents.")
    if document["batch_number"] < 0:  # a count's adjustment (stock/stocktaking.py) left for nobody
        raise NotFound(f"Document {document['ufid']} is a stocktaking's adjustment: nothing was delivered.")
    customer = session.get(Customer, document["id_customer"]) if document["id_customer"] else None
    order_number = session.scalar(select(Batch.document_number).where(Batch.batch_number == document["batch_number"]))
    return {"document": document, "customer": customer, "order_number": order_number or "",
            "lines": with_best_before(session, document["wh_doc_items"]),
            "warehouse": warehouse(session, document["id_warehouse"]), "sender": depot.profile(session)}


def count_sheet(session, caller: Caller, id_warehouse: int) -> dict:
    """Every product and lot in book stock of a warehouse, by product code then lot, for counting.

    A warehouse the key may not see is NotFound, as if it did not exist. The book amounts come
    along; the page decides whether to print them (a blind count does not).
    """
    if not caller.sees(id_warehouse):
        raise NotFound(f"No warehouse {id_warehouse}.")
    rows = reports.inventory(session, caller, {"level": -1, "id_warehouses": [id_warehouse]})
    # In a warehouse with locations the counter walks the racks: the sheet goes location by
    # location in walking order, each active location listed even when the book says it is empty.
    by_location = placed_stock.count_sheet_rows(session, id_warehouse) if placed_stock.racked(
        session, [id_warehouse]) else None
    return {"id_warehouse": id_warehouse, "rows": rows, "by_location": by_location,
            "warehouse": warehouse(session, id_warehouse), "sender": depot.profile(session)}


def pick_list(session, caller: Caller, document_number: str, today: date | None = None) -> dict:
    """The order's pick list (stock/picking.py) with its warehouse and the depot, for the paper;
    `today` is the depot's day, from which the order's expiration limit counts."""
    found = picking.pick_list(session, caller, document_number, today)
    id_warehouse = found["order"].id_warehouse
    walk = walking_order(session, caller, id_warehouse, found) if placed_stock.racked(session, [id_warehouse]) else None
    return {**found, "walk": walk, "warehouse": warehouse(session, id_warehouse), "sender": depot.profile(session)}


def walking_order(session, caller: Caller, id_warehouse: int, found: dict) -> list[dict]:
    """The pick list of an order in a warehouse with locations, as GET /v1/documents/<n>/pick plans
    it (stock/pick_plan.py: the first-expiring lot, then walking order, hold locations never):
    a stop per location in walking order, each with what to take there; each line of the order
    gets its own `short_milli` from that plan, which never counts what lies on hold."""
    lines = found["lines"]
    lots, places = pick_plan.pickable(session, id_warehouse, {line["product_code"] for line in lines})
    rows = pick_plan.plan_places(picking.plan_picks(lines, lots, found["limit"]), places)
    taken: dict[int, int] = {}
    for row in rows:
        taken[row["item_number"]] = taken.get(row["item_number"], 0) + row["amount_milli"]
    for line in lines:
        line["short_milli"] = line["open_milli"] - taken.get(line["item_number"], 0)
    names = {line["product_code"]: line["name"] for line in lines}
    where = {found_location["code"]: found_location["name"]
             for found_location in locations.list_locations(session, caller, id_warehouse)}
    stops: list[dict] = []
    for row in pick_plan.in_walking_order(rows):
        if not stops or stops[-1]["location"] != row["location"]:
            stops.append({"location": row["location"], "name": where.get(row["location"], ""), "rows": []})
        stops[-1]["rows"].append({**row, "name": names.get(row["product_code"], "")})
    return stops


def warehouse(session, id_warehouse: int) -> dict:
    """{id_warehouse, name, address} of a warehouse; its number as the name if it is not listed."""
    found = session.get(Warehouse, id_warehouse)
    if found is None:
        return {"id_warehouse": id_warehouse, "name": f"Warehouse {id_warehouse}", "address": ""}
    return {"id_warehouse": id_warehouse, "name": found.name, "address": found.address}


def with_best_before(session, lines: list[dict]) -> list[dict]:
    """The lines, each lot without a best-before of its own given the lot's (best_before)."""
    wanted = {(line["product_code"], line["lot"]) for line in lines if line["lot"] and not line["date_exp"]}
    if not wanted:
        return lines
    known = dict(((code, lot), day) for code, lot, day in session.execute(
        select(BestBefore.product_code, BestBefore.lot, BestBefore.date_exp)
        .where(tuple_(BestBefore.product_code, BestBefore.lot).in_(sorted(wanted)))))
    return [{**line, "date_exp": line["date_exp"] or known.get((line["product_code"], line["lot"]), "")}
            for line in lines]
