"""The scenarios a-e of the brief and h (the stock page); f (peak memory) is measured inside b and d.

Each scenario adds Rows and notes to the run's Ctx. Baselines are measured in the same run on
the same machine; when the service does not exist yet (no app.py) only the baselines run and
the service figures are marked SKIP.
"""
import contextlib
import http.client
import json
import os
import secrets
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import baselines
import server
from load import (batch_body, batch_lines, create_products, create_warehouses, day, encode, median_ms,
                  product_body, run_wrk, timed_requests)
from report import Row

N_PRODUCTS = 200          # catalogue for b, c, e: 1000-item batches name each product 5 times
WRK_SECONDS = 5
WRK_ROUNDS = 3
B_REPEATS = 9
QUERY_REPEATS = 15
D_PRODUCTS = 10_000
D_CREATE_LIMIT_S = 240
E_CLIENTS, E_ITEMS = 8, 100
E_BATCHES_PER_CLIENT, E_TIME_LIMIT_S = 40, 60
E_SEQ_BATCHES, E_SEQ_TIME_LIMIT_S = 40, 30
# Goal and floor for rows the brief gives none for (marked * in the table).
MEM_GOAL, MEM_FLOOR = 2.5, 4.0
LIST_GOAL, LIST_FLOOR = 15.0, 30.0
CONC_GOAL, CONC_FLOOR = 0.8, 0.5


@dataclass
class Ctx:
    tmp: Path
    key: str
    has_service: bool
    seed_batches: int = 200
    seed_time_limit_s: float = 300
    rows: list = field(default_factory=list)
    notes: list = field(default_factory=list)

    def note(self, text):
        self.notes.append(text)
        print(f"   {text}", flush=True)

    def service(self, name):
        """The service context manager, or a stand-in yielding None when there is no app.py."""
        if not self.has_service:
            return contextlib.nullcontext(None)
        return server.service(self.tmp / name, self.key)

    def add(self, row):
        if not self.has_service and row.service is None:
            row.error = "skipped"
        self.rows.append(row)


def _expect(status, data, want, what):
    if status != want:
        raise RuntimeError(f"{what}: HTTP {status} {data[:300]!r}")


def scenario_a(ctx):
    """GET /v1/products/{code}: requests/s, service vs bare Flask + waitress (wrk)."""
    path = "/v1/products/P00000"
    with ctx.service("a") as svc, server.bare(ctx.tmp / "a-bare") as bare:
        if svc:
            with server.Client(svc.port, ctx.key) as c:
                create_products(c, 1)
                _expect(*c.request("GET", path), 200, f"GET {path}")
        # A short warm-up each, then alternate so drift on the machine hits both alike;
        # the best of WRK_ROUNDS runs each, since noise only ever slows a run down.
        for s in (bare, svc):
            if s:
                run_wrk(s.port, path, ctx.key, 1)
        bare_rps, svc_rps = [], []
        for _ in range(WRK_ROUNDS):
            bare_rps.append(run_wrk(bare.port, path, ctx.key, WRK_SECONDS))
            if svc:
                svc_rps.append(run_wrk(svc.port, path, ctx.key, WRK_SECONDS))
    ctx.note(f"a: wrk runs, service {svc_rps} req/s, bare {bare_rps} req/s")
    ctx.add(Row("a. GET /v1/products/{code} vs bare Flask", "req/s",
                max(svc_rps) if svc_rps else None, max(bare_rps), 0.6, 0.4, True))


