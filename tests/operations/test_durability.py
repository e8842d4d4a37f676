"""A killed service loses nothing it answered and leaves nothing half-booked.

Client threads post batches to the real service; once enough are answered the
process gets SIGKILL while requests are still in flight. A new process on the
same database must then show every batch answered 201 whole (batch, items,
document, balances), every batch cut off unanswered either whole or absent, and
balances equal to the sum of the warehouse documents. Loops are bounded in count
and in time; nothing asserts on timings.
"""
import http.client
import random
import threading
import time
from collections import Counter
from decimal import Decimal

from app import create_app
from server import batch_body, query
from storage.db import db

PRODUCTS = ("P1", "P2", "P3", "P4")
THREADS = 6
MAX_PER_THREAD = 200
KILL_AFTER = 40  # batches answered 201 before the kill
LOAD_BUDGET = 12.0  # seconds: the kill comes then at the latest
DAY = "2026-11-01"
SEED_NUMBER = 1


class Load:
    """What the client threads sent and what the service answered."""

    def __init__(self):
        self.lock = threading.Lock()
        self.sent: dict[int, dict] = {}  # batch_number -> body
        self.answers: dict[int, tuple[int, object]] = {}  # batch_number -> (status, body)
        self.unanswered: set[int] = set()  # sent, and the connection broke before a reply
        self.created = 0

    def answered(self, status) -> list[int]:
        return sorted(n for n, (s, _) in self.answers.items() if s == status)


def setup_stock(server):
    for code in PRODUCTS:
        status, body = server.post("/v1/products/", {"product_code": code, "name": f"Product {code}",
                                                     "base_unit": "pc"})
        assert status == 201, body
    seed = batch_body(SEED_NUMBER, "I", [(code, 500) for code in PRODUCTS], day=DAY)
    status, body = server.post("/v1/batches/", seed)
    assert status == 201, body
    return seed


def random_batch(rng, number: int, with_counts: bool) -> dict:
    """A movement of 20-60 lines, or (with_counts) now and then a count of some products."""
    if with_counts and rng.random() < 0.3:
        counted = rng.sample(PRODUCTS, rng.randint(1, len(PRODUCTS)))
        items = [(code, rng.randint(0, 40)) for code in counted for _ in range(rng.randint(1, 3))]
        return batch_body(number, "I", items, type_="V", day=DAY)
    direction = rng.choice("IO")
    items = [(rng.choice(PRODUCTS), rng.randint(1, 5 if direction == "I" else 3))
             for _ in range(rng.randint(20, 60))]
    return batch_body(number, direction, items, day=DAY)


def post_until_killed(server, with_counts: bool) -> Load:
    """Post from THREADS threads; SIGKILL the service once KILL_AFTER batches are booked."""
    load = Load()
    stop = threading.Event()
    errors = []

    def work(index):
        rng = random.Random(index)
        conn = server.connection()
        try:
            for i in range(MAX_PER_THREAD):
                if stop.is_set():
                    break
                number = 1000 * (index + 1) + i
                body = random_batch(rng, number, with_counts)
                with load.lock:
                    load.sent[number] = body
                try:
                    answer = server.post("/v1/batches/", body, connection=conn)
                except (OSError, http.client.HTTPException):
                    with load.lock:
                        load.unanswered.add(number)
                    break
                with load.lock:
                    load.answers[number] = answer
                    load.created += answer[0] == 201
        except BaseException as error:  # noqa: BLE001 - handed to the test thread below
            errors.append(error)
        finally:
            conn.close()

    threads = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + LOAD_BUDGET
    while time.monotonic() < deadline and load.created < KILL_AFTER and any(t.is_alive() for t in threads):
        time.sleep(0.005)
    stop.set()
    server.kill()
    for thread in threads:
        thread.join(timeout=40)
    assert not any(thread.is_alive() for thread in threads), "a client thread did not finish"
    if errors:
        raise errors[0]
    assert_clean_log(server)
    return load


def assert_clean_log(server) -> None:
    log = server.log()
    assert "database is locked" not in log and "Traceback" not in log, log[-4000:]


def units(body) -> list[tuple[str, Decimal]]:
    return [(item["product_code"], Decimal(item["amount"])) for item in body["batch_items"]]


