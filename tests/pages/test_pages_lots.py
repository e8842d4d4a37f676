"""The lot's page and its recall list, the write-offs page, writing a lot off from the alerts page,
and an order's returns, through the test client (DESIGN 28)."""
import io
import re
from datetime import date, timedelta

import pytest
from openpyxl import load_workbook

from conftest import Scanner, sign_in, signed_in, token_of
from helpers import add_products, created, item, order, order_item, product
from office import csv_rows

PAST = (date.today() - timedelta(days=3)).isoformat()


@pytest.fixture
def lot_depot(api):
    add_products(api)
    created(api.post("/v1/customers/", {"id_customer": 17, "name": "Fresh Foods Ltd", "address": {
        "street": "Marktweg 3", "city": "Leipzig", "zip": "04109", "country": "DE"}}))
    scanner = Scanner(api)
    scanner.book("R", "I", [item("LOT", 10, lot="A", date_exp=PAST)])
    created(api.post("/v1/documents/", order("SO-1", [order_item(1, "LOT", 6)], directions=("O",), id_customer=17)))
    scanner.book("R", "O", [item("LOT", 6, lot="A")], document_number="SO-1")
    created(api.post("/v1/returns/", {"return_id": "r-1", "document_number": "SO-1", "reason": "crate broken",
                                      "items": [{"product_code": "LOT", "lot": "A", "amount": 1}]}))
    return scanner


def text(response):
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    return response.get_data(as_text=True)


def test_the_lot_page_shows_both_directions_and_the_recall_list(client, person, lot_depot):
    signed_in(client, person, "read")
    page = text(client.get("/lots/LOT/A"))
    assert 'id="lot-received"' in page and 'id="lot-delivered"' in page and "Fresh Foods Ltd" in page
    assert "crate broken" in page and "Leipzig" in page and "SO-1" in page
    assert "10 received, 1 returned" in page and "6 delivered" in page and "5 in stock" in page
    assert "Write off" not in page  # role read
    rows = csv_rows(client.get("/lots/LOT/A?format=csv"))
    assert [(r["id_customer"], r["name"], r["city"], r["delivered"], r["returned"], r["kept"], r["orders"])
            for r in rows] == [("17", "Fresh Foods Ltd", "Leipzig", "6", "1", "5", "SO-1")]
    sheet = load_workbook(io.BytesIO(client.get("/lots/LOT/A?format=xlsx").data)).active
    assert [cell.value for cell in sheet[1]][:3] == ["id_customer", "name", "street"]
    assert sheet[2][1].value == "Fresh Foods Ltd" and sheet[2][6].value == 6
    assert client.get("/lots/LOT/Z").status_code == 404
    assert client.get("/lots/LOT/A?format=pdf").status_code == 422


def test_a_lot_whose_code_holds_a_slash_has_its_page_its_downloads_and_links(api, client, person):
    # Products CUT and CUT/A, both kept by lot: /lots/CUT/A/1 could name either one's lot, the lot
    # booked decides (CUT's lot A/1); /lots/CUT/A/2 is CUT/A's lot 2.
    for code in ("CUT", "CUT/A"):
        created(api.post("/v1/products/", product(code, lot_level=1)))
    Scanner(api).book("R", "I", [item("CUT", 4, lot="A/1"), item("CUT/A", 3, lot="2")])
    signed_in(client, person, "read")
    first, second = text(client.get("/lots/CUT/A/1")), text(client.get("/lots/CUT/A/2"))
    assert "Product CUT<" in first and "4 received" in first and 'href="/lots/CUT/A/1?format=csv"' in first
    assert "Product CUT/A<" in second and "3 received" in second
    stock = text(client.get("/?level=1"))
    assert 'href="/lots/CUT/A/1"' in stock and 'href="/lots/CUT/A/2"' in stock
    download = client.get("/lots/CUT/A/1?format=csv")
    assert download.headers["Content-Disposition"] == 'attachment; filename="recall-CUT-A_1.csv"'
    assert csv_rows(download) == []  # received, delivered to nobody yet
    assert client.get("/lots/CUT/A/1?format=xlsx").status_code == 200
    assert client.get("/lots/CUT/A/9").status_code == 404

def test_a_person_limited_to_another_warehouse_does_not_find_the_lot(client, person, lot_depot):
    signed_in(client, person, "read_w2", [2])
    assert client.get("/lots/LOT/A").status_code == 404


@pytest.mark.parametrize("path, link", [("/?level=1", "/lots/LOT/A"), ("/products/LOT", "/lots/LOT/A"),
                                        ("/alerts", "/lots/LOT/A"), ("/movements/lines", "/lots/LOT/A")])
def test_the_lists_link_to_the_lot(client, person, lot_depot, path, link):
    signed_in(client, person, "read")
    assert f'href="{link}"' in text(client.get(path))


