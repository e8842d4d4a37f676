"""Reading stocktakings, inventory, movements and overviews; checking balances.

Plain functions on a session, like records.py: each answer takes a fixed number
of statements. Inventory comes from the balances kept at every posting, never
from summing history; only the balance check sums history, on purpose.
"""
from collections import defaultdict
from contextlib import closing
from datetime import date
from itertools import groupby

from sqlalchemy import case, false, func, or_, select, tuple_, union, union_all
from sqlalchemy.orm import aliased

from stock.caller import Caller
from models import (Balance, Customer, Product, Stocktaking, StocktakingItem, WarehouseDocument,
                    WarehouseDocumentItem)
from stock.records import in_warehouses, within
from stock.text_search import ascii_lower, folded_column

CHUNK = 1000  # rows read at a time from a whole list's cursor
FEW_PRODUCTS = 200  # a search that finds at most this many reads their balances by key


# --- stocktakings ---------------------------------------------------------------------------

def list_stocktakings(session, caller: Caller, headers_only: bool, after: tuple | None = None,
                      limit: int | None = None) -> list[dict]:
    """Stocktakings by date then warehouse, with the ufids of their adjustment documents.

    `after` (the (date, id_warehouse) of the last one of the page before) and `limit` page
    the stocktakings by keyset; each comes with all its items.
    """
    warehouses = caller.narrow([])
    later = [] if after is None else [tuple_(Stocktaking.date, Stocktaking.id_warehouse) > tuple_(*after)]
    in_doc, out_doc = aliased(WarehouseDocument), aliased(WarehouseDocument)
    headers = session.execute(in_warehouses(
        select(Stocktaking.id_warehouse, Stocktaking.date, Stocktaking.status,
               func.coalesce(in_doc.doc_number, 0).label("in_doc"),
               func.coalesce(out_doc.doc_number, 0).label("out_doc"),
               func.coalesce(in_doc.ufid, "").label("in_ufid"),
               func.coalesce(out_doc.ufid, "").label("out_ufid"))
        .outerjoin(in_doc, in_doc.id == Stocktaking.in_document_id)
        .outerjoin(out_doc, out_doc.id == Stocktaking.out_document_id),
        Stocktaking.id_warehouse, warehouses).where(*later)
        .order_by(Stocktaking.date, Stocktaking.id_warehouse).limit(limit)).all()
    items = {}
    if not headers_only and headers:
        item = StocktakingItem
        query = in_warehouses(
            select(item.id_warehouse, item.date, item.product_code, item.lot, item.date_exp, item.name,
                   item.amount_real_milli, item.amount_snap_milli),
            item.id_warehouse, warehouses)
        if after is not None or limit is not None:
            query = query.where(tuple_(item.id_warehouse, item.date).in_(
                [(header.id_warehouse, header.date) for header in headers]))
        rows = session.execute(query.order_by(item.date, item.id_warehouse, item.product_code, item.lot))
        items = {key: [{**row._mapping, "amount_diff_milli": row.amount_real_milli - row.amount_snap_milli}
                       for row in group]
                 for key, group in groupby(rows, key=lambda row: (row.id_warehouse, row.date))}
    return [{**header._mapping, "stocktaking_items": items.get((header.id_warehouse, header.date), [])}
            for header in headers]


# --- inventory ------------------------------------------------------------------------------

def count_stocktakings(session, caller: Caller) -> int:
    """How many stocktakings list_stocktakings finds in all its pages."""
    return session.scalar(in_warehouses(select(func.count()).select_from(Stocktaking),
                                        Stocktaking.id_warehouse, caller.narrow([])))


def inventory(session, caller: Caller, filters: dict, search: str = "", after: tuple | None = None,
              limit: int | None = None) -> list[dict]:
    """Book stock per warehouse and product (level 0), per lot (1), or at each product's own level (-1).

    Rows whose amount is 0 are left out. `search` keeps products whose code or
    name holds the text (ASCII letters in any case); `after` (the (id_warehouse,
    product_code[, lot]) of the last row of the page before) and `limit` page the rows
    by keyset, along the balances' primary key. Each row carries its lot's best-before
    (`best_before`, "" none; "" at level 0, where a row folds every lot of a product).
    """
    query = _inventory_query(session, caller, filters, search, after, limit)
    return list(_inventory_rows(session, query, filters.get("level", -1)))


