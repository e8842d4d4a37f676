"""A warehouse's locations on the pages (pages/locations.py) through the test client: listed in
walking order, added, edited, held, deactivated (refused while they hold stock), their labels as
PDF and ZPL read back; what lies on one location; and who may change them.

tests/pages/test_pages_locations_browser.py drives the same pages in chromium at 1280 and 390 px.
"""
import re

import pytest

from conftest import signed_in, token_of
from helpers import batch, created, item, product
from scanning import pdf_pages, scanned
from stock import audit, locations as location_rules
from stock.caller import Caller


def listed(session, id_warehouse=1) -> list[dict]:
    session.remove()
    return location_rules.list_locations(session, Caller(None, "t", "admin", None), id_warehouse)


def problem(html: str, field: str) -> str:
    found = re.search(rf'<span class="problem" id="{field}-problem" role="alert">([^<]*)</span>', html)
    return found.group(1) if found else ""


def post(client, path, **form):
    token = token_of(client.get("/warehouses/1/locations"))
    return client.post(path, data={"token": token, **form})


def add(api, code, id_warehouse=1, **fields):
    created(api.post("/v1/locations/", {"id_warehouse": id_warehouse, "code": code, **fields}))


@pytest.fixture
def racks(api):
    """Warehouse 1 with a dock, three shelves (added out of walking order) and a hold shelf;
    MILK on A-2, CHEESE lot L1 on A-10, some MILK left unplaced."""
    for body in (product("MILK", name="Milk 1 l"), product("CHEESE", name="Edam", base_unit="kg", lot_level=1)):
        created(api.post("/v1/products/", body))
    for code, fields in (("A-10", {}), ("A-2", {"name": "Aisle A, bay 2"}), ("DOCK", {"sequence": 0, "receiving": 1}),
                         ("B-1", {}), ("Q", {"sequence": 900, "hold": 1, "name": "Quarantine"})):
        add(api, code, **fields)
    created(api.post("/v1/batches/", batch(1, [item("MILK", 10, wplace="A-2"), item("CHEESE", "2.5", "kg", lot="L1",
                                                                                    wplace="a-10"),
                                                item("MILK", 4, wplace="")])))
    return api



def where(api, id_warehouse=1) -> list[tuple]:
    """The warehouse's stock per location as the API answers it: (location, product, lot, amount)."""
    response = api.get(f"/v1/locations/stock?id_warehouse={id_warehouse}")
    assert response.status_code == 200, response.json
    return [(row["location"], row["product_code"], row["lot"], row["amount"]) for row in response.json["list"]]


def rows_of(html: str, table: str) -> list[str]:
    body = html[html.index(f'id="{table}"'):]
    body = body[:body.index("</table>")]
    return re.findall(r'<tr data-code="([^"]+)"', body)


# --- the list, who may change it ---------------------------------------------------------------

def test_the_list_is_in_walking_order_with_what_each_location_holds(racks, admin):
    html = admin.get("/warehouses/1/locations").get_data(as_text=True)
    assert rows_of(html, "locations") == ["A-2", "A-10", "B-1", "DOCK", "Q"]
    row = lambda code: re.search(rf'<tr data-code="{code}".*?</tr>', html, re.S).group(0)  # noqa: E731
    assert "1 lot" in row("A-2") and "0 lots" in row("B-1")
    assert "hold: not picked" in row("Q") and "receiving" in row("DOCK")
    assert 'href="/locations/1/A-2"' in row("A-2")
    assert 'aria-label="Deactivate B-1"' in row("B-1")
    assert 'href="/admin/import?kind=locations"' in html
    # Linked from the warehouses page and the stock page.
    assert 'href="/warehouses/1/locations"' in admin.get("/admin/warehouses").get_data(as_text=True)
    assert 'href="/warehouses/1/locations"' in admin.get("/").get_data(as_text=True)


def test_a_person_of_role_read_reads_the_list_and_changes_nothing(racks, office, session):
    html = office.get("/warehouses/1/locations").get_data(as_text=True)
    assert rows_of(html, "locations") == ["A-2", "A-10", "B-1", "DOCK", "Q"]
    assert 'id="add-location"' not in html and "Deactivate" not in html and "Move stock" not in html
    assert "Labels (PDF)" in html  # printing is reading
    before = listed(session)
    assert post(office, "/warehouses/1/locations", code="C-1").status_code == 403
    assert post(office, "/warehouses/1/locations/active/B-1", active="0").status_code == 403
    assert post(office, "/warehouses/1/locations/edit/B-1", name="x").status_code == 403
    assert office.get("/warehouses/1/locations/edit/B-1").status_code == 403
    assert listed(session) == before


