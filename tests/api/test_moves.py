"""Moves of stock (DESIGN 27) through HTTP: within a warehouse, between warehouses, retries."""
import pytest

from helpers import add_products, batch, created, error_fields, item

MOVE_ID = "3f1c9a52-6a0e-4f7e-9d1b-2b8f0c6e7a11"


def move(items, source=(1, "A-1"), target=(1, "B-1"), move_id=MOVE_ID, **more):
    return {"move_id": move_id, "from": {"id_warehouse": source[0], "location": source[1]},
            "to": {"id_warehouse": target[0], "location": target[1]},
            "items": [{"product_code": code, "lot": lot, "amount": amount} for code, lot, amount in items], **more}


def stock(api, warehouse=1):
    return [(row["location"], row["product_code"], row["lot"], row["amount"])
            for row in api.get(f"/v1/locations/stock?id_warehouse={warehouse}").json["list"]]


def inventory(api, warehouse):
    r = api.post("/v1/inventory/filter", {"id_warehouses": [warehouse], "level": 1})
    return [(row["product_code"], row["lot"], row["amount"]) for row in r.json["list"]]


@pytest.fixture
def depot(api):
    """Warehouse 1 with A-1 and B-1 holding 10 P1 and 5 of lot X (best-before 2027-01-31) on A-1;
    warehouse 2 with C-1."""
    add_products(api)
    for warehouse, code in ((1, "A-1"), (1, "B-1"), (2, "C-1")):
        created(api.post("/v1/locations/", {"id_warehouse": warehouse, "code": code}))
    created(api.post("/v1/batches/", batch(1, [item("P1", 10, wplace="A-1"),
                                               item("LOT", 5, lot="X", date_exp="2027-01-31", wplace="A-1")])))
    return api


def documents(api):
    r = api.post("/v1/docs/filter", {})
    return [(d["id_warehouse"], d["direction"], d["batch_number"],
             [(i["product_code"], i["lot"], i["date_exp"], i["amount_base_unit"]) for i in d["wh_doc_items"]])
            for d in r.json["list"]]


def test_a_move_within_a_warehouse_changes_only_locations(depot):
    before = documents(depot)
    created(depot.post("/v1/moves/", move([("P1", "", 4), ("LOT", "X", "1.5")])))
    assert stock(depot) == [("A-1", "LOT", "X", 3.5), ("A-1", "P1", "", 6), ("B-1", "LOT", "X", 1.5),
                            ("B-1", "P1", "", 4)]
    assert documents(depot) == before
    assert inventory(depot, 1) == [("LOT", "X", 5), ("P1", "", 10)]
    listed = depot.get("/v1/moves/?id_warehouse=1").json["list"]
    assert [(m["move_id"], m["from"], m["to"], m["out_doc"], m["in_doc"]) for m in listed] == [
        (MOVE_ID, {"id_warehouse": 1, "location": "A-1"}, {"id_warehouse": 1, "location": "B-1"}, 0, 0)]
    assert listed[0]["items"] == [{"product_code": "P1", "lot": "", "amount": 4},
                                  {"product_code": "LOT", "lot": "X", "amount": 1.5}]


def test_a_move_from_unplaced_stock_to_a_shelf(depot):
    created(depot.post("/v1/batches/", batch(2, [item("P2", 3)])))
    created(depot.post("/v1/moves/", move([("P2", "", 3)], source=(1, ""), target=(1, "b-1"))))
    assert ("B-1", "P2", "", 3) in stock(depot) and ("", "P2", "", 3) not in stock(depot)


def test_a_move_between_warehouses_is_two_documents_keeping_the_best_before(depot):
    created(depot.post("/v1/moves/", move([("LOT", "X", 2), ("P1", "", 1)], target=(2, "C-1"), note="to cold")))
    assert inventory(depot, 1) == [("LOT", "X", 3), ("P1", "", 9)]
    assert inventory(depot, 2) == [("LOT", "X", 2), ("P1", "", 1)]
    assert stock(depot, 2) == [("C-1", "LOT", "X", 2), ("C-1", "P1", "", 1)]
    moved = documents(depot)[1:]
    lines = [("LOT", "X", "2027-01-31", 2), ("P1", "", "", 1)]
    assert moved == [(1, "O", -1, lines), (2, "I", -1, lines)]
    listed = depot.get("/v1/moves/").json["list"][0]
    docs = depot.post("/v1/docs/filter", {}).json["list"]
    assert (listed["out_doc"], listed["in_doc"]) == (docs[1]["doc_number"], docs[2]["doc_number"])
    assert listed["note"] == "to cold"
    assert depot.get("/v1/moves/?id_warehouse=2").json["list"][0]["move_id"] == MOVE_ID


