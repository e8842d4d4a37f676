"""`flask --app app demo`: a believable depot, booked through the rules, only on an empty database."""
import os
import re
import sqlite3
import subprocess
import sys
from datetime import date, timedelta

import pytest

from helpers import created, product
from identity import people
from server import query
from conftest import Api, sign_in


def demo(runner):
    return runner.invoke(args=["demo"])


def test_demo_fills_an_empty_depot_and_prints_the_sign_in_of_a_person_of_role_read(runner, client, api,
                                                                                     session):
    result = demo(runner)
    assert result.exit_code == 0, result.output
    password = result.stdout.splitlines()[-1]
    assert "'office'" in result.stderr
    # A phone opens the scanner paired with a key of role scan, and may take an order at once.
    phone = re.search(r"/scan#pair=(\S+)", result.stderr).group(1)
    assert Api(client, phone).get("/v1/open_orders/").json["list"]
    assert Api(client, phone).post("/v1/batch_numbers/", {"count": 10}).status_code == 201
    assert sign_in(client, "office", password).headers["Location"] == "/"
    assert client.get("/").status_code == 200
    assert [(p["name"], p["role"], p["warehouses"]) for p in people.list_people(session)] == [
        ("office", "read", [])]
    office = api

    products = office.get("/v1/products/").json["list"]
    assert 35 <= len(products) <= 45
    assert any(p["lot_level"] == 1 for p in products)
    assert any(p["packaging"] for p in products)
    assert len(office.get("/v1/customers/").json["list"]) >= 3

    orders = office.get("/v1/documents/").json["list"]
    assert {order["state"] for order in orders} >= {0, 1, 3}


def test_demo_books_90_days_of_goods_in_and_out(runner, api, database_config):
    assert demo(runner).exit_code == 0
    office = api
    today = date.today()
    for direction in ("I", "O"):
        movements = office.post("/v1/inventory/movements/filter", {"doc_direction": direction}).json["list"]
        assert movements, direction
    days = [row[0] for row in query(database_config, "SELECT date FROM warehouse_documents")]
    days = [d if isinstance(d, date) else date.fromisoformat(d) for d in days]
    assert min(days) == today - timedelta(days=90)
    assert max(days) >= today - timedelta(days=2)
    # Goods-out carry the customer of their order.
    customers = {row[0] for row in query(
        database_config, "SELECT id_customer FROM warehouse_documents WHERE direction = 'O'")}
    assert len(customers - {0}) >= 3
    inventory = office.post("/v1/inventory/filter", {}).json["list"]
    assert {row["id_warehouse"] for row in inventory} == {1, 2}


def test_demo_holds_a_stocktaking_with_differences(runner, api):
    assert demo(runner).exit_code == 0
    office = api
    stocktakings = office.get("/v1/stocktakings/list").json["list"]
    assert len(stocktakings) == 1
    differences = [item for item in stocktakings[0]["stocktaking_items"] if item["amount_diff"] != 0]
    assert differences
    assert stocktakings[0]["in_ufid"] or stocktakings[0]["out_ufid"]


def test_demo_refuses_a_database_that_holds_bookings(runner, api, database_config):
    assert demo(runner).exit_code == 0
    before = query(database_config, "SELECT count(*) FROM batches")
    result = demo(runner)
    assert result.exit_code != 0
    assert "already holds" in result.output
    assert query(database_config, "SELECT count(*) FROM batches") == before


def test_demo_refuses_a_database_with_products(runner, api, database_config):
    created(api.post("/v1/products/", product("OWN-1")))
    result = demo(runner)
    assert result.exit_code != 0
    assert "already holds products" in result.output
    assert query(database_config, "SELECT product_code FROM products") == [("OWN-1",)]


@pytest.mark.live
def test_make_demo_fills_a_sqlite_file_that_does_not_exist_yet(tmp_path):
    # As `make demo` runs it: a fresh file named by DATABASE_URL, made by the command itself.
    path = tmp_path / "demo.db"
    env = {k: v for k, v in os.environ.items() if not k.startswith("WAREHOUSE_")}
    env["DATABASE_URL"] = f"sqlite:///{path}"
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    done = subprocess.run([sys.executable, "-m", "flask", "--app", "app", "demo"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.strip().splitlines()) == 1  # the password, alone on stdout
    connection = sqlite3.connect(path)
    try:
        states = {state for (state,) in connection.execute("SELECT DISTINCT state FROM order_documents")}
    finally:
        connection.close()
    assert states == {0, 1, 3}
