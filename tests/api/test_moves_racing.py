"""Moves racing each other against the real service (waitress threads, one database): copies of
one move book once, and many moves at once over the same shelves leave every location exact."""
import random
import time

from moving import assert_checked, expected_stock, rack, random_move, stock_per_location, stored_moves
from server import run_threads

THREADS = 8
MOVES_PER_THREAD = 15


def assert_clean_log(server):
    log = server.log()
    assert "database is locked" not in log and "Traceback" not in log, log[-4000:]


def test_racing_copies_of_one_move_move_once(live_server, database_config):
    server = live_server(threads=4)
    seed = rack(server)
    moves = [
        {"move_id": "within", "from": {"id_warehouse": 1, "location": "A-1"},
         "to": {"id_warehouse": 1, "location": "A-2"}, "items": [{"product_code": "P1", "lot": "", "amount": 7}]},
        {"move_id": "between", "from": {"id_warehouse": 1, "location": "A-3"},
         "to": {"id_warehouse": 2, "location": "C-1"}, "items": [{"product_code": "P2", "lot": "", "amount": 5},
                                                                 {"product_code": "P1", "lot": "", "amount": 1}]},
    ]
    for move in moves:
        answers = []

        def work(_index, _deadline):
            conn = server.connection()
            try:
                answers.append(server.post("/v1/moves/", move, connection=conn))
            finally:
                conn.close()

        run_threads(THREADS, work)
        assert answers == [(201, {})] * THREADS, (move["move_id"], answers)
    assert sorted(stored_moves(server)) == ["between", "within"]
    assert stock_per_location(database_config) == expected_stock(seed, moves)
    assert_checked(server, moves_between=1)
    assert_clean_log(server)


def test_many_moves_at_once_leave_every_location_exact(live_server, database_config):
    server = live_server(threads=4)
    seed = rack(server)
    outcomes = []

    def work(index, deadline):
        rng = random.Random(index)
        conn = server.connection()
        try:
            for i in range(MOVES_PER_THREAD):
                if time.monotonic() > deadline:
                    break
                move = random_move(rng, f"m-{index}-{i}")
                outcomes.append((move, *server.post("/v1/moves/", move, connection=conn)))
        finally:
            conn.close()

    run_threads(THREADS, work)
    booked = []
    for move, status, body in outcomes:
        if status == 409:
            assert "short" in body["error"]["message"] or "Not enough" in body["error"]["message"], body
            continue
        assert (status, body) == (201, {}), (move, body)
        booked.append(move)
    assert len(booked) > THREADS  # the load did run
    assert sorted(stored_moves(server)) == sorted(move["move_id"] for move in booked)
    assert stock_per_location(database_config) == expected_stock(seed, booked)
    assert_checked(server, sum(move["from"]["id_warehouse"] != move["to"]["id_warehouse"] for move in booked))
    assert_clean_log(server)
