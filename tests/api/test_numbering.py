"""Document numbers under parallel load (DESIGN 23): given at the end of a booking, gapless,
in the order of the commits; a booking that failed uses no number.

The races run against the real service (threads of one process, and two processes) while a
reader watches the committed documents: a number committed before a smaller one would show
the reader a hole. Every loop is bounded in count and in time; nothing asserts on timings.
"""
import random
import secrets
import threading
import time
from collections import defaultdict
from datetime import date

import pytest
from conftest import Scanner
from sqlalchemy import select

from models import WarehouseDocument, WarehouseDocumentItem
from server import LiveServer, batch_body, create_products, database_engine, query
from stock.balances import add_document_items, new_document
from storage.db import before_commit, writing
from server import run_threads

PRODUCTS = ("P1", "P2", "P3")
WAREHOUSES = (1, 2, 3, 4)
DAYS = ("2025-12-30", "2026-01-02")  # two years: four ufid series


def assert_series_whole(rows) -> None:
    """doc_number runs 1..n and each ufid series (direction, year) runs 1..k, in one order."""
    numbers = sorted(number for number, _ufid in rows)
    assert numbers == list(range(1, len(numbers) + 1))
    series = defaultdict(list)
    for number, ufid in sorted(rows):
        direction, year, serial = ufid.split("-")
        series[(direction, year)].append(int(serial))
    for serials in series.values():
        # Both numbers are taken in one step under one lock: the same order in every series.
        assert serials == list(range(1, len(serials) + 1))


class Watcher:
    """A reader polling the committed documents until stopped: whatever it sees must be
    whole at that moment (no number committed while a smaller one was still missing)."""

    def __init__(self, database_config):
        self.engine = database_engine(database_config)
        self.looks, self.holes = 0, []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self):
        deadline = time.monotonic() + 120
        while not self.stopping.is_set() and time.monotonic() < deadline:
            with self.engine.connect() as conn:
                seen = [row[0] for row in conn.execute(select(WarehouseDocument.doc_number))]
            self.looks += 1
            if sorted(seen) != list(range(1, len(seen) + 1)):
                self.holes.append(sorted(seen))
            time.sleep(0.005)

    def stop(self):
        self.stopping.set()
        self.thread.join(timeout=60)
        self.engine.dispose()
        assert not self.thread.is_alive()


def post_mixed(servers, clients: int, per_client: int, budget: float = 60.0) -> dict:
    """Each client posts goods-in and goods-out batches (some short of stock: 409) into its own
    warehouse, through the servers in turn; {status: count}."""
    statuses = defaultdict(int)
    lock = threading.Lock()

    def work(index, deadline):
        rng = random.Random(index)
        server = servers[index % len(servers)]
        warehouse = WAREHOUSES[index % len(WAREHOUSES)]
        conn = server.connection()
        try:
            for i in range(per_client):
                if time.monotonic() > deadline:
                    break
                direction = "I" if i % 3 != 2 else "O"
                items = [(rng.choice(PRODUCTS), rng.randint(1, 4 if direction == "I" else 30))
                         for _ in range(rng.randint(1, 40))]
                body = batch_body((index + 1) * 10_000 + i, direction, items, id_warehouse=warehouse,
                                  day=DAYS[rng.randrange(2)])
                status, answer = server.post("/v1/batches/", body, connection=conn)
                assert status in (201, 409), answer
                with lock:
                    statuses[status] += 1
        finally:
            conn.close()

    run_threads(clients, work, budget=budget)
    return dict(statuses)


def documents(database_config):
    return query(database_config, "SELECT doc_number, ufid FROM warehouse_documents")


@pytest.mark.live
def test_eight_threads_in_four_warehouses_number_gapless_in_commit_order(live_server, database_config):
    server = live_server(threads=4)
    create_products(server, PRODUCTS)
    watcher = Watcher(database_config)
    try:
        statuses = post_mixed([server], clients=8, per_client=15)
    finally:
        watcher.stop()
    assert statuses.get(201, 0) > 20 and statuses.get(409, 0) > 0, statuses  # some failed: short of stock
    rows = documents(database_config)
    assert len(rows) == statuses[201]
    assert_series_whole(rows)
    assert watcher.looks > 0 and watcher.holes == []
    assert "Traceback" not in server.log()


@pytest.mark.live
def test_two_processes_number_one_series_gapless_in_commit_order(database_config, tmp_path):
    key = secrets.token_urlsafe(24)
    servers = []
    try:
        for name in ("one", "two"):
            (tmp_path / name).mkdir()
            servers.append(LiveServer(database_config, tmp_path / name, api_key=key).start())
        create_products(servers[0], PRODUCTS)
        watcher = Watcher(database_config)
        try:
            statuses = post_mixed(servers, clients=8, per_client=12)
        finally:
            watcher.stop()
        rows = documents(database_config)
        assert len(rows) == statuses[201] > 20
        assert_series_whole(rows)
        assert watcher.looks > 0 and watcher.holes == []
        for server in servers:
            assert "Traceback" not in server.log()
    finally:
        for server in servers:
            server.stop()


def test_a_refused_batch_uses_no_number(api, known_products):
    scanner = Scanner(api)
    first = scanner.send("R", "I", [{"product_code": "P1", "amount": 2, "unit": "pc"}])[0]
    short = scanner.send("R", "O", [{"product_code": "P1", "amount": 5, "unit": "pc"}])[0]
    second = scanner.send("R", "O", [{"product_code": "P1", "amount": 1, "unit": "pc"}])[0]
    assert (first.status_code, short.status_code, second.status_code) == (201, 409, 201)
    listed = api.post("/v1/docs/filter", {}).json["list"]
    year = date.today().year  # the business date defaults to the day received
    assert [(d["doc_number"], d["ufid"]) for d in listed] == [(1, f"I-{year}-000001"), (2, f"O-{year}-000001")]


class Refused(Exception):
    pass


def refuse(_session):
    raise Refused


def test_a_booking_that_fails_after_its_numbers_were_given_takes_them_back(session):
    """The numbers are taken just before the commit; a failure there (a commit that cannot be
    written) rolls them back with the booking: the next booking gets them."""
    with pytest.raises(Refused):
        with writing(session):
            document = new_document(session, 1, "I", date(2026, 5, 1), date(2026, 5, 1))
            add_document_items(session, document, 1, "I", date(2026, 5, 1), date(2026, 5, 1), [])
            before_commit(session, refuse)  # runs after the numbering, which new_document asked for
    assert session.scalars(select(WarehouseDocument)).all() == []
    with writing(session):
        new_document(session, 1, "I", date(2026, 5, 1), date(2026, 5, 1))
    numbered = session.execute(select(WarehouseDocument.doc_number, WarehouseDocument.ufid)).all()
    assert [tuple(row) for row in numbered] == [(1, "I-2026-000001")]


def test_numbers_are_given_only_at_the_end_of_the_booking(session):
    with writing(session):
        document = new_document(session, 1, "O", date(2026, 5, 1), date(2026, 5, 1))
        unnumbered = session.execute(select(WarehouseDocument.doc_number, WarehouseDocument.ufid)
                                     .where(WarehouseDocument.id == document)).one()
        assert tuple(unnumbered) == (None, None)
        assert session.scalars(select(WarehouseDocumentItem)).all() == []
    numbered = session.execute(select(WarehouseDocument.doc_number, WarehouseDocument.ufid)).one()
    assert tuple(numbered) == (1, "O-2026-000001")
