"""The Move form (pages/moves.py) and the paper of a warehouse with locations through the test
client: a move within a warehouse and into another, sent twice and moved once; refusals shown
beside their fields with nothing moved; the pick list in walking order; the count sheet location
by location."""
import re

import pytest

from conftest import signed_in, token_of
from helpers import batch, created, item, order_item, product


def where(api, id_warehouse=1) -> list[tuple]:
    response = api.get(f"/v1/locations/stock?id_warehouse={id_warehouse}")
    assert response.status_code == 200, response.json
    return [(row["location"], row["product_code"], row["lot"], row["amount"]) for row in response.json["list"]]


def add(api, code, id_warehouse=1, **fields):
    created(api.post("/v1/locations/", {"id_warehouse": id_warehouse, "code": code, **fields}))


@pytest.fixture
def racks(api):
    """Warehouse 1: shelves A-1, A-2, B-1 and a hold shelf Q; warehouse 2: C-1. MILK 10 on A-1,
    CHEESE lot L1 (best before 2031-01-31) 3 kg on A-2 and lot L0 (2030-06-30) 1 kg on Q."""
    for body in (product("MILK", name="Milk 1 l"), product("CHEESE", name="Edam", base_unit="kg", lot_level=1)):
        created(api.post("/v1/products/", body))
    for code in ("A-1", "A-2", "B-1"):
        add(api, code)
    add(api, "Q", sequence=900, hold=1)
    add(api, "C-1", id_warehouse=2)
    created(api.post("/v1/batches/", batch(1, [
        item("MILK", 10, wplace="A-1"), item("CHEESE", 3, "kg", lot="L1", date_exp="2031-01-31", wplace="A-2"),
        item("CHEESE", 1, "kg", lot="L0", date_exp="2030-06-30", wplace="Q")])))
    return api


def move_form(client, query="") -> tuple[str, str]:
    """The form's token and its move_id."""
    html = client.get(f"/moves/new{query}").get_data(as_text=True)
    return token_of_html(html), re.search(r'name="move_id" value="([^"]+)"', html).group(1)


def token_of_html(html: str) -> str:
    return re.search(r'name="token" value="([^"]+)"', html).group(1)


def send(client, token, move_id, rows, **places):
    form = {"token": token, "move_id": move_id, "from_warehouse": "1", "from_location": "", "to_warehouse": "1",
            "to_location": "", "note": "", **places,
            "product_code": [row[0] for row in rows], "lot": [row[1] for row in rows],
            "amount": [row[2] for row in rows]}
    return client.post("/moves/new", data=form)


def test_the_form_lists_what_lies_at_the_source(racks, admin):
    html = admin.get("/moves/new?from_warehouse=1&from_location=A-2").get_data(as_text=True)
    assert 'name="from_location" value="A-2"' in html
    assert re.search(r'name="product_code" value="CHEESE".*?name="lot" value="L1".*?\(3 there\)', html, re.S)
    assert '<option value="A-1">' in html  # the codes offered as they are typed


def test_a_move_within_a_warehouse_sent_twice_moves_once(racks, admin):
    token, move_id = move_form(admin, "?from_warehouse=1&from_location=A-1")
    first = send(admin, token, move_id, [("MILK", "", "4"), ("", "", "")], from_location="A-1", to_location="b-1")
    assert first.status_code == 303 and first.headers["Location"] == "/locations/1/b-1"
    assert "Moved 1 item(s) from A-1 (Main) to b-1 (Main)." in admin.get("/locations/1/B-1").get_data(as_text=True)
    again = send(admin, token, move_id, [("MILK", "", "4"), ("", "", "")], from_location="A-1", to_location="b-1")
    assert again.status_code == 303
    assert "booked already; nothing more moved" in admin.get("/locations/1/B-1").get_data(as_text=True)
    assert [row for row in where(racks) if row[1] == "MILK"] == [("A-1", "MILK", "", 6), ("B-1", "MILK", "", 4)]
    [listed] = racks.get("/v1/moves/").json["list"]
    assert listed["move_id"] == move_id and listed["posted_by"] == "admin"


