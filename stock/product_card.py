"""One product as the office looks at it: its stock per warehouse and lot with best-before dates,
its last movement lines, and its stock at the end of each of the last months.

Read-only functions on a session, each a fixed number of statements. May import models,
stock.caller and stock.records; the pages call them (pages/products.py).
"""
from collections import defaultdict
from datetime import date

from sqlalchemy import case, func, select

from stock.caller import Caller
from models import Balance, WarehouseDocument, WarehouseDocumentItem
from stock.records import in_warehouses

LAST_MOVEMENTS = 100


def stock_by_lot(session, caller: Caller, product_code: str) -> list[dict]:
    """Book stock per warehouse and lot (rows of 0 left out), by warehouse then lot.

    `date_exp` is the earliest best-before any goods-in of that lot in that warehouse
    carried ("" when none did): the date the lot must be used by, at the latest.
    """
    item = WarehouseDocumentItem
    earliest = (select(item.id_warehouse, item.lot, func.min(item.date_exp).label("date_exp"))
                .where(item.product_code == product_code, item.direction == "I", item.date_exp != "")
                .group_by(item.id_warehouse, item.lot))
    expiry = {(row.id_warehouse, row.lot): row.date_exp
              for row in session.execute(in_warehouses(earliest, item.id_warehouse, caller.narrow([])))}
    query = (select(Balance.id_warehouse, Balance.lot, Balance.amount_milli)
             .where(Balance.product_code == product_code, Balance.amount_milli != 0)
             .order_by(Balance.id_warehouse, Balance.lot))
    return [{"id_warehouse": row.id_warehouse, "lot": row.lot, "amount_milli": row.amount_milli,
             "date_exp": expiry.get((row.id_warehouse, row.lot), "")}
            for row in session.execute(in_warehouses(query, Balance.id_warehouse, caller.narrow([])))]


def last_movements(session, caller: Caller, product_code: str, limit: int = LAST_MOVEMENTS) -> list[dict]:
    """The product's newest movement lines first (goods-out negative), with their document's ufid."""
    item = WarehouseDocumentItem
    signed = case((item.direction == "O", -item.amount_base_milli), else_=item.amount_base_milli)
    # Newest first by the document's internal id, read backwards along ix_movements_product.
    query = (select(WarehouseDocument.doc_number, item.item_number, WarehouseDocument.ufid, item.id_warehouse,
                    item.direction, item.date, item.lot, item.date_exp, signed.label("amount_milli"))
             .join(WarehouseDocument, WarehouseDocument.id == item.document_id)
             .where(item.product_code == product_code)
             .order_by(item.document_id.desc(), item.item_number.desc()).limit(limit))
    return [dict(row._mapping) for row in session.execute(in_warehouses(query, item.id_warehouse,
                                                                          caller.narrow([])))]


def month_end_stock(session, caller: Caller, product_code: str, months: list[tuple[int, int]],
                    today: date) -> list[dict]:
    """The product's stock (all lots, the caller's warehouses) at the end of each month given.

    Worked back from today's balance: the stock at a month's end is today's less
    everything booked after that month. The current month ends today.
    """
    now = session.scalar(in_warehouses(
        select(func.coalesce(func.sum(Balance.amount_milli), 0)).where(Balance.product_code == product_code),
        Balance.id_warehouse, caller.narrow([])))
    item = WarehouseDocumentItem
    signed = case((item.direction == "O", -item.amount_base_milli), else_=item.amount_base_milli)
    first_year, first_month = months[0]
    # Grouped by day in SQL, folded into months here (month extraction differs between databases).
    query = in_warehouses(
        select(item.date, func.sum(signed).label("net"))
        .where(item.product_code == product_code, item.date >= date(first_year, first_month, 1))
        .group_by(item.date), item.id_warehouse, caller.narrow([]))
    net: dict[tuple[int, int], int] = defaultdict(int)
    for day, amount in session.execute(query):
        net[(day.year, day.month)] += int(amount)
    # Bookings dated after today (a batch may carry a later business date) count as after every month.
    later = sum(amount for month, amount in net.items() if month > months[-1])
    rows, after = [], later
    for year, month in reversed(months):
        rows.append({"year": year, "month": month, "amount_milli": int(now) - after})
        after += net.get((year, month), 0)
    return rows[::-1]
