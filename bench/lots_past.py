"""Scenario l: the depot of issue 33, whose old lots were never written off, every page and read timed.

The depot: 5,000 products, 1,000 of them kept by lot with a lot a month (received in every
warehouse, best-before six months on); 1,000,000 movement lines in about 2,400 batches over
five years in five warehouses; 300 customers, 1,000 orders, 1,000 reorder levels. Goods-out
ships the oldest lot of a product first and sells about half of the lots out: the rest stay in
stock, and about 150,000 lots past their best-before still hold stock, as in a real depot that
never wrote them off. It is written with bulk inserts into a database the service's migrations
made, balances, best-before and counters agreeing with the documents, and cached like row i's
(<temp dir>/warehouse-bench-cache/, named after the migrations and the size). No ANALYZE.

`BENCH_DEPOT_SCALE=0.1 bench/run.py --only l` builds a tenth of it (500 products, 100,000 lines)
for a quick run; the aims are judged on the full size.

Timed on the service serving a copy (median of L_REPEATS after a warm-up):
- every office page (the alerts of each kind, filtered, and their next pages among them), aim
  300 ms; the alerts page and GET /v1/alerts/ are held to 100 ms;
- every targeted JSON read, aim 100 ms;
- the page right after a booking: / after a one-line goods-in, less / with what pages keep still
  kept (the count beside Alerts): what a page pays to rebuild it, aim 20 ms;
- the whole lists (the inventory filter of every lot, the stock CSV), with the server's peak
  memory (VmHWM of the service process), aim 300 MiB.
"""
import hashlib
import os
import random
import shutil
import sqlite3
import statistics
import time
from datetime import date, timedelta
from pathlib import Path

import server
from bulk import bulk_writer, flush_movements, keep_built
from five_years import CACHE, NEXT_LINK, _download_lines, _fingerprint, _time
from load import batch_body
from report import Row

BUILD_VERSION = 2  # another shape of depot: built anew
SCALE = float(os.environ.get("BENCH_DEPOT_SCALE", "1"))
EXPIRY_DAYS = 30  # the service's default window (WAREHOUSE_EXPIRY_DAYS)
PRODUCTS = max(50, round(5_000 * SCALE))
LOT_EVERY = 5  # one product in five is kept by lot: 1,000 of 5,000
WAREHOUSES, CUSTOMERS, ORDERS, LEVELS = 5, 300, 1_000, 1_000
MONTHS = 60
SHELF_DAYS = 182  # a lot's best-before, from the first day of the month it was received
BATCHES_A_MONTH = 4  # per warehouse and direction: 2,400 batches in all
L_REPEATS = 5
PAGE_AIM, ALERTS_AIM, JSON_AIM, REBUILD_AIM, MEMORY_AIM = 300.0, 100.0, 100.0, 20.0, 300.0
AFTER_BOOKING_ROUNDS = 9
LIGHT_PAGE = "/admin/warehouses"  # a page of a few rows: what is left is the navigation's count


def depot_file(ctx) -> Path:
    CACHE.mkdir(exist_ok=True)
    shape = hashlib.sha256(f"{BUILD_VERSION}:{SCALE}".encode()).hexdigest()[:6]
    name = f"lots-past-{_fingerprint()}-{shape}.db"
    path = CACHE / name
    if path.exists():
        ctx.note(f"l: the depot is cached in {path}")
        return path
    # Depots made for other migrations, and what a build cut short left behind (the other size stays).
    for old in [*CACHE.glob("lots-past-*.db*"), *CACHE.glob("building-l-*.db*")]:
        if old.name.startswith("building-") or not old.name.startswith(f"lots-past-{_fingerprint()}-"):
            old.unlink()
    started = time.monotonic()
    building = CACHE / f"building-l-{name}"
    with server.service(ctx.tmp / "l-build", ctx.key, database_url=f"sqlite:///{building}"):
        pass  # the service makes the schema (its migrations); the rows go in directly
    _fill(building)
    return keep_built(ctx, "l", "the depot", building, path, started)


