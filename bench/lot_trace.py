"""Part of scenario i: a lot of the five-year depot delivered to 2,000 customers, and its story.

DESIGN 28 asks a recall's answer within hours; the service's share is the lot's story (GET
/v1/lots/trace) under 100 ms as JSON and its page under 300 ms, however long the depot's history.
The lot is written into the copy of the five-year depot the scenario serves, straight into its
tables as the depot itself was (bench/five_years.py), with the balances and counters agreeing:
one goods-in of 12,000 pieces on the first day of the five years, then 5 pieces to each of 2,000
new customers, one delivery a day or so, each on a batch that names its order.

Beside it, five years of moves between locations (DESIGN 27): 100,000 of them, about 55 a day, of
one to five lines of other products, and 20 of the lot itself within warehouse 1, each with its
lines in move_items as stock/moves.py writes them. The story must find the lot's few among them.
Moves within a warehouse change no balance; the depot keeps no stock per location (none of its
reads timed here looks at it).
"""
import hashlib
import json
import random
import sqlite3
from datetime import date, datetime, timedelta

PRODUCT, LOT = "P00000", "RECALL-1"  # P00000 is kept by lot (one product in ten)
CUSTOMERS, EACH, FIRST_CUSTOMER = 2_000, 5, 100_001
MOVES, LOT_MOVES = 100_000, 20
TRACE = f"/v1/lots/trace?product_code={PRODUCT}&lot={LOT}"
PAGE = f"/lots/{PRODUCT}/{LOT}"
RECALL_CSV = PAGE + "?format=csv"


def add_recalled_lot(path, years: int) -> None:
    """Write the lot, its goods-in and its 2,000 deliveries into the depot at `path`."""
    con = sqlite3.connect(path)
    try:
        con.execute("BEGIN IMMEDIATE")
        doc = con.execute("SELECT max(id), max(doc_number) FROM warehouse_documents").fetchone()
        next_id, next_number = (doc[0] or 0) + 1, (doc[1] or 0) + 1
        batch = (con.execute("SELECT max(batch_number) FROM batches").fetchone()[0] or 0) + 1
        name = con.execute("SELECT name FROM products WHERE product_code = ?", (PRODUCT,)).fetchone()[0]
        first = date.today() - timedelta(days=365 * years)
        con.executemany(
            "INSERT INTO customers (id_customer, name, registration_number, tax_id, vat_number, street, city, zip, "
            "country) VALUES (?, ?, '', '', '', ?, ?, ?, 'SI')",
            [(n, f"Shop {n}", f"Main street {n % 200}", f"Town {n % 97}", f"{1000 + n % 9000}")
             for n in range(FIRST_CUSTOMER, FIRST_CUSTOMER + CUSTOMERS)])
        docs, lines, batches = [], [], []
        for index in range(CUSTOMERS + 1):
            incoming = index == 0
            day = (first + timedelta(days=(index * 365 * years) // (CUSTOMERS + 1))).isoformat()
            direction = "I" if incoming else "O"
            amount = CUSTOMERS * EACH * 1000 + 2_000_000 if incoming else EACH * 1000
            order = "" if incoming else f"REC-{index:05d}"
            customer = 0 if incoming else FIRST_CUSTOMER + index - 1
            batches.append((batch + index, 1, direction, "R", day, day, "5.1", "", 0, order,
                            hashlib.sha256(f"recall-{index}".encode()).hexdigest()))
            docs.append((next_id + index, next_number + index, 1, direction, day, day, customer, batch + index,
                         f"{direction}-R-{index:06d}"))
            lines.append((next_id + index, 1, 1, direction, day, PRODUCT, name, LOT, "", amount, day, ""))
        con.executemany("INSERT INTO batches (batch_number, id_warehouse, direction, type, date, created_date, "
                        "app_version, name, truck, document_number, content_digest) VALUES "
                        "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", batches)
        con.executemany("INSERT INTO warehouse_documents (id, doc_number, id_warehouse, direction, date, "
                        "doc_created_date, id_customer, batch_number, ufid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", docs)
        con.executemany("INSERT INTO warehouse_document_items (document_id, item_number, id_warehouse, direction, "
                        "date, product_code, name, lot, date_exp, amount_base_milli, doc_created_date, "
                        "timestamp_from_client) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", lines)
        con.execute("INSERT INTO balances (id_warehouse, product_code, lot, amount_milli) VALUES (1, ?, ?, ?)",
                    (PRODUCT, LOT, 2_000_000))
        con.execute("UPDATE counters SET value = ? WHERE name = 'doc_number'", (next_number + CUSTOMERS,))
        _add_moves(con, first, years)
        con.execute("COMMIT")
    finally:
        con.close()


def _add_moves(con, first: date, years: int) -> None:
    """MOVES moves spread over the years, every MOVES // LOT_MOVES-th one of the lot (within
    warehouse 1), the others of products of the depot in their warehouses."""
    rng = random.Random(40)
    products = [code for code, in con.execute("SELECT product_code FROM products ORDER BY product_code")]
    lot_level = {code for code, in con.execute("SELECT product_code FROM products WHERE lot_level = 1")}
    start = datetime(first.year, first.month, first.day, 8)
    step = timedelta(days=365 * years) / MOVES
    moves, lines = [], []
    for index in range(MOVES):
        move_id = f"bench-move-{index:06d}"
        if index % (MOVES // LOT_MOVES) == MOVES // LOT_MOVES // 2:
            warehouse, items = 1, [(PRODUCT, LOT, EACH * 1000)]
        else:
            warehouse = rng.randint(1, 5)
            items = []
            for _ in range(rng.randint(1, 5)):
                code = rng.choice(products)
                lot = f"L{first.year + rng.randrange(years)}{rng.randrange(3)}" if code in lot_level else ""
                items.append((code, lot, rng.randint(1, 20) * 1000))
        created = (start + step * index).strftime("%Y-%m-%d %H:%M:%S.%f")
        moves.append((move_id, warehouse, f"A-{rng.randrange(100):02d}", warehouse, f"B-{rng.randrange(50):02d}",
                      "", created, "bench", hashlib.sha256(move_id.encode()).hexdigest(), 0, 0,
                      json.dumps([{"product_code": code, "lot": lot, "amount_milli": amount}
                                  for code, lot, amount in items])))
        lines += [(move_id, number, code, lot, amount) for number, (code, lot, amount) in enumerate(items, start=1)]
    con.executemany("INSERT INTO moves (move_id, from_warehouse, from_location, to_warehouse, to_location, note, "
                    "created_at, posted_by, content_digest, out_document_id, in_document_id, items) VALUES "
                    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", moves)
    con.executemany("INSERT INTO move_items (move_id, line, product_code, lot, amount_milli) VALUES (?, ?, ?, ?, ?)",
                    lines)