def test_an_admin_limited_to_a_warehouse_changes_its_locations_alone(racks, client, person, session):
    add(racks, "X-1", id_warehouse=2)
    signed_in(client, person, "admin_w1", [1])
    assert post(client, "/warehouses/1/locations", code="C-1").status_code == 303
    assert "C-1" in [found["code"] for found in listed(session)]
    # Warehouse 2 it does not see: as if it did not exist.
    assert client.get("/warehouses/2/locations").status_code == 404
    assert client.get("/locations/2/X-1").status_code == 404
    token = token_of(client.get("/warehouses/1/locations"))
    assert client.post("/warehouses/2/locations", data={"token": token, "code": "C-2"}).status_code == 404
    assert client.post("/warehouses/2/locations/active/X-1", data={"token": token, "active": "0"}).status_code == 404
    assert [found["code"] for found in listed(session, 2)] == ["X-1"]


def test_an_admin_for_other_warehouses_reads_this_one_and_changes_nothing(racks, client, person, session):
    """An admin limited to warehouse 2 who sees warehouse 1 too? It sees only its own: 404."""
    signed_in(client, person, "admin_w2", [2])
    assert client.get("/warehouses/1/locations").status_code == 404
    assert client.get("/warehouses/2/locations").status_code == 200


def test_a_form_without_its_token_changes_nothing(racks, admin, session):
    before = listed(session)
    for path, form in (("/warehouses/1/locations", {"code": "C-1"}),
                       ("/warehouses/1/locations/edit/B-1", {"name": "X"}),
                       ("/warehouses/1/locations/active/B-1", {"active": "0"})):
        assert admin.post(path, data={"token": "guessed", **form}).status_code == 403
    assert listed(session) == before


@pytest.mark.parametrize("path", ["/warehouses/99/locations", "/locations/1/NOPE", "/locations/99/A-2",
                                  "/warehouses/1/locations/edit/NOPE"])
def test_an_unknown_warehouse_or_location_is_the_404_page(racks, admin, path):
    response = admin.get(path)
    assert response.status_code == 404 and response.mimetype == "text/html"


# --- add, edit, deactivate ----------------------------------------------------------------------

def test_adding_a_location_is_audited_and_the_api_lists_it(racks, admin, session):
    response = post(admin, "/warehouses/1/locations", code="C-01", name="Aisle C", sequence="50", hold="1")
    assert response.status_code == 303 and response.headers["Location"] == "/warehouses/1/locations"
    assert "Location C-01 is added." in admin.get("/warehouses/1/locations").get_data(as_text=True)
    answer = racks.get("/v1/locations/?id_warehouse=1").json["list"]
    assert {"id_warehouse": 1, "code": "C-01", "name": "Aisle C", "sequence": 50, "hold": 1, "receiving": 0,
            "active": 1} in answer
    [entry] = audit.list_entries(session, kind="location.create", who="admin", who_kind="person")
    assert entry["record"] == "1/C-01"


@pytest.mark.parametrize("form, status, field, says", [
    ({"code": "", "name": "x"}, 422, "code", "1 to 30 letters"),
    ({"code": "A 1"}, 422, "code", "1 to 30 letters"),
    ({"code": "a-2"}, 409, "code", "has a location A-2 already"),
    ({"code": "C-1", "sequence": "first"}, 422, "sequence", "A whole number from 0 up"),
    ({"code": "C-1", "sequence": "-5"}, 422, "sequence", "A whole number from 0 up"),
    ({"code": "C-1", "name": "x\x07y"}, 422, "name", "At most 200 characters"),
])
def test_a_refused_location_is_named_beside_its_field_and_nothing_changes(racks, admin, session, form, status,
                                                                         field, says):
    before = listed(session)
    response = post(admin, "/warehouses/1/locations", **form)
    assert response.status_code == status
    html = response.get_data(as_text=True)
    assert says in problem(html, field), html
    assert f'name="code" value="{form["code"]}"' in html  # what was typed stays in the form
    assert listed(session) == before