def stored_batch(server, number: int):
    """The batch as the service returns it, or None (then nothing of it may be in the tables)."""
    status, answer = server.get(f"/v1/batches/{number}")
    if status == 404:
        assert query_count(server.database_config, "batch_items", number) == 0
        assert query_count(server.database_config, "warehouse_documents", number) == 0
        return None
    assert status == 200, (number, status, answer)
    return answer["item"]


def query_count(database_config, table: str, number: int) -> int:
    return query(database_config, f"SELECT count(*) FROM {table} WHERE batch_number = :n", n=number)[0][0]


def assert_whole(server, number: int, body: dict, stored: dict) -> None:
    """Every item is there as sent; a movement has its one document with the same lines."""
    settings = stored["batch_settings"]
    assert settings["type"] == body["batch_settings"]["type"]
    assert settings["direction"] == body["batch_settings"]["direction"]
    items = stored["batch_items"]
    assert [(item["product_code"], Decimal(str(item["amount_base_unit"]))) for item in items] == units(body)
    if settings["type"] == "V":
        assert all(item["doc_number"] == 0 for item in items)
        assert query_count(server.database_config, "warehouse_documents", number) == 0
        return
    doc_numbers = {item["doc_number"] for item in items}
    assert len(doc_numbers) == 1 and 0 not in doc_numbers, (number, doc_numbers)
    status, doc = server.get(f"/v1/docs/{doc_numbers.pop()}")
    assert status == 200, (number, doc)
    doc = doc["item"]
    assert doc["batch_number"] == number and doc["direction"] == settings["direction"]
    assert [(line["product_code"], Decimal(str(line["amount_base_unit"]))) for line in doc["wh_doc_items"]] \
        == units(body)
    assert [item["doc_item_number"] for item in items] == [line["item_number"] for line in doc["wh_doc_items"]]
    assert query_count(server.database_config, "warehouse_documents", number) == 1


def signed_totals(database_config, where: str = "") -> dict[tuple, int]:
    rows = query(database_config, f"""
        SELECT id_warehouse, product_code, lot,
               sum(CASE WHEN direction = 'I' THEN amount_base_milli ELSE -amount_base_milli END)
        FROM warehouse_document_items {where} GROUP BY id_warehouse, product_code, lot""")
    return {(w, code, lot): int(total) for w, code, lot, total in rows if total}


def book_stock(database_config) -> dict[tuple, int]:
    rows = query(database_config, "SELECT id_warehouse, product_code, lot, amount_milli FROM balances")
    return {(w, code, lot): amount for w, code, lot, amount in rows if amount}


def assert_balances_check(server) -> None:
    """Balances equal the sum of the warehouse documents; the `check` command agrees if it exists."""
    assert book_stock(server.database_config) == signed_totals(server.database_config)
    assert all(amount >= 0 for amount in book_stock(server.database_config).values())
    app = create_app(dict(server.database_config))
    with app.app_context():
        try:
            if "check" in app.cli.commands:
                result = app.test_cli_runner().invoke(args=["check"])
                assert result.exit_code == 0, result.output
        finally:
            db.session.remove()
            db.engine.dispose()


def verify(server, load: Load, seed: dict) -> dict[int, dict]:
    """Check every batch the clients sent; returns the batches found in the database."""
    present = {SEED_NUMBER: seed}
    for number in load.answered(201):
        stored = stored_batch(server, number)
        assert stored is not None, f"batch {number} was answered 201 but is gone"
        assert_whole(server, number, load.sent[number], stored)
        present[number] = load.sent[number]
    for number in sorted(load.unanswered):
        stored = stored_batch(server, number)
        if stored is not None:
            assert_whole(server, number, load.sent[number], stored)
            present[number] = load.sent[number]
    for number, (status, body) in load.answers.items():
        if status != 201:
            assert status == 409 and "short" in body["error"]["message"], (number, status, body)
            assert stored_batch(server, number) is None
    assert len(query(server.database_config, "SELECT batch_number FROM batches")) == len(present)
    assert_balances_check(server)
    assert_clean_log(server)
    return present