def scenario_b(ctx):
    """POST /v1/batches/ with 1000 items: wall time vs raw sqlite3 executemany."""
    lines = batch_lines(1000, N_PRODUCTS, 0)
    svc_times, bare_times, sqlite_times, svc_hwm = [], [], [], None
    sqlite_insert = baselines.SqliteInsert(ctx.tmp / "b-sqlite.db")
    with ctx.service("b") as svc, server.bare(ctx.tmp / "b-bare") as bare, \
            server.Client(bare.port) as bare_client, \
            (server.Client(svc.port, ctx.key) if svc else contextlib.nullcontext()) as svc_client:
        if svc:
            create_products(svc_client, N_PRODUCTS)
            # Row f is the peak during b: not the start-up's, whose largest part is the scrypt hash
            # of the first person's password (32 MiB for a moment, as at every sign-in).
            svc.forget_peak_memory()
        bare.forget_peak_memory()
        deadline = time.monotonic() + 180
        # Rounds alternate baseline and service; round 0 warms up and is not counted.
        for i in range(B_REPEATS + 1):
            if time.monotonic() > deadline:
                break
            posted = batch_body(100 + i, "I", day(0), lines)  # a new batch_number
            sqlite_sec = sqlite_insert.insert(posted["data"]["batch_items"])
            body = encode(posted)
            status, data, bare_sec = bare_client.timed("POST", "/v1/batches/", body)
            _expect(status, data, 201, "bare POST")
            if svc:
                status, data, sec = svc_client.timed("POST", "/v1/batches/", body)
                _expect(status, data, 201, "POST /v1/batches/ (1000 items)")
            if i:
                sqlite_times.append(sqlite_sec)
                bare_times.append(bare_sec)
                if svc:
                    svc_times.append(sec)
        bare_hwm = bare.vm_hwm_mb()
        if svc:
            svc_hwm = svc.vm_hwm_mb()
    sqlite_insert.close()
    if svc and len(svc_times) < 3:
        raise RuntimeError(f"only {len(svc_times)} batches posted within the time limit")
    ctx.note(f"b: bare Flask POST of the same 1000-item body (parse only): "
             f"{median_ms(bare_times):.1f} ms median")
    if svc_times:
        ctx.note("b: service POST times ms: " + ", ".join(f"{t * 1000:.0f}" for t in svc_times))
    ctx.add(Row("b. POST /v1/batches/ 1000 items vs sqlite3 executemany", "ms",
                median_ms(svc_times) if svc_times else None, median_ms(sqlite_times),
                6, 10, False))
    ctx.add(Row("f. peak RSS of server during b vs bare Flask", "MiB", svc_hwm, bare_hwm,
                MEM_GOAL, MEM_FLOOR, False, own_goal=True))


def _seed(client, first_batch, last_batch, deadline):
    """Post 1000-item batches first..last-1 with business date k; stop at the deadline.

    Every third batch is goods-out of the batch before it, 1 pc a line, so stock suffices.
    Returns the number of batches posted.
    """
    lines = None
    for k in range(first_batch, last_batch):
        if time.monotonic() > deadline:
            return k - first_batch
        direction = "O" if k % 3 == 2 else "I"
        if direction == "I" or lines is None:
            lines = batch_lines(1000, N_PRODUCTS, k * 7)
        status, data = client.request("POST", "/v1/batches/",
                                      batch_body(10_000 + k, direction, day(k), lines))
        _expect(status, data, 201, f"seeding batch {k}")
    return last_batch - first_batch


def scenario_c(ctx):
    """Inventory and one-day movements filters: time at ~200,000 movements vs ~2,000."""
    queries = {
        "inventory": ("/v1/inventory/filter", {"data": {"id_warehouses": [1], "level": -1}}),
        # Day 1 holds exactly one batch of 1000 items in both databases.
        "movements": ("/v1/inventory/movements/filter",
                      {"data": {"id_warehouses": [1], "level": -1, "doc_direction": "",
                                "date_from": day(1), "date_to": day(1)}}),
    }
    if not ctx.has_service:
        ctx.add(Row("c. inventory filter", "ms", None, None, 1.2, 1.5, False))
        ctx.add(Row("c. movements filter, one day", "ms", None, None, 1.2, 1.5, False))
        return
    # Two servers, small and large history, both up while measuring: the queries alternate
    # between them, so whatever else the machine does hits both figures alike.
    with ctx.service("c-small") as small, ctx.service("c-large") as large, \
            server.Client(small.port, ctx.key) as cs, server.Client(large.port, ctx.key) as cl:
        for c in (cs, cl):
            create_products(c, N_PRODUCTS)
        _seed(cs, 0, 2, float("inf"))
        t0 = time.monotonic()
        posted = _seed(cl, 0, ctx.seed_batches, t0 + ctx.seed_time_limit_s)
        seed_s = time.monotonic() - t0
        if posted < ctx.seed_batches:
            ctx.note(f"c: seeding stopped at the time limit after {posted} batches")

        times = {(size, name): [] for size in ("small", "large") for name in queries}
        answers = {}
        for rep in range(QUERY_REPEATS + 1):  # round 0 warms up and is not counted
            for name, (path, body) in queries.items():
                for size, c in (("small", cs), ("large", cl)):
                    status, data, sec = c.timed("POST", path, body)
                    _expect(status, data, 200, f"POST {path}")
                    if rep:
                        times[size, name].append(sec)
                    answers[size, name] = len(json.loads(data)["list"])
    rows = posted * 1000
    ctx.note(f"c: seeded {rows:,} movement rows in {seed_s:.0f} s "
             f"({rows / seed_s:,.0f} rows/s, {posted / seed_s:.2f} batches/s of 1000)")
    ctx.note(f"c: rows answered, small/large history: inventory {answers['small', 'inventory']}"
             f"/{answers['large', 'inventory']}, movements {answers['small', 'movements']}"
             f"/{answers['large', 'movements']}")
    ctx.add(Row(f"c. inventory filter, {rows:,} vs 2,000 movements", "ms",
                median_ms(times["large", "inventory"]), median_ms(times["small", "inventory"]),
                1.2, 1.5, False))
    ctx.add(Row(f"c. movements filter 1 day, {rows:,} vs 2,000 movements", "ms",
                median_ms(times["large", "movements"]), median_ms(times["small", "movements"]),
                1.2, 1.5, False))


