"""Locations inside a warehouse (DESIGN 27) through HTTP: the places, the stock on them, and how
every booking puts stock on them and takes it off."""
import pytest

from helpers import add_products, batch, created, error_fields, item


@pytest.fixture
def depot(api):
    """Products P1, P2, LOT in the tests' warehouses 1 and 2."""
    add_products(api)
    return api


def add(api, code, warehouse=1, **fields):
    return created(api.post("/v1/locations/", {"id_warehouse": warehouse, "code": code, **fields}))


def stock(api, warehouse=1, **query):
    extra = "".join(f"&{name}={value}" for name, value in query.items())
    r = api.get(f"/v1/locations/stock?id_warehouse={warehouse}{extra}")
    assert r.status_code == 200, r.json
    return [(row["location"], row["product_code"], row["lot"], row["amount"]) for row in r.json["list"]]


def inventory(api, warehouse=1):
    r = api.post("/v1/inventory/filter", {"id_warehouses": [warehouse], "level": 1})
    return [(row["product_code"], row["lot"], row["amount"]) for row in r.json["list"]]


class Book:
    """Batches numbered 1, 2, 3... posted over HTTP."""

    def __init__(self, api):
        self.api, self.number = api, 0

    def post(self, items, **settings):
        self.number += 1
        return self.api.post("/v1/batches/", batch(self.number, items, **settings))

    def receive(self, *items, **settings):
        return created(self.post(list(items), **settings))

    def ship(self, *items, **settings):
        return created(self.post(list(items), direction="O", **settings))

    def count(self, *items, **settings):
        return created(self.post(list(items), type="V", **settings))


@pytest.fixture
def book(depot):
    return Book(depot)


# --- the locations themselves -------------------------------------------------------------------

def test_locations_are_listed_in_walking_order_natural_by_default(depot):
    for code in ("A-10", "A-2", "B-1", "a-1"):
        add(depot, code)
    add(depot, "Z-9", sequence=0)
    add(depot, "DOCK", sequence=5, name="Loading dock", hold=1)
    r = depot.get("/v1/locations/?id_warehouse=1")
    assert r.status_code == 200
    assert [row["code"] for row in r.json["list"]] == ["a-1", "A-2", "A-10", "B-1", "Z-9", "DOCK"]
    assert r.json["list"][-1] == {"id_warehouse": 1, "code": "DOCK", "name": "Loading dock", "sequence": 5,
                                  "hold": 1, "receiving": 0, "active": 1}
    assert depot.get("/v1/locations/?id_warehouse=2").json == {"list": []}


def test_a_code_is_unique_in_its_warehouse_whatever_its_case(depot):
    add(depot, "A-1")
    assert "code" in error_fields(depot.post("/v1/locations/", {"id_warehouse": 1, "code": "a-1"}), 409)["data"]
    add(depot, "a-1", warehouse=2)  # another warehouse may have it


@pytest.mark.parametrize("code", ["", "A 1", "Ä-1", "A_1", "A" * 31, 7])
def test_a_code_is_1_to_30_letters_digits_dash_dot_slash(depot, code):
    assert "code" in error_fields(depot.post("/v1/locations/", {"id_warehouse": 1, "code": code}))["data"]
    assert depot.get("/v1/locations/?id_warehouse=1").json == {"list": []}


def test_codes_with_dots_and_slashes_are_reached_by_their_path(depot):
    add(depot, "R1/S.2")
    assert depot.post("/v1/locations/1/r1/s.2", {"name": "Rack 1, shelf 2"}).status_code == 200
    assert depot.get("/v1/locations/?id_warehouse=1").json["list"][0]["name"] == "Rack 1, shelf 2"


def test_a_location_in_an_unknown_warehouse_is_422(depot):
    assert "id_warehouse" in error_fields(depot.post("/v1/locations/", {"id_warehouse": 999999, "code": "A"}))["data"]


