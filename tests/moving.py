"""Moves under load against a live service (tests/server.py): a racked depot, random moves, and
what the stock per location must be afterwards: the seed plus every move booked, exactly."""
import random
from collections import Counter

from app import create_app
from server import batch_body, create_products, query
from storage.db import db

PRODUCTS = ("P1", "P2")
# (warehouse, location): four shelves in warehouse 1, two in warehouse 2, and warehouse 2's unplaced stock.
PLACES = [(1, "A-1"), (1, "A-2"), (1, "A-3"), (1, "A-4"), (2, "C-1"), (2, "C-2"), (2, "")]
SEED = 40  # of each product on each shelf of warehouse 1


def rack(server) -> Counter:
    """Products, locations and the seed stock; returns the stock per (warehouse, location, product)."""
    create_products(server, PRODUCTS)
    for warehouse, code in PLACES:
        if code:
            status, body = server.post("/v1/locations/", {"id_warehouse": warehouse, "code": code})
            assert status == 201, body
    seed = batch_body(1, "I", [(code, SEED) for _ in range(4) for code in PRODUCTS])
    for index, line in enumerate(seed["batch_items"]):
        line["wplace"] = PLACES[index // len(PRODUCTS)][1]
    status, body = server.post("/v1/batches/", seed)
    assert status == 201, body
    return Counter({(1, PLACES[i][1], code): SEED for i in range(4) for code in PRODUCTS})


def random_move(rng, move_id: str) -> dict:
    source, target = rng.sample(PLACES, 2)
    items = [{"product_code": code, "lot": "", "amount": rng.randint(1, 12)}
             for code in rng.sample(PRODUCTS, rng.randint(1, 2))]
    return {"move_id": move_id, "from": {"id_warehouse": source[0], "location": source[1]},
            "to": {"id_warehouse": target[0], "location": target[1]}, "items": items}


def expected_stock(seed: Counter, moves) -> dict:
    stock = Counter(seed)
    for move in moves:
        for item in move["items"]:
            stock[(move["from"]["id_warehouse"], move["from"]["location"], item["product_code"])] -= item["amount"]
            stock[(move["to"]["id_warehouse"], move["to"]["location"], item["product_code"])] += item["amount"]
    return {key: amount for key, amount in stock.items() if amount}


def stock_per_location(database_config) -> dict:
    rows = query(database_config, "SELECT id_warehouse, location, product_code, amount_milli FROM location_balances "
                                  "WHERE amount_milli != 0")
    assert all(amount % 1000 == 0 for *_, amount in rows)
    return {(w, location, code): amount // 1000 for w, location, code, amount in rows}


def stored_moves(server) -> dict[str, dict]:
    status, body = server.get("/v1/moves/")
    assert status == 200, body
    return {move["move_id"]: move for move in body["list"]}


def assert_checked(server, moves_between: int) -> None:
    """`flask check`: balances equal the documents and the sum of their locations; every move
    between warehouses has its two documents, and there are no others beside the seed's."""
    app = create_app(dict(server.database_config))
    with app.app_context():
        try:
            result = app.test_cli_runner().invoke(args=["check"])
            assert result.exit_code == 0, result.output
        finally:
            db.session.remove()
            db.engine.dispose()
    documents = query(server.database_config, "SELECT count(*) FROM warehouse_documents")[0][0]
    assert documents == 1 + 2 * moves_between
    half = query(server.database_config, "SELECT count(*) FROM moves WHERE from_warehouse != to_warehouse "
                                         "AND (out_document_id = 0 OR in_document_id = 0)")[0][0]
    assert half == 0