def test_editing_a_location_changes_its_walking_order_and_hold(racks, admin, session):
    form = admin.get("/warehouses/1/locations/edit/b-1").get_data(as_text=True)  # any case
    assert 'name="sequence" value="0"' in form
    response = post(admin, "/warehouses/1/locations/edit/B-1", name="Aisle B", sequence="-0", hold="1")
    assert response.status_code == 422 and "A whole number" in problem(response.get_data(as_text=True), "sequence")
    response = post(admin, "/warehouses/1/locations/edit/B-1", name="Aisle B", sequence="0", hold="1")
    assert response.status_code == 303
    response = post(admin, "/warehouses/1/locations/edit/A-2", name="Aisle A, bay 2", sequence="5")
    assert response.status_code == 303
    found = {each["code"]: each for each in listed(session)}
    assert (found["B-1"]["name"], found["B-1"]["hold"]) == ("Aisle B", 1)
    assert [each["code"] for each in listed(session)] == ["A-10", "B-1", "DOCK", "A-2", "Q"]
    [entry] = [each for each in audit.list_entries(session, kind="location.update", who="admin", who_kind="person")
               if each["record"] == "1/B-1"]
    assert entry["changes"] == {"name": ["", "Aisle B"], "hold": [0, 1]}


def test_a_location_that_holds_stock_is_not_deactivated_and_says_why(racks, admin, session):
    before = listed(session)
    response = post(admin, "/warehouses/1/locations/active/A-2", active="0")
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    # The page counts in words (one product/lot); the API keeps its "product/lot(s)".
    assert re.search(r'<p class="error" role="alert" id="refused">Location A-2 holds stock of 1 product/lot: '
                     r'move it away before deactivating the location.</p>', html), html
    assert rows_of(html, "locations") == ["A-2", "A-10", "B-1", "DOCK", "Q"]  # the list stays in view
    assert listed(session) == before
    # An empty one is deactivated, and activated again.
    assert post(admin, "/warehouses/1/locations/active/B-1", active="0").status_code == 303
    html = admin.get("/warehouses/1/locations").get_data(as_text=True)
    assert re.search(r'<tr data-code="B-1" class="inactive">.*?inactive.*?>Activate</button>', html, re.S)
    assert post(admin, "/warehouses/1/locations/active/B-1", active="1").status_code == 303
    assert listed(session) == before


# --- labels -----------------------------------------------------------------------------------

def test_labels_of_the_chosen_locations_scan_as_their_codes_in_walking_order(racks, office):
    add(racks, "4006381333931")  # a valid EAN-13 as a code: still Code 128, read back as typed
    response = office.get("/warehouses/1/locations/labels.pdf?code=Q&code=a-2&code=4006381333931&code=DOCK")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    reader = pdf_pages(response.data)
    assert len(reader.pages) == 4
    assert [scanned(response.data, page) for page in (1, 2, 3, 4)] == [
        [("4006381333931", "Code128")], [("A-2", "Code128")], [("DOCK", "Code128")], [("Q", "Code128")]]
    assert "Aisle A, bay 2" in reader.pages[1].extract_text()
    sheet = office.get("/warehouses/1/locations/labels.pdf?code=A-2&code=Q&sheet=a4")
    assert len(pdf_pages(sheet.data).pages) == 1 and scanned(sheet.data) == [("A-2", "Code128"), ("Q", "Code128")]


def test_labels_as_zpl_are_one_code_128_format_each(racks, office):
    response = office.get("/warehouses/1/locations/labels.zpl?code=A-10&code=A-2")
    assert response.status_code == 200 and response.mimetype == "application/zpl"
    assert 'filename="locations-1.zpl"' in response.headers["Content-Disposition"]
    text = response.get_data(as_text=True)
    assert text.count("^XA") == 2
    assert re.findall(r"\^BCN,\d+,Y,N,N,A\^FH\\\^FD([^^]+)\^FS", text) == ["A-2", "A-10"]


@pytest.mark.parametrize("query, field", [("", "code"), ("?code=NOPE", "code"), ("?code=A-2&sheet=a5", "sheet")])
@pytest.mark.parametrize("kind", ["pdf", "zpl"])
def test_labels_refused_name_what_to_choose(racks, office, kind, query, field):
    response = office.get(f"/warehouses/1/locations/labels.{kind}{query}")
    assert response.status_code == 422 and response.mimetype == "text/html"
    assert field in response.get_data(as_text=True)


def test_a_zebra_gets_no_a4_sheet(racks, office):
    response = office.get("/warehouses/1/locations/labels.zpl?code=A-2&sheet=a4")
    assert response.status_code == 422 and "not on A4 sheets" in response.get_data(as_text=True)


# --- what lies where: a location, the stock page, a product ------------------------------------