def test_a_lot_past_its_best_before_is_written_off_from_the_alerts_page_once_confirmed(app, api, client, person,
                                                                                      lot_depot):
    signed_in(client, person, "scan")
    alerts = text(client.get("/alerts?kind=expired"))
    assert "/write-offs/new?" in alerts
    confirm = client.get("/write-offs/new?warehouse=1&product=LOT&lot=A&amount=5&reason=expired")
    page = text(confirm)
    assert 'value="5"' in page and '<option value="expired" selected>' in page
    assert api.get("/v1/write_offs/").json["list"] == []  # asked only, nothing booked
    write_off_id = page.split('name="write_off_id" value="')[1].split('"')[0]
    form = {"token": token_of(confirm), "write_off_id": write_off_id, "warehouse": "1", "product": "LOT", "lot": "A",
            "amount": "5", "reason": "expired", "note": "past its date"}
    done = client.post("/write-offs/new", data=form)
    assert done.status_code == 302 and done.headers["Location"] == "/write-offs"
    assert client.post("/write-offs/new", data=form).status_code == 302  # sent twice: booked once
    listed = api.get("/v1/write_offs/").json["list"]
    assert [(w["reason"], w["note"], w["booked_by"], w["items"][0]["amount"]) for w in listed] == [
        ("expired", "past its date", "scan", 5)]
    page = text(client.get("/write-offs"))
    assert "past its date" in page and date.today().strftime("%Y-%m") in page
    rows = csv_rows(client.get("/write-offs?format=csv"))
    assert [(r["reason"], r["product_code"], r["amount"], r["write_offs"]) for r in rows] == [("expired", "LOT", "5", "1")]
    sheet = load_workbook(io.BytesIO(client.get("/write-offs?format=xlsx").data)).active
    assert sheet[2][1].value == "expired"


def test_a_refused_write_off_is_shown_beside_its_field_and_books_nothing(api, client, person, lot_depot):
    signed_in(client, person, "scan")
    confirm = client.get("/write-offs/new?warehouse=1&product=LOT&lot=A")
    assert 'value="5"' in text(confirm)  # the stock, filled in
    form = {"token": token_of(confirm), "write_off_id": "x-1", "warehouse": "1", "product": "LOT", "lot": "A",
            "amount": "9", "reason": "expired", "note": ""}
    refused = client.post("/write-offs/new", data=form)
    assert refused.status_code == 409 and "short by 4" in refused.get_data(as_text=True)
    refused = client.post("/write-offs/new", data={**form, "amount": "1", "reason": "stolen"})
    assert refused.status_code == 422
    assert api.get("/v1/write_offs/").json["list"] == []


def test_a_reader_may_not_write_off(client, person, lot_depot):
    signed_in(client, person, "read")
    assert "/write-offs/new" not in text(client.get("/alerts?kind=expired"))
    assert client.get("/write-offs/new?warehouse=1&product=LOT&lot=A").status_code == 403


def test_a_person_limited_to_another_warehouse_writes_nothing_off_there(api, client, person, lot_depot):
    person("scan_w2", [2], role="scan")
    sign_in(client, "scan_w2")
    assert client.get("/write-offs/new?warehouse=1&product=LOT&lot=A").status_code == 403
    confirm = client.get("/write-offs/new?warehouse=2&product=LOT&lot=A")
    form = {"token": token_of(confirm), "write_off_id": "x-1", "warehouse": "1", "product": "LOT", "lot": "A",
            "amount": "1", "reason": "expired", "note": ""}
    assert client.post("/write-offs/new", data=form).status_code == 403
    assert api.get("/v1/write_offs/").json["list"] == []


def test_the_order_page_lists_its_returns_with_their_reasons(client, person, lot_depot):
    signed_in(client, person, "read")
    page = text(client.get("/orders/SO-1"))
    assert 'id="order-returns"' in page and "crate broken" in page and 'href="/lots/LOT/A"' in page


def test_the_lot_page_says_where_the_lot_lies_and_how_it_moved(api, client, person):
    add_products(api)
    for warehouse, code in ((1, "A-1"), (1, "B-1"), (2, "C-1")):
        created(api.post("/v1/locations/", {"id_warehouse": warehouse, "code": code}))
    Scanner(api).book("R", "I", [item("LOT", 5, lot="A", wplace="A-1"), item("LOT", 2, lot="A")])
    for move_id, source, target in (("m-1", (1, "A-1"), (1, "B-1")), ("m-2", (1, ""), (2, "C-1"))):
        created(api.post("/v1/moves/", {"move_id": move_id, "from": {"id_warehouse": source[0], "location": source[1]},
                                        "to": {"id_warehouse": target[0], "location": target[1]},
                                        "items": [{"product_code": "LOT", "lot": "A", "amount": 2}]}))
    signed_in(client, person, "read")
    page = text(client.get("/lots/LOT/A"))
    assert "moved from A-1 to B-1" in page and "moved from unplaced to C-1" in page
    assert [location for location in ("A-1", "B-1", "C-1") if f'data-label="Location">{location}<' in page] == [
        "A-1", "B-1", "C-1"]
    assert sums(page) == "7 received; 0 delivered; 7 in stock"  # a move between warehouses seen is neither
    signed_in(client, person, "read_w1", [1])
    assert sums(text(client.get("/lots/LOT/A"))) == "7 received; 0 delivered, 2 moved out; 5 in stock"


