"""Scenario g: bookings of two warehouses on one PostgreSQL database, side by side.

A 1-item goods-in batch of warehouse 2 is timed alone, then again and again while a
20,000-item goods-in batch of warehouse 1 is being booked: from the moment the big
batch's transaction has written its first row (seen in pg_stat_activity) until its
answer arrives. Its parsing before that is not "being booked" and is left out: there
no lock is held, and counting it would hide a lock wait in a median. The database is
the PostgreSQL server at 127.0.0.1:5432 (database `test`), in a schema made for the run
and dropped afterwards.

Measured twice: through two service processes on the one database (the set-up of
several depots; the row, judged against the issue's goal), and with both batches sent
to one process, where the small batch also shares the interpreter lock with the big
one's work (a note: the issue sets no goal for it, and see docs/performance.md,
row g, for why it is slow).
"""
import contextlib
import statistics
import threading
import time
import uuid

import server
from load import batch_body, batch_lines, create_products, day, encode
from report import Row

PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
G_PRODUCTS = 200
G_BIG_ITEMS = 20_000
G_ALONE_REPEATS = 15
G_ROUNDS = 3          # big batches, each with small ones posted through its booking
G_TIME_LIMIT_S = 120
G_GOAL, G_FLOOR = 5.0, 10.0


@contextlib.contextmanager
def pg_schema(url):
    """(service URL, engine): a fresh schema the URL's search_path points at, dropped at the end."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"warehouse_bench_{uuid.uuid4().hex[:12]}"
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {name}"))
    try:
        # application_name tells this run's connections from other users of the server.
        yield make_url(url).update_query_dict({
            "options": f"-csearch_path={name}", "application_name": name,
        }).render_as_string(hide_password=False), engine, name
    finally:
        with engine.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {name} CASCADE"))
        engine.dispose()


def wait_for_writing_transaction(engine, application_name, thread, deadline):
    """True once a connection of the service holds a transaction that has written a row."""
    from sqlalchemy import text

    sql = text("SELECT count(*) FROM pg_stat_activity "
               "WHERE application_name = :name AND backend_xid IS NOT NULL")
    with engine.connect() as conn:
        while thread.is_alive() and time.monotonic() < deadline:
            if conn.execute(sql, {"name": application_name}).scalar():
                return True
            conn.rollback()
            time.sleep(0.002)
    return False


def small_body(number):
    return encode(batch_body(number, "I", day(0), [("P00000", "pc", 2)], id_warehouse=2))


def scenario_g(ctx, url=PG_URL):
    """1-item batch of warehouse 2 while 20,000 items of warehouse 1 are booked (PostgreSQL): ms."""
    what = f"g. w2 1 item while w1 {G_BIG_ITEMS:,} books vs alone, 2 processes"
    if not ctx.has_service:
        ctx.add(Row(what, "ms", None, None, G_GOAL, G_FLOOR, False))
        return
    during, alone = _measure(ctx, url, 2)
    ctx.add(Row(what, "ms", during, alone, G_GOAL, G_FLOOR, False))
    during, alone = _measure(ctx, url, 1)
    ctx.note(f"g, 1 process: {during:.1f} ms against {alone:.1f} ms alone "
             f"({during / alone:.1f}x; not judged)")


def _measure(ctx, url, processes):
    """(median ms of the 1-item batches while the big one was booked, median ms alone)."""
    with contextlib.ExitStack() as stack:
        service_url, engine, name = stack.enter_context(pg_schema(url))
        big_server = stack.enter_context(
            server.service(ctx.tmp / f"g{processes}", ctx.key, database_url=service_url))
        small_server = big_server if processes == 1 else stack.enter_context(
            server.service(ctx.tmp / f"g{processes}-small", ctx.key, database_url=service_url))
        small = stack.enter_context(server.Client(small_server.port, ctx.key))
        create_products(small, G_PRODUCTS)
        numbers = iter(range(1, 10**6))

        def post_small(label):
            status, data, sec = small.timed("POST", "/v1/batches/", small_body(next(numbers)))
            if status != 201:
                raise RuntimeError(f"1-item batch {label}: {status} {data[:300]!r}")
            return sec

        post_small("warm-up")
        alone, during, big_times, windows = [], [], [], []
        for round_ in range(G_ROUNDS):
            alone += [post_small("alone") for _ in range(G_ALONE_REPEATS)]
            big = encode(batch_body(900_000 + round_, "I", day(0),
                                    batch_lines(G_BIG_ITEMS, G_PRODUCTS, 0)))
            answer = {}

            def post_big():
                with server.Client(big_server.port, ctx.key, timeout=G_TIME_LIMIT_S) as c:
                    answer["result"] = c.timed("POST", "/v1/batches/", big)

            thread = threading.Thread(target=post_big, daemon=True)
            thread.start()
            deadline = time.monotonic() + G_TIME_LIMIT_S
            if wait_for_writing_transaction(engine, name, thread, deadline):
                started = time.monotonic()
                # Each one starts while the big one has no answer yet.
                while thread.is_alive() and time.monotonic() < deadline:
                    during.append(post_small("while the big one books"))
                windows.append(time.monotonic() - started)
            thread.join(timeout=G_TIME_LIMIT_S)
            status, data, sec = answer.get("result", (None, b"no answer", 0))
            if status != 201:
                raise RuntimeError(f"{G_BIG_ITEMS:,}-item batch: {status} {data[:300]!r}")
            big_times.append(sec)
    if not during:
        raise RuntimeError("no 1-item batch was posted while the big one was being booked")
    ms = sorted(t * 1000 for t in during)
    ctx.note(f"g, {processes} process(es): the {G_BIG_ITEMS:,}-item batch took "
             + ", ".join(f"{t:.2f}" for t in big_times) + " s, its transaction about "
             + ", ".join(f"{t:.2f}" for t in windows) + " s of it; 1-item batch alone "
             f"median {statistics.median(alone) * 1000:.1f} ms")
    ctx.note(f"g, {processes} process(es): {len(ms)} 1-item batches while it was booked: "
             f"median {statistics.median(ms):.1f} ms, max {ms[-1]:.1f} ms")
    return statistics.median(ms), statistics.median(alone) * 1000