def test_update_changes_what_is_given_and_404_for_an_unknown_location(depot):
    add(depot, "A-1", name="first")
    assert depot.post("/v1/locations/1/A-1", {"sequence": 7, "hold": 1}).json == {}
    row = depot.get("/v1/locations/?id_warehouse=1").json["list"][0]
    assert (row["name"], row["sequence"], row["hold"], row["active"]) == ("first", 7, 1, 1)
    assert depot.post("/v1/locations/1/NOPE", {"hold": 1}).status_code == 404
    assert depot.post("/v1/locations/1/A-1", {"code": "B"}).status_code == 422


def test_roles_and_warehouses_of_the_caller(depot, api_as, admin_w1):
    assert api_as("scan").post("/v1/locations/", {"id_warehouse": 1, "code": "A"}).status_code == 403
    assert admin_w1.post("/v1/locations/", {"id_warehouse": 2, "code": "A"}).status_code == 403
    add(admin_w1, "A")
    add(depot, "C", warehouse=2)
    assert admin_w1.post("/v1/locations/2/C", {"hold": 1}).status_code == 403
    assert depot.get("/v1/locations/?id_warehouse=2").json["list"][0]["hold"] == 0
    assert api_as("read_w1").get("/v1/locations/?id_warehouse=2").json == {"list": []}
    assert [row["code"] for row in api_as("read").get("/v1/locations/?id_warehouse=2").json["list"]] == ["C"]
    assert api_as("read_w1").get("/v1/locations/stock?id_warehouse=2").json == {"list": []}


def test_the_audit_trail_records_locations(depot):
    add(depot, "A-1")
    depot.post("/v1/locations/1/A-1", {"hold": 1})
    kinds = [row["kind"] for row in depot.get("/v1/audit/?limit=5").json["list"]]
    assert kinds[:2] == ["location.update", "location.create"]


# --- a warehouse without locations ------------------------------------------------------------

def test_without_locations_wplace_is_free_text_and_stock_is_unplaced(book):
    book.receive(item("P1", 10, wplace="shelf by the door"), item("P1", 5, wplace="nowhere known"))
    book.ship(item("P1", 3, wplace="whatever"))
    assert book.api.get("/v1/batches/1").json["item"]["batch_items"][0]["wplace"] == "shelf by the door"
    assert stock(book.api) == [("", "P1", "", 12)]
    assert inventory(book.api) == [("P1", "", 12)]


# --- goods-in and goods-out with locations ------------------------------------------------------

@pytest.fixture
def racked(book):
    """Warehouse 1 with A-1, A-2, A-10 (walking order), H hold, and B-1 in order of sequence 99."""
    for code in ("A-10", "A-2", "A-1"):
        add(book.api, code)
    add(book.api, "H", hold=1)
    add(book.api, "B-1", sequence=99)
    return book


def test_goods_in_goes_to_the_named_location_whatever_the_case(racked):
    racked.receive(item("P1", 4, wplace="a-2"), item("P1", 6, wplace="A-10"), item("LOT", 2, lot="X"))
    assert stock(racked.api) == [("", "LOT", "X", 2), ("A-2", "P1", "", 4), ("A-10", "P1", "", 6)]
    assert racked.api.get("/v1/batches/1").json["item"]["batch_items"][0]["wplace"] == "a-2"  # kept as sent
    assert stock(racked.api, location="a-10") == [("A-10", "P1", "", 6)]
    assert stock(racked.api, product_code="LOT") == [("", "LOT", "X", 2)]


def test_goods_in_without_a_location_go_to_the_receiving_location(racked):
    assert racked.api.post("/v1/locations/1/B-1", {"receiving": 1}).status_code == 200
    assert [row["code"] for row in racked.api.get("/v1/locations/?id_warehouse=1").json["list"]
            if row["receiving"]] == ["B-1"]
    racked.receive(item("P1", 4))
    assert stock(racked.api) == [("B-1", "P1", "", 4)]
    # Deactivated (once empty), it stops being the receiving location.
    racked.ship(item("P1", 4, wplace="B-1"))
    assert racked.api.post("/v1/locations/1/B-1", {"active": 0}).status_code == 200
    racked.receive(item("P1", 1))
    assert stock(racked.api) == [("", "P1", "", 1)]