def _in_process_app(db_url, key):
    """The service's app in this process, with every SQL statement counted."""
    from sqlalchemy import event
    for name in list(os.environ):
        if name.startswith("WAREHOUSE_") or name == "DATABASE_URL":
            del os.environ[name]
    os.environ["WAREHOUSE_API_KEY"] = key
    if str(server.REPO) not in sys.path:
        sys.path.append(str(server.REPO))
    from app import create_app
    from operations.upgrades import upgrade_database
    app = create_app({"SQLALCHEMY_DATABASE_URI": db_url})
    upgrade_database(app, who="bench")
    with app.app_context():
        engine = app.extensions["sqlalchemy"].engine
    counter = {"n": 0}

    @event.listens_for(engine, "before_cursor_execute")
    def count(*_args):
        counter["n"] += 1

    return app, engine, counter


def _admin_key(app, key):
    """The bootstrap key if create_app honours WAREHOUSE_API_KEY, else one made with the CLI."""
    if app.test_client().get("/v1/products/", headers={"TS-Apikey": key}).status_code != 401:
        return key
    result = app.test_cli_runner().invoke(
        args=["keys", "create", "--name", "bench", "--role", "admin"])
    return result.output.strip().splitlines()[-1]


def scenario_d(ctx):
    """GET /v1/products/ with 10,000 products x 3 packagings: SQL statements, time, memory."""
    if not ctx.has_service:
        dicts = [baselines.product_dict(f"P{i:05d}", 3) for i in range(D_PRODUCTS)]
        with server.bare(ctx.tmp / "d-bare", list_size=D_PRODUCTS) as bare:
            with server.Client(bare.port) as bc:
                timed_requests(bc, "GET", "/v1/products/", None, 3, 60)
            bare_hwm = bare.vm_hwm_mb()
        dumps_ms = baselines.json_dumps_ms(dicts)
        ctx.add(Row("d. SQL statements, GET /v1/products/", "stmts", None, None, 1, 1, False))
        ctx.add(Row("d. GET /v1/products/ 10,000 (test client) vs json.dumps", "ms", None,
                    dumps_ms, LIST_GOAL, LIST_FLOOR, False, own_goal=True))
        ctx.add(Row("f. peak RSS of server during d vs bare Flask", "MiB", None, bare_hwm,
                    MEM_GOAL, MEM_FLOOR, False, own_goal=True))
        return

    workdir = ctx.tmp / "d"
    workdir.mkdir()
    app, engine, counter = _in_process_app(f"sqlite:///{workdir}/warehouse.db", ctx.key)
    key = _admin_key(app, ctx.key)
    client = app.test_client()
    headers = {"TS-Apikey": key}

    def create(start, count):
        for i in range(start, start + count):
            resp = client.post("/v1/products/", json=product_body(i, 3), headers=headers)
            _expect(resp.status_code, resp.data, 201, f"creating product {i}")

    def list_products():
        counter["n"] = 0
        t0 = time.perf_counter()
        resp = client.get("/v1/products/", headers=headers)
        sec = time.perf_counter() - t0
        _expect(resp.status_code, resp.data, 200, "GET /v1/products/")
        return counter["n"], sec, resp

    create(0, 9)
    counter["n"] = 0
    create(9, 1)
    ctx.note(f"d: SQL statements for one POST /v1/products/ (3 packagings): {counter['n']}")
    small_n, _, resp = list_products()
    if len(resp.get_json()["list"]) != 10:
        raise RuntimeError("GET /v1/products/ did not list the 10 products")

    created, t0 = 10, time.monotonic()
    while created < D_PRODUCTS and time.monotonic() - t0 < D_CREATE_LIMIT_S:
        step = min(500, D_PRODUCTS - created)
        create(created, step)
        created += step
    ctx.note(f"d: created {created:,} products in-process in {time.monotonic() - t0:.0f} s")

    list_products()  # warm-up
    times = []
    for _ in range(3):
        large_n, sec, resp = list_products()
        times.append(sec)
    dicts = resp.get_json()["list"]
    if len(dicts) != created:
        raise RuntimeError(f"GET /v1/products/ listed {len(dicts)} of {created} products")
    dumps_ms = baselines.json_dumps_ms(dicts)
    engine.dispose()  # the server process below opens the same file

    with server.service(workdir, ctx.key) as svc, \
            server.bare(ctx.tmp / "d-bare", list_size=created) as bare:
        with server.Client(svc.port, key) as c:
            http_ms, _ = timed_requests(c, "GET", "/v1/products/", None, 3, 120)
        with server.Client(bare.port) as bc:
            bare_http_ms, _ = timed_requests(bc, "GET", "/v1/products/", None, 3, 120)
        svc_hwm, bare_hwm = svc.vm_hwm_mb(), bare.vm_hwm_mb()
    ctx.note(f"d: same list through waitress: service {http_ms:.0f} ms, "
             f"bare Flask (dicts built per request) {bare_http_ms:.0f} ms")
    ctx.add(Row(f"d. SQL statements, GET /v1/products/ {created:,} vs 10 products", "stmts",
                large_n, small_n, 1, 1, False))
    ctx.add(Row(f"d. GET /v1/products/ {created:,} (test client) vs json.dumps", "ms",
                median_ms(times), dumps_ms, LIST_GOAL, LIST_FLOOR, False, own_goal=True))
    ctx.add(Row(f"d. GET /v1/products/ {created:,} (waitress) vs json.dumps", "ms",
                http_ms, dumps_ms, LIST_GOAL, LIST_FLOOR, False, own_goal=True))
    ctx.add(Row("f. peak RSS of server during d vs bare Flask", "MiB", svc_hwm, bare_hwm,
                MEM_GOAL, MEM_FLOOR, False, own_goal=True))


