"""A service killed while it books moves: every move answered 201 is there whole, every move cut
off is whole or absent, and the stock per location is the seed plus the moves there, exactly."""
import http.client
import random
import threading
import time

from moving import assert_checked, expected_stock, rack, random_move, stock_per_location, stored_moves

THREADS = 6
MAX_PER_THREAD = 300
KILL_AFTER = 60  # moves answered 201 before the kill
LOAD_BUDGET = 12.0  # seconds: the kill comes then at the latest


def test_moves_survive_sigkill_whole_or_not_at_all(live_server, database_config):
    server = live_server(threads=4)
    seed = rack(server)
    lock, stop, errors = threading.Lock(), threading.Event(), []
    sent, answers, unanswered = {}, {}, set()

    def work(index):
        rng = random.Random(index)
        conn = server.connection()
        try:
            for i in range(MAX_PER_THREAD):
                if stop.is_set():
                    break
                move = random_move(rng, f"m-{index}-{i}")
                with lock:
                    sent[move["move_id"]] = move
                try:
                    answer = server.post("/v1/moves/", move, connection=conn)
                except (OSError, http.client.HTTPException):
                    with lock:
                        unanswered.add(move["move_id"])
                    break
                with lock:
                    answers[move["move_id"]] = answer
        except BaseException as error:  # noqa: BLE001 - handed to the test thread below
            errors.append(error)
        finally:
            conn.close()

    threads = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + LOAD_BUDGET
    while (time.monotonic() < deadline and any(t.is_alive() for t in threads)
           and sum(status == 201 for status, _ in list(answers.values())) < KILL_AFTER):
        time.sleep(0.005)
    stop.set()
    server.kill()
    for thread in threads:
        thread.join(timeout=40)
    assert not any(thread.is_alive() for thread in threads), "a client thread did not finish"
    if errors:
        raise errors[0]
    server.start()  # the same database, a new process

    stored = stored_moves(server)
    booked = [move_id for move_id, (status, _) in answers.items() if status == 201]
    assert booked and set(booked) <= set(stored), "a move answered 201 is gone"
    for move_id, (status, body) in answers.items():
        if status != 201:
            assert status == 409 and "short" in body["error"]["message"], (move_id, body)
            assert move_id not in stored
    assert set(stored) <= set(booked) | unanswered
    present = [sent[move_id] for move_id in stored]
    for move in present:  # whole: what was sent, with both documents between warehouses
        listed = stored[move["move_id"]]
        assert [(i["product_code"], i["amount"]) for i in listed["items"]] == [
            (i["product_code"], i["amount"]) for i in move["items"]]
        between = move["from"]["id_warehouse"] != move["to"]["id_warehouse"]
        assert (listed["out_doc"] > 0, listed["in_doc"] > 0) == (between, between)
    assert stock_per_location(database_config) == expected_stock(seed, present)
    assert_checked(server, sum(m["from"]["id_warehouse"] != m["to"]["id_warehouse"] for m in present))
    # A scanner sends the cut-off moves again: each moves once, or is refused as short.
    for move_id in sorted(unanswered):
        status, body = server.post("/v1/moves/", sent[move_id])
        assert status == 201 or (status == 409 and "short" in body["error"]["message"]), body
        if status == 201 and move_id not in stored:
            present.append(sent[move_id])
    assert stock_per_location(database_config) == expected_stock(seed, present)
    log = server.log()
    assert "database is locked" not in log and "Traceback" not in log, log[-4000:]
