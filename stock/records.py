"""Reading batches and warehouse documents: views by number and the filters.

Each answer takes a fixed number of statements (headers, then all their items
in one query), whatever the number of records.
"""
from itertools import groupby

from sqlalchemy import exists, func, select

from stock.caller import Caller
from models import Batch, BatchExtra, BatchItem, Product, WarehouseDocument, WarehouseDocumentItem
from stock.errors import NotFound, say


def in_warehouses(query, column, warehouses: list[int] | None):
    """Only rows of these warehouses (None: all)."""
    return query if warehouses is None else query.where(column.in_(warehouses))


def within(query, table, caller: Caller, filters: dict):
    """Apply a filter's warehouse list (narrowed to the key), direction and business-date
    bounds to a table that has id_warehouse, direction and date columns."""
    query = in_warehouses(query, table.c.id_warehouse, caller.narrow(filters.get("id_warehouses", [])))
    if filters.get("doc_direction"):
        query = query.where(table.c.direction == filters["doc_direction"])
    if filters.get("date_from"):
        query = query.where(table.c.date >= filters["date_from"])
    if filters.get("date_to"):
        query = query.where(table.c.date <= filters["date_to"])
    return query


def _at_level(query, item_table, level: int):
    """Only items of products kept at this lot level (-1: all)."""
    if level in (0, 1):
        query = query.join(Product, Product.product_code == item_table.product_code) \
            .where(Product.lot_level == level)
    return query


def _group(rows, key: str) -> dict:
    return {number: [dict(row._mapping) for row in group]
            for number, group in groupby(rows, key=lambda row: getattr(row, key))}


# --- batches --------------------------------------------------------------------------------

def get_batch(session, caller: Caller, batch_number: int) -> dict:
    batch = session.get(Batch, batch_number)
    if batch is None or not caller.sees(batch.id_warehouse):
        raise NotFound(say("No batch %(number)s.", number=batch_number))
    found = _batches(session, select(Batch).where(Batch.batch_number == batch_number), -1, False)[0]
    found["batch_extras"] = found["batch_extras"] + _posted(batch)
    return found


def filter_batches(session, caller: Caller, filters: dict, headers_only: bool) -> list[dict]:
    query = within(select(Batch), Batch.__table__, caller, filters)
    if filters.get("document_number"):
        query = query.where(Batch.document_number == filters["document_number"])
    return _batches(session, query, filters.get("level", -1), headers_only)


def _batches(session, query, level: int, headers_only: bool) -> list[dict]:
    if level in (0, 1):
        query = query.where(exists(_at_level(
            select(BatchItem.id_batch_item).where(BatchItem.batch_number == Batch.batch_number),
            BatchItem, level)))
    headers = session.scalars(query.order_by(Batch.batch_number)).all()
    items, extras = {}, {}
    if headers:
        numbers = query.with_only_columns(Batch.batch_number).scalar_subquery()
        # Extras are part of the header (the key/value notes of the batch); only items are left out.
        extras = _group(session.execute(
            select(BatchExtra.batch_number, BatchExtra.key, BatchExtra.value)
            .where(BatchExtra.batch_number.in_(numbers))
            .order_by(BatchExtra.batch_number, BatchExtra.position)), "batch_number")
    if headers and not headers_only:
        # An item booked on a goods document carries that document's number: the one
        # document of its batch (a count's items have none: 0).
        doc_number = func.coalesce(WarehouseDocument.doc_number, 0).label("doc_number")
        items = _group(session.execute(_at_level(
            select(*BatchItem.__table__.c, doc_number)
            .outerjoin(WarehouseDocument, (WarehouseDocument.batch_number == BatchItem.batch_number)
                       & (BatchItem.doc_item_number != 0))
            .where(BatchItem.batch_number.in_(numbers)), BatchItem, level)
            .order_by(BatchItem.batch_number, BatchItem.position)), "batch_number")
    return [{"batch_settings": batch,
             "batch_items": items.get(batch.batch_number, []),
             "batch_extras": extras.get(batch.batch_number, [])} for batch in headers]


def _posted(batch: Batch) -> list[dict]:
    """Who posted the batch, after the scanner's own extras, in the view of one batch (DESIGN section 16).

    Not in the filter's lists: those are what scanners sync, and they compare extras with what they sent.
    None for batches booked before the service kept it.
    """
    if not batch.posted_by and not batch.posted_from:
        return []
    return [{"key": "posted_by", "value": batch.posted_by}, {"key": "posted_from", "value": batch.posted_from}]


