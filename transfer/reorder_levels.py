"""Reorder levels: one row per (warehouse, product) with min_amount and target_amount in base units.

A row sets that pair's level; a min_amount of 0 removes it (DESIGN section 20). Rows are read by
the API's own schema (PUT /v1/reorder_levels/) and set by the rules of stock/reorder.py, which
name every refused row before anything changes.
"""
from marshmallow import ValidationError

from schemas.alerts import reorder_level_schema
from stock.quantities import from_milli
from stock.reorder import apply_reorder_levels, list_reorder_levels, reorder_level_problems
from transfer import warehouse_names
from transfer.columns import QUANTITY, TEXT, WHOLE, Column, Kind

COLUMNS = (Column("id_warehouse", WHOLE, required=True), warehouse_names.COLUMN,
           Column("product_code", TEXT, required=True),
           Column("min_amount", QUANTITY, required=True), Column("target_amount", QUANTITY, required=True))


def apply(context, rows) -> None:
    session = context.session
    rows = warehouse_names.checked(context, rows)
    loaded, numbers = [], []
    for number, cells in rows:
        context.progress()
        try:
            loaded.append(reorder_level_schema.load(cells))
            numbers.append(number)
        except ValidationError as error:
            context.schema_errors(number, error.messages)
    for index, fields in reorder_level_problems(session, loaded).items():
        for name, messages in fields.items():
            context.error(numbers[index], name, messages[0])
    if context.report.errors:
        return
    before = {(level["id_warehouse"], level["product_code"]): level for level in list_reorder_levels(session)}
    for number, row in zip(numbers, loaded):
        level = before.get((row["id_warehouse"], row["product_code"]))
        if level is None:
            what = "unchanged" if row["min_amount_milli"] == 0 else "created"
        elif (level["min_amount_milli"], level["target_amount_milli"]) == \
                (row["min_amount_milli"], row["target_amount_milli"]):
            what = "unchanged"
        else:
            what = "updated"  # a removal (min_amount 0) too: the file changed the pair
        context.outcome(number, f"{row['id_warehouse']}/{row['product_code']}", what)
    apply_reorder_levels(session, context.actor, loaded)


def export(session, caller=None):
    header = [column.name for column in COLUMNS]
    warehouses = None if caller is None else caller.narrow([])
    name_of = warehouse_names.name_of(session)
    return header, ([level["id_warehouse"], name_of(level["id_warehouse"]), level["product_code"], from_milli(level["min_amount_milli"]),
                     from_milli(level["target_amount_milli"])]
                    for level in list_reorder_levels(session, warehouses))


KIND = Kind("reorder_levels", COLUMNS, apply, export, record=("id_warehouse", "product_code"),
            label="product_code")
