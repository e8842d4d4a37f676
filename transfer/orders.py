"""Order documents: one row per order line; the rows of one document_number make one order.

Columns: document_number, id_warehouse, warehouse_name (a check of the number, or the
warehouse by its name: warehouse_names.py), id_customer, description, expiration_limit,
allowed_types ("R", "V" or "R,V"; R when left out), allowed_directions (the lines' directions
when left out), item_number, product_code, lot, amount_ordered, direction, note. The order's own
fields may stand on its first row only; a later row giving another value is an error. The rules
are those of POST /v1/documents/ (schemas.order_create_schema, stock.orders.add_order). An order
that exists already is unchanged when the file says the same of it, and an error otherwise:
an imported order is never changed by a file.
"""
from marshmallow import ValidationError
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from models import OrderDocument
from schemas import order_create_schema
from stock import orders
from stock.errors import ServiceError, say
from stock.quantities import from_milli
from transfer import warehouse_names
from transfer.columns import QUANTITY, TEXT, WHOLE, Column, Kind

ORDER_FIELDS = ("document_number", "id_warehouse", "id_customer", "description", "expiration_limit",
                "allowed_types", "allowed_directions")
LINE_FIELDS = ("item_number", "product_code", "lot", "amount_ordered", "direction", "note")
COLUMNS = (Column("document_number", TEXT, required=True), Column("id_warehouse", WHOLE),
           warehouse_names.COLUMN, Column("id_customer", WHOLE), Column("description", TEXT), Column("expiration_limit", WHOLE),
           Column("allowed_types", TEXT), Column("allowed_directions", TEXT),
           Column("item_number", WHOLE, required=True), Column("product_code", TEXT, required=True),
           Column("lot", TEXT), Column("amount_ordered", QUANTITY, required=True),
           Column("direction", TEXT), Column("note", TEXT))
SETTINGS = ("allowed_types", "allowed_directions")
INFORMATIONAL = ("customer_name", "state", "amount_delivered")


def apply(context, rows) -> None:
    session = context.session
    rows = warehouse_names.checked(context, rows)
    documents: dict[str, list] = {}
    for number, cells in rows:
        documents.setdefault(cells.get("document_number", ""), []).append((number, cells))
    existing = {order.document_number: order for order in session.scalars(
        select(OrderDocument).where(OrderDocument.document_number.in_([d for d in documents if d]))
        .options(selectinload(OrderDocument.items)))}
    for document_number, lines in documents.items():
        context.progress(len(lines))
        body, rows_of = _body(context, lines)
        if body is None:
            continue
        first = lines[0][0]
        try:
            loaded = order_create_schema.load(body)
        except ValidationError as error:
            _schema_errors(context, error.messages, first, rows_of)
            continue
        order = existing.get(document_number)
        if order is not None:
            if _same(order, loaded, context.given("note")):
                context.outcome(first, document_number, "unchanged")
            else:
                context.error(first, "document_number", say("The order exists already with other content; an imported "
                                                            "order is never changed by a file."))
            continue
        if context.caller is not None and not context.caller.sees(loaded["id_warehouse"]):
            context.error(first, "id_warehouse", say("This key may not act in warehouse %(number)s.",
                                                     number=loaded["id_warehouse"]))
            continue
        try:
            with session.begin_nested():
                orders.add_order(session, loaded)
        except ServiceError as error:
            fields = (error.fields or {}).get("data", {})
            if isinstance(fields.get("items"), dict):
                _schema_errors(context, fields, first, rows_of)
            else:
                context.refused(first, error)
            continue
        context.outcome(first, document_number, "created")