# --- warehouse documents --------------------------------------------------------------------

def get_document(session, caller: Caller, doc_number: int) -> dict:
    document = session.scalars(select(WarehouseDocument).where(WarehouseDocument.doc_number == doc_number)).first()
    if document is None or not caller.sees(document.id_warehouse):
        raise NotFound(say("No warehouse document %(number)s.", number=doc_number))
    return _documents(session, select(WarehouseDocument).where(WarehouseDocument.doc_number == doc_number),
                      -1, False)[0]


def filter_documents(session, caller: Caller, filters: dict, headers_only: bool, after: int | None = None,
                     limit: int | None = None) -> list[dict]:
    """Documents by doc_number; `after` (the last doc_number of the page before) and `limit`
    page them by keyset, so a late page costs what the first does (their items come whole)."""
    query = _at_level_documents(within(select(WarehouseDocument), WarehouseDocument.__table__, caller, filters),
                                filters.get("level", -1))
    if after is not None:
        query = query.where(WarehouseDocument.doc_number > after)
    return _documents(session, query, filters.get("level", -1), headers_only, limit)


def count_documents(session, caller: Caller, filters: dict) -> int:
    """How many documents filter_documents finds in all its pages."""
    query = _at_level_documents(within(select(func.count()).select_from(WarehouseDocument),
                                       WarehouseDocument.__table__, caller, filters), filters.get("level", -1))
    return session.scalar(query)


def document_lines(session, caller: Caller, filters: dict):
    """Every line of the filter's documents with its document, by business date, document and line.

    For a download of any length: five years are a million lines, read a thousand at a time
    (a server-side cursor on PostgreSQL) while they are written out, never held all at once.
    The lines' own copies of warehouse, direction and date take the filter, in the order of
    ix_movements_date (ix_movements_warehouse_date for one warehouse), so for every warehouse or
    one the database sorts nothing; for a person limited to several, it sorts the range first.
    """
    item = WarehouseDocumentItem
    query = within(select(WarehouseDocument.ufid, WarehouseDocument.doc_number, item.id_warehouse, item.direction,
                          item.date, WarehouseDocument.id_customer, item.item_number, item.product_code, item.name,
                          item.lot, item.date_exp, item.amount_base_milli, Product.base_unit)
                   .join(WarehouseDocument, WarehouseDocument.id == item.document_id)
                   .join(Product, Product.product_code == item.product_code), item.__table__, caller, filters)
    yield from session.execute(query.order_by(item.date, item.document_id, item.item_number)
                               .execution_options(yield_per=1000))


def count_document_lines(session, caller: Caller, filters: dict) -> int:
    """How many lines document_lines gives."""
    item = WarehouseDocumentItem
    return session.scalar(within(select(func.count()).select_from(item), item.__table__, caller, filters))


def _at_level_documents(query, level: int):
    if level in (0, 1):
        query = query.where(exists(_at_level(
            select(WarehouseDocumentItem.id)
            .where(WarehouseDocumentItem.document_id == WarehouseDocument.id),
            WarehouseDocumentItem, level)))
    return query


def _documents(session, query, level: int, headers_only: bool, limit: int | None = None) -> list[dict]:
    query = query.order_by(WarehouseDocument.doc_number)
    if limit is not None:
        query = query.limit(limit)
    headers = session.scalars(query).all()
    items = {}
    if not headers_only and headers:
        # A page names its documents (the query again would sort the whole range again);
        # a whole filter's answer is the query, as it may hold more than a statement's parameters.
        ids = [doc.id for doc in headers] if limit is not None else \
            query.with_only_columns(WarehouseDocument.id).scalar_subquery()
        item = WarehouseDocumentItem
        items = _group(session.execute(
            select(item.document_id, WarehouseDocument.doc_number, item.item_number, item.direction,
                   item.product_code, item.name,
                   item.lot, item.date_exp, item.amount_base_milli, item.doc_created_date,
                   item.timestamp_from_client, Product.lot_level, Product.base_unit.label("unit"))
            .join(WarehouseDocument, WarehouseDocument.id == item.document_id)
            .join(Product, Product.product_code == item.product_code)
            .where(item.document_id.in_(ids),
                   *([Product.lot_level == level] if level in (0, 1) else []))
            .order_by(WarehouseDocument.doc_number, item.item_number)), "document_id")
    return [{**{c.key: getattr(doc, c.key) for c in WarehouseDocument.__table__.c if c.key != "id"},
             "wh_doc_items": items.get(doc.id, [])} for doc in headers]
