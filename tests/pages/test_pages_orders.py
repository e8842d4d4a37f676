"""The orders pages (pages/orders.py, DESIGN §18) through the test client: open orders newest
first with filters, one order's page, releasing its lock and closing it from there."""
import re

import pytest

from helpers import created, order, order_item, product
from stock import audit, catalog
from conftest import sign_in, token_of
from office import Depot, csv_rows


@pytest.fixture
def shop(api, session):
    """Three open orders (SO-1 delivered in part, SO-3 for customer 42 in warehouse 2) and a closed one."""
    catalog.save_customers(session, [{"id_customer": 42, "name": "Acme"}])
    created(api.post("/v1/products/", product("MILK-1L", name="Milk 1 l")))
    created(api.post("/v1/products/", product("SOAP", name="Soap")))
    Depot(api).book("R", "I", [{"product_code": "MILK-1L", "amount": "50", "unit": "pc"}])
    created(api.post("/v1/documents/", order("SO-1", directions=("O",), description="Shop Main street",
                                             items=[order_item(1, "MILK-1L", 8), order_item(2, "SOAP", 1)])))
    created(api.post("/v1/documents/", order("SO-2", directions=("O",), items=[order_item(1, "MILK-1L", 2)])))
    created(api.post("/v1/documents/", order("SO-3", directions=("O",), id_warehouse=2, id_customer=42,
                                             items=[order_item(1, "SOAP", 2)])))
    created(api.post("/v1/documents/", order("SO-0", directions=("O",), items=[order_item(1, "SOAP", 2)])))
    assert api.post("/v1/documents/close/SO-0", {"reason": "cancelled"}).status_code == 200
    created(api.post("/v1/batches/", {"batch_settings": {
        "batch_number": "77", "id_warehouse": "1", "direction": "O", "type": "R", "document_number": "SO-1"},
        "batch_items": [{"product_code": "MILK-1L", "amount": "3", "unit": "pc"}]}))


def listed(response) -> list[str]:
    assert response.status_code == 200, response.get_data(as_text=True)
    return re.findall(r'<tbody class="order[^"]*" data-document="([^"]+)"', response.get_data(as_text=True))


@pytest.mark.parametrize("query, numbers", [
    ("", ["SO-3", "SO-2", "SO-1"]), ("?state=0", ["SO-0"]), ("?state=3", ["SO-1"]),
    ("?warehouse=2", ["SO-3"]), ("?customer=42", ["SO-3"]), ("?q=main+STREET", ["SO-1"]), ("?q=so-2", ["SO-2"]),
])
def test_open_orders_newest_first_with_filters(shop, office, query, numbers):
    assert listed(office.get("/orders" + query)) == numbers


def test_a_bad_filter_is_named(office):
    response = office.get("/orders?customer=x")
    assert response.status_code == 422 and "<code>customer</code>" in response.get_data(as_text=True)


def test_the_csv_follows_the_filters(shop, office):
    assert {r["document_number"] for r in csv_rows(office.get("/orders?format=csv&warehouse=1"))} == {"SO-1", "SO-2"}


def test_an_orders_page_shows_lines_deliveries_and_who_holds_it(shop, office, api_as):
    assert api_as("scan").get("/v1/documents/acquire/SO-1").status_code == 200
    html = office.get("/orders/SO-1").get_data(as_text=True)
    assert re.search(r'id="order-state" data-state="2"', html)
    # In the depot's zone (tests/pages/test_pages_clock.py), the UTC moment beside it.
    assert re.search(r'id="order-lock">scan since <time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ">'
                     r'\d{4}-\d\d-\d\d \d\d:\d\d [^<]+</time><', html)
    lines = html[html.index('id="order-lines"'):html.index('id="order-documents"')]
    assert re.findall(r'<td class="num[^"]*">([^<]*)</td>', lines) == ["8", "3", "1", "0"]
    # The amounts before the long texts, so that a phone shows them.
    assert re.findall(r"<th[^>]*>([^<]*)</th>", lines)[:4] == ["#", "Product", "Ordered", "Delivered"]
    assert re.search(r"<td>O-\d{4}-\d+</td>", html[html.index('id="order-documents"'):])
    # A read key sees no buttons.
    assert "Release the lock" not in html and "Close the order" not in html


def test_an_admin_releases_the_lock_from_the_page(shop, admin, api, api_as, session):
    api_as("scan").get("/v1/documents/acquire/SO-2")
    page = admin.get("/orders/SO-2")
    assert "Release the lock" in page.get_data(as_text=True)
    response = admin.post("/orders/release/SO-2", data={"token": token_of(page)})
    assert response.status_code == 303 and response.headers["Location"].endswith("/orders/SO-2")
    assert api.get("/v1/documents/SO-2").json["item"]["state"] == 1
    assert 'id="order-lock">nobody<' in admin.get("/orders/SO-2").get_data(as_text=True)
    assert [e["who"] for e in audit.list_entries(session, kind="order.release")] == ["admin"]


def test_releasing_an_order_nobody_holds_is_409_with_the_rules_message(shop, admin, api):
    response = admin.post("/orders/release/SO-1", data={"token": token_of(admin.get("/orders/SO-1"))})
    assert response.status_code == 409
    assert "is not held by anyone" in response.get_data(as_text=True)
    assert api.get("/v1/documents/SO-1").json["item"]["state"] == 3


def test_an_admin_closes_an_order_with_a_reason(shop, admin, api, session):
    token = token_of(admin.get("/orders/SO-1"))
    refused = admin.post("/orders/close/SO-1", data={"token": token, "reason": "  "})
    assert refused.status_code == 422 and api.get("/v1/documents/SO-1").json["item"]["state"] == 3
    response = admin.post("/orders/close/SO-1", data={"token": token, "reason": "Shop closed for good"})
    assert response.status_code == 303
    assert api.get("/v1/documents/SO-1").json["item"]["state"] == 0
    html = admin.get("/orders/SO-1").get_data(as_text=True)
    assert re.search(r'id="order-closing">by admin on <time datetime="[^"]+Z">[^<]+</time>: Shop closed for good<', html)
    assert "Close the order" not in html
    again = admin.post("/orders/close/SO-1", data={"token": token, "reason": "again"})
    assert again.status_code == 409 and "closed already" in again.get_data(as_text=True)
    assert len(audit.list_entries(session, kind="order.close")) == 2  # SO-0 and SO-1


def test_a_read_key_may_neither_release_nor_close(shop, office, api):
    token = token_of(office.get("/orders/SO-2"))
    assert office.post("/orders/close/SO-2", data={"token": token, "reason": "x"}).status_code == 403
    assert office.post("/orders/release/SO-2", data={"token": token}).status_code == 403
    assert api.get("/v1/documents/SO-2").json["item"]["state"] == 1


def test_an_order_out_of_the_persons_warehouses_is_a_404_page(shop, client, person):
    person("read_w1", [1])
    sign_in(client, "read_w1")
    response = client.get("/orders/SO-3")
    assert response.status_code == 404 and response.mimetype == "text/html"
    assert listed(client.get("/orders")) == ["SO-2", "SO-1"]
