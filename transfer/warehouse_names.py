"""The warehouse_name column of the files that name warehouses (orders, reorder levels).

A file is written with the warehouse's name beside its number, for the people who read it
(DESIGN 17); read back, the name is a check, never a second key: a row whose name is not
that of its id_warehouse is an error, so a number typed into the wrong row shows before
anything is booked. A row that gives only the name has its number looked up by it.
"""
from stock import warehouses
from stock.errors import say
from transfer.columns import TEXT, Column

COLUMN = Column("warehouse_name", TEXT)


def checked(context, rows) -> list:
    """The rows without their warehouse_name, each checked against (or giving) its id_warehouse; a
    row whose name is refused is left out, its one error said (the import then changes nothing)."""
    if not context.given(COLUMN.name):
        return rows
    names = warehouses.names(context.session)
    numbers = {name: number for number, name in names.items()}
    kept = []
    for row, cells in rows:
        cells = dict(cells)
        name = cells.pop(COLUMN.name, "")
        number = cells.get("id_warehouse")
        if name and number is None:
            if name not in numbers:
                context.error(row, COLUMN.name, say("No warehouse is named %(name)r: use a name from /admin/warehouses, "
                                                    "or give id_warehouse.", name=name))
                continue
            cells["id_warehouse"] = numbers[name]
        elif name and number in names and names[number] != name:
            context.error(row, COLUMN.name, say("Warehouse %(number)s is named %(name)r, not %(given)r: correct the name "
                                                "or the number.", number=number, name=names[number], given=name))
            continue
        kept.append((row, cells))
    return kept


def name_of(session):
    """A function giving a warehouse's name by its number ("" for none), read once per export."""
    names = warehouses.names(session)
    return lambda number: names.get(number, "")