def every_inventory_row(session, caller: Caller, filters: dict, search: str = ""):
    """All of inventory's rows, for a whole list or a download of any length: read a thousand at
    a time (a server-side cursor on PostgreSQL) while they are written out, never held all at
    once (a depot kept by lot has hundreds of thousands). The statement runs when the first row
    is asked for, which the writers of a whole list do in the view, so that a database that
    fails is the caller's normal error; a list never started holds no cursor."""
    query = _inventory_query(session, caller, filters, search).execution_options(yield_per=CHUNK)
    return _inventory_rows(session, query, filters.get("level", -1))


def _inventory_rows(session, query, level: int):
    # On the session's connection, in its transaction: a cursor's result, which closing closes.
    # Rows are unpacked by place, not read by name: a whole list has hundreds of thousands.
    with closing(session.connection().execute(query)) as result:  # a list left unread closes its cursor too
        if level == 0:
            for warehouse, code, amount, name, unit, _lot_level in result:
                yield {"id_warehouse": warehouse, "product_code": code, "product_name": name, "name": name,
                       "lot": "", "level": 0, "amount_milli": int(amount), "unit": unit, "best_before": ""}
            return
        for warehouse, code, lot, amount, name, unit, lot_level, best_before in result:
            yield {"id_warehouse": warehouse, "product_code": code, "product_name": name, "name": name,
                   "lot": lot, "level": lot_level if level == -1 else level, "amount_milli": int(amount),
                   "unit": unit, "best_before": best_before}


def count_inventory(session, caller: Caller, filters: dict, search: str = "") -> int:
    """How many rows inventory answers in all its pages.

    Counted in the balances alone, as the database keeps them in stock (ix_balances_held: the
    rows whose amount is not 0, by warehouse and product), without reading a product row for
    each: that join cost 220 ms of the stock page's 235 on a depot of five years. A search
    finds its products first (a few thousand rows at most) and counts their balances.
    """
    held = _held(session, caller, filters, search)
    if filters.get("level", -1) == 0:
        held = (held.with_only_columns(Balance.id_warehouse).group_by(Balance.id_warehouse, Balance.product_code)
                .having(func.sum(Balance.amount_milli) != 0))
        return session.scalar(select(func.count()).select_from(held.subquery()))
    return session.scalar(held.with_only_columns(func.count()))


def _held(session, caller: Caller, filters: dict, search: str):
    """The balances the inventory reads: not 0, within the filter's and the caller's warehouses,
    of the product asked for or of the products the search finds."""
    query = in_warehouses(select(Balance).where(Balance.amount_milli != 0), Balance.id_warehouse,
                          caller.narrow(filters.get("id_warehouses", [])))
    if filters.get("product_code"):
        query = query.where(Balance.product_code == filters["product_code"])
    if search:
        # The products first, then their balances: a balance's code is its product's.
        text = ascii_lower(search)
        found = select(Product.product_code).where(or_(*(folded_column(session, column).contains(text, autoescape=True)
                                                         for column in (Product.product_code, Product.name))))
        codes = session.scalars(found.order_by(Product.product_code).limit(FEW_PRODUCTS + 1)).all()
        if len(codes) > FEW_PRODUCTS:
            return query.where(Balance.product_code.in_(found))
        if not codes:
            return query.where(false())
        # A few (a code, part of a name): each one's balances are found by their key, warehouse by
        # warehouse, instead of every balance being compared with the list.
        warehouses = caller.narrow(filters.get("id_warehouses", []))
        if warehouses is None:
            warehouses = _warehouses_held(session)
        query = query.where(Balance.id_warehouse.in_(warehouses), Balance.product_code.in_(codes))
    return query


def _warehouses_held(session) -> list[int]:
    """Every warehouse the balances name, each found by one step along their key from the one
    before (a handful of index reads, where DISTINCT would read every balance)."""
    walk = select(func.min(Balance.id_warehouse).label("id_warehouse")).cte("walk", recursive=True)
    walk = walk.union_all(select(select(func.min(Balance.id_warehouse))
                                 .where(Balance.id_warehouse > walk.c.id_warehouse).scalar_subquery())
                          .where(walk.c.id_warehouse.is_not(None)))
    return list(session.scalars(select(walk.c.id_warehouse).where(walk.c.id_warehouse.is_not(None))))


