"""/reorder-levels (pages/reorder_levels.py) through the test client: the levels with the stock now,
set and removed by an admin through the rule of PUT /v1/reorder_levels/, each change in the audit
trail, each refusal beside its field with nothing changed.

tests/api/test_reorder_levels.py tests the rule and the API; tests/pages/test_pages_lists_browser.py the page
in chromium at 1280 and 390 px.
"""
import html
import re

import pytest

from conftest import sign_in, token_of
from stock import audit


def levels(response) -> list[tuple[str, str, str, str, str]]:
    """(warehouse, product, reorder below, order up to, in stock) of each row of the list."""
    assert response.status_code in (200, 403, 422), response.status_code
    return re.findall(r'<td data-label="Warehouse">([^<]+)</td>\s*<td data-label="Product"><a [^>]+>([^<]+)</a></td>\s*'
                      r'<td class="num" data-label="Reorder below">([^<]+)</td>\s*'
                      r'<td class="num" data-label="Order up to">([^<]+)</td>\s*'
                      r'<td class="num[^"]*" data-label="In stock">([^<]+)</td>', response.get_data(as_text=True))


def problem(response, field) -> str | None:
    found = re.search(rf'<span class="problem" id="{field}-problem" role="alert">([^<]+)</span>',
                      response.get_data(as_text=True))
    return html.unescape(found.group(1)) if found else None


def set_level(client, **form):
    token = token_of(client.get("/reorder-levels"))
    return client.post("/reorder-levels", data={"token": token, **form})


def reorder_trail(session) -> list[tuple]:
    return [(e["kind"], e["who"], e["record"], e["changes"]) for e in audit.list_entries(session, kind="reorder")]


def test_an_admin_sets_changes_and_removes_a_level_each_in_the_audit_trail(depot, admin, api, session):
    response = set_level(admin, id_warehouse="1", product_code="MILK-1L", min_amount="50", target_amount="120")
    assert response.status_code == 303 and response.headers["Location"] == "/reorder-levels?product=MILK-1L"
    page = admin.get(response.headers["Location"])
    assert "MILK-1L in Main: reorder below 50, up to 120." in page.get_data(as_text=True)
    assert levels(page) == [("Main", "MILK-1L", "50", "120", "45 pc")]
    # The same level the API lists: one rule, one table.
    assert api.get("/v1/reorder_levels/").json["list"] == [
        {"id_warehouse": 1, "product_code": "MILK-1L", "min_amount": 50, "target_amount": 120}]
    # Its Change link opens the form filled in with it.
    form = admin.get("/reorder-levels?warehouse=1&product=MILK-1L").get_data(as_text=True)
    assert 'name="min_amount" value="50"' in form and 'name="target_amount" value="120"' in form
    assert set_level(admin, id_warehouse="1", product_code="MILK-1L", min_amount="40",
                     target_amount="120").status_code == 303
    assert set_level(admin, id_warehouse="1", product_code="MILK-1L", min_amount="0",
                     target_amount="0").status_code == 303
    assert levels(admin.get("/reorder-levels")) == []
    assert reorder_trail(session) == [
        ("reorder.remove", "admin", "1/MILK-1L", {"min_amount": [40, None], "target_amount": [120, None]}),
        ("reorder.set", "admin", "1/MILK-1L", {"min_amount": [50, 40]}),
        ("reorder.set", "admin", "1/MILK-1L", {"min_amount": [None, 50], "target_amount": [None, 120]})]


@pytest.mark.parametrize("form, field, message", [
    ({"product_code": "NO-SUCH"}, "product_code", "No product 'NO-SUCH'."),
    ({"min_amount": "30", "target_amount": "20"}, "target_amount", "Must be at least min_amount."),
    ({"min_amount": "lots"}, "min_amount", "Not a number."),
    ({"min_amount": "1.0005"}, "min_amount", "decimal places"),
    ({"id_warehouse": ""}, "id_warehouse", "Not a valid integer."),
    ({"id_warehouse": "77"}, "id_warehouse", "No active warehouse 77."),
    ({"product_code": ""}, "product_code", "Length must be between 1 and 200."),
])
def test_a_refusal_stands_beside_its_field_with_what_was_typed_and_nothing_changes(
        depot, admin, session, form, field, message):
    typed = {"id_warehouse": "1", "product_code": "SOAP", "min_amount": "5", "target_amount": "10", **form}
    response = set_level(admin, **typed)
    assert response.status_code == 422
    assert message in (problem(response, field) or ""), response.get_data(as_text=True)
    page = response.get_data(as_text=True)
    assert f'name="min_amount" value="{typed["min_amount"]}"' in page
    assert levels(admin.get("/reorder-levels")) == [] and reorder_trail(session) == []


