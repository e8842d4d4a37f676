"""The pick list of an order: for each open goods-out line, the lots to take, first expiring first.

Only lots in stock in the order's warehouse count, and when the order has an expiration_limit,
only those whose best-before meets its expiration_limit_date (the rule a batch for the order is
held to, stock/orders.py fill_order): a picker never takes what the booking would refuse.
A lot taken for one line is not offered again to the next one.
"""
from datetime import date

from sqlalchemy import and_, select

from stock.caller import Caller
from models import ApiKey, Balance, BestBefore, Customer, OrderDocument, Product
from stock.orders import CLOSED, OPEN_STATES, expiration_limit_date, get_order
from stock.policy import Policy
from storage.db import utc_now

NO_DATE = "9999-99-99"  # lots without a best-before go last: they are not known to expire


def plan_picks(lines: list[dict], stock: dict[str, list[dict]], limit: date | None) -> list[dict]:
    """The picks of each line, in the lines' order.

    `lines`: {item_number, product_code, lot, open_milli}; `stock`: per product its lots
    {lot, date_exp, amount_milli} in the warehouse; `limit`: the day the goods must keep until,
    or None. Lines naming a lot take from it first (as a booking fills them), then the others.
    Each line answers {..., picks: [{lot, date_exp, amount_milli}], short_milli}.
    """
    left = {(code, lot["lot"]): lot["amount_milli"] for code, lots in stock.items() for lot in lots}
    planned = {}
    for line in sorted(lines, key=lambda line: (line["lot"] == "", line["item_number"])):
        usable = [lot for lot in stock.get(line["product_code"], [])
                  if (not line["lot"] or lot["lot"] == line["lot"])
                  and (limit is None or (lot["date_exp"] and lot["date_exp"] >= limit.isoformat()))]
        usable.sort(key=lambda lot: (lot["date_exp"] or NO_DATE, lot["lot"]))
        wanted, picks = line["open_milli"], []
        for lot in usable:
            key = (line["product_code"], lot["lot"])
            take = min(wanted, left[key])
            if take > 0:
                picks.append({"lot": lot["lot"], "date_exp": lot["date_exp"], "amount_milli": take})
                left[key] -= take
                wanted -= take
            if not wanted:
                break
        planned[line["item_number"]] = {**line, "picks": picks, "short_milli": wanted}
    return [planned[line["item_number"]] for line in lines]


def pick_list(session, caller: Caller, document_number: str, today: date | None = None) -> dict:
    """The order (NotFound as get_order) and its open goods-out lines with their picks; the
    expiration limit counted from `today` (the depot's day on paper; None: the machine's)."""
    order = get_order(session, caller, document_number)
    limit = expiration_limit_date(order, today) if order.expiration_limit > 0 else None
    lines = []
    for item in order.items if order.state != CLOSED else ():  # a closed order expects nothing more
        open_milli = item.amount_ordered_milli - item.amount_delivered_milli
        if item.direction == "O" and open_milli > 0:
            lines.append({"item_number": item.item_number, "product_code": item.product_code, "lot": item.lot,
                          "ordered_milli": item.amount_ordered_milli,
                          "delivered_milli": item.amount_delivered_milli, "open_milli": open_milli})
    codes = {line["product_code"] for line in lines}
    stock = lots_in_stock(session, order.id_warehouse, codes)
    names = dict(session.execute(select(Product.product_code, Product.name)
                                 .where(Product.product_code.in_(codes))).all()) if codes else {}
    planned = plan_picks(lines, stock, limit)
    for line in planned:
        line["name"] = names.get(line["product_code"], "")
    return {"order": order, "limit": limit, "lines": planned}


def lots_in_stock(session, id_warehouse: int, codes) -> dict[str, list[dict]]:
    """Per product its lots in stock in the warehouse: {lot, date_exp (its best-before), amount_milli}."""
    stock: dict[str, list[dict]] = {}
    if not codes:
        return stock
    rows = session.execute(
        select(Balance.product_code, Balance.lot, Balance.amount_milli, BestBefore.date_exp)
        .outerjoin(BestBefore, and_(BestBefore.product_code == Balance.product_code,
                                    BestBefore.lot == Balance.lot))
        .where(Balance.id_warehouse == id_warehouse, Balance.product_code.in_(sorted(codes)),
               Balance.amount_milli > 0))
    for code, lot, amount, day in rows:
        stock.setdefault(code, []).append({"lot": lot, "date_exp": day or "", "amount_milli": amount})
    return stock


def open_orders(session, caller: Caller, policy: Policy) -> list[dict]:
    """The work a scanner takes with it (DESIGN 25): every open order of the caller's warehouses
    that a movement may fill (type R), by document_number, with its open lines, and for each
    goods-out line the lots to take, planned as its pick list plans them.

    Each order: {order, customer_name, held_by, held_since, limit, lines}; held_by is the name
    of the key whose lock still holds ("" none). One read of the lots per warehouse.
    """
    query = (select(OrderDocument, Customer.name, ApiKey.name)
             .outerjoin(Customer, Customer.id_customer == OrderDocument.id_customer)
             .outerjoin(ApiKey, ApiKey.id == OrderDocument.locked_by)
             .where(OrderDocument.state.in_(OPEN_STATES))
             .order_by(OrderDocument.document_number))
    if caller.warehouses is not None:
        query = query.where(OrderDocument.id_warehouse.in_(sorted(caller.warehouses)))
    found, wanted = [], {}
    now = utc_now()
    for order, customer_name, holder in session.execute(query):
        if "R" not in order.allowed_types.split(","):
            continue  # a counting order: the scanner's flows book movements
        lines = [{"item_number": item.item_number, "product_code": item.product_code, "lot": item.lot,
                  "direction": item.direction, "ordered_milli": item.amount_ordered_milli,
                  "delivered_milli": item.amount_delivered_milli,
                  "open_milli": item.amount_ordered_milli - item.amount_delivered_milli}
                 for item in order.items if item.amount_ordered_milli > item.amount_delivered_milli]
        if not lines:
            continue
        held = order.locked_by is not None and order.locked_at is not None \
            and now - order.locked_at < policy.acquire_timeout
        found.append({"order": order, "customer_name": customer_name or "", "held_by": holder if held else "",
                      "held_since": order.locked_at if held else None,
                      "limit": expiration_limit_date(order) if order.expiration_limit > 0 else None,
                      "lines": lines})
        wanted.setdefault(order.id_warehouse, set()).update(
            line["product_code"] for line in lines if line["direction"] == "O")
    stock = {id_warehouse: lots_in_stock(session, id_warehouse, codes) for id_warehouse, codes in wanted.items()}
    for entry in found:
        outgoing = [line for line in entry["lines"] if line["direction"] == "O"]
        planned = {line["item_number"]: line for line in
                   plan_picks(outgoing, stock.get(entry["order"].id_warehouse, {}), entry["limit"])}
        entry["lines"] = [planned.get(line["item_number"], {**line, "picks": [], "short_milli": 0})
                          for line in entry["lines"]]
    return found
