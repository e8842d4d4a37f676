"""Concurrent postings against the real service (waitress threads, one database).

Eight client threads, each on its own HTTP connection, book goods-in and
goods-out of the same products at once: the balances must come out exact, and
identical retries racing each other must book once. Every loop is bounded in
count and in time; nothing here asserts on timings.
"""
import random
import time
from collections import Counter, defaultdict

from server import batch_body, create_products, query, run_threads

THREADS = 8
BATCHES_PER_THREAD = 25
PRODUCTS = ("P1", "P2")


def balances(database_config) -> dict[str, int]:
    """Book stock of warehouse 1 per product, in thousandths, straight from the database."""
    return dict(query(database_config,
                      "SELECT product_code, amount_milli FROM balances WHERE id_warehouse = 1 AND lot = ''"))


def scalar(database_config, sql: str, **params):
    return query(database_config, sql, **params)[0][0]


def assert_no_lock_errors(server):
    log = server.log()
    assert "database is locked" not in log
    assert "Traceback" not in log, log[-4000:]


def test_goods_in_and_out_from_eight_threads_end_with_exact_balances(live_server, database_config):
    server = live_server(threads=4)
    create_products(server, PRODUCTS)
    outcomes = defaultdict(list)  # thread -> [(batch_number, signed {code: units}, status, body)]

    def work(index, deadline):
        rng = random.Random(index)
        conn = server.connection()
        try:
            for i in range(BATCHES_PER_THREAD):
                if time.monotonic() > deadline:
                    break
                number = (index + 1) * 1000 + i + 1
                direction = "I" if i % 2 == 0 else "O"
                # One to three lines; two lines of one product must be checked as their sum.
                items = [(rng.choice(PRODUCTS), rng.randint(1, 6 if direction == "I" else 8))
                         for _ in range(rng.randint(1, 3))]
                status, body = server.post("/v1/batches/", batch_body(number, direction, items),
                                           connection=conn)
                sign = 1 if direction == "I" else -1
                change = Counter()
                for code, amount in items:
                    change[code] += sign * amount
                outcomes[index].append((number, direction, change, status, body))
        finally:
            conn.close()

    run_threads(THREADS, work)

    expected = Counter()
    booked = refused = 0
    for results in outcomes.values():
        for number, direction, change, status, body in results:
            if status == 409 and direction == "O":
                assert "short" in body["error"]["message"], (number, body)
                refused += 1
                continue
            assert status == 201, (number, status, body)
            assert body == {}
            expected.update(change)
            booked += 1
    assert booked > THREADS  # the load did run
    stock = balances(database_config)
    assert {code: stock.get(code, 0) for code in PRODUCTS} == {code: expected[code] * 1000 for code in PRODUCTS}
    assert all(amount >= 0 for amount in stock.values())
    # One warehouse document per booked batch, none for a refused one; documents sum to the stock.
    assert scalar(database_config, "SELECT count(*) FROM warehouse_documents") == booked
    assert scalar(database_config, "SELECT count(*) FROM batches") == booked
    for code in PRODUCTS:
        total = scalar(database_config, """
            SELECT coalesce(sum(CASE WHEN direction = 'I' THEN amount_base_milli
                                     ELSE -amount_base_milli END), 0)
            FROM warehouse_document_items WHERE product_code = :code""", code=code)
        assert total == stock.get(code, 0)
    assert_no_lock_errors(server)
    print(f"\nconcurrency: {booked} batches booked, {refused} goods-out refused for stock")


def test_racing_identical_retries_book_once(live_server, database_config):
    server = live_server(threads=4)
    create_products(server, ("P1",))
    rounds = [
        (501, "I", [("P1", 7), ("P1", 3)]),
        (502, "I", [("P1", 5)]),
        (503, "O", [("P1", 4), ("P1", 2)]),
        (504, "O", [("P1", 1)]),
    ]
    for number, direction, items in rounds:
        body = batch_body(number, direction, items)
        answers = []

        def work(_index, _deadline):
            conn = server.connection()
            try:
                answers.append(server.post("/v1/batches/", body, connection=conn))
            finally:
                conn.close()

        run_threads(THREADS, work)
        assert answers == [(201, {})] * THREADS, (number, answers)
        assert scalar(database_config, "SELECT count(*) FROM warehouse_documents WHERE batch_number = :n",
                      n=number) == 1
        assert scalar(database_config, "SELECT count(*) FROM batch_items WHERE batch_number = :n",
                      n=number) == len(items)

    assert scalar(database_config, "SELECT count(*) FROM warehouse_documents") == len(rounds)
    assert balances(database_config) == {"P1": (7 + 3 + 5 - 4 - 2 - 1) * 1000}
    status, view = server.get("/v1/batches/503")
    assert status == 200
    assert [item["amount_base_unit"] for item in view["item"]["batch_items"]] == [4, 2]
    assert_no_lock_errors(server)


def test_racing_identical_count_batches_count_once(live_server, database_config):
    server = live_server(threads=4)
    create_products(server, ("P1",))
    status, body = server.post("/v1/batches/", batch_body(601, "I", [("P1", 10)]))
    assert status == 201, body
    count = batch_body(602, "I", [("P1", 4)], type_="V")
    answers = []

    def work(_index, _deadline):
        conn = server.connection()
        try:
            answers.append(server.post("/v1/batches/", count, connection=conn))
        finally:
            conn.close()

    run_threads(THREADS, work)
    assert answers == [(201, {})] * THREADS
    # Counted once: 4 found, not 8 x 4; the stocktaking books the difference of -6 once.
    assert balances(database_config) == {"P1": 4000}
    assert scalar(database_config, "SELECT amount_real_milli FROM stocktaking_items") == 4000
    assert scalar(database_config, "SELECT count(*) FROM batches WHERE type = 'V'") == 1
    assert scalar(database_config, "SELECT count(*) FROM warehouse_documents") == 2  # goods-in + adjustment
    assert_no_lock_errors(server)