def _inventory_query(session, caller: Caller, filters: dict, search: str, after: tuple | None = None,
                     limit: int | None = None):
    level = filters.get("level", -1)
    held = _held(session, caller, filters, search)
    if level == 0:
        # Only level 0 folds rows. The lots are summed per warehouse and product in the balances
        # alone, in the order of their key, so a page stops after its rows instead of grouping
        # every balance first (with the product's columns in the grouping, it could not); the
        # product's name and unit are read for the page's rows only.
        key = (Balance.id_warehouse, Balance.product_code)
        amount = func.sum(Balance.amount_milli)
        folded = (held.with_only_columns(*key, amount.label("amount_milli")).group_by(*key).having(amount != 0)
                  .order_by(*key))
        if after is not None:
            folded = folded.where(tuple_(*key) > tuple_(*after))
        folded = folded.limit(limit).subquery()
        return (select(folded.c.id_warehouse, folded.c.product_code, folded.c.amount_milli,
                       Product.name, Product.base_unit, Product.lot_level)
                .join(Product, Product.product_code == folded.c.product_code)
                .order_by(folded.c.id_warehouse, folded.c.product_code))
    # A product not kept by lot has its one balance row at lot "", so at levels -1 and 1 each
    # balance row is a row of the answer, and the database can order and page them.
    # Codes and lots sort by code point on both databases (models.Code).
    key = (Balance.id_warehouse, Balance.product_code, Balance.lot)
    query = (held.with_only_columns(*key, Balance.amount_milli.label("amount_milli"), Product.name,
                                    Product.base_unit, Product.lot_level, Balance.best_before)
             .join(Product, Product.product_code == Balance.product_code).order_by(*key))
    if after is not None:
        query = query.where(tuple_(*key) > tuple_(*after))
    return query.limit(limit)


# --- movements ------------------------------------------------------------------------------

def movements(session, caller: Caller, filters: dict) -> list[dict]:
    """One row per warehouse-document item, goods-out negative, by doc_number then item_number.

    Warehouse, direction and date are read from the item's own copies, so the
    filter is a range scan of ix_movements_warehouse_date (or ix_movements_date).
    """
    return list(every_movement(session, caller, filters))


def every_movement(session, caller: Caller, filters: dict):
    """movements' rows read a thousand at a time (a server-side cursor on PostgreSQL), for the
    whole list written as it is read: five years are a million lines. The statement runs when
    the first row is asked for (in the view)."""
    item = WarehouseDocumentItem
    signed = case((item.direction == "O", -item.amount_base_milli), else_=item.amount_base_milli)
    query = (select(WarehouseDocument.doc_number, item.item_number, WarehouseDocument.ufid,
                    WarehouseDocument.id_customer, func.coalesce(Customer.name, "").label("customer_name"),
                    item.product_code, item.name, item.lot, item.date_exp, item.doc_created_date,
                    item.timestamp_from_client, signed.label("amount_base_milli"),
                    Product.base_unit.label("unit"))
             .join(WarehouseDocument, WarehouseDocument.id == item.document_id)
             .join(Product, Product.product_code == item.product_code)
             .outerjoin(Customer, Customer.id_customer == WarehouseDocument.id_customer))
    query = within(query, item.__table__, caller, filters)
    if filters.get("level", -1) in (0, 1):
        query = query.where(Product.lot_level == filters["level"])
    return _dicts(session, query.order_by(WarehouseDocument.doc_number, item.item_number)
                  .execution_options(yield_per=CHUNK))


def _dicts(session, query):
    # A list left unread closes its cursor (PostgreSQL's, on the server) too.
    with closing(session.connection().execute(query)) as result:
        for row in result:
            yield dict(row._mapping)


