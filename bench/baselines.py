"""Baselines: the same work done with nothing of the service in the way.

Imported, it gives the in-process baselines (raw sqlite3 executemany, json.dumps).
Run as a script (`python bench/baselines.py --port N`), it serves a bare Flask + waitress app
with routes shaped like the service's, so the HTTP baselines run in their own process with the
same server and thread count as the service.
"""
import argparse
import json
import sqlite3
import statistics
import time
from decimal import Decimal

BATCH_ITEM_COLUMNS = (
    "batch_number", "user_visible_batch_item_id", "doc_number", "doc_item_number",
    "product_code", "unit", "amount", "amount_base_unit", "barcode", "date_exp", "lot", "name",
    "palette", "status", "timestamp_client", "wplace",
)


def product_dict(code, n_packagings=1):
    """A product in the response shape of the contract (section 2.1)."""
    return {
        "product_code": code,
        "name": f"Product {code}",
        "active": 1,
        "base_unit": "pc",
        "base_unit_barcode": "",
        "category": 0,
        "lot_level": 0,
        "packaging": [{"unit": f"pack{n}", "amount_base_units": 10 ** n, "barcode": ""}
                      for n in range(1, n_packagings + 1)],
        "weight_brutto": 0,
        "weight_netto": 0,
        "weight_unit": "kg",
    }


def create_bare_app(list_size):
    from flask import Flask, jsonify, request

    app = Flask(__name__)

    @app.get("/health")
    def health():
        return {"status": "ok"}

    @app.get("/v1/products/<path:code>")
    def view_product(code):
        # Built per request, as a handler that read it from somewhere would.
        return jsonify(item=product_dict(code))

    @app.get("/v1/products/")
    def list_products():
        # The same count and shape the service lists in scenario d (3 packagings each).
        return jsonify(list=[product_dict(f"P{i:05d}", 3) for i in range(list_size)])

    @app.post("/v1/batches/")
    def add_batch():
        # Parse the body like the service must, book nothing.
        request.get_json()
        return {}, 201

    return app


class SqliteInsert:
    """Raw sqlite3: batch-item rows inserted with executemany in one transaction.

    WAL and synchronous=FULL like the service's SQLite settings, so the commit's fsync is in
    both figures. One call of insert() is one round, so the caller can interleave rounds
    with the service's requests.
    """

    def __init__(self, db_path):
        self.conn = sqlite3.connect(db_path, isolation_level=None)  # we BEGIN/COMMIT ourselves
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.execute(
            "CREATE TABLE batch_item (id_batch_item INTEGER PRIMARY KEY, batch_number INTEGER,"
            " user_visible_batch_item_id INTEGER, doc_number INTEGER, doc_item_number INTEGER,"
            " product_code TEXT, unit TEXT, amount INTEGER, amount_base_unit INTEGER,"
            " barcode TEXT, date_exp TEXT, lot TEXT, name TEXT, palette INTEGER,"
            " status INTEGER, timestamp_client TEXT, wplace TEXT)")
        self.sql = (f"INSERT INTO batch_item ({', '.join(BATCH_ITEM_COLUMNS)}) "
                    f"VALUES ({', '.join('?' * len(BATCH_ITEM_COLUMNS))})")
        self.batch_number = 0

    def insert(self, items):
        """Seconds to insert the rows of a new batch of `items` (scanner items as posted), with
        the values the service stores for them; building the rows is not timed."""
        self.batch_number += 1
        data = [(self.batch_number, n, self.batch_number, n, i["product_code"], i["unit"],
                 int(Decimal(i["amount"]) * 1000), int(Decimal(i["amount_base_unit"]) * 1000),
                 i["barcode"], i["date_exp"], i["lot"], i["name"], i["palette"], i["status"],
                 i["timestamp_client"], i["wplace"])
                for n, i in enumerate(items, start=1)]
        t0 = time.perf_counter()
        self.conn.execute("BEGIN IMMEDIATE")
        self.conn.executemany(self.sql, data)
        self.conn.execute("COMMIT")
        return time.perf_counter() - t0

    def close(self):
        self.conn.close()


def json_dumps_ms(objs, repeats=5):
    """Median ms for json.dumps of the given objects."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        json.dumps(objs)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def main():
    parser = argparse.ArgumentParser(description="bare Flask + waitress baseline server")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--list-size", type=int, default=10_000)
    args = parser.parse_args()
    import waitress
    waitress.serve(create_bare_app(args.list_size), host="127.0.0.1", port=args.port,
                   threads=args.threads)


if __name__ == "__main__":
    main()