def _post_stream(port, key, first_number, offset, max_batches, time_limit_s, barrier=None):
    """Post up to max_batches 100-item batches on one connection: goods-in, then out, in, ...

    Each goods-out takes 1 pc a line of this client's own goods-in just before it, so stock
    suffices whatever the other clients do. Returns (ok, errors, net base units per product).
    """
    ok, errors, booked = 0, [], Counter()
    with server.Client(port, key, timeout=60) as c:
        if barrier:
            barrier.wait(timeout=60)
        deadline = time.monotonic() + time_limit_s
        lines = None
        for j in range(max_batches):
            if time.monotonic() > deadline:
                break
            direction = "I" if j % 2 == 0 else "O"
            if direction == "I":
                lines = batch_lines(E_ITEMS, N_PRODUCTS, offset + j * 13)
            try:
                status, data = c.request("POST", "/v1/batches/",
                                         batch_body(first_number + j, direction, day(0), lines))
            except (OSError, http.client.HTTPException) as exc:
                errors.append(repr(exc))
                c.close()  # the next request opens a fresh connection
                continue
            if status != 201:
                errors.append(f"{status} {data[:200]!r}")
                continue
            ok += 1
            for code, _unit, base in lines:
                booked[code] += base if direction == "I" else -1
    return ok, errors, booked