def movement_lines(session, caller: Caller, filters: dict, after: tuple | None = None,
                   limit: int | None = None) -> list[dict]:
    """Movement lines newest first (goods-out negative): by business date, document and line, backwards.

    `filters`: id_warehouses, product_code, date_from, date_to (each may be absent). `after` (the
    (date, document id, line) of the last row of the page before) and `limit` page them by
    keyset: a booking that arrives meanwhile takes a place of its own in the order, so no line
    is shown twice or skipped, and a late page costs what the first does. The lines come along
    ix_movements_warehouse_date for one warehouse and ix_movements_date across them, read
    backwards; one product's along ix_movements_product, sorted, as they are few. For someone
    limited to several warehouses each warehouse's page is read along its own range and the
    pages merged: SQLite would otherwise sort every line of those warehouses for each page
    (500 ms on a depot of a million lines, against 2 ms).
    """
    return [dict(row._mapping) for row in session.execute(_lines_page(caller, filters, after, limit))]


def every_movement_line(session, caller: Caller, filters: dict):
    """All of movement_lines' rows, for a download of any length: read a thousand at a time (a
    server-side cursor on PostgreSQL) while they are written out, never held all at once. For
    someone limited to several warehouses the database sorts their lines first."""
    with closing(session.execute(_movement_lines(caller, filters).execution_options(yield_per=1000))) as result:
        yield from result


def count_movement_lines(session, caller: Caller, filters: dict) -> int:
    """How many lines movement_lines gives in all its pages."""
    return session.scalar(_lines_within(caller, filters, func.count()).select_from(WarehouseDocumentItem))


def _lines_page(caller: Caller, filters: dict, after: tuple | None, limit: int | None):
    warehouses = caller.narrow(filters.get("id_warehouses") or [])
    if limit is None or filters.get("product_code") or warehouses is None or len(warehouses) < 2:
        return _lines_after(_movement_lines(caller, filters), after).limit(limit)
    pages = [_lines_after(_movement_lines(caller, {**filters, "id_warehouses": [warehouse]}), after)
             .limit(limit).subquery() for warehouse in warehouses]
    merged = union_all(*(select(page) for page in pages)).subquery()
    return select(merged).order_by(merged.c.date.desc(), merged.c.document_id.desc(),
                                   merged.c.item_number.desc()).limit(limit)


def _movement_lines(caller: Caller, filters: dict):
    item = WarehouseDocumentItem
    signed = case((item.direction == "O", -item.amount_base_milli), else_=item.amount_base_milli)
    return (_lines_within(caller, filters, item.date, item.document_id, item.item_number,
                          WarehouseDocument.doc_number, WarehouseDocument.ufid, item.id_warehouse,
                          item.direction, item.product_code, item.name, item.lot, item.date_exp,
                          signed.label("amount_milli"), Product.base_unit.label("unit"))
            .join(WarehouseDocument, WarehouseDocument.id == item.document_id)
            .join(Product, Product.product_code == item.product_code)
            .order_by(item.date.desc(), item.document_id.desc(), item.item_number.desc()))


def _lines_after(query, after: tuple | None):
    """Only the lines after this place in the newest-first order."""
    if after is None:
        return query
    item = WarehouseDocumentItem
    return query.where(tuple_(item.date, item.document_id, item.item_number) < tuple_(*after))


def _lines_within(caller: Caller, filters: dict, *columns):
    """The movement lines of the filter (and the caller's warehouses), as `columns`."""
    item = WarehouseDocumentItem
    query = select(*columns)
    warehouse = item.id_warehouse
    if filters.get("product_code"):
        query = query.where(item.product_code == filters["product_code"])
        # One product's lines are few beside a warehouse's, but SQLite (no statistics) would walk
        # the warehouse's range of ix_movements_warehouse_date for them (78 ms against 6 on a depot
        # of a million lines): the warehouse is compared as an expression that no index holds.
        warehouse = item.id_warehouse + 0
    warehouses = caller.narrow(filters.get("id_warehouses") or [])
    if warehouses is not None:
        query = query.where(warehouse.in_(warehouses))
    if filters.get("date_from"):
        query = query.where(item.date >= filters["date_from"])
    if filters.get("date_to"):
        query = query.where(item.date <= filters["date_to"])
    return query


# --- overviews ------------------------------------------------------------------------------

