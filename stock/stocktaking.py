"""Stocktaking: counts (type V batches) set the book stock, through two adjustment documents per day.

A stocktaking's goods-in and goods-out documents carry the difference between
the count and the book stock; deleting the stocktaking takes them back.
"""
from collections import defaultdict
from datetime import date

from sqlalchemy import delete, select

from models import Product, Stocktaking, StocktakingItem, WarehouseDocument, WarehouseDocumentItem
from stock.balances import add_document_items, balances_of, change_balances, new_document
from stock.caller import Caller
from stock.errors import NotFound, say
from stock.naming import warehouse_words
from stock.placement import amounts_at
from stock.policy import Policy
from storage.db import writing


def count_stock(session, id_warehouse: int, day: date, items: list[dict], products: dict,
                created: date, places: list[str | None] | None = None) -> None:
    """Add a count batch to the stocktaking of (warehouse, day) and book the differences;
    `created` is the server's day, as the booking read it for its batch.

    Counts of one (product, lot) on one day add up. The snapshot is the book
    stock without this stocktaking's own adjustments, taken anew at each count,
    so that after it the book stock of everything counted equals the count.
    An item counted at a location (`places`, DESIGN 27) sets that location's stock instead:
    the warehouse's count of it is then its book stock with that location's replaced.
    """
    stocktaking = session.get(Stocktaking, (id_warehouse, day))
    if stocktaking is None:
        stocktaking = Stocktaking(id_warehouse=id_warehouse, date=day, status=1, in_document_id=0,
                                  out_document_id=0)
        session.add(stocktaking)
        session.flush()
    counted: dict[tuple[str, str], dict] = {}
    at_locations: dict[tuple[str, str, str], int] = defaultdict(int)
    for index, item in enumerate(items):
        key = (item["product_code"], item.get("lot", ""))
        entry = counted.setdefault(key, {"amount": 0, "date_exp": item.get("date_exp", ""), "whole": False})
        if places is not None and places[index] is not None:
            at_locations[(*key, places[index])] += item["amount_base_milli"]
        else:
            entry["amount"] += item["amount_base_milli"]
            entry["whole"] = True

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
    placed = {}
    if at_locations:
        there = amounts_at(session, id_warehouse, {code for code, _, _ in at_locations},
                           {location for _, _, location in at_locations})
        placed = {key: amount - there.get(key, 0) for key, amount in at_locations.items()}
        for (code, lot, _), change in placed.items():
            row = existing[(code, lot)]
            if not counted[(code, lot)]["whole"]:
                # Counted only at locations: the rest of the warehouse stays as booked.
                row.amount_real_milli = book.get((code, lot), 0)
                counted[(code, lot)]["whole"] = True
            row.amount_real_milli += change
    # Every item of the stocktaking is snapped anew, not only those of this batch:
    # goods moved since an earlier count of the day are absorbed, and the book stock
    # of everything counted that day ends equal to the count.
    for key, row in existing.items():
        row.amount_snap_milli = book.get(key, 0) - adjustments.get(key, 0)
    session.flush()
    wanted = {key: row.amount_real_milli - row.amount_snap_milli for key, row in existing.items()}
    expiry = {key: row.date_exp for key, row in existing.items()}
    _rewrite_adjustments(session, stocktaking, adjustments, wanted, Policy(allow_negative_stock=True),
                         created, expiry, placed)


def stocktaking_adjustments(session, stocktaking: Stocktaking) -> dict[tuple[str, str], int]:
    """What the stocktaking's own documents add to the book stock, per (product, lot)."""
    result: dict[tuple[str, str], int] = defaultdict(int)
    for document_id, sign in ((stocktaking.in_document_id, 1), (stocktaking.out_document_id, -1)):
        if not document_id:
            continue
        for code, lot, amount in session.execute(
                select(WarehouseDocumentItem.product_code, WarehouseDocumentItem.lot,
                       WarehouseDocumentItem.amount_base_milli)
                .where(WarehouseDocumentItem.document_id == document_id)):
            result[(code, lot)] += sign * amount
    return result


def _rewrite_adjustments(session, stocktaking: Stocktaking, old: dict, wanted: dict,
                         policy: Policy, created: date, expiry: dict | None = None,
                         placed: dict | None = None) -> None:
    """Make the goods-in/goods-out documents of the stocktaking carry exactly `wanted`.

    Documents and lines written are dated `created`; `expiry` gives the date_exp of each
    (product, lot) for the document lines.
    """
    keys = set(old) | set(wanted)
    deltas = {key: wanted.get(key, 0) - old.get(key, 0) for key in keys}
    expiry = expiry or {}
    # The gains' document keeps their best-before (keep_best_before): those are what it receives.
    change_balances(session, stocktaking.id_warehouse, deltas, policy,
                    received={key: expiry[key] for key, amount in wanted.items() if amount > 0 and expiry.get(key)},
                    placed=placed)
    listed = {code for (code, _), amount in wanted.items() if amount}
    names = dict(session.execute(select(Product.product_code, Product.name)
                                 .where(Product.product_code.in_(listed))).all()) if listed else {}
    for attribute, direction, sign in (("in_document_id", "I", 1), ("out_document_id", "O", -1)):
        lines = [{"product_code": code, "name": names.get(code, ""), "lot": lot,
                  "date_exp": expiry.get((code, lot), ""), "amount_base_milli": sign * amount}
                 for (code, lot), amount in sorted(wanted.items()) if sign * amount > 0]
        document_id = getattr(stocktaking, attribute)
        if document_id:
            session.execute(delete(WarehouseDocumentItem).where(WarehouseDocumentItem.document_id == document_id))
            if lines:
                add_document_items(session, document_id, stocktaking.id_warehouse, direction,
                                   stocktaking.date, created, lines)
            else:
                session.execute(delete(WarehouseDocument).where(WarehouseDocument.id == document_id))
                setattr(stocktaking, attribute, 0)
        elif lines:
            # Numbered at the commit (balances.number_documents), like a batch's document.
            document_id = new_document(session, stocktaking.id_warehouse, direction, stocktaking.date, created)
            setattr(stocktaking, attribute, document_id)
            add_document_items(session, document_id, stocktaking.id_warehouse, direction,
                               stocktaking.date, created, lines)
    session.flush()


def delete_stocktaking(session, caller: Caller, id_warehouse: int, day: date, policy: Policy) -> None:
    """Remove a stocktaking and its adjustments: book stock returns to what it was without it."""
    caller.require_warehouse(id_warehouse)
    with writing(session, [id_warehouse]):
        stocktaking = session.get(Stocktaking, (id_warehouse, day))
        if stocktaking is None:
            raise NotFound(say("No stocktaking of %(warehouse)s on %(day)s.",
                                  warehouse=warehouse_words(session, id_warehouse), day=day))
        old = stocktaking_adjustments(session, stocktaking)
        _rewrite_adjustments(session, stocktaking, old, {}, policy, date.today())  # writes no document
        session.execute(delete(StocktakingItem).where(StocktakingItem.id_warehouse == id_warehouse,
                                                      StocktakingItem.date == day))
        session.delete(stocktaking)
