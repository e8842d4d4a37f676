"""Picking in walking order (DESIGN 27) through HTTP: GET /v1/documents/{number}/pick and the
places an order line's `wplace` gets where the order gave none."""
import pytest

from helpers import add_products, batch, created, item, order, order_item


@pytest.fixture
def depot(api):
    """Warehouse 1: A-2, A-10 (walking order A-2, A-10), Z-1 first by sequence... and hold H.

    LOT: X (best-before 2027-03-01) 4 on A-10 and 3 on H (hold); Y (2027-01-15) 2 on A-2 and
    2 unplaced; Z (no best-before) 9 on Z-1. P1: 5 on A-2, 5 on A-10.
    """
    add_products(api)
    for code, more in (("A-10", {}), ("A-2", {}), ("Z-1", {"sequence": 0}), ("H", {"hold": 1})):
        created(api.post("/v1/locations/", {"id_warehouse": 1, "code": code, **more}))
    created(api.post("/v1/batches/", batch(1, [
        item("LOT", 4, lot="X", date_exp="2027-03-01", wplace="A-10"), item("LOT", 3, lot="X", wplace="H"),
        item("LOT", 2, lot="Y", date_exp="2027-01-15", wplace="A-2"), item("LOT", 2, lot="Y"),
        item("LOT", 9, lot="Z", wplace="Z-1"), item("P1", 5, wplace="A-2"), item("P1", 5, wplace="A-10")])))
    return api


def pick(api, number="SO"):
    r = api.get(f"/v1/documents/{number}/pick")
    assert r.status_code == 200, r.json
    return [(row["location"], row["product_code"], row["lot"], row["date_exp"], row["amount"]) for row in r.json["list"]]


def sales_order(api, lines, number="SO", **fields):
    created(api.post("/v1/documents/", order(number, lines, directions=("O",), **fields)))


def test_first_expiring_lot_first_then_walking_order_hold_never(depot):
    sales_order(depot, [order_item(1, "LOT", 8), order_item(2, "P1", 7)])
    # Y (expires first): 2 unplaced, 2 on A-2; then X: 4 on A-10 (its 3 on hold are never offered).
    # P1: 5 on A-2, then 2 on A-10. Listed in walking order: unplaced, A-2, A-10.
    assert pick(depot) == [("", "LOT", "Y", "2027-01-15", 2), ("A-2", "LOT", "Y", "2027-01-15", 2),
                           ("A-2", "P1", "", "", 5), ("A-10", "LOT", "X", "2027-03-01", 4),
                           ("A-10", "P1", "", "", 2)]


def test_lots_without_a_best_before_come_last_and_what_is_short_is_left_out(depot):
    sales_order(depot, [order_item(1, "LOT", 20)])
    assert pick(depot) == [("", "LOT", "Y", "2027-01-15", 2), ("A-2", "LOT", "Y", "2027-01-15", 2),
                           ("A-10", "LOT", "X", "2027-03-01", 4), ("Z-1", "LOT", "Z", "", 9)]


def test_a_line_naming_a_lot_takes_that_lot(depot):
    sales_order(depot, [order_item(1, "LOT", 3, lot="X")])
    assert pick(depot) == [("A-10", "LOT", "X", "2027-03-01", 3)]


def test_delivered_lines_and_goods_in_lines_are_not_picked(depot):
    created(depot.post("/v1/documents/", order("MIX", [order_item(1, "P1", 3, direction="O"),
                                                       order_item(2, "P2", 3, direction="I")],
                                               directions=("I", "O"))))
    created(depot.post("/v1/batches/", batch(2, [item("P1", 3, wplace="A-2")], direction="O",
                                             document_number="MIX")))
    assert pick(depot, "MIX") == []


def test_unknown_order_404_and_roles(depot, api_as):
    assert depot.get("/v1/documents/NOPE/pick").status_code == 404
    sales_order(depot, [order_item(1, "P1", 1)])
    assert api_as("read").get("/v1/documents/SO/pick").status_code == 200


def test_an_order_line_without_wplace_gets_its_places_in_list_view_and_acquire(depot):
    sales_order(depot, [order_item(1, "LOT", 8), order_item(2, "P1", 7, wplace=["DOCK"]), order_item(3, "P2", 1)])
    for answer in (depot.get("/v1/documents/SO").json["item"], depot.get("/v1/documents/").json["list"][0],
                   depot.get("/v1/documents/acquire/SO").json["item"]):
        assert [line["wplace"] for line in answer["items"]] == [["A-2", "A-10"], ["DOCK"], []]
    # Worked out at each read, never stored: after 2 of Y taken from A-2, what is left of the
    # line lies unplaced (no place to name) and on A-10.
    created(depot.post("/v1/batches/", batch(3, [item("LOT", 2, lot="Y", wplace="A-2")], direction="O",
                                             document_number="SO")))
    assert depot.get("/v1/documents/SO").json["item"]["items"][0]["wplace"] == ["A-10"]


def test_a_warehouse_without_locations_answers_as_before(api):
    add_products(api)
    created(api.post("/v1/batches/", batch(1, [item("P1", 5)])))
    created(api.post("/v1/documents/", order("SO", [order_item(1, "P1", 2)], directions=("O",))))
    assert api.get("/v1/documents/SO").json["item"]["items"][0]["wplace"] == []
    assert pick(api) == [("", "P1", "", "", 2)]


def test_an_order_number_ending_in_pick_is_refused_as_it_would_name_the_pick_plan(api):
    add_products(api)
    r = api.post("/v1/documents/", order("SO/pick", [order_item(1, "P1", 1)], directions=("O",)))
    assert r.status_code == 422 and "document_number" in r.json["error"]["fields"]["data"]


def test_places_looked_up_a_few_at_a_time_plan_the_same(depot, monkeypatch):
    # The locations an order's stock lies on are read in statements of at most _CHUNK codes; a
    # depot with more of them than that gets the same plan as one read in a single statement.
    from stock import pick_plan
    sales_order(depot, [order_item(1, "LOT", 20), order_item(2, "P1", 7)])
    whole = pick(depot)
    monkeypatch.setattr(pick_plan, "_CHUNK", 1)
    assert pick(depot) == whole == [
        ("", "LOT", "Y", "2027-01-15", 2), ("A-2", "LOT", "Y", "2027-01-15", 2), ("A-2", "P1", "", "", 5),
        ("A-10", "LOT", "X", "2027-03-01", 4), ("A-10", "P1", "", "", 2), ("Z-1", "LOT", "Z", "", 9)]