def scenario_e(ctx):
    """Eight concurrent clients posting 100-item batches: batches/s and errors."""
    if not ctx.has_service:
        ctx.add(Row("e. 8 clients x 100-item batches vs 1 client", "batches/s", None, None,
                    CONC_GOAL, CONC_FLOOR, True, own_goal=True))
        return
    with ctx.service("e") as svc:
        with server.Client(svc.port, ctx.key) as c:
            create_products(c, N_PRODUCTS)
        # One client alone: the baseline rate on this same server.
        t0 = time.monotonic()
        seq_ok, seq_err, booked = _post_stream(svc.port, ctx.key, 500_000, 0,
                                               E_SEQ_BATCHES, E_SEQ_TIME_LIMIT_S)
        seq_rate = seq_ok / (time.monotonic() - t0)
        if not seq_ok:
            raise RuntimeError(f"no batch posted by one client: {seq_err[0][:300]}")

        results = [None] * E_CLIENTS
        barrier = threading.Barrier(E_CLIENTS + 1)

        def client(t):
            results[t] = _post_stream(svc.port, ctx.key, 1_000_000 + t * 10_000, t * 25,
                                      E_BATCHES_PER_CLIENT, E_TIME_LIMIT_S, barrier)

        threads = [threading.Thread(target=client, args=(t,), daemon=True)
                   for t in range(E_CLIENTS)]
        for th in threads:
            th.start()
        barrier.wait(timeout=60)
        t0 = time.monotonic()
        for th in threads:
            th.join(timeout=E_TIME_LIMIT_S + 120)
        elapsed = time.monotonic() - t0
        if any(r is None for r in results):
            raise RuntimeError("a client thread did not finish")
        conc_ok = sum(r[0] for r in results)
        errors = [e for r in results for e in r[1]]
        for r in results:
            booked.update(r[2])

        # The books must add up: inventory equals everything the 201s said was booked.
        with server.Client(svc.port, ctx.key) as c:
            status, data = c.request("POST", "/v1/inventory/filter",
                                     {"data": {"id_warehouses": [1], "level": -1}})
        if status == 200:
            stock = {r["product_code"]: Decimal(str(r["amount"]))
                     for r in json.loads(data)["list"]}
            wrong = [code for code, n in booked.items() if stock.get(code, 0) != n]
            ctx.note(f"e: inventory after e matches the 201 answers: "
                     f"{'yes' if not wrong else 'NO, e.g. ' + ', '.join(wrong[:5])}")
    ctx.note(f"e: 1 client {seq_ok} batches ({seq_rate:.1f}/s, {len(seq_err)} errors); "
             f"{E_CLIENTS} clients {conc_ok} batches in {elapsed:.1f} s")
    for e in (seq_err + errors)[:5]:
        ctx.note(f"e: error: {e[:200]}")
    ctx.add(Row(f"e. {E_CLIENTS} clients x 100-item batches vs 1 client", "batches/s",
                conc_ok / elapsed, seq_rate, CONC_GOAL, CONC_FLOOR, True, own_goal=True))
    total = seq_ok + len(seq_err) + conc_ok + len(errors)
    ctx.add(Row(f"e. errors among the {total} batches posted", "errors",
                float(len(errors) + len(seq_err)), 0.0, 0, 0, False, judge_value=True))


H_PRODUCTS, H_WAREHOUSES, H_REPEATS, H_TIME_LIMIT_S = 2_000, 3, 15, 120
PAGE_GOAL, PAGE_FLOOR = 3.0, 6.0


