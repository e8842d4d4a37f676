"""POST /v1/batch_numbers/: blocks of batch numbers reserved per key (DESIGN 25), and the batches of
other keys they keep out, through HTTP, the CLI's listing, and races of threads and of processes."""
import http.client
import json
import random
import threading
import time

import pytest

from helpers import batch, created, error_fields, item
from server import query


def reserve(api, count):
    return api.post("/v1/batch_numbers/", {"count": count})


def block(api, count):
    r = reserve(api, count)
    assert r.status_code == 201, r.json
    return r.json["item"]["first"], r.json["item"]["last"]


def test_blocks_follow_each_other_and_never_overlap(api_as):
    assert block(api_as("scan"), 100) == (1, 100)
    assert block(api_as("scan_w1"), 1) == (101, 101)
    assert block(api_as("scan"), 1000) == (102, 1101)


def test_a_block_lies_above_every_batch_number_used(api_as, known_products):
    created(api_as("scan").post("/v1/batches/", batch(5000, [item("P1", 1)])))
    assert block(api_as("scan"), 10) == (5001, 5010)
    # A batch numbered above the blocks (another scanner app counting on its own) moves the next block up.
    created(api_as("scan_w1").post("/v1/batches/", batch(7000, [item("P1", 1)])))
    assert block(api_as("scan"), 10) == (7001, 7010)


def test_a_batch_of_another_key_inside_a_block_is_409_naming_the_holder_and_books_nothing(api, api_as, known_products):
    first, last = block(api_as("scan"), 50)
    r = api_as("scan_w1").post("/v1/batches/", batch(first + 3, [item("P1", 2)]))
    assert r.status_code == 409
    assert f"reserved for the scanner 'scan' (numbers {first}-{last})" in r.json["error"]["message"]
    assert api.get(f"/v1/batches/{first + 3}").status_code == 404
    # The holder books it, and its retry is a retry; the other key's copy of the same content too.
    body = batch(first + 3, [item("P1", 2)])
    created(api_as("scan").post("/v1/batches/", body))
    created(api_as("scan").post("/v1/batches/", body))
    created(api_as("scan_w1").post("/v1/batches/", body))
    assert api.get(f"/v1/batches/{first + 3}").json["item"]["batch_items"][0]["amount_base_unit"] == 2
    # Numbers outside every block stay free for anyone.
    created(api_as("scan_w1").post("/v1/batches/", batch(last + 1, [item("P1", 1)])))


@pytest.mark.parametrize("count, message", [(0, "greater than or equal to 1"), (1001, "less than or equal to 1000"),
                                            ("5", "Not a valid integer."), (None, "Missing data")])
def test_a_count_out_of_range_or_not_a_number_is_422_and_reserves_nothing(api_as, count, message):
    data = {} if count is None else {"count": count}
    r = api_as("scan").post("/v1/batch_numbers/", data)
    assert message in str(error_fields(r))
    assert block(api_as("scan"), 1) == (1, 1)


def test_reading_keys_may_not_reserve_and_a_body_is_needed(api_as):
    assert reserve(api_as("read"), 5).status_code == 403
    assert api_as("scan").post("/v1/batch_numbers/", body={}).status_code == 400
    assert reserve(api_as("nobody"), 5).status_code == 401


def test_keys_list_shows_the_blocks_of_each_key(api_as, runner):
    block(api_as("scan"), 100)
    block(api_as("scan_w1"), 5)
    block(api_as("scan"), 10)
    lines = {line.split("\t")[0]: line.split("\t") for line in runner.invoke(args=["keys", "list"]).stdout.splitlines()}
    assert lines["scan"][4] == "batch numbers 1-100, 106-115"
    assert lines["scan_w1"][4] == "batch numbers 101-105"
    assert len(lines["read"]) == 4


# --- races ------------------------------------------------------------------------------------

BUDGET = 30.0  # seconds for every race below; the threads stop when it is spent


