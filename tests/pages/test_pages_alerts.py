"""The pages of stock that warns through the test client: /alerts and its count in the navigation,
the pick list, /admin/webhooks. tests/pages/test_pages_alerts_browser.py opens them in a real browser."""
import re
from datetime import date, timedelta

import pytest

from conftest import Scanner
from helpers import add_products, item, order, order_item
from conftest import sign_in
from office import csv_rows


def day(days: int) -> str:
    return (date.today() + timedelta(days=days)).isoformat()


def nav_count(page) -> int:
    found = re.search(r'id="nav-alerts"[^>]*>Alerts(?: <span class="alert-count"[^>]*>(\d+)</span>)?</a>',
                      page.get_data(as_text=True))
    assert found, page.get_data(as_text=True)[:2000]
    return int(found.group(1) or 0)


@pytest.fixture
def warning_depot(api):
    add_products(api)
    api.client.put("/v1/reorder_levels/", headers={"TS-Apikey": api.key}, json={"data": [
        {"id_warehouse": 1, "product_code": "P1", "min_amount": 10, "target_amount": 20},
        {"id_warehouse": 2, "product_code": "P2", "min_amount": 1, "target_amount": 5}]})
    scanner = Scanner(api)
    scanner.book("R", "I", [item("P1", 4), item("LOT", 3, lot="OLD", date_exp=day(-1)),
                            item("LOT", 5, lot="NEW", date_exp=day(200))])
    return scanner


def test_the_alerts_page_and_the_count_on_every_page(client, keys, person, warning_depot):
    person("read")
    sign_in(client, "read")
    page = client.get("/alerts")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert 'id="low-stock-table"' in text and 'id="expired-table"' in text
    assert "No lot in stock is near its best-before." in text  # NEW is 200 days off
    assert 'class="expired"' in text and "OLD" in text and "NEW" not in text
    assert nav_count(page) == 3
    for path in ("/", "/documents", "/orders", "/stocktakings", "/movements"):
        assert nav_count(client.get(path)) == 3, path
    rows = csv_rows(client.get("/alerts?format=csv"))
    assert [(r["alert"], r["id_warehouse"], r["product_code"], r["suggested_order"]) for r in rows] == [
        ("low_stock", "1", "P1", "16"), ("low_stock", "2", "P2", "5"), ("expired", "1", "LOT", "")]


def test_the_alerts_page_goes_by_kind_page_by_page(client, api, keys, person, monkeypatch):
    add_products(api)
    # 130 lots past their best-before and 3 still before it: more than a page (100) of the first.
    Scanner(api).book("R", "I", [item("LOT", 1, lot=f"OLD{n:03d}", date_exp=day(-1 - n % 40)) for n in range(130)]
                      + [item("LOT", 2, lot=f"SOON{n}", date_exp=day(n)) for n in range(3)])
    person("read")
    sign_in(client, "read")
    page = client.get("/alerts").get_data(as_text=True)
    assert "130 lots past their best-before" in page and "3 lots expiring within 30 days" in page
    assert page.count("<tr class=\"expired\">") == 100 and page.count(">SOON") == 3
    assert nav_count(client.get("/")) == 133
    import pages.alerts
    monkeypatch.setattr(pages.alerts, "NAV_MOST", 100)  # each kind counted up to 100 at most
    person("read_w1", [1])  # another key of the count, not kept yet
    sign_in(client, "read_w1")
    shown = client.get("/documents").get_data(as_text=True)
    assert 'aria-label="99+ alerts">99+</span>' in shown
    monkeypatch.undo()
    sign_in(client, "read")
    following = re.search(r'<a href="([^"]+)" rel="next"', page).group(1).replace("&amp;", "&")
    assert "kind=expired" in following
    rest = client.get(following).get_data(as_text=True)
    assert rest.count("<tr class=\"expired\">") == 30 and "Page 2 of 2" in rest and "SOON" not in rest
    shown = re.findall(r'data-label="Lot"><a [^>]+>(OLD\d+)<', page) + re.findall(r'data-label="Lot"><a [^>]+>(OLD\d+)<', rest)
    assert sorted(shown) == sorted(f"OLD{n:03d}" for n in range(130))  # each once, none skipped
    one = client.get("/alerts?kind=expiring&product=LOT&warehouse=1").get_data(as_text=True)
    assert 'id="expiring-table"' in one and 'id="expired-table"' not in one and 'id="low-stock-table"' not in one
    assert client.get("/alerts?kind=expiring&product=P1").get_data(as_text=True).count("No lot in stock") == 1
    assert len(csv_rows(client.get("/alerts?kind=expired&format=csv"))) == 130
    for bad in ("kind=soon", "after=xyz", "after=" + following.split("after=")[1].split("&")[0] + "&kind=low_stock",
                "warehouse=x"):
        assert client.get(f"/alerts?{bad}").status_code == 422, bad