def test_a_move_into_a_warehouse_without_locations_goes_unplaced(depot):
    created(depot.post("/v1/moves/", move([("P1", "", 2)], target=(3, ""))))
    assert stock(depot, 3) == [("", "P1", "", 2)]


def test_a_retry_with_the_same_content_moves_nothing_more_other_content_409(depot):
    body = move([("P1", "", 4)])
    created(depot.post("/v1/moves/", body))
    created(depot.post("/v1/moves/", body))
    assert stock(depot)[2:] == [("B-1", "P1", "", 4)]
    r = depot.post("/v1/moves/", move([("P1", "", 5)]))
    assert "move_id" in error_fields(r, 409)["data"]
    assert stock(depot)[2:] == [("B-1", "P1", "", 4)]
    assert len(depot.get("/v1/moves/").json["list"]) == 1


def test_short_at_the_source_is_409_naming_the_line_and_moves_nothing(depot):
    r = depot.post("/v1/moves/", move([("P1", "", 4), ("LOT", "X", 6)]))
    assert set(error_fields(r, 409)["data"]["items"]) == {"1"}
    r = depot.post("/v1/moves/", move([("P1", "", 1)], source=(1, "B-1"), target=(2, "C-1")))
    assert set(error_fields(r, 409)["data"]["items"]) == {"0"}
    assert stock(depot) == [("A-1", "LOT", "X", 5), ("A-1", "P1", "", 10)]
    assert stock(depot, 2) == [] and depot.get("/v1/moves/").json == {"list": []}
    assert len(documents(depot)) == 1


@pytest.mark.parametrize("body, where", [
    (move([("P1", "", 1)], target=(1, "NOPE")), ("to", "location")),
    (move([("P1", "", 1)], source=(1, "NOPE")), ("from", "location")),
    (move([("P1", "", 1)], target=(1, "a-1")), ("to", "location")),
    (move([("P1", "", 1)], target=(999999, "")), ("to", "id_warehouse")),
    (move([("NOPE", "", 1)]), ("items", "0")),
    (move([("LOT", "", 1)]), ("items", "0")),
    (move([("P1", "L", 1)]), ("items", "0")),
    (move([("P1", "", 0)]), ("items", "0")),
    (move([]), ("items",)),
    ({"move_id": "", "from": {"id_warehouse": 1}, "to": {"id_warehouse": 1}, "items": [
        {"product_code": "P1", "amount": 1}]}, ("move_id",)),
])
def test_bad_moves_are_422_naming_the_field(depot, body, where):
    fields = error_fields(depot.post("/v1/moves/", body))["data"]
    for key in where:
        fields = fields[key]
    assert stock(depot) == [("A-1", "LOT", "X", 5), ("A-1", "P1", "", 10)]


def test_an_inactive_location_takes_no_move(depot):
    created(depot.post("/v1/locations/", {"id_warehouse": 1, "code": "OLD"}))
    depot.post("/v1/locations/1/OLD", {"active": 0})
    assert "location" in error_fields(depot.post("/v1/moves/", move([("P1", "", 1)], target=(1, "OLD"))))["data"]["to"]


def test_roles_and_warehouses(depot, api_as):
    assert api_as("read").post("/v1/moves/", move([("P1", "", 1)])).status_code == 403
    assert api_as("scan_w1").post("/v1/moves/", move([("P1", "", 1)], target=(2, "C-1"))).status_code == 403
    created(api_as("scan_w1").post("/v1/moves/", move([("P1", "", 1)])))
    assert api_as("read_w1").get("/v1/moves/").json["list"][0]["move_id"] == MOVE_ID
    created(depot.post("/v1/batches/", batch(9, [item("P2", 1, wplace="C-1")], id_warehouse="2")))
    created(depot.post("/v1/moves/", move([("P2", "", 1)], source=(2, "C-1"), target=(2, ""), move_id="m2")))
    assert [m["move_id"] for m in api_as("read_w1").get("/v1/moves/").json["list"]] == [MOVE_ID]
    assert [m["move_id"] for m in depot.get("/v1/moves/").json["list"]] == [MOVE_ID, "m2"]


def test_moves_since_a_day(depot):
    created(depot.post("/v1/moves/", move([("P1", "", 1)])))
    assert len(depot.get("/v1/moves/?since=2000-01-01").json["list"]) == 1
    assert depot.get("/v1/moves/?since=2999-01-01").json == {"list": []}
    assert "since" in error_fields(depot.get("/v1/moves/?since=yesterday"))
