"""Scenario t: the whole stock list of a depot kept by lot, as JSON and as CSV, streamed.

The depot (issue 33): 5,000 products, 1,000 of them kept by lot with a lot a month over five
years, in five warehouses. Every product not kept by lot has stock in every warehouse; each
month's lot of a product kept by lot was delivered to three of the five and is partly sold,
so the stock list per lot (level 1) has about 200,000 rows. Each warehouse's stock came in by
real goods-in documents (a monthly delivery per warehouse, and an opening one for the plain
products), with their batches, and the balances agree with them. It is written with bulk
inserts into a database the reference release's migrations made, and cached in
<temp dir>/warehouse-bench-cache/ under a name that holds those migrations.

The baseline is the reference release (REFERENCE, the code before the lists were streamed),
taken out of git with `git archive` and served side by side on a copy of the same depot: the
same requests, the same bytes expected. For each: POST /v1/inventory/filter at level 1 and the
stock page's CSV at level 1 (`/?level=1&format=csv`), rows per second (the best of two after a
warm-up), and the server's peak resident memory (VmHWM) from just after start-up to the end of
both. Aims from the issue: the CSV at least twice the reference's rows per second, and the
server's peak memory under 300 MiB. Both answers must be byte for byte the reference's.
"""
import hashlib
import random
import shutil
import sqlite3
import subprocess
import time
from datetime import date
from pathlib import Path

import server
from bulk import bulk_writer, flush_movements, keep_built
from five_years import CACHE
from report import Row
from scenarios import _page_session

# The code before the whole lists were streamed (issue 33, point 3): what "today" means.
REFERENCE = "bdd0157"
BUILD_VERSION = 1
PRODUCTS, BY_LOT, WAREHOUSES, MONTHS, LOT_WAREHOUSES = 5_000, 1_000, 5, 60, 3
TIMED = 2
MEMORY_AIM_MB = 300.0
CSV_AIM = 2.0  # the CSV's rows per second against the reference's
JSON_PATH, CSV_PATH = "/v1/inventory/filter", "/?level=1&format=csv"


def reference_code(ctx) -> Path:
    """The reference release's files, out of git, in the run's temp directory."""
    return server.checkout(ctx.tmp, REFERENCE)


def _fingerprint(code: Path) -> str:
    digest = hashlib.sha256(f"{BUILD_VERSION}:{REFERENCE}:".encode())
    for path in sorted((code / "migrations" / "versions").glob("*.py")):
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:12]


def depot_file(ctx, code: Path) -> Path:
    CACHE.mkdir(exist_ok=True)
    path = CACHE / f"stock-by-lot-{_fingerprint(code)}.db"
    if path.exists():
        ctx.note(f"t: the depot kept by lot is cached in {path}")
        return path
    for old in [*CACHE.glob("stock-by-lot-*.db*"), *CACHE.glob("building-lots-*.db*")]:
        old.unlink()
    started = time.monotonic()
    building = CACHE / f"building-lots-{_fingerprint(code)}.db"
    # The reference release makes the schema (its migrations), then stops; the rows go in directly.
    with server.service(ctx.tmp / "t-build", ctx.key, database_url=f"sqlite:///{building}", code=code):
        pass
    _fill(building)
    return keep_built(ctx, "t", "the depot kept by lot", building, path, started)