def sums(page: str) -> str:
    return " ".join(re.search(r'id="lot-sums">([^<]*)<', page).group(1).split())


def test_the_stock_page_offers_write_off_per_lot_to_scan_and_admin_only(client, person, lot_depot):
    signed_in(client, person, "read")
    assert "/write-offs/new" not in text(client.get("/?level=1"))
    signed_in(client, person, "scan_all")
    page = text(client.get("/?level=1"))
    [link] = re.findall(r'href="(/write-offs/new\?[^"]+)"', page)
    assert "product=LOT" in link and "lot=A" in link and "amount=" not in link and "back=stock" in link
    assert "/write-offs/new" not in text(client.get("/?level=0"))  # a product's row sums its lots
    confirm = text(client.get(link.replace("&amp;", "&")))
    assert 'value="5"' in confirm and '<option value="" selected>' in confirm  # the reason: the person's
    assert 'href="/"' in confirm.split('id="confirm-write-off"')[1]  # Cancel: back to the stock page


def test_a_write_off_typed_in_german_reads_the_decimal_comma(api, client, person, lot_depot):
    signed_in(client, person, "scan")
    confirm = client.get("/write-offs/new?warehouse=1&product=LOT&lot=A", headers={"Accept-Language": "de"})
    form = {"token": token_of(confirm), "write_off_id": "x-2", "warehouse": "1", "product": "LOT", "lot": "A",
            "amount": "1,5", "reason": "damaged", "note": ""}
    assert client.post("/write-offs/new", data=form, headers={"Accept-Language": "de"}).status_code == 302
    assert [w["items"][0]["amount"] for w in api.get("/v1/write_offs/").json["list"]] == [1.5]


@pytest.mark.parametrize("amount, filled", [(1234.5, "1234,5"), (1.1, "1,1"), (1000, "1000")])
def test_the_amount_filled_in_german_is_written_off_as_it_stands_not_read_as_thousandths(api, client, person,
                                                                                        amount, filled):
    """German groups thousands with a point: 1234,5 shown as "1.234,5" and typed back would be read
    as 1,2345. The form fills the amount without grouping, in the language's decimal sign, and
    exactly (1.1 is no binary fraction)."""
    add_products(api)
    Scanner(api).book("R", "I", [item("LOT", amount, lot="BIG", date_exp=PAST)])
    signed_in(client, person, "scan")
    alerts = text(client.get("/alerts?kind=expired", headers={"Accept-Language": "de"}))
    link = re.search(r'href="(/write-offs/new\?[^"]*lot=BIG[^"]*)"', alerts).group(1).replace("&amp;", "&")
    assert "amount=" not in link  # the form reads the stock itself
    confirm = client.get(link, headers={"Accept-Language": "de"})
    page = text(confirm)
    shown = re.search(r'name="amount"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name="amount"', page)
    typed = shown.group(1) or shown.group(2)
    assert typed == filled
    write_off_id = page.split('name="write_off_id" value="')[1].split('"')[0]
    form = {"token": token_of(confirm), "write_off_id": write_off_id, "warehouse": "1", "product": "LOT",
            "lot": "BIG", "amount": typed, "reason": "expired", "note": ""}
    assert client.post("/write-offs/new", data=form, headers={"Accept-Language": "de"}).status_code == 302
    assert [float(w["items"][0]["amount"]) for w in api.get("/v1/write_offs/").json["list"]] == [amount]


def test_the_unplaced_row_of_a_lot_offers_its_unplaced_stock_not_the_warehouse_s(api, client, person):
    """A lot with 3 unplaced and 5 on a shelf: the lot page's unplaced row fills in 3, and the
    write-off takes those 3 (a write-off without a location takes unplaced stock first)."""
    add_products(api)
    created(api.post("/v1/locations/", {"id_warehouse": 1, "code": "A-1"}))
    scanner = Scanner(api)
    scanner.book("R", "I", [item("LOT", 3, lot="U", date_exp=PAST)])
    scanner.book("R", "I", [item("LOT", 5, lot="U", date_exp=PAST, wplace="A-1")])
    signed_in(client, person, "scan")
    page = text(client.get("/lots/LOT/U"))
    links = [link.replace("&amp;", "&") for link in re.findall(r'href="(/write-offs/new\?[^"]+)"', page)]
    [unplaced] = [link for link in links if "location=-" in link]
    confirm = client.get(unplaced)
    form_page = text(confirm)
    assert 'name="amount" value="3"' in form_page
    form = {"token": token_of(confirm), "write_off_id": "u-1", "warehouse": "1", "product": "LOT", "lot": "U",
            "location": "-", "amount": "3", "reason": "damaged", "note": ""}
    assert client.post("/write-offs/new", data=form).status_code == 302
    left = {(row["location"], row["amount"]) for row in
            api.get("/v1/locations/stock?id_warehouse=1&product_code=LOT").json["list"] if row["lot"] == "U"}
    assert left == {("A-1", 5)}


def test_a_reason_the_form_does_not_know_is_refused_in_the_address(client, person, lot_depot):
    signed_in(client, person, "scan")
    assert client.get("/write-offs/new?warehouse=1&product=LOT&lot=A&reason=stolen").status_code == 422
