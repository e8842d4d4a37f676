"""Scenario o: locations inside a warehouse (DESIGN 27, issue 39).

o1: POST /v1/batches/ of 1000 items with `wplace` on every line, in a warehouse of 5,000
    locations, against the same batch in a warehouse without locations (its wplace free text):
    placing each line may cost at most 15% more.
o2: GET /v1/documents/{number}/pick of a 100-line order over 20,000 location balances, against
    the 50 ms the issue allows.
o3: GET /v1/locations/stock of one location, against 20 ms.
o4: POST /v1/moves/ of 100 items against POST /v1/batches/ of 100 items: at most 1.5x.
"""
import http.client
import time

import server
from load import batch_body, batch_lines, create_products, day, encode, median_ms
from report import Row

PRODUCTS = 400
AISLES, BAYS = 100, 50  # 5,000 locations: A-00-00 .. A-99-49 (batch_body's wplace among them)
STOCKED = 50  # locations each product lies on: 400 x 50 = 20,000 location balances
REPEATS = 9
# o1 compares two medians a few ms apart on a ~30 ms request: more rounds, so that one slow
# round of either service (a WAL checkpoint, another process) moves its median less.
O1_ROUNDS = 41


def location_code(aisle: int, bay: int) -> str:
    return f"A-{aisle:02d}-{bay:02d}"


def _ok(status, data, want, what):
    if status != want:
        raise RuntimeError(f"{what}: HTTP {status} {data[:300]!r}")


def _timed(client, method, path, body, want, what) -> float:
    status, data, sec = client.timed(method, path, body)
    _ok(status, data, want, what)
    return sec


def scenario_o(ctx):
    """Locations: batches placed line by line, the pick plan, a location's stock, moves."""
    lines = batch_lines(1000, PRODUCTS, 0)
    racked_times, plain_times = [], []
    with ctx.service("o-racked") as racked, ctx.service("o-plain") as plain:
        t0 = time.monotonic()
        _import_locations(racked.port, ctx.key)
        ctx.note(f"o: {AISLES * BAYS} locations imported in {time.monotonic() - t0:.0f} s")
        # Connections opened only now: one left idle while the other service worked would be closed.
        rc, pc = server.Client(racked.port, ctx.key), server.Client(plain.port, ctx.key)
        try:
            _measure(ctx, rc, pc, lines, racked_times, plain_times)
        finally:
            rc.close()
            pc.close()


def _import_locations(port, key) -> None:
    """The 5,000 locations as one file through POST /v1/import/locations (a depot's way)."""
    rows = "".join(f"1,{location_code(aisle, bay)}\n" for aisle in range(AISLES) for bay in range(BAYS))
    boundary = "bench-locations-boundary"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"locations.csv\"\r\n"
            f"Content-Type: text/csv\r\n\r\nid_warehouse,code\n{rows}\r\n--{boundary}--\r\n").encode()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    try:
        connection.request("POST", "/v1/import/locations", body=body, headers={
            "TS-Apikey": key, "Content-Type": f"multipart/form-data; boundary={boundary}"})
        response = connection.getresponse()
        _ok(response.status, response.read(), 200, "POST /v1/import/locations")
    finally:
        connection.close()


def _measure(ctx, rc, pc, lines, racked_times, plain_times) -> None:
    """The four rows, on the racked service (rc) and the one without locations (pc)."""
    for client in (rc, pc):
        create_products(client, PRODUCTS)
    # o1: the same bodies in both; rounds alternate which service goes first; round 0 warms up.
    for i in range(O1_ROUNDS + 1):
        body = encode(batch_body(100 + i, "I", day(0), lines))
        order = ((rc, racked_times), (pc, plain_times)) if i % 2 else ((pc, plain_times), (rc, racked_times))
        for client, times in order:
            sec = _timed(client, "POST", "/v1/batches/", body, 201, "POST /v1/batches/ (1000 items)")
            if i:
                times.append(sec)
    ctx.note("o1: POST ms with 5,000 locations: " + ", ".join(f"{t * 1000:.0f}" for t in racked_times))
    ctx.note("o1: POST ms without locations: " + ", ".join(f"{t * 1000:.0f}" for t in plain_times))
    ctx.add(Row("o1. POST 1000 items with wplace, 5,000 locations vs none", "ms", median_ms(racked_times),
                median_ms(plain_times), 1.15, 1.30, False))

    # 20,000 location balances: every product on the first STOCKED locations, 2 pc each.
    number = 1000
    placements = [(p, location_code(0, bay)) for bay in range(STOCKED) for p in range(PRODUCTS)]
    for start in range(0, len(placements), 1000):
        number += 1
        items = [{"product_code": f"P{p:05d}", "amount": "2", "unit": "pc", "wplace": code}
                 for p, code in placements[start:start + 1000]]
        _ok(*rc.request("POST", "/v1/batches/", {"data": {"batch_settings": {
            "batch_number": number, "id_warehouse": 1, "direction": "I", "type": "R"}, "batch_items": items}}),
            201, "POST /v1/batches/ (placing stock)")
    _ok(*rc.request("POST", "/v1/documents/", {"data": {
        "document_number": "SO-BENCH", "id_warehouse": 1,
        "batch_settings": {"allowed_types": ["R"], "allowed_directions": ["O"]},
        "items": [{"item_number": n + 1, "product_code": f"P{n * 3:05d}", "amount_ordered": 30}
                  for n in range(100)]}}), 201, "POST /v1/documents/")
    pick_times, stock_times = [], []
    for i in range(REPEATS * 2 + 1):
        pick = _timed(rc, "GET", "/v1/documents/SO-BENCH/pick", None, 200, "GET pick")
        stock = _timed(rc, "GET", "/v1/locations/stock?id_warehouse=1&location=A-07-00", None, 200,
                       "GET /v1/locations/stock")
        if i:
            pick_times.append(pick)
            stock_times.append(stock)
    ctx.add(Row("o2. GET pick plan, 100 lines, 20,000 location balances vs 50 ms", "ms",
                median_ms(pick_times), 50.0, 1.0, 1.5, False))
    ctx.add(Row("o3. GET /v1/locations/stock of one location vs 20 ms", "ms",
                median_ms(stock_times), 20.0, 1.0, 1.5, False))

    # o4: 100 items moved from one shelf to another against a 100-item goods-in.
    move_times, batch_times = [], []
    small = batch_lines(100, PRODUCTS, 0)
    for i in range(REPEATS + 1):
        source, target = location_code(0, i), location_code(0, STOCKED - 1 - i)
        move = {"data": {"move_id": f"bench-{i}", "from": {"id_warehouse": 1, "location": source},
                         "to": {"id_warehouse": 1, "location": target},
                         "items": [{"product_code": f"P{p:05d}", "lot": "", "amount": 1} for p in range(100)]}}
        moved = _timed(rc, "POST", "/v1/moves/", move, 201, "POST /v1/moves/")
        booked = _timed(rc, "POST", "/v1/batches/", encode(batch_body(5000 + i, "I", day(0), small)), 201,
                        "POST /v1/batches/ (100 items)")
        if i:
            move_times.append(moved)
            batch_times.append(booked)
    ctx.add(Row("o4. POST /v1/moves/ vs POST /v1/batches/, 100 items", "ms", median_ms(move_times),
                median_ms(batch_times), 1.5, 2.0, False))