def _page_session(svc, code=server.REPO):
    """Sign in to the pages as a browser does (the form, its token); returns the Cookie header.
    `code` is the checkout the service runs (another release's, to compare with).

    The person is made for the bench with `flask users create`, as an office adds one, on the
    service's database: a copied depot has its first person already, whose password is not known.
    """
    import re
    import subprocess
    from urllib.parse import urlencode

    name, password = f"bench-{secrets.token_hex(4)}", secrets.token_urlsafe(16)
    database_url = svc.argv[svc.argv.index("--database-url") + 1]
    made = subprocess.run([server.PYTHON, "-m", "flask", "--app", "app", "users", "create", name, "--role", "admin"],
                          input=password + "\n", capture_output=True, text=True, cwd=code, timeout=120,
                          env=server.clean_env(DATABASE_URL=database_url))
    if made.returncode != 0:
        raise RuntimeError(f"flask users create: {made.stdout[-300:]} {made.stderr[-300:]}")
    conn = http.client.HTTPConnection("127.0.0.1", svc.port, timeout=60)
    try:
        conn.request("GET", "/login")
        resp = conn.getresponse()
        html = resp.read().decode()
        cookie = resp.getheader("Set-Cookie").split(";")[0]
        token = re.search(r'name="token" value="([^"]+)"', html).group(1)
        conn.request("POST", "/login", body=urlencode({"username": name, "password": password, "token": token}),
                     headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
        resp = conn.getresponse()
        resp.read()
        if resp.status != 302:
            raise RuntimeError(f"signing in to the pages: HTTP {resp.status}")
        return resp.getheader("Set-Cookie").split(";")[0]
    finally:
        conn.close()


def scenario_h(ctx):
    """Stock page of 2,000 products in 3 warehouses: time vs the inventory API for the same rows."""
    what_page = f"h. stock page (100 of {H_PRODUCTS * H_WAREHOUSES:,} rows) vs inventory API"
    what_csv = f"h. stock page as CSV ({H_PRODUCTS * H_WAREHOUSES:,} rows) vs inventory API"
    if not ctx.has_service:
        for what in (what_page, what_csv):
            ctx.add(Row(what, "ms", None, None, PAGE_GOAL, PAGE_FLOOR, False))
        return
    with ctx.service("h") as svc, server.Client(svc.port, ctx.key) as api:
        create_products(api, H_PRODUCTS)
        create_warehouses(api, range(2, H_WAREHOUSES + 1))
        lines = batch_lines(H_PRODUCTS, H_PRODUCTS, 0)  # every product once
        for warehouse in range(1, H_WAREHOUSES + 1):
            body = batch_body(900 + warehouse, "I", day(0), lines)
            body["data"]["batch_settings"]["id_warehouse"] = str(warehouse)
            _expect(*api.request("POST", "/v1/batches/", body), 201, f"stock for warehouse {warehouse}")
        inventory = ("POST", "/v1/inventory/filter", encode({"data": {}}))
        status, data = api.request(*inventory)
        _expect(status, data, 200, "POST /v1/inventory/filter")
        rows = len(json.loads(data)["list"])
        if rows != H_PRODUCTS * H_WAREHOUSES:
            raise RuntimeError(f"the inventory lists {rows} rows, not {H_PRODUCTS * H_WAREHOUSES}")

        with server.Client(svc.port) as pages:
            pages.headers = {"Cookie": _page_session(svc)}
            status, html = pages.request("GET", "/")
            _expect(status, html, 200, "GET / (stock page)")
            status, text = pages.request("GET", "/?format=csv")
            _expect(status, text, 200, "GET /?format=csv")
            if text.decode().count("\r\n") != rows + 1:
                raise RuntimeError("the stock CSV does not hold the inventory's rows")
            # Alternate the three requests so that drift on the machine hits all alike.
            times = {"api": [], "page": [], "csv": []}
            deadline = time.monotonic() + H_TIME_LIMIT_S
            for rep in range(H_REPEATS + 1):  # round 0 warms up and is not counted
                if time.monotonic() > deadline:
                    break
                for name, client, request in (("api", api, inventory), ("page", pages, ("GET", "/", None)),
                                              ("csv", pages, ("GET", "/?format=csv", None))):
                    status, data, sec = client.timed(*request)
                    _expect(status, data, 200, f"{request[0]} {request[1]}")
                    if rep:
                        times[name].append(sec)
            # For the record: every row as HTML, one page after another, as a reader paging through.
            walk_started, page_count = time.perf_counter(), 0
            while page_count < -(-rows // 100) and time.monotonic() < deadline + 60:
                page_count += 1
                status, data = pages.request("GET", f"/?page={page_count}")
                _expect(status, data, 200, f"GET /?page={page_count}")
            walk_ms = (time.perf_counter() - walk_started) * 1000
    ctx.note(f"h: medians over {len(times['api'])} rounds: inventory API {median_ms(times['api']):.1f} ms, "
             f"stock page {median_ms(times['page']):.1f} ms ({len(html):,} bytes), "
             f"CSV {median_ms(times['csv']):.1f} ms")
    ctx.note(f"h: all {page_count} stock pages one after another (every row as HTML): {walk_ms:.0f} ms")
    ctx.add(Row(what_page, "ms", median_ms(times["page"]), median_ms(times["api"]), PAGE_GOAL, PAGE_FLOOR, False))
    ctx.add(Row(what_csv, "ms", median_ms(times["csv"]), median_ms(times["api"]), PAGE_GOAL, PAGE_FLOOR, False))