def test_an_admin_limited_to_a_warehouse_is_refused_another_beside_the_warehouse(depot, client, person, session):
    person("admin_w1", [1])
    assert sign_in(client, "admin_w1").status_code == 302
    response = set_level(client, id_warehouse="2", product_code="SOAP", min_amount="5", target_amount="10")
    assert response.status_code == 403
    assert "may not act in warehouse 2" in problem(response, "id_warehouse")
    assert reorder_trail(session) == []
    assert set_level(client, id_warehouse="1", product_code="SOAP", min_amount="5", target_amount="10").status_code == 303


def test_a_reader_sees_the_levels_and_their_stock_but_no_form(depot, admin, app, person):
    set_level(admin, id_warehouse="1", product_code="SOAP", min_amount="8", target_amount="20")
    set_level(admin, id_warehouse="2", product_code="SOAP", min_amount="2", target_amount="9")
    person("read")
    reader = app.test_client()
    assert sign_in(reader, "read").status_code == 302
    page = reader.get("/reorder-levels")
    assert levels(page) == [("Main", "SOAP", "8", "20", "6 pc"), ("Warehouse 2", "SOAP", "2", "9", "7 pc")]
    assert 'class="num short" data-label="In stock">6 pc' in page.get_data(as_text=True)  # below its minimum
    assert 'id="set-level"' not in page.get_data(as_text=True)
    refused = reader.post("/reorder-levels", data={"token": token_of(page), "id_warehouse": "1",
                                                    "product_code": "SOAP", "min_amount": "1", "target_amount": "2"})
    assert refused.status_code == 403
    person("read_w2", [2])
    limited = app.test_client()
    assert sign_in(limited, "read_w2").status_code == 302
    assert [row[0] for row in levels(limited.get("/reorder-levels"))] == ["Warehouse 2"]


def test_many_levels_page_by_the_next_link_with_the_total(depot, admin, api, monkeypatch):
    from pages import common

    rows = [{"id_warehouse": warehouse, "product_code": code, "min_amount": 1, "target_amount": 2}
            for warehouse in (1, 2) for code in ("CHEESE", "MILK-1L", "SOAP")]
    assert api.client.put("/v1/reorder_levels/", json={"data": rows},
                          headers={"TS-Apikey": api.key}).status_code == 200
    monkeypatch.setitem(common.PER_PAGE, "reorder_levels", 4)
    first = admin.get("/reorder-levels")
    assert "Page 1 of 2 &middot; 6 in all" in first.get_data(as_text=True)
    following = re.search(r'<a href="([^"]+)" rel="next"', first.get_data(as_text=True)).group(1).replace("&amp;", "&")
    second = admin.get(following)
    assert [row[:2] for row in levels(first) + levels(second)] == [
        ("Main", "CHEESE"), ("Main", "MILK-1L"), ("Main", "SOAP"),
        ("Warehouse 2", "CHEESE"), ("Warehouse 2", "MILK-1L"), ("Warehouse 2", "SOAP")]


def test_no_levels_yet_says_how_to_set_them(admin):
    assert "No reorder levels yet: set one with the form below, or import a sheet" in \
        admin.get("/reorder-levels").get_data(as_text=True)


def test_a_products_page_shows_its_levels_and_links_to_set_them(depot, admin):
    set_level(admin, id_warehouse="2", product_code="SOAP", min_amount="3", target_amount="12")
    page = admin.get("/products/SOAP").get_data(as_text=True)
    assert "Warehouse 2: reorder below 3 pc, up to 12" in page
    assert 'href="/reorder-levels?product=SOAP">Set its reorder levels</a>' in page
    assert "No reorder level: MILK-1L is never reported as low." in admin.get("/products/MILK-1L").get_data(as_text=True)