def movement_totals(batches) -> dict[tuple, int]:
    totals = Counter()
    for body in batches:
        settings = body["batch_settings"]
        if settings["type"] != "R":
            continue
        sign = 1 if settings["direction"] == "I" else -1
        for code, amount in units(body):
            totals[(1, code, "")] += sign * int(amount * 1000)
    return {key: total for key, total in totals.items() if total}


def report(label: str, load: Load, present: dict) -> None:
    unanswered_there = len(load.unanswered & set(present))
    counts = [n for n, body in load.sent.items() if body["batch_settings"]["type"] == "V"]
    print(f"\n{label}: {len(load.sent)} batches posted ({len(counts)} counts, "
          f"{len(set(counts) & set(present))} of them booked), {len(load.answers)} answered "
          f"({len(load.answered(201))} x 201, {len(load.answered(409))} x 409), "
          f"{len(load.unanswered)} cut off by the kill ({unanswered_there} found booked whole, "
          f"{len(load.unanswered) - unanswered_there} absent)")


def retry_unanswered(server, load: Load) -> None:
    """What a scanner does next: send the cut-off batches again. They book (once) or are refused."""
    for number in sorted(load.unanswered):
        status, body = server.post("/v1/batches/", load.sent[number])
        assert status == 201 or (status == 409 and "short" in body["error"]["message"]), (number, body)
        load.answers[number] = (status, body)
    load.unanswered.clear()
    for number in load.answered(201)[:5]:  # a retry of a booked batch books nothing more
        assert server.post("/v1/batches/", load.sent[number]) == (201, {})


def test_movements_survive_sigkill_whole_or_not_at_all(live_server, database_config):
    server = live_server(threads=4)
    seed = setup_stock(server)
    load = post_until_killed(server, with_counts=False)
    assert load.created >= 1
    server.start()  # the same database, a new process

    present = verify(server, load, seed)
    report("movements", load, present)
    # The book stock is exactly the seed plus every booked movement, nothing more, nothing less.
    assert book_stock(database_config) == movement_totals(present.values())

    retry_unanswered(server, load)
    present = verify(server, load, seed)
    assert book_stock(database_config) == movement_totals(present.values())


def test_counts_and_movements_survive_sigkill_whole_or_not_at_all(live_server, database_config):
    server = live_server(threads=4)
    seed = setup_stock(server)
    load = post_until_killed(server, with_counts=True)
    assert load.created >= 1
    server.start()

    present = verify(server, load, seed)
    report("counts and movements", load, present)
    assert any(body["batch_settings"]["type"] == "V" for body in present.values())
    assert_stocktaking_whole(database_config, present)

    retry_unanswered(server, load)
    present = verify(server, load, seed)
    assert_stocktaking_whole(database_config, present)


def assert_stocktaking_whole(database_config, present: dict) -> None:
    """The stocktaking holds exactly the counts of the count batches that are there, and its
    adjustment documents book exactly real - snap; the movements' documents match their batches."""
    counts = Counter()
    for body in present.values():
        if body["batch_settings"]["type"] == "V":
            for code, amount in units(body):
                counts[code] += int(amount * 1000)
    items = query(database_config, """
        SELECT product_code, lot, amount_real_milli, amount_snap_milli FROM stocktaking_items
        WHERE id_warehouse = 1""")
    assert {code: real for code, _lot, real, _snap in items} == dict(counts)
    stocktakings = query(database_config, "SELECT in_document_id, out_document_id FROM stocktakings")
    assert len(stocktakings) == (1 if counts else 0)
    adjustments = signed_totals(database_config, "WHERE document_id IN (SELECT in_document_id FROM "
                                "stocktakings UNION SELECT out_document_id FROM stocktakings)")
    assert adjustments == {(1, code, lot): real - snap for code, lot, real, snap in items if real != snap}
    own_docs = query(database_config, "SELECT count(*) FROM warehouse_documents WHERE batch_number = -1")[0][0]
    assert own_docs == sum(1 for doc in (stocktakings[0] if stocktakings else ()) if doc)
    movements = signed_totals(database_config, "WHERE document_id IN "
                              "(SELECT id FROM warehouse_documents WHERE batch_number <> -1)")
    assert movements == movement_totals(present.values())