def overview_docs_and_stocktaking(session, caller: Caller, id_warehouse: int | None) -> list[dict]:
    """Per warehouse: the latest goods-in and goods-out document (by date, then doc_number)
    and the latest stocktaking date; "" where there is none.

    Each latest document is one step down ix_documents_latest (warehouse, direction, date,
    doc_number), not a ranking of the whole history: five years answer as fast as one.
    """
    warehouses = caller.narrow([] if id_warehouse is None else [id_warehouse])
    doc = WarehouseDocument
    present = union(in_warehouses(select(doc.id_warehouse).distinct(), doc.id_warehouse, warehouses),
                    in_warehouses(select(Stocktaking.id_warehouse).distinct(), Stocktaking.id_warehouse,
                                  warehouses)).subquery()

    def latest(column, direction):
        return (select(column).where(doc.id_warehouse == present.c.id_warehouse, doc.direction == direction)
                .order_by(doc.date.desc(), doc.doc_number.desc()).limit(1).scalar_subquery())

    rows = session.execute(select(
        present.c.id_warehouse, latest(doc.ufid, "I").label("ufid_in"), latest(doc.date, "I").label("in_date"),
        latest(doc.ufid, "O").label("ufid_out"), latest(doc.date, "O").label("out_date"),
        select(func.max(Stocktaking.date)).where(Stocktaking.id_warehouse == present.c.id_warehouse)
        .scalar_subquery().label("stocktaking_date"))
        .order_by(present.c.id_warehouse)).all()
    return [{"id_warehouse": row.id_warehouse, "ufid_in": row.ufid_in or "", "in_date": _day(row.in_date),
             "ufid_out": row.ufid_out or "", "out_date": _day(row.out_date),
             "stocktaking_date": _day(row.stocktaking_date)} for row in rows]


def _day(value):
    """A date read from a scalar subquery (text on SQLite), or "" for none."""
    if value is None:
        return ""
    return value if isinstance(value, date) else date.fromisoformat(value)


def overview_monthly_movement(session, caller: Caller, date_from: date | None) -> list[dict]:
    """Warehouse documents counted per (year, month, direction) of their business date."""
    doc = WarehouseDocument
    query = in_warehouses(select(doc.date, doc.direction, func.count().label("count")),
                           doc.id_warehouse, caller.narrow([]))
    if date_from is not None:
        query = query.where(doc.date >= date_from)
    # Grouped by day in SQL and folded into months here: year/month extraction is
    # spelt differently on SQLite and PostgreSQL, and days are few.
    months: dict[tuple[int, int, str], int] = defaultdict(int)
    for day, direction, count in session.execute(query.group_by(doc.date, doc.direction)):
        months[(day.year, day.month, direction)] += count
    return [{"year": year, "month": month, "direction": direction, "count": months[(year, month, direction)]}
            for year, month, direction in sorted(months)]


# --- balance check --------------------------------------------------------------------------

def balance_differences(session) -> list[dict]:
    """Every (warehouse, product, lot) whose balance differs from its warehouse documents.

    The documents' goods-in minus goods-out is summed afresh and compared with
    the balance table; a missing balance row counts as 0.
    """
    doc, item = WarehouseDocument, WarehouseDocumentItem
    signed = case((doc.direction == "O", -item.amount_base_milli), else_=item.amount_base_milli)
    computed = {(row.id_warehouse, row.product_code, row.lot): row.amount for row in session.execute(
        select(doc.id_warehouse, item.product_code, item.lot, func.sum(signed).label("amount"))
        .join(doc, doc.id == item.document_id)
        .group_by(doc.id_warehouse, item.product_code, item.lot))}
    booked = {(row.id_warehouse, row.product_code, row.lot): row.amount_milli for row in session.execute(
        select(Balance.id_warehouse, Balance.product_code, Balance.lot, Balance.amount_milli))}
    differences = []
    for key in sorted(set(computed) | set(booked)):
        balance, documents = booked.get(key, 0), int(computed.get(key, 0))
        if balance != documents:
            differences.append({"id_warehouse": key[0], "product_code": key[1], "lot": key[2],
                                "balance_milli": balance, "documents_milli": documents})
    return differences
