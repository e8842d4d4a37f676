"""Products: one row per product, every product field a column, packaging in numbered groups.

Columns: the fields of schemas.ProductSchema (product_code required), and for packaging
`packaging_N_unit`, `packaging_N_amount_base_units`, `packaging_N_barcode` (N = 1, 2, ...).
A row creates the product or changes the fields its file has columns for; when the file has
packaging columns the row's groups replace the product's packaging (a group left out of the
barcode column keeps that unit's barcode), else the packaging stays as it is.
"""
import re

from marshmallow import ValidationError, fields as schema_fields
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from models import Product
from schemas import Quantity, product_schema, product_update_schema
from stock import catalog
from stock.errors import ServiceError, say
from stock.quantities import from_milli
from transfer.columns import QUANTITY, TEXT, WHOLE, Column, Kind

PACKAGING_PARTS = {"unit": Column("unit", TEXT), "amount_base_units": Column("amount_base_units", QUANTITY),
                   "barcode": Column("barcode", TEXT)}
PACKAGING_COLUMN = re.compile(r"packaging_([0-9]+)_(unit|amount_base_units|barcode)")
CHUNK = 500
FLUSH_EVERY = 500


def _column_type(field) -> str:
    if isinstance(field, Quantity):
        return QUANTITY
    if isinstance(field, schema_fields.Integer):
        return WHOLE
    return TEXT


# Every field of a product but its packaging, in the schema's order: a field added there is a
# column here.
COLUMNS = tuple(Column(name, _column_type(field), required=name == "product_code")
                for name, field in product_schema.fields.items() if name != "packaging")


def attribute(name: str) -> str:
    return product_schema.fields[name].attribute or name


def prefetch(session, codes) -> dict:
    """The products named, with their packaging, in a few statements (not one per row)."""
    found = {}
    codes = sorted(set(codes))
    for start in range(0, len(codes), CHUNK):
        query = (select(Product).where(Product.product_code.in_(codes[start:start + CHUNK]))
                 .options(selectinload(Product.packaging)))
        found.update({product.product_code: product for product in session.scalars(query)})
    return found


def packaging_of(product) -> list[dict]:
    return [{"unit": p.unit, "amount_base_units_milli": p.amount_base_units_milli, "barcode": p.barcode}
            for p in product.packaging] if product is not None else []


def apply(context, rows) -> None:
    session = context.session
    existing = prefetch(session, (f["product_code"] for _, f in rows if f.get("product_code")))
    packaging_given = any(PACKAGING_COLUMN.fullmatch(name) for name in context.columns)
    seen, barcodes = {}, {}
    # New products are flushed a few hundred at a time, not one by one: the rules' own look-ups
    # then miss the file's earlier rows, so the file's codes and barcodes are checked here.
    with session.no_autoflush:
        waiting = 0
        for number, cells in rows:
            context.progress()
            code = cells.get("product_code", "")
            if code and code in seen:
                context.error(number, "product_code", say("The product repeats row %(row)s.", row=seen[code]))
                continue
            seen[code] = number
            product = existing.get(code)
            body, groups = _body(cells, product, packaging_given)
            try:
                loaded = (product_update_schema if product is not None else product_schema).load(body)
            except ValidationError as error:
                context.schema_errors(number, _packaging_errors(error.messages, groups))
                continue
            if _barcode_repeats(context, number, code, product, loaded, barcodes):
                continue
            if product is not None and _unchanged(product, loaded):
                context.outcome(number, code, "unchanged")
                continue
            try:
                if product is None:
                    catalog.create_in(session, loaded, flush=False)
                    waiting += 1
                else:
                    catalog.update_in(session, code, loaded)
                    waiting = 0
            except ServiceError as error:
                context.refused(number, error)
                continue
            context.outcome(number, code, "created" if product is None else "updated")
            if waiting >= FLUSH_EVERY:
                session.flush()
                waiting = 0
        session.flush()


def _barcode_repeats(context, number: int, code: str, product, loaded: dict, barcodes: dict) -> bool:
    """A barcode an earlier row of the file gave another product: an error of this row."""
    base = loaded.get("base_unit_barcode", product.base_unit_barcode if product is not None else "")
    units = loaded["packaging"] if "packaging" in loaded else packaging_of(product)
    found = False
    for column, barcode in [("base_unit_barcode", base), *(("packaging", p["barcode"]) for p in units)]:
        if not barcode:
            continue
        row, owner = barcodes.setdefault(barcode, (number, code))
        if owner != code:
            context.error(number, column, say("The barcode %(barcode)r is also on row %(row)s.", barcode=barcode, row=row))
            found = True
    return found


def _body(cells: dict, product, packaging_given: bool) -> tuple[dict, list[int]]:
    """The request body the row stands for, and the group number of each packaging entry."""
    body = {name: value for name, value in cells.items() if not PACKAGING_COLUMN.fullmatch(name)}
    if not packaging_given:
        return body, []
    groups: dict[int, dict] = {}
    for name, value in cells.items():
        match = PACKAGING_COLUMN.fullmatch(name)
        if match:
            groups.setdefault(int(match[1]), {})[match[2]] = value
    kept_barcodes = {p["unit"]: p["barcode"] for p in packaging_of(product)}
    entries, numbers = [], []
    for group in sorted(groups):
        entry = groups[group]
        if not entry.get("unit") and "amount_base_units" not in entry and not entry.get("barcode"):
            continue
        if "barcode" not in entry and entry.get("unit") in kept_barcodes:
            entry["barcode"] = kept_barcodes[entry["unit"]]
        entries.append(entry)
        numbers.append(group)
    body["packaging"] = entries
    return body, numbers


def _packaging_errors(messages: dict, groups: list[int]) -> dict:
    """Errors of packaging entry i, named by the group number of their columns."""
    inner = messages.get("packaging")
    if isinstance(inner, dict):
        messages = {**messages, "packaging": {groups[i] if isinstance(i, int) and i < len(groups) else i: m
                                              for i, m in inner.items()}}
    elif isinstance(inner, list):
        messages = {**messages, "packaging": {groups[0] if groups else 1: {"unit": inner}}}
    return messages


def _unchanged(product, loaded: dict) -> bool:
    for key, value in loaded.items():
        if key == "packaging":
            if value != packaging_of(product):
                return False
        elif getattr(product, key) != value:
            return False
    return True


def export(session, caller=None, search: str = ""):
    """(header, rows) of every product (or those a search finds) in the import's columns:
    importing them changes nothing. The products page downloads the same."""
    listed = catalog.search_products(session, search) if search else catalog.list_products(session)
    groups = max((len(p["packaging"]) for p in listed), default=0)
    header = [column.name for column in COLUMNS] + [
        f"packaging_{n}_{part}" for n in range(1, groups + 1) for part in PACKAGING_PARTS]

    def rows():
        for product in listed:
            row = []
            for column in COLUMNS:
                value = product[attribute(column.name)]
                row.append(from_milli(value) if column.type == QUANTITY else value)
            for entry in product["packaging"]:
                row += [entry["unit"], from_milli(entry["amount_base_units_milli"]), entry["barcode"]]
            row += ["", None, ""] * (groups - len(product["packaging"]))
            yield row

    return header, rows()


KIND = Kind("products", COLUMNS, apply, export,
            numbered=(PACKAGING_COLUMN, PACKAGING_PARTS,
                      "packaging_N_unit, packaging_N_amount_base_units, packaging_N_barcode",
                      "packaging_{group}_{part}"),
            record=("product_code",), label="name")