def test_a_move_into_another_warehouse_books_its_two_documents(racks, admin):
    token, move_id = move_form(admin)
    response = send(admin, token, move_id, [("CHEESE", "L1", "1.5")], from_location="A-2", to_warehouse="2",
                    to_location="C-1", note="to the cold store")
    assert response.status_code == 303
    assert where(racks, 2) == [("C-1", "CHEESE", "L1", 1.5)]
    [listed] = racks.get("/v1/moves/").json["list"]
    assert listed["out_doc"] and listed["in_doc"] and listed["note"] == "to the cold store"


@pytest.mark.parametrize("rows, places, status, says", [
    ([("MILK", "", "11")], {"from_location": "A-1", "to_location": "B-1"}, 409, "Not enough stock of"),
    ([("MILK", "", "1")], {"from_location": "A-1", "to_location": "NOPE"}, 422, "No location &#39;NOPE&#39;"),
    ([("MILK", "", "1")], {"from_location": "A-1", "to_location": "A-1"}, 422, "from one location to another"),
    ([("MILK", "", "one")], {"from_location": "A-1", "to_location": "B-1"}, 422, "amount"),
    ([("MILK", "", "0")], {"from_location": "A-1", "to_location": "B-1"}, 422, "Must be greater than 0."),
    ([("NOPE", "", "1")], {"from_location": "A-1", "to_location": "B-1"}, 422, "No product &#39;NOPE&#39;"),
    ([("CHEESE", "", "1")], {"from_location": "A-2", "to_location": "B-1"}, 422, "a lot is required"),
    ([("", "", "")], {"from_location": "A-1", "to_location": "B-1"}, 422, "Type an amount to move"),
    ([("MILK", "", "1")], {"from_location": "A-1", "to_warehouse": "99", "to_location": ""}, 422, "No warehouse 99"),
])
def test_a_refused_move_is_shown_beside_its_field_and_nothing_moves(racks, admin, rows, places, status, says):
    before = where(racks)
    token, move_id = move_form(admin)
    response = send(admin, token, move_id, [("", "", "")] + rows, **places)
    assert response.status_code == status
    html = response.get_data(as_text=True)
    assert says in html
    assert 'role="alert"' in html and f'name="move_id" value="{move_id}"' in html  # the same form, kept
    assert 'name="from_location" value="{}"'.format(places["from_location"]) in html
    assert where(racks) == before
    assert racks.get("/v1/moves/").json["list"] == []


def test_a_refused_items_problem_stands_by_its_row(racks, admin):
    token, move_id = move_form(admin)
    response = send(admin, token, move_id, [("", "", ""), ("CHEESE", "L1", "1"), ("MILK", "", "50")],
                    from_location="A-2", to_location="B-1")
    html = response.get_data(as_text=True)
    row = re.search(r'<div class="move-row" data-row="2">.*?</div>', html, re.S).group(0)
    assert "Not enough stock of" in row and 'class="refused"' in row
    assert "Not enough stock" not in re.search(r'<div class="move-row" data-row="1">.*?</div>', html, re.S).group(0)


def test_a_person_limited_to_a_warehouse_moves_nothing_into_another(racks, client, person):
    signed_in(client, person, "scan_w1", [1])
    before = where(racks, 1)
    token, move_id = move_form(client)
    response = send(client, token, move_id, [("MILK", "", "1")], from_location="A-1", to_warehouse="2",
                    to_location="C-1")
    assert response.status_code == 403
    assert where(racks, 1) == before and where(racks, 2) == []


def test_only_scan_and_admin_move_stock(racks, office, client):
    assert office.get("/moves/new").status_code == 403
    token = token_of(office.get("/"))
    response = office.post("/moves/new", data={"token": token, "move_id": "x", "from_warehouse": "1",
                                               "from_location": "A-1", "to_warehouse": "1", "to_location": "B-1",
                                               "product_code": "MILK", "lot": "", "amount": "1"})
    assert response.status_code == 403