def test_an_unknown_or_inactive_location_is_422_naming_the_line_and_books_nothing(racked):
    add(racked.api, "OLD")
    racked.api.post("/v1/locations/1/OLD", {"active": 0})
    r = racked.post([item("P1", 1, wplace="A-1"), item("P1", 1, wplace="NOPE"), item("P1", 1, wplace="old")])
    fields = error_fields(r)["data"]["batch_items"]
    assert set(fields) == {"1", "2"}
    assert "NOPE" in fields["1"]["wplace"][0] and "not active" in fields["2"]["wplace"][0]
    assert stock(racked.api) == [] and inventory(racked.api) == []
    assert racked.api.get(f"/v1/batches/{racked.number}").status_code == 404


def test_goods_out_without_a_location_take_unplaced_then_walking_order_hold_last(racked):
    racked.receive(item("P1", 2), item("P1", 3, wplace="H"), item("P1", 4, wplace="B-1"),
                   item("P1", 5, wplace="A-10"), item("P1", 6, wplace="A-2"))
    racked.ship(item("P1", 9))  # 2 unplaced, then 6 of A-2, then 1 of A-10
    # Listed in walking order: H (sequence 0) before B-1 (99); taken last all the same.
    assert stock(racked.api) == [("A-10", "P1", "", 4), ("H", "P1", "", 3), ("B-1", "P1", "", 4)]
    racked.ship(item("P1", 10))  # A-10, B-1, then 2 of the hold location
    assert stock(racked.api) == [("H", "P1", "", 1)]
    assert inventory(racked.api) == [("P1", "", 1)]


def test_goods_out_at_a_location_short_there_is_409_naming_the_line(racked):
    racked.receive(item("P1", 5, wplace="A-1"), item("P1", 5, wplace="A-2"))
    r = racked.post([item("P1", 1, wplace="A-2"), item("P1", 4, wplace="A-1"), item("P1", 3, wplace="A-1")],
                    direction="O")
    fields = error_fields(r, 409)["data"]["batch_items"]
    assert set(fields) == {"1", "2"} and "A-1" in fields["1"]["wplace"][0]
    assert stock(racked.api) == [("A-1", "P1", "", 5), ("A-2", "P1", "", 5)]
    racked.ship(item("P1", 5, wplace="A-1"), item("P1", 1, wplace="a-2"))
    assert stock(racked.api) == [("A-2", "P1", "", 4)]


def test_the_warehouse_shortage_comes_first(racked):
    racked.receive(item("P1", 5, wplace="A-1"))
    r = racked.post([item("P1", 6, wplace="A-1")], direction="O")
    assert "amount" in error_fields(r, 409)["data"]["batch_items"]["0"]


def test_with_negative_stock_allowed_a_location_may_go_below_zero(make_app, keys):
    from conftest import Api

    app = make_app(ALLOW_NEGATIVE_STOCK=True)
    api = Api(app.test_client(), keys["admin"])
    add_products(api)
    add(api, "A-1")
    created(api.post("/v1/batches/", batch(1, [item("P1", 2, wplace="A-1")], direction="O")))
    created(api.post("/v1/batches/", batch(2, [item("P1", 1)], direction="O")))
    assert stock(api) == [("", "P1", "", -1), ("A-1", "P1", "", -2)]


def test_a_location_that_holds_stock_cannot_be_deactivated(racked):
    racked.receive(item("P1", 1, wplace="A-1"))
    r = racked.api.post("/v1/locations/1/A-1", {"active": 0})
    assert "active" in error_fields(r, 409)["data"]
    racked.ship(item("P1", 1, wplace="A-1"))
    assert racked.api.post("/v1/locations/1/A-1", {"active": 0}).status_code == 200
    assert "not active" in error_fields(racked.post([item("P1", 1, wplace="A-1")]))["data"]["batch_items"]["0"][
        "wplace"][0]


