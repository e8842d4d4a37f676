"""Scenarios w and x: stock that warns (DESIGN section 20).

w: POST /v1/batches/ of 1000 items on a service whose webhook receiver hangs (takes the request
   and never answers) against the same service with no webhook: the outbox must keep a
   receiver's trouble out of the booking (goal: at most 10% more).
x: GET /v1/alerts/ on a depot of 5,000 products in two warehouses and 1,000,000 movement lines,
   against the 100 ms the issue allows. The depot is written straight into SQLite with bulk
   inserts (a minute of posting would be needed otherwise) and kept in bench/results/ between
   runs; the service then upgrades nothing (the file is at the newest migration) and answers.
"""
import datetime
import http.server
import json
import random
import shutil
import sqlite3
import statistics
import threading
import time

import server
from load import batch_body, batch_lines, create_products, day, encode, median_ms
from report import Row

W_PRODUCTS = 200
W_REPEATS = 9
X_PRODUCTS = 5_000
X_WAREHOUSES = 2
X_DOCUMENTS = 1_000
X_LINES = 1_000  # per document: 1,000,000 movement lines
X_REPEATS = 15
X_BUDGET_MS = 100.0
DEPOT_VERSION = "x9"  # x9: each balance carries its lot's best-before


class HangingReceiver:
    """Takes each webhook request and answers nothing until stopped (or a minute has passed)."""

    def __init__(self):
        stop = self.stop_event = threading.Event()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                stop.wait(60)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.stop_event.set()
        self.server.shutdown()
        self.server.server_close()


def scenario_w(ctx):
    """POST /v1/batches/ with 1000 items, a hanging webhook receiver vs none."""
    lines = batch_lines(1000, W_PRODUCTS, 0)
    receiver = HangingReceiver()
    hooked_times, plain_times = [], []
    try:
        with ctx.service("w-hooked") as hooked, ctx.service("w-plain") as plain, \
                server.Client(hooked.port, ctx.key) as hooked_client, \
                server.Client(plain.port, ctx.key) as plain_client:
            for client in (hooked_client, plain_client):
                create_products(client, W_PRODUCTS)
            status, data = hooked_client.request("POST", "/v1/webhooks/", {"data": {
                "url": receiver.url, "events": ["batch.booked"]}})
            if status != 201:
                raise RuntimeError(f"POST /v1/webhooks/: HTTP {status} {data[:300]!r}")
            for i in range(W_REPEATS + 1):  # round 0 warms up
                body = encode(batch_body(100 + i, "I", day(0), lines))
                timings = []
                for client in ((hooked_client, plain_client) if i % 2 else (plain_client, hooked_client)):
                    status, data, sec = client.timed("POST", "/v1/batches/", body)
                    if status != 201:
                        raise RuntimeError(f"POST /v1/batches/: HTTP {status} {data[:300]!r}")
                    timings.append((client, sec))
                if i:
                    for client, sec in timings:
                        (hooked_times if client is hooked_client else plain_times).append(sec)
    finally:
        receiver.close()
    ctx.note("w: POST ms with a hanging receiver: " + ", ".join(f"{t * 1000:.0f}" for t in hooked_times))
    ctx.note("w: POST ms with no webhook: " + ", ".join(f"{t * 1000:.0f}" for t in plain_times))
    ctx.add(Row("w. POST 1000 items, hanging webhook vs none", "ms", median_ms(hooked_times),
                median_ms(plain_times), 1.10, 1.25, False))


