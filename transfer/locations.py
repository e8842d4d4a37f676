"""Locations: one row per location of a warehouse (DESIGN 27), as a depot lays out its racks
in a spreadsheet. A row whose code the warehouse has (whatever its case) changes the fields it
gives; another adds the location. Set by the rules of stock/locations.py, every refused row
named before anything changes.
"""
from marshmallow import ValidationError

from schemas.locations import location_row_schema
from stock import locations
from stock.caller import may_manage
from stock.errors import ServiceError, say
from transfer import warehouse_names
from transfer.columns import TEXT, WHOLE, Column, Kind

COLUMNS = (Column("id_warehouse", WHOLE, required=True), warehouse_names.COLUMN,
           Column("code", TEXT, required=True), Column("name", TEXT), Column("sequence", WHOLE),
           Column("hold", WHOLE), Column("active", WHOLE), Column("receiving", WHOLE))


def apply(context, rows) -> None:
    session = context.session
    for number, cells in warehouse_names.checked(context, rows):
        context.progress()
        try:
            row = location_row_schema.load(cells)
        except ValidationError as error:
            context.schema_errors(number, error.messages)
            continue
        if not may_manage(context.caller, frozenset({row["id_warehouse"]})):
            context.error(number, "id_warehouse", say("Warehouse %(number)s lies beyond the warehouses you may manage.",
                                                      number=row["id_warehouse"]))
            continue
        record = f"{row['id_warehouse']}/{row['code']}"
        try:
            found = locations.get_location(session, row["id_warehouse"], row["code"])
            if found is None:
                active = row.pop("active", 1)
                locations.add_location(session, context.actor, row)
                if not active:
                    found = locations.get_location(session, row["id_warehouse"], row["code"])
                    locations.change_location(session, context.actor, found, {"active": 0})
                context.outcome(number, record, "created")
            else:
                fields = {name: value for name, value in row.items() if name not in ("id_warehouse", "code")}
                changed = locations.change_location(session, context.actor, found, fields)
                context.outcome(number, record, "updated" if changed else "unchanged")
        except ServiceError as refused:
            context.refused(number, refused)


def export(session, caller=None):
    header = [column.name for column in COLUMNS]
    warehouses = None if caller is None else caller.narrow([])
    name_of = warehouse_names.name_of(session)
    return header, ([row["id_warehouse"], name_of(row["id_warehouse"]), row["code"], row["name"], row["sequence"],
                     row["hold"], row["active"], row["receiving"]]
                    for row in locations.all_locations(session, warehouses))


KIND = Kind("locations", COLUMNS, apply, export, record=("id_warehouse", "code"), label="code")