def _body(context, lines) -> tuple[dict | None, list[int]]:
    """The order's request body from its rows, and the row of each of its items."""
    order, given_at, ok = {}, {}, True
    for number, cells in lines:
        for name in ORDER_FIELDS:
            if name not in cells or (cells[name] == "" and name != "document_number"):
                continue
            if name in order and order[name] != cells[name]:
                context.error(number, name, say("Differs from row %(row)s of the same order.", row=given_at[name]))
                ok = False
            elif name not in order:
                order[name], given_at[name] = cells[name], number
    if not ok:
        return None, []
    items = []
    for _, cells in lines:
        item = {name: cells[name] for name in LINE_FIELDS if name in cells and name != "note"
                and not (name == "direction" and cells[name] == "")}
        item["meta"] = {"note": cells.get("note", "")}
        items.append(item)
    directions = sorted({item["direction"] for item in items if "direction" in item})
    settings = {
        "allowed_types": _listed(order.pop("allowed_types", "R")),
        "allowed_directions": _listed(order.pop("allowed_directions", ",".join(directions))),
    }
    return {**order, "batch_settings": settings, "items": items}, [number for number, _ in lines]


def _listed(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _schema_errors(context, messages: dict, first: int, rows_of: list[int]) -> None:
    for name, inner in messages.items():
        if name == "items" and isinstance(inner, dict):
            for index, item_messages in inner.items():
                row = rows_of[index] if isinstance(index, int) and index < len(rows_of) else first
                if isinstance(item_messages, dict):
                    item_messages = {("note" if key == "meta" else
                                      "amount_ordered" if key == "amount_ordered_milli" else key): value
                                     for key, value in item_messages.items()}
                context.schema_errors(row, item_messages)
        elif name == "batch_settings" and isinstance(inner, dict):
            context.schema_errors(first, inner)
        else:
            context.schema_errors(first, {name: inner})


def _same(order, loaded: dict, note_given: bool) -> bool:
    settings = loaded["batch_settings"]
    if (order.description, order.id_warehouse, order.id_customer, order.expiration_limit,
            order.allowed_types, order.allowed_directions) != (
            loaded["description"], loaded["id_warehouse"], loaded["id_customer"], loaded["expiration_limit"],
            ",".join(sorted(set(settings["allowed_types"]))),
            ",".join(sorted(set(settings["allowed_directions"])))):
        return False

    def line(item_number, product_code, lot, amount, direction, note):
        return item_number, product_code, lot, amount, direction, note if note_given else ""

    kept = sorted(line(i.item_number, i.product_code, i.lot, i.amount_ordered_milli, i.direction, i.note)
                  for i in order.items)
    sent = sorted(line(i["item_number"], i["product_code"], i["lot"], i["amount_ordered_milli"],
                       i["direction"], i["meta"]["note"]) for i in loaded["items"])
    return kept == sent


def export(session, caller=None):
    header = [column.name for column in COLUMNS]
    query = select(OrderDocument).order_by(OrderDocument.document_number).options(
        selectinload(OrderDocument.items))
    if caller is not None and caller.warehouses is not None:
        query = query.where(OrderDocument.id_warehouse.in_(caller.warehouses))

    name_of = warehouse_names.name_of(session)

    def rows():
        for order in session.scalars(query):
            for item in sorted(order.items, key=lambda i: i.item_number):
                yield _line(order, item, name_of)

    return header, rows()


def _line(order, item, name_of) -> list:
    return [order.document_number, order.id_warehouse, name_of(order.id_warehouse), order.id_customer,
            order.description, order.expiration_limit, order.allowed_types, order.allowed_directions,
            item.item_number, item.product_code, item.lot, from_milli(item.amount_ordered_milli), item.direction,
            item.note]


def listing(found, customers: dict, name_of) -> tuple[list[str], object]:
    """The orders page's download: the orders found, one row per line, in the import's columns
    and beside them what the office reads there (the customer's name, the state, what was
    delivered), which an import reads past: the download imports back unchanged. `name_of`
    gives a warehouse's name by its number."""
    header = [column.name for column in COLUMNS] + list(INFORMATIONAL)

    def rows():
        for order in found:
            for item in sorted(order.items, key=lambda i: i.item_number):
                yield _line(order, item, name_of) + [customers.get(order.id_customer, ""), order.state,
                                                     from_milli(item.amount_delivered_milli)]

    return header, rows()


KIND = Kind("orders", COLUMNS, apply, export, record=("document_number", "item_number"),
            label="description", informational=INFORMATIONAL)