def test_the_count_follows_the_stock(client, keys, person, warning_depot):
    person("read")
    sign_in(client, "read")
    assert nav_count(client.get("/")) == 3
    warning_depot.book("R", "I", [item("P1", 6)])
    assert nav_count(client.get("/")) == 2


def test_a_person_limited_to_warehouses_counts_only_theirs(client, keys, person, warning_depot):
    person("read_w1", [1])
    sign_in(client, "read_w1")
    assert nav_count(client.get("/alerts")) == 2
    assert "P2" not in client.get("/alerts").get_data(as_text=True)


def test_no_alerts_no_number(client, keys, person):
    person("read")
    sign_in(client, "read")
    page = client.get("/alerts")
    assert nav_count(page) == 0
    assert "Nothing is below its reorder level." in page.get_data(as_text=True)


def test_the_pick_list_page(client, api, keys, person, warning_depot):
    r = api.post("/v1/documents/", order("SO/1", [order_item(1, "LOT", 6, direction="O"),
                                                  order_item(2, "P1", 1, direction="O")], directions=("O",)))
    assert r.status_code == 201, r.json
    person("read")
    sign_in(client, "read")
    page = client.get("/orders/SO/1/pick-list")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert text.index("OLD") < text.index("NEW")  # first expiring first
    assert "Not enough stock" not in text
    # The paper's stylesheet and print script, at their hashed addresses (static_files.py).
    style = client.get(re.search(r'href="(/assets/paper\.[0-9a-f]{12}\.css)"', text).group(1))
    assert re.search(r'src="/assets/paper\.[0-9a-f]{12}\.js"', text)
    assert "size: A4" in style.get_data(as_text=True)  # printed on A4, not Letter
    style.close()
    assert client.get("/orders/NOPE/pick-list").status_code == 404
    assert client.get("/orders/SO/1/pick-list?x=1").status_code == 422


def test_the_pick_list_says_what_is_short(client, api, keys, person, warning_depot):
    api.post("/v1/documents/", order("SO2", [order_item(1, "P1", 9, direction="O")], directions=("O",)))
    person("read")
    sign_in(client, "read")
    assert "Not enough stock: short by 5." in client.get("/orders/SO2/pick-list").get_data(as_text=True)


def test_pages_need_a_session(client):
    for path in ("/alerts", "/orders/X/pick-list", "/admin/webhooks"):
        assert client.get(path).headers["Location"].startswith("/login"), path


def test_the_webhooks_page_is_for_admins(client, api, keys, person):
    made = api.post("/v1/webhooks/", {"url": "http://127.0.0.1:9/in", "events": ["batch.booked"]}).json["item"]
    person("read")
    sign_in(client, "read")
    assert client.get("/admin/webhooks").status_code == 403
    person("admin")
    sign_in(client, "admin")
    page = client.get("/admin/webhooks")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "http://127.0.0.1:9/in" in text and made["secret"] not in text
    assert client.get(f"/admin/webhooks?webhook={made['id']}").status_code == 200
    assert client.get("/admin/webhooks?webhook=x").status_code == 422