def test_a_locations_page_shows_what_lies_there_and_the_unplaced_stock_its_own(racks, office):
    racks.post("/v1/moves/", {"move_id": "m-1", "from": {"id_warehouse": 1, "location": "DOCK"},
                              "to": {"id_warehouse": 1, "location": ""}, "items": [{"product_code": "MILK",
                                                                                     "amount": 3}]})
    html = office.get("/locations/1/a-10").get_data(as_text=True)
    assert "<h1>Location A-10: Main</h1>" in html
    assert re.findall(r'<tr data-product="([^"]+)">', html) == ["CHEESE"]
    assert '<td data-label="Lot">L1</td>' in html and ">2.5</td>" in html
    html = office.get("/locations/1/").get_data(as_text=True)
    assert "<h1>Unplaced stock: Main</h1>" in html and re.findall(r'<tr data-product="([^"]+)">', html) == ["MILK"]
    assert "Nothing lies here" in office.get("/locations/1/B-1").get_data(as_text=True)


def stock_table(html: str) -> list[list[str]]:
    if 'id="stock"' not in html:  # no rows: the page says so instead of a table
        return []
    body = html[html.index("<tbody>", html.index('id="stock"')):]
    body = body[:body.index("</tbody>")]
    return [[re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


def test_the_stock_page_has_a_location_column_and_filter(racks, office):
    html = office.get("/?warehouse=1&level=1").get_data(as_text=True)
    assert "<th>Location</th>" in html and 'name="location"' in html
    assert [row[:3] + row[4:5] + row[6:7] for row in stock_table(html)] == [
        ["Main", "A-10", "CHEESE", "L1", "2.5"], ["Main", "A-2", "MILK", "", "10"], ["Main", "DOCK", "MILK", "", "4"]]
    only = stock_table(office.get("/?location=a-2").get_data(as_text=True))
    assert [(row[1], row[2], row[6]) for row in only] == [("A-2", "MILK", "10")]
    assert stock_table(office.get("/?location=B-1").get_data(as_text=True)) == []
    per_product = stock_table(office.get("/?warehouse=1&level=0&location=DOCK").get_data(as_text=True))
    assert [(row[1], row[2], row[6]) for row in per_product] == [("DOCK", "MILK", "4")]
    rows = office.get("/?warehouse=1&format=csv").data.decode("utf-8-sig").splitlines()
    assert rows[0] == "id_warehouse,warehouse_name,location,product_code,name,lot,amount,unit"
    assert rows[1:] == ["1,Main,A-10,CHEESE,Edam,L1,2.5,kg", "1,Main,A-2,MILK,Milk 1 l,,10,pc",
                        "1,Main,DOCK,MILK,Milk 1 l,,4,pc"]


def test_the_stock_page_pages_by_location(racks, office, monkeypatch):
    monkeypatch.setitem(__import__("pages.common", fromlist=["PER_PAGE"]).PER_PAGE, "stock", 2)
    first = office.get("/?warehouse=1")
    assert len(stock_table(first.get_data(as_text=True))) == 2
    following = re.search(r'<a href="([^"]+)" rel="next"', first.get_data(as_text=True)).group(1)
    second = office.get(following.replace("&amp;", "&"))
    assert [(row[1], row[2]) for row in stock_table(second.get_data(as_text=True))] == [("DOCK", "MILK")]
    bad = office.get("/?warehouse=1&after=WzEsIk1JTEsiXQ")  # a place of the page without locations
    assert bad.status_code == 422


def test_a_depot_without_locations_keeps_its_stock_page(depot, office):
    html = office.get("/").get_data(as_text=True)
    assert "<th>Location</th>" not in html and 'name="location"' not in html and "Locations:" not in html
    assert office.get("/?format=csv").data.decode("utf-8-sig").splitlines()[0] == \
        "id_warehouse,warehouse_name,product_code,name,lot,amount,unit"


def test_a_products_page_says_where_each_lot_lies(racks, office):
    add(racks, "H-1", sequence=900, hold=1)
    created(racks.post("/v1/batches/", batch(2, [item("MILK", 2, wplace="H-1")])))
    html = office.get("/products/MILK").get_data(as_text=True)
    cell = re.search(r'<td class="where">(.*?)</td>', html, re.S).group(1)
    assert re.sub(r"<[^>]+>", "", cell).replace("&nbsp;", " ") == "A-2 10, DOCK 4, H-1 2 (hold)"
    assert 'href="/locations/1/A-2"' in cell


def test_a_products_page_in_a_depot_without_locations_has_no_where_column(depot, office):
    assert "<th>Where</th>" not in office.get("/products/MILK-1L").get_data(as_text=True)
