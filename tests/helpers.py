"""Bodies the tests build again and again, and the rule layer's import and read of an order."""
import sqlite3

import psycopg

from models import Customer
from schemas import order_create_schema
from stock import orders
from storage.db import writing


def product(code="P1", **fields):
    """A product body with the required fields."""
    return {"product_code": code, "name": f"Product {code}", "base_unit": "pc", **fields}


def item(code, amount, unit="pc", **fields):
    """A batch item as a scanner sends it."""
    return {"product_code": code, "amount": amount, "unit": unit, **fields}


# Items the schema refuses: (case, the item, the field it names).
REFUSED_ITEMS = [
    ("amount 4 places", item("P1", "0.0001"), "amount"),
    ("amount not a number", item("P1", "one"), "amount"),
    ("amount bool", item("P1", True), "amount"),
    ("amount_base_unit not a number", item("P1", 1, amount_base_unit="x"), "amount_base_unit"),
    ("date_exp not a date", item("P1", 1, date_exp="2024-02-30"), "date_exp"),
    ("date_exp format", item("P1", 1, date_exp="30.1.2024"), "date_exp"),
    ("timestamp without offset", item("P1", 1, timestamp_client="2024-05-01T10:00:00.000"),
     "timestamp_client"),
    ("timestamp without millis", item("P1", 1, timestamp_client="2024-05-01T10:00:00+0200"),
     "timestamp_client"),
    ("palette not whole", item("P1", 1, palette="3"), "palette"),
    ("palette beyond 64 bits", item("P1", 1, palette=2**63), "palette"),
    ("status beyond 64 bits", item("P1", 1, status=-2**63 - 1), "status"),
    ("status not whole", item("P1", 1, status=1.5), "status"),
    ("unknown field", item("P1", 1, colour="red"), "colour"),
    ("product_code missing", {"amount": 1, "unit": "pc"}, "product_code"),
    ("product_code empty", item("", 1), "product_code"),
    ("amount missing", {"product_code": "P1", "unit": "pc"}, "amount"),
    ("unit missing", {"product_code": "P1", "amount": 1}, "unit"),
]


def batch(number, items, extras=None, **settings):
    """A batch body: R, goods-in, warehouse 1 unless settings say otherwise.

    batch_number and id_warehouse go as strings, as scanners send them.
    """
    body = {
        "batch_settings": {"batch_number": str(number), "id_warehouse": "1", "direction": "I",
                           "type": "R", **settings},
        "batch_items": items,
    }
    if extras is not None:
        body["batch_extras"] = extras
    return body


def order_item(number, code, amount_ordered, **fields):
    """A line of an order document."""
    return {"item_number": number, "product_code": code, "amount_ordered": amount_ordered, **fields}


def order(number="D1", items=None, types=("R",), directions=("I",), **fields):
    """An order document body for warehouse 1 (one line of 10 P1 unless items are given)."""
    return {
        "document_number": number, "id_warehouse": 1,
        "batch_settings": {"allowed_types": list(types), "allowed_directions": list(directions)},
        "items": items if items is not None else [order_item(1, "P1", 10)],
        **fields,
    }


def created(response):
    """Assert a create answered 201 {} and return the response."""
    assert response.status_code == 201, response.json
    assert response.json == {}
    return response


def error_fields(response, status=422):
    """Assert the error status and return the `fields` of the error body ({} if none)."""
    assert response.status_code == status, response.json
    return response.json["error"].get("fields", {})


def known_product_bodies():
    """P1 and P2 in pieces (P1 also in boxes of 6 and doses of 0.125), LOT kept by lot, OFF inactive."""
    return [product("P1", packaging=[{"unit": "box", "amount_base_units": 6},
                                     {"unit": "dose", "amount_base_units": "0.125"}]),
            product("P2"), product("LOT", lot_level=1), product("OFF", active=0)]


def add_products(api):
    """The known_product_bodies() through the service."""
    for body in known_product_bodies():
        created(api.post("/v1/products/", body))


def add_order(session, caller, body):
    """Import an order body on the session, parsed as the route parses it."""
    orders.create_order(session, caller, order_create_schema.load(body))


def the_order(session, caller, number="D1"):
    """The order as read now (the session's earlier reads forgotten)."""
    session.rollback()
    return orders.get_order(session, caller, number)


def qr_modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules (column, row) a QR code's SVG draws, read from its path as a reader
    of the picture would: segno draws each row's runs as `h` strokes along y + 0.5."""
    import re

    path = re.search(r'<path[^>]*stroke="#000"[^>]*d="([^"]+)"', svg) or \
        re.search(r'<path[^>]*d="([^"]+)"[^>]*stroke="#000"', svg)
    assert path, svg[:300]
    dark, x, y = set(), 0.0, 0.0
    for command, numbers in re.findall(r"([MmHhVv])([-\d. ]+)", path.group(1)):
        values = [float(n) for n in numbers.replace("-", " -").split()]
        if command == "M":
            x, y = values
        elif command == "m":
            x, y = x + values[0], y + values[1]
        elif command == "h":
            dark |= {(int(x) + i, int(y - 0.5)) for i in range(int(values[0]))}
            x += values[0]
        else:
            raise AssertionError(f"unexpected path command {command}")
    return dark


def qr_holds(svg: str, text: str) -> bool:
    """Whether the SVG draws the QR code of `text` (segno makes it again; border 4 as the page draws it)."""
    import segno

    for error in ("l", "m", "q", "h"):
        matrix = segno.make(text, error=error, boost_error=False).matrix
        expected = {(col + 4, row + 4) for row, line in enumerate(matrix) for col, bit in enumerate(line) if bit}
        if qr_modules(svg) == expected:
            return True
    return False


def add_customers(session, *ids):
    with writing(session):
        for id_customer in ids:
            session.add(Customer(
                id_customer=id_customer, name=f"Customer {id_customer}", registration_number=f"R{id_customer}",
                tax_id=f"T{id_customer}", vat_number=f"CZ{id_customer}", street="Dlouhá 1", city="Praha",
                zip="110 00", country="CZ",
            ))


def database_gone(conn):
    """The error the driver raises when the database cannot be reached (tests/operations/test_faults.py)."""
    if conn.dialect.name == "sqlite":
        error = sqlite3.OperationalError("unable to open database file")
        error.sqlite_errorcode = 14  # SQLITE_CANTOPEN
        return error
    return psycopg.OperationalError("connection refused")


def planned_on_own_rows(session, *tables: str):
    """A connection in a new transaction whose PostgreSQL plans are of this test's rows alone.

    Rows the tests before filled in and deleted (a demo depot's thousands: the run's database is
    emptied row by row) leave their pages and index entries behind until a vacuum, and PostgreSQL
    costs each way by those sizes: an index swollen by them lost to another. `tables` rewritten
    and analysed first, the plan no longer depends on which tests ran before."""
    session.rollback()
    with session.get_bind().connect().execution_options(isolation_level="AUTOCOMMIT") as vacuuming:
        vacuuming.exec_driver_sql(f"VACUUM (FULL, ANALYZE) {', '.join(tables)}")
    return session.connection()
