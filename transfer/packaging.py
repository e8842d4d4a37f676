"""Packaging: one row per packaging unit (product_code, unit, amount_base_units, barcode).

The rows of one product, in file order, replace its whole packaging list; products the file
does not name keep theirs. Without a barcode column each unit keeps the barcode it had.
"""
from marshmallow import ValidationError

from schemas import product_update_schema
from stock import catalog
from stock.errors import ServiceError, say
from stock.quantities import from_milli
from transfer.columns import QUANTITY, TEXT, Column, Kind
from transfer.products import packaging_of, prefetch

COLUMNS = (Column("product_code", TEXT, required=True), Column("unit", TEXT, required=True),
           Column("amount_base_units", QUANTITY, required=True), Column("barcode", TEXT))


def apply(context, rows) -> None:
    session = context.session
    by_product: dict[str, list] = {}
    for number, cells in rows:
        code = cells.get("product_code", "")
        if not code:
            context.error(number, "product_code", say("A product code is required."))
            context.progress()
            continue
        by_product.setdefault(code, []).append((number, cells))
    existing = prefetch(session, by_product)
    for code, lines in by_product.items():
        context.progress(len(lines))
        product = existing.get(code)
        if product is None:
            for number, _ in lines:
                context.error(number, "product_code", say("No product %(code)r.", code=code))
            continue
        kept_barcodes = {p["unit"]: p["barcode"] for p in packaging_of(product)}
        entries = []
        for _, cells in lines:
            entry = {key: cells[key] for key in ("unit", "amount_base_units", "barcode") if key in cells}
            if "barcode" not in entry and entry.get("unit") in kept_barcodes:
                entry["barcode"] = kept_barcodes[entry["unit"]]
            entries.append(entry)
        first = lines[0][0]
        try:
            loaded = product_update_schema.load({"packaging": entries})
        except ValidationError as error:
            inner = error.messages.get("packaging", {})
            if isinstance(inner, dict):
                for index, messages in inner.items():
                    context.schema_errors(lines[index][0] if isinstance(index, int) else first, messages)
            else:
                context.schema_errors(first, {"unit": inner})
            continue
        if loaded["packaging"] == packaging_of(product):
            context.outcome(first, code, "unchanged")
            continue
        try:
            with session.begin_nested():
                catalog.update_in(session, code, loaded)
        except ServiceError as error:
            context.refused(first, error)
            continue
        context.outcome(first, code, "updated")


def export(session, caller=None):
    header = [column.name for column in COLUMNS]
    listed = catalog.list_products(session)
    return header, ([product["product_code"], entry["unit"], from_milli(entry["amount_base_units_milli"]),
                     entry["barcode"]] for product in listed for entry in product["packaging"])


KIND = Kind("packaging", COLUMNS, apply, export, record=("product_code", "unit"), label="unit")