def _fill(path: Path) -> None:
    rng = random.Random(33)
    con, insert = bulk_writer(path)

    codes = [f"P{i:05d}" for i in range(PRODUCTS)]
    by_lot = [code for i, code in enumerate(codes) if i % LOT_EVERY == 0]
    plain = [code for i, code in enumerate(codes) if i % LOT_EVERY]
    names = {code: f"Product {i} {'ABCDEFGH'[i % 8]}" for i, code in enumerate(codes)}
    insert("products", ["product_code", "name", "active", "base_unit", "base_unit_barcode", "category",
                        "lot_level", "weight_brutto_milli", "weight_netto_milli", "weight_unit"],
           [(code, names[code], 1, "pc", f"{4000000000000 + i:013d}", i % 20, int(i % LOT_EVERY == 0),
             1000, 900, "kg") for i, code in enumerate(codes)])
    insert("packaging", ["product_code", "position", "unit", "amount_base_units_milli", "barcode"],
           [(code, 1, "box", 10_000, f"{6 * 10**12 + i:013d}") for i, code in enumerate(codes)])
    insert("customers", ["id_customer", "name", "registration_number", "tax_id", "vat_number", "street", "city",
                         "zip", "country"],
           [(n, f"Customer {n}", f"R{n}", f"T{n}", f"V{n}", f"Street {n}", "Town", f"{10000 + n}", "SI")
            for n in range(1, CUSTOMERS + 1)])
    con.executemany("INSERT OR IGNORE INTO warehouses (id_warehouse, name, address, active) VALUES (?, ?, '', 1)",
                    [(w, f"Warehouse {w}") for w in range(1, WAREHOUSES + 1)])

    # Lines a warehouse books a month: every lot product's new lot, a share as many other
    # products received, and goods-out (a quarter of its lines sell the rest of a lot out).
    plain_in, out_lines = round(0.667 * len(by_lot)), round(1.667 * len(by_lot))
    today = date.today()
    first = date(today.year, today.month, 1) - timedelta(days=1)
    months = []
    for _ in range(MONTHS):
        months.append(date(first.year, first.month, 1))
        first = months[-1] - timedelta(days=1)
    months.reverse()
    balances: dict[tuple, int] = {}
    held: dict[tuple, list] = {}  # (warehouse, product) -> its lots in stock, oldest first
    best: dict[tuple, str] = {}
    counters: dict[str, int] = {}
    doc_rows, line_rows, batch_rows, item_rows = [], [], [], []
    number = 0
    for month in months:
        lot = f"L{month:%Y%m}"
        best_before = (month + timedelta(days=SHELF_DAYS)).isoformat()
        for code in by_lot:
            best[(code, lot)] = best_before
        for warehouse in range(1, WAREHOUSES + 1):
            received = [(code, lot, best_before, rng.randint(20, 200) * 1000) for code in by_lot]
            received += [(rng.choice(plain), "", "", rng.randint(20, 200) * 1000) for _ in range(plain_in)]
            rng.shuffle(received)
            shipped = []
            for _ in range(out_lines):
                if rng.random() < 0.25:
                    code = rng.choice(by_lot)
                    lots = held.get((warehouse, code))
                    if lots:  # first in, first out: the oldest lot, sold out
                        old = lots.pop(0)
                        shipped.append((code, old, "", balances[(warehouse, code, old)]))
                        continue
                shipped.append((rng.choice(plain), "", "", rng.randint(1, 10) * 1000))
            for direction, lines in (("I", received), ("O", shipped)):
                size = -(-len(lines) // BATCHES_A_MONTH)
                for k in range(BATCHES_A_MONTH):
                    part = lines[k * size:(k + 1) * size]
                    if not part:
                        continue
                    day = (month + timedelta(days=k * 7 + (direction == "O") * 3)).isoformat()
                    if day > today.isoformat():
                        day = today.isoformat()
                    number += 1
                    year = day[:4]
                    serial = counters[f"ufid:{direction}:{year}"] = counters.get(f"ufid:{direction}:{year}", 0) + 1
                    customer = rng.randint(1, CUSTOMERS) if direction == "O" else 0
                    batch_rows.append((number, warehouse, direction, "R", day, day, "5.1", "", 0, "",
                                       hashlib.sha256(str(number).encode()).hexdigest()))
                    doc_rows.append((number, number, warehouse, direction, day, day, customer, number,
                                     f"{direction}-{year}-{serial:06d}"))
                    for n, (code, lot_of, date_exp, amount) in enumerate(part, start=1):
                        key = (warehouse, code, lot_of)
                        if direction == "I":
                            if lot_of and key not in balances:
                                held.setdefault((warehouse, code), []).append(lot_of)
                            balances[key] = balances.get(key, 0) + amount
                        else:
                            balances[key] = balances.get(key, 0) - amount
                        stamp = f"{day}T10:{n % 60:02d}:00.000+0100"
                        line_rows.append((number, n, warehouse, direction, day, code, names[code], lot_of, date_exp,
                                          amount, day, stamp))
                        item_rows.append((number, n, code, "pc", amount, amount, "", date_exp, lot_of, "", 0, 0,
                                          stamp, "", n))
            if len(line_rows) > 200_000:
                flush_movements(insert, batch_rows, item_rows, doc_rows, line_rows)
    flush_movements(insert, batch_rows, item_rows, doc_rows, line_rows)
    counters["doc_number"] = number
    insert("counters", ["name", "value"], sorted(counters.items()))
    insert("balances", ["id_warehouse", "product_code", "lot", "amount_milli", "best_before"],
           [(w, code, lot, amount, best.get((code, lot), "")) for (w, code, lot), amount in sorted(balances.items())])
    # Each lot was told once it came within the expiry window (lot.expiring), years ago for most:
    # the background work's first look at the alerts finds nothing new, as in a depot that ran.
    told_until = (today + timedelta(days=EXPIRY_DAYS)).isoformat()
    insert("best_before", ["product_code", "lot", "date_exp", "expiring_notified"],
           [(code, lot, day, day if day <= told_until else "") for (code, lot), day in sorted(best.items())])
    # Reorder levels of the products not kept by lot: some in each warehouse fall below them.
    levels = rng.sample([(w, code) for w in range(1, WAREHOUSES + 1) for code in plain], min(LEVELS, len(plain)))
    insert("reorder_levels", ["id_warehouse", "product_code", "min_amount_milli", "target_amount_milli",
                              "low_notified"],
           [(w, code, low, 500_000, int(balances.get((w, code, ""), 0) < low))  # those low were told
            for (w, code), low in ((pair, rng.randint(20, 400) * 1000) for pair in sorted(levels))])
    orders, order_items = [], []
    for n in range(1, ORDERS + 1):
        state = 0 if n <= 700 else 1 if n <= 900 else 3
        direction = "O" if n % 2 else "I"
        orders.append((f"ORD-{n:05d}", f"Order {n}", 1 + n % WAREHOUSES, rng.randint(1, CUSTOMERS), 0, "R",
                       direction, state))
        for item in range(1, 6):
            code = codes[(n * 13 + item) % PRODUCTS]
            ordered = rng.randint(1, 50) * 1000
            order_items.append((f"ORD-{n:05d}", item, code, "", ordered, ordered if state == 0 else 0,
                                direction, "[]", ""))
    insert("order_documents", ["document_number", "description", "id_warehouse", "id_customer",
                               "expiration_limit", "allowed_types", "allowed_directions", "state"], orders)
    insert("order_items", ["document_number", "item_number", "product_code", "lot", "amount_ordered_milli",
                           "amount_delivered_milli", "direction", "wplace", "note"], order_items)
    con.execute("COMMIT")
    con.execute("PRAGMA journal_mode=WAL")
    con.close()


def _shape(path: Path) -> str:
    with sqlite3.connect(path) as database:
        lines = database.execute("SELECT count(*) FROM warehouse_document_items").fetchone()[0]
        batches = database.execute("SELECT count(*) FROM batches").fetchone()[0]
        past = database.execute("SELECT count(*) FROM balances WHERE amount_milli > 0 AND best_before != '' "
                                "AND best_before < ?", (date.today().isoformat(),)).fetchone()[0]
    return f"{PRODUCTS:,} products, {lines:,} lines in {batches:,} batches, {past:,} lots past their best-before in stock"


def _booking(n: int) -> dict:
    """A one-line goods-in into warehouse 1: the smallest booking, which moves the change mark."""
    return batch_body(900_000 + n, "I", date.today().isoformat(), [("P00001", "pc", 1)])


def _inventory(connect) -> int:
    with connect() as api:
        status, data = api.request("POST", "/v1/inventory/filter", {"data": {"level": 1}})
    if status != 200:
        raise RuntimeError(f"POST /v1/inventory/filter: HTTP {status} {data[:300]!r}")
    return data.count(b'"id_warehouse"')


def scenario_l(ctx):
    """The depot of issue 33 (150,000 lots past their best-before in stock): every page and read, after a booking."""
    rows = [("l. lots past best-before: slowest page", "ms", PAGE_AIM),
            ("l. lots past best-before: slowest alerts (page or GET /v1/alerts/)", "ms", ALERTS_AIM),
            ("l. lots past best-before: slowest targeted JSON read", "ms", JSON_AIM),
            ("l. lots past best-before: the page after a booking, kept values rebuilt", "ms", REBUILD_AIM),
            ("l. lots past best-before: peak memory, whole lists", "MiB", MEMORY_AIM)]
    if not ctx.has_service:
        for what, unit, aim in rows:
            ctx.add(Row(what, unit, None, None, aim, 2 * aim, False, judge_value=True))
        return
    from scenarios import _page_session

    cached = depot_file(ctx)
    ctx.note(f"l: the depot: {_shape(cached)}")
    copy = ctx.tmp / "l" / "warehouse.db"
    copy.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(cached, copy)
    product, lot_product = f"P{PRODUCTS // 2 + 1:05d}", f"P{(PRODUCTS // 2) // LOT_EVERY * LOT_EVERY:05d}"
    with server.service(ctx.tmp / "l", ctx.key, database_url=f"sqlite:///{copy}") as svc:
        cookie = _page_session(svc)

        # A connection for each path timed (server.office_client says why).
        def api():
            return server.Client(svc.port, ctx.key)

        def pages():
            return server.office_client(svc.port, cookie)

        alert_pages = ["/alerts", "/alerts?kind=expired", "/alerts?kind=expiring", "/alerts?kind=low_stock",
                       "/alerts?warehouse=3", f"/alerts?product={lot_product}", "/alerts?kind=expired&warehouse=3"]
        page_paths = ["/", "/?level=1", "/?q=Product%201", "/documents", "/documents?warehouse=3&direction=O",
                      "/orders", "/orders?state=0", "/stocktakings", "/movements", "/movements/lines",
                      "/movements/lines?warehouse=3", f"/movements/lines?product={product}&warehouse=3",
                      "/reorder-levels", "/products", f"/products/{lot_product}", "/customers",
                      "/orders/ORD-00500", "/orders/ORD-00500/pick-list", "/admin/webhooks", "/admin/warehouses"]
        for path in ("/alerts?kind=expired", "/", "/movements/lines"):
            with pages() as client:
                status, html = client.request("GET", path)
            found = NEXT_LINK.search(html.decode())
            if status != 200 or not found:
                raise RuntimeError(f"GET {path}: {status}, no next page link")
            (alert_pages if path.startswith("/alerts") else page_paths).append(found.group(1).replace("&amp;", "&"))
        json_paths = [f"/v1/products/{product}", "/v1/docs/1000", "/v1/batches/1000", "/v1/documents/ORD-00500",
                      "/v1/overview/docs_and_stocktaking", "/v1/overview/monthly_movement", "/v1/reorder_levels/",
                      "/v1/alerts/", "/v1/alerts/?id_warehouse=3", f"/v1/alerts/?product_code={lot_product}",
                      "/v1/alerts/?limit=100"]
        pages_ms = {path: _time(pages, path) for path in page_paths}
        alerts_ms = {path: _time(pages, path) for path in alert_pages}
        json_ms = {path: _time(api, path) for path in json_paths}
        alerts_ms.update({path: json_ms.pop(path) for path in list(json_ms) if path.startswith("/v1/alerts/")})

        # The page after a booking: a light page (the warehouses, a few rows) with what pages keep
        # still kept, then right after a booking moved the change mark, in turns; the difference
        # is what a page pays to rebuild what it keeps (the count beside Alerts).
        kept, rebuilt = [], []
        with api() as booker, pages() as reader:
            for n in range(AFTER_BOOKING_ROUNDS + 1):
                reader.timed("GET", LIGHT_PAGE)
                status, data, sec = reader.timed("GET", LIGHT_PAGE)
                if status != 200:
                    raise RuntimeError(f"GET {LIGHT_PAGE}: HTTP {status}")
                status, data = booker.request("POST", "/v1/batches/", _booking(n))
                if status != 201:
                    raise RuntimeError(f"POST /v1/batches/: HTTP {status} {data[:300]!r}")
                status, data, after = reader.timed("GET", LIGHT_PAGE)
                if n:  # round 0 warms up
                    kept.append(sec)
                    rebuilt.append(after)
        kept_ms, after_ms = statistics.median(kept) * 1000, statistics.median(rebuilt) * 1000

        # The whole lists, each with the service's peak memory from its start.
        peaks = {}
        for what, read in (("POST /v1/inventory/filter (every lot)", lambda: _inventory(api)),
                           ("GET /?level=1&format=csv", lambda: _download_lines(pages, "/?level=1&format=csv")),
                           ("GET /alerts?format=csv", lambda: _download_lines(pages, "/alerts?format=csv"))):
            svc.forget_peak_memory()
            started = time.monotonic()
            size = read()
            peaks[what] = (size, time.monotonic() - started, svc.vm_hwm_mb())
        peak_mb = max(peak for _, _, peak in peaks.values())

    for what, (size, seconds, peak) in peaks.items():
        ctx.note(f"l: {what}: {size:,} rows in {seconds:.1f} s; the service's peak memory {peak:.0f} MiB "
                 f"(aim {MEMORY_AIM:.0f})")
    ctx.note(f"l: GET {LIGHT_PAGE} with the count kept {kept_ms:.1f} ms, right after a booking {after_ms:.1f} ms "
             f"(rebuilt: {after_ms - kept_ms:.1f} ms; aim {REBUILD_AIM:.0f})")
    for group, aim in ((pages_ms, PAGE_AIM), (alerts_ms, ALERTS_AIM), (json_ms, JSON_AIM)):
        for path, ms in group.items():
            ctx.note(f"l: GET {path}: {ms:.1f} ms (aim {aim:.0f}){'' if ms < aim else '  OVER THE AIM'}")
    slow_page, slow_alerts, slow_json = (max(group, key=group.get) for group in (pages_ms, alerts_ms, json_ms))
    figures = [(pages_ms[slow_page], slow_page), (alerts_ms[slow_alerts], slow_alerts),
               (json_ms[slow_json], slow_json), (max(0.0, after_ms - kept_ms), ""), (peak_mb, "")]
    for (what, unit, aim), (value, path) in zip(rows, figures):
        ctx.add(Row(f"{what}{f' ({path[:40]})' if path else ''}", unit, value, None, aim, 2 * aim, False,
                    judge_value=True))
