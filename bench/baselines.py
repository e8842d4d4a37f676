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


def sqlite_executemany_ms(db_path, rows=1000, repeats=7):
    """Median ms to insert `rows` batch-item rows with executemany in one transaction.

    WAL and synchronous=FULL like the service's SQLite settings, so the commit's fsync is in
    both figures.
    """
    conn = sqlite3.connect(db_path, isolation_level=None)  # we issue BEGIN/COMMIT ourselves
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute(
            "CREATE TABLE batch_item (id_batch_item INTEGER PRIMARY KEY, batch_number INTEGER,"
            " user_visible_batch_item_id INTEGER, doc_number INTEGER, doc_item_number INTEGER,"
            " product_code TEXT, unit TEXT, amount INTEGER, amount_base_unit INTEGER,"
            " barcode TEXT, date_exp TEXT, lot TEXT, name TEXT, palette INTEGER,"
            " status INTEGER, timestamp_client TEXT, wplace TEXT)")
        sql = (f"INSERT INTO batch_item ({', '.join(BATCH_ITEM_COLUMNS)}) "
               f"VALUES ({', '.join('?' * len(BATCH_ITEM_COLUMNS))})")
        times = []
        for rep in range(repeats + 1):  # the first round warms the file up and is not counted
            batch_number = 1000 + rep
            data = [(batch_number, i + 1, batch_number, i + 1, f"P{i % 200:05d}", "pc",
                     2000, 2000, "", "", "", "", 0, 0, "2026-11-01T10:00:00.000+0100", "")
                    for i in range(rows)]
            t0 = time.perf_counter()
            conn.execute("BEGIN IMMEDIATE")
            conn.executemany(sql, data)
            conn.execute("COMMIT")
            if rep:
                times.append(time.perf_counter() - t0)
        return statistics.median(times) * 1000
    finally:
        conn.close()


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