def build_depot(path):
    """5,000 products, 1,000 documents of 1,000 lines over five years, balances, best-before, levels."""
    connection = sqlite3.connect(path)
    random.seed(20)
    today = datetime.date.today()
    connection.executemany(
        "INSERT INTO products (product_code, name, active, base_unit, base_unit_barcode, category, lot_level, "
        "weight_brutto_milli, weight_netto_milli, weight_unit) VALUES (?, ?, 1, 'pc', '', 0, ?, 0, 0, 'kg')",
        [(f"P{i:05d}", f"Bench product {i}", i % 2) for i in range(X_PRODUCTS)])
    balances, best = {}, {}
    lots: dict[tuple, list] = {}  # (warehouse, code) -> its lots in stock, oldest first: [lot, amount]
    documents, lines = [], []
    serial = {"I": 0, "O": 0}
    number = 0
    while len(lines) < X_DOCUMENTS * X_LINES:
        number += 1
        # Five years, in the order the lines were booked.
        doc_day = today - datetime.timedelta(days=int((1 - len(lines) / (X_DOCUMENTS * X_LINES)) * 5 * 365))
        warehouse = 1 + number % X_WAREHOUSES
        direction = "I" if (number // X_WAREHOUSES) % 5 in (0, 1) else "O"  # each warehouse receives, ships
        serial[direction] += 1
        documents.append((number, number, warehouse, direction, doc_day.isoformat(), doc_day.isoformat(), 0, -1,
                          f"{direction}-{doc_day.year}-{serial[direction]:06d}"))
        item_number = tries = 0
        while item_number < X_LINES and tries < 20 * X_LINES:
            tries += 1
            product = random.randrange(X_PRODUCTS)
            code = f"P{product:05d}"
            held = lots.setdefault((warehouse, code), [])
            if direction == "I":
                # Products kept by lot carry a best-before; the others none.
                lot = f"L{doc_day:%y%m}" if product % 2 else ""
                amount = random.randrange(1, 50) * 1000
                date_exp = (doc_day + datetime.timedelta(days=120 + product % 300)).isoformat() if lot else ""
                if date_exp and date_exp < best.get((code, lot), "9999"):
                    best[(code, lot)] = date_exp
                if held and held[-1][0] == lot:
                    held[-1][1] += amount
                else:
                    held.append([lot, amount])
            else:
                # First in, first out, as a depot ships: the oldest lot in stock goes first.
                if not held:  # none of it in stock: the picker ships another product
                    continue
                lot, date_exp = held[0][0], ""
                amount = min(held[0][1], random.randrange(1, 45) * 1000)
                held[0][1] -= amount
                if not held[0][1]:
                    held.pop(0)
            item_number += 1
            key = (warehouse, code, lot)
            balances[key] = balances.get(key, 0) + (amount if direction == "I" else -amount)
            lines.append((number, item_number, warehouse, direction, doc_day.isoformat(), code,
                          f"Bench product {product}", lot, date_exp, amount, doc_day.isoformat(), ""))
    connection.executemany(
        # The internal id (DESIGN 23) equal to the number, as the migration gives existing documents.
        "INSERT INTO warehouse_documents (id, doc_number, id_warehouse, direction, date, doc_created_date, "
        "id_customer, batch_number, ufid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", documents)
    connection.executemany(
        "INSERT INTO warehouse_document_items (document_id, item_number, id_warehouse, direction, date, "
        "product_code, name, lot, date_exp, amount_base_milli, doc_created_date, timestamp_from_client) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", lines)
    connection.executemany("INSERT INTO balances (id_warehouse, product_code, lot, amount_milli, best_before) "
                           "VALUES (?, ?, ?, ?, ?)", [(w, code, lot, amount, best.get((code, lot), ""))
                                                      for (w, code, lot), amount in balances.items()])
    connection.executemany("INSERT INTO best_before (product_code, lot, date_exp, expiring_notified) "
                           "VALUES (?, ?, ?, '')", [(code, lot, day) for (code, lot), day in best.items()])
    stock = {}
    for (w, code, _lot), amount in balances.items():
        stock[(w, code)] = stock.get((w, code), 0) + amount
    # Levels for every product in both warehouses; about one in twenty is below its min.
    levels = []
    for (w, code), amount in sorted(stock.items()):
        low = amount + 1000 if int(code[1:]) % 20 == 0 else max(amount // 2, 0)
        if not low:
            continue
        levels.append((w, code, low, low * 2, 0))
    connection.executemany("INSERT INTO reorder_levels (id_warehouse, product_code, min_amount_milli, "
                           "target_amount_milli, low_notified) VALUES (?, ?, ?, ?, ?)", levels)
    connection.commit()
    connection.execute("ANALYZE")
    connection.close()


def scenario_x(ctx):
    """GET /v1/alerts/ with 5,000 products and 1,000,000 movement lines, against 100 ms."""
    cached = server.BENCH / "results" / f"alerts-depot-{DEPOT_VERSION}-{datetime.date.today():%Y%m%d}.db"
    workdir = ctx.tmp / "x"
    workdir.mkdir(parents=True, exist_ok=True)
    database = workdir / "warehouse.db"
    if not cached.exists():
        cached.parent.mkdir(exist_ok=True)
        for old in cached.parent.glob(f"alerts-depot-{DEPOT_VERSION}-*.db"):
            old.unlink()
        t0 = time.monotonic()
        with ctx.service("x-empty") as svc:  # the newest migration, made by the service itself
            pass
        shutil.copyfile(ctx.tmp / "x-empty" / "warehouse.db", workdir / "building.db")
        build_depot(workdir / "building.db")
        shutil.move(workdir / "building.db", cached)
        ctx.note(f"x: depot built in {time.monotonic() - t0:.0f} s and kept as {cached.name}")
    shutil.copyfile(cached, database)
    times, answer = [], None
    with server.service(workdir, ctx.key, database_url=f"sqlite:///{database}") as svc, \
            server.Client(svc.port, ctx.key) as client:
        time.sleep(2)  # the background work's first look at the alerts (events) is over by then
        for i in range(X_REPEATS + 1):
            status, data, sec = client.timed("GET", "/v1/alerts/")
            if status != 200:
                raise RuntimeError(f"GET /v1/alerts/: HTTP {status} {data[:300]!r}")
            if i:
                times.append(sec)
            answer = data
    found = json.loads(answer)["item"]
    ctx.note(f"x: {len(found['low_stock'])} low-stock rows and {len(found['expiring'])} expiring lots; "
             f"GET ms: " + ", ".join(f"{t * 1000:.0f}" for t in times) + f" (spread {statistics.pstdev(times) * 1000:.1f})")
    ctx.add(Row("x. GET /v1/alerts/ 5,000 products, 1,000,000 lines vs the 100 ms allowed", "ms",
                median_ms(times), X_BUDGET_MS, 1.0, 1.5, False))