def test_a_retry_of_a_batch_with_locations_books_nothing_more(racked):
    body = batch(50, [item("P1", 3, wplace="A-1")])
    created(racked.api.post("/v1/batches/", body))
    created(racked.api.post("/v1/batches/", body))
    assert stock(racked.api) == [("A-1", "P1", "", 3)]


# --- counts -----------------------------------------------------------------------------------

def test_a_count_at_a_location_sets_that_location(racked):
    racked.receive(item("P1", 5, wplace="A-1"), item("P1", 5, wplace="A-2"), item("P1", 2))
    racked.count(item("P1", 3, wplace="A-1"), date="2026-03-02")
    assert stock(racked.api) == [("", "P1", "", 2), ("A-1", "P1", "", 3), ("A-2", "P1", "", 5)]
    assert inventory(racked.api) == [("P1", "", 10)]
    racked.count(item("P1", 7, wplace="A-2"), item("P1", 0, wplace="A-10"), date="2026-03-02")
    assert stock(racked.api) == [("", "P1", "", 2), ("A-1", "P1", "", 3), ("A-2", "P1", "", 7)]
    assert inventory(racked.api) == [("P1", "", 12)]
    st = racked.api.get("/v1/stocktakings/list").json["list"][0]["stocktaking_items"][0]
    assert (st["amount_real"], st["amount_diff"]) == (12, 0)  # the day's differences: -2 then +2


def test_a_count_of_nothing_at_a_location_empties_it(racked):
    racked.receive(item("LOT", 4, lot="X", wplace="A-1"), item("LOT", 1, lot="X"))
    racked.count(item("LOT", 0, lot="X", wplace="A-1"))
    assert stock(racked.api) == [("", "LOT", "X", 1)]


def test_a_count_without_location_sets_the_total_gains_unplaced_losses_as_goods_out(racked):
    racked.receive(item("P1", 5, wplace="A-2"), item("P1", 1))
    racked.count(item("P1", 8))
    assert stock(racked.api) == [("", "P1", "", 3), ("A-2", "P1", "", 5)]
    racked.count(item("P1", 4), date="2026-03-03")
    assert stock(racked.api) == [("A-2", "P1", "", 4)]
    assert inventory(racked.api) == [("P1", "", 4)]


def test_deleting_a_stocktaking_keeps_locations_adding_up(racked):
    racked.receive(item("P1", 5, wplace="A-2"))
    racked.count(item("P1", 2, wplace="A-2"), date="2026-03-02")
    assert racked.api.delete("/v1/stocktakings/?date=2026-03-02&id_warehouse=1").status_code == 200
    assert inventory(racked.api) == [("P1", "", 5)]
    assert sum(row[3] for row in stock(racked.api)) == 5


def test_a_count_in_a_warehouse_without_locations_is_as_today(book):
    book.receive(item("P1", 5))
    book.count(item("P1", 3, wplace="free text"))
    assert stock(book.api) == [("", "P1", "", 3)]
    assert inventory(book.api) == [("P1", "", 3)]


def test_the_hand_written_answers_equal_the_schemas_dump():
    from schemas.locations import (location_stock_row_out, location_stock_rows_schema, pick_row_out,
                                   pick_rows_schema)

    rows = [{"id_warehouse": 1, "location": "A-1", "product_code": "P1", "lot": "X", "date_exp": "2027-01-31",
             "amount_milli": amount} for amount in (1500, 2000, -1, 0)]
    assert [location_stock_row_out(row) for row in rows] == location_stock_rows_schema.dump(rows)
    assert [pick_row_out(row) for row in rows] == pick_rows_schema.dump(rows)