def test_a_move_without_its_token_moves_nothing(racks, admin):
    before = where(racks)
    _, move_id = move_form(admin)
    assert send(admin, "guessed", move_id, [("MILK", "", "1")], from_location="A-1",
                to_location="B-1").status_code == 403
    assert where(racks) == before


# --- paper ------------------------------------------------------------------------------------

def test_the_pick_list_goes_location_by_location_and_never_to_a_hold_shelf(racks, office):
    created(racks.post("/v1/batches/", batch(2, [item("MILK", 5, wplace="B-1"), item("CHEESE", 2, "kg", lot="L1",
                                                                                     date_exp="2031-01-31",
                                                                                     wplace="A-1")])))
    created(racks.post("/v1/documents/", {
        "document_number": "D7", "id_warehouse": 1,
        "batch_settings": {"allowed_types": ["R"], "allowed_directions": ["O"]},
        "items": [order_item(1, "MILK", 12, direction="O"), order_item(2, "CHEESE", 6, direction="O")]}))
    html = office.get("/orders/D7/pick-list").get_data(as_text=True)
    stops = re.findall(r'<section class="pick-stop" data-location="([^"]*)">(.*?)</section>', html, re.S)
    assert [stop for stop, _ in stops] == ["A-1", "A-2", "B-1"]
    taken = {stop: re.findall(r'<tr data-product="([^"]+)">.*?<td class="num">([^<]+)</td>', body, re.S)
             for stop, body in stops}
    assert taken == {"A-1": [("CHEESE", "2"), ("MILK", "10")], "A-2": [("CHEESE", "3")], "B-1": [("MILK", "2")]}
    # Lot L0 lies on hold: never picked, so the cheese line is short by what the racks lack.
    assert 'data-location="Q"' not in html
    assert re.search(r'<li class="short" data-line="2">Line 2, CHEESE Edam: short by 1;', html)
    # The same plan as the API's.
    plan = racks.get("/v1/documents/D7/pick").json["list"]
    assert [(row["location"], row["product_code"], row["amount"]) for row in plan] == [
        ("A-1", "CHEESE", 2), ("A-1", "MILK", 10), ("A-2", "CHEESE", 3), ("B-1", "MILK", 2)]


def test_the_pick_list_of_a_warehouse_without_locations_is_line_by_line(racks, office):
    created(racks.post("/v1/batches/", batch(2, [item("MILK", 5)], id_warehouse="3")))
    created(racks.post("/v1/documents/", {
        "document_number": "D8", "id_warehouse": 3,
        "batch_settings": {"allowed_types": ["R"], "allowed_directions": ["O"]},
        "items": [order_item(1, "MILK", 2, direction="O")]}))
    html = office.get("/orders/D8/pick-list").get_data(as_text=True)
    assert 'class="pick-stop"' not in html and '<section class="pick-line" data-line="1">' in html


def test_the_count_sheet_goes_location_by_location_empty_ones_too(racks, office):
    created(racks.post("/v1/batches/", batch(2, [item("MILK", 1)])))  # unplaced: no receiving location
    html = office.get("/warehouses/1/count-sheet").get_data(as_text=True)
    rows = re.findall(r'<tr data-location="([^"]*)" data-product="([^"]*)"', html)
    assert rows == [("", "MILK"), ("A-1", "MILK"), ("A-2", "CHEESE"), ("B-1", ""), ("Q", "CHEESE")]
    assert "Q (hold)" in html and ">unplaced<" in html.replace("\n", "").replace(" ", "")
    assert "Counted" in html and html.count('class="extra"') == 10


def test_the_count_sheet_of_a_warehouse_without_locations_is_as_it_was(racks, office):
    created(racks.post("/v1/batches/", batch(2, [item("MILK", 5)], id_warehouse="3")))
    html = office.get("/warehouses/3/count-sheet").get_data(as_text=True)
    assert "by-location" not in html and '<tr data-product="MILK">' in html