def call(port, key, method, path, data=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        body = None if data is None else json.dumps({"data": data})
        conn.request(method, path, body=body, headers={"TS-Apikey": key, "Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        conn.close()


def scanner_keys(server, count):
    keys = []
    for index in range(count):
        status, answer = server.post("/v1/keys/", {"name": f"phone-{index}", "role": "scan"})
        assert status == 201, answer
        keys.append(answer["item"]["key"])
    return keys


def race(servers, keys, reservations_each, batches_each):
    """Each key in a thread of its own, on the servers in turn: reserve blocks and, between them,
    book batches numbered just above the highest number it has seen (as a scanner app that counts
    on its own does). Answers every thread's blocks and booked numbers."""
    found = {key: {"blocks": [], "booked": [], "refused": []} for key in keys}
    errors = []
    deadline = time.monotonic() + BUDGET
    barrier = threading.Barrier(len(keys))

    def work(index, key):
        rng = random.Random(index)
        port = servers[index % len(servers)].port
        try:
            barrier.wait(timeout=BUDGET)
            seen = 0
            for round_ in range(max(reservations_each, batches_each)):
                if time.monotonic() > deadline:
                    break
                if round_ < reservations_each:
                    status, answer = call(port, key, "POST", "/v1/batch_numbers/", {"count": rng.randint(1, 40)})
                    assert status == 201, answer
                    found[key]["blocks"].append((answer["item"]["first"], answer["item"]["last"]))
                    seen = max(seen, answer["item"]["last"])
                if round_ < batches_each:
                    number = seen + rng.randint(1, 3)
                    status, answer = call(port, key, "POST", "/v1/batches/", batch(number, [item("P1", 1)]))
                    if status == 201:
                        found[key]["booked"].append(number)
                    else:
                        assert status == 409, answer
                        found[key]["refused"].append(number)
        except BaseException as error:  # noqa: BLE001 - re-raised in the test's thread
            errors.append(error)

    threads = [threading.Thread(target=work, args=(i, key), daemon=True) for i, key in enumerate(keys)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=BUDGET + 60)
    assert not any(thread.is_alive() for thread in threads)
    if errors:
        raise errors[0]
    return found


def check_the_race(found, database_config):
    blocks = sorted((first, last, key) for key, seen in found.items() for first, last in seen["blocks"])
    assert len(blocks) > len(found)  # the race did run
    for (_, last, _), (first, _, _) in zip(blocks, blocks[1:]):
        assert last < first, blocks  # never overlapping
    stored = {number: name for number, name in query(database_config, "SELECT batch_number, posted_by FROM batches")}
    names = {key: f"phone-{index}" for index, key in enumerate(found)}
    for first, last, key in blocks:
        for number, name in stored.items():
            # No batch of another key inside a block, whenever either came.
            assert not (first <= number <= last and name != names[key]), (first, last, names[key], number, name)
    for key, seen in found.items():
        assert sorted(number for number, name in stored.items() if name == names[key]) == sorted(seen["booked"])


def test_threads_racing_for_blocks_and_numbers_never_share_one(live_server, database_config):
    server = live_server(threads=4)
    status, _ = server.post("/v1/products/", {"product_code": "P1", "name": "P1", "base_unit": "pc"})
    assert status == 201
    keys = scanner_keys(server, 6)
    check_the_race(race([server], keys, reservations_each=12, batches_each=12), database_config)


def test_two_processes_on_one_database_never_give_out_one_number_twice(live_server, database_config):
    first = live_server(threads=3)
    second = live_server(threads=3, api_key=first.api_key)
    status, _ = first.post("/v1/products/", {"product_code": "P1", "name": "P1", "base_unit": "pc"})
    assert status == 201
    keys = scanner_keys(first, 6)
    check_the_race(race([first, second], keys, reservations_each=10, batches_each=10), database_config)