def _fill(path: Path) -> None:
    rng = random.Random(33)
    con, insert = bulk_writer(path)

    codes = [f"P{i:05d}" for i in range(PRODUCTS)]
    by_lot = {code: i % (PRODUCTS // BY_LOT) == 0 for i, code in enumerate(codes)}  # one in five
    kinds = ("Flour", "Sugar", "Yoghurt", "Cheese", "Olive oil", "Rice", "Coffee", "Tea")
    names = {code: f"{kinds[i % len(kinds)]} {i // len(kinds)} {'250 g' if i % 3 else '1 kg'}"
             for i, code in enumerate(codes)}
    insert("products", ["product_code", "name", "active", "base_unit", "base_unit_barcode", "category",
                        "lot_level", "weight_brutto_milli", "weight_netto_milli", "weight_unit"],
           [(code, names[code], 1, "pc", f"{4000000000000 + i:013d}", i % 20, int(by_lot[code]),
             1000, 900, "kg") for i, code in enumerate(codes)])
    insert("packaging", ["product_code", "position", "unit", "amount_base_units_milli", "barcode"],
           [(code, position, unit, factor * 1000, f"{(5 + position) * 10**12 + i:013d}")
            for i, code in enumerate(codes) for position, unit, factor in ((1, "box", 10), (2, "carton", 100))])

    today = date.today()
    this_month = today.year * 12 + today.month - 1
    months = [date((this_month - back) // 12, (this_month - back) % 12 + 1, 1) for back in range(MONTHS, 0, -1)]
    balances: dict[tuple, int] = {}
    counters: dict[str, int] = {}
    batch_rows, item_rows, doc_rows, line_rows = [], [], [], []
    doc_number = 0

    def deliver(warehouse, day: date, lines):
        nonlocal doc_number
        doc_number += 1
        year = str(day.year)
        serial = counters[f"ufid:I:{year}"] = counters.get(f"ufid:I:{year}", 0) + 1
        text = day.isoformat()
        batch_rows.append((doc_number, warehouse, "I", "R", text, text, "5.1", "", 0, "",
                           hashlib.sha256(str(doc_number).encode()).hexdigest()))
        doc_rows.append((doc_number, doc_number, warehouse, "I", text, text, 0, doc_number, f"I-{year}-{serial:06d}"))
        for n, (code, lot, amount) in enumerate(lines, start=1):
            key = (warehouse, code, lot)
            balances[key] = balances.get(key, 0) + amount
            stamp = f"{text}T07:{n % 60:02d}:00.000+0100"
            line_rows.append((doc_number, n, warehouse, "I", text, code, names[code], lot, "", amount, text, stamp))
            item_rows.append((doc_number, n, code, "pc", amount, amount, "", "", lot, "", 0, 0, stamp, "", n))

    plain = [code for code in codes if not by_lot[code]]
    for warehouse in range(1, WAREHOUSES + 1):  # the opening stock of the plain products
        deliver(warehouse, months[0], [(code, "", rng.randint(5, 400) * 1000) for code in plain])
    lots = [code for code in codes if by_lot[code]]
    for month in months:
        lot = f"L{month:%Y%m}"
        for warehouse in range(1, WAREHOUSES + 1):
            # Each product's lot of the month goes to three of the five warehouses.
            deliver(warehouse, month, [(code, lot, rng.randint(1, 90) * 1000) for index, code in enumerate(lots)
                                       if (index + month.month + warehouse) % WAREHOUSES < LOT_WAREHOUSES])
        if len(line_rows) > 100_000:
            flush_movements(insert, batch_rows, item_rows, doc_rows, line_rows)
    flush_movements(insert, batch_rows, item_rows, doc_rows, line_rows)
    counters["doc_number"] = doc_number
    insert("counters", ["name", "value"], sorted(counters.items()))
    insert("balances", ["id_warehouse", "product_code", "lot", "amount_milli"],
           [(w, code, lot, amount) for (w, code, lot), amount in sorted(balances.items())])
    con.execute("COMMIT")
    con.execute("PRAGMA journal_mode=WAL")
    con.close()


def _download(client, method, path, body=None):
    """(seconds, sha256 of the body, newlines, bytes) of one answer read in pieces."""
    import json

    data = None if body is None else json.dumps(body).encode()
    started = time.perf_counter()
    client.conn.request(method, path, body=data, headers=client.headers)
    response = client.conn.getresponse()
    if response.status != 200:
        raise RuntimeError(f"{method} {path}: HTTP {response.status} {response.read()[:300]!r}")
    digest, newlines, size = hashlib.sha256(), 0, 0
    while piece := response.read(1 << 20):
        digest.update(piece)
        newlines += piece.count(b"\n")
        size += len(piece)
    return time.perf_counter() - started, digest.hexdigest(), newlines, size


def _measure(ctx, name: str, code: Path, depot: Path) -> dict:
    """The two downloads on `code` serving a copy of the depot: best seconds, digests, peak memory."""
    copy = ctx.tmp / f"t-{name}" / "warehouse.db"
    copy.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(depot, copy)
    with server.service(copy.parent, ctx.key, database_url=f"sqlite:///{copy}", code=code) as svc, \
            server.Client(svc.port, ctx.key, timeout=300) as api, server.Client(svc.port, timeout=300) as pages:
        pages.headers = {"Cookie": _page_session(svc, code)}
        svc.forget_peak_memory()
        start_mb = svc.vm_hwm_mb()
        found = {}
        for what, client, method, path, body in (("json", api, "POST", JSON_PATH, {"data": {"level": 1}}),
                                                 ("csv", pages, "GET", CSV_PATH, None)):
            runs = [_download(client, method, path, body) for _ in range(1 + TIMED)]
            if len({run[1] for run in runs}) != 1:
                raise RuntimeError(f"t: {name} answered {path} differently from one time to the next")
            found[what] = {"s": min(run[0] for run in runs[1:]), "digest": runs[0][1], "bytes": runs[0][3],
                           "lines": runs[0][2], "peak_mb": svc.vm_hwm_mb()}
        found["start_mb"], found["peak_mb"] = start_mb, svc.vm_hwm_mb()
    return found


def scenario_t(ctx):
    """The whole stock list of a depot kept by lot (about 200,000 rows), as JSON and CSV, streamed."""
    what_csv = "t. stock list by lot as CSV (~200k rows): rows/s"
    what_json = "t. stock list by lot as JSON (~200k rows): rows/s"
    what_memory = "t. stock list by lot: server's peak memory, JSON and CSV"
    if not ctx.has_service:
        ctx.add(Row(what_csv, "rows/s", None, None, CSV_AIM, 1.5, True))
        ctx.add(Row(what_json, "rows/s", None, None, 1.0, 0.8, True, own_goal=True))
        ctx.add(Row(what_memory, "MiB", None, None, MEMORY_AIM_MB, MEMORY_AIM_MB, False, judge_value=True))
        return
    code = reference_code(ctx)
    depot = depot_file(ctx, code)
    with sqlite3.connect(depot) as database:
        rows = database.execute("SELECT count(*) FROM balances WHERE amount_milli != 0").fetchone()[0]
    reference = _measure(ctx, "reference", code, depot)
    service = _measure(ctx, "service", server.REPO, depot)
    for what in ("json", "csv"):
        if service[what]["digest"] != reference[what]["digest"]:
            raise RuntimeError(f"t: the {what} answer differs from the reference release's "
                               f"({service[what]['bytes']:,} bytes against {reference[what]['bytes']:,})")
    if service["csv"]["lines"] - 1 != rows:
        raise RuntimeError(f"t: the CSV has {service['csv']['lines'] - 1:,} rows of the depot's {rows:,}")
    for name, found in (("reference", reference), ("service", service)):
        ctx.note(f"t: {name}: POST {JSON_PATH} (level 1) {rows:,} rows, {found['json']['bytes'] / 2**20:.0f} MiB "
                 f"in {found['json']['s']:.2f} s; GET {CSV_PATH} in {found['csv']['s']:.2f} s; peak memory "
                 f"{found['start_mb']:.0f} MiB after start-up, {found['json']['peak_mb']:.0f} MiB after the JSON, "
                 f"{found['peak_mb']:.0f} MiB after the CSV too")
    ctx.add(Row(what_csv, "rows/s", rows / service["csv"]["s"], rows / reference["csv"]["s"], CSV_AIM, 1.5, True))
    ctx.add(Row(what_json, "rows/s", rows / service["json"]["s"], rows / reference["json"]["s"], 1.0, 0.8, True,
                own_goal=True))
    ctx.add(Row(what_memory, "MiB", service["peak_mb"], reference["peak_mb"], MEMORY_AIM_MB, MEMORY_AIM_MB,
                False, judge_value=True))
