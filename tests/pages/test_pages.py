"""The office pages (DESIGN §15) through the test client: sign-in, each page, CSV, paging, limits.

tests/pages/test_pages_browser.py drives the same pages in a real browser.
"""
import html as html_lib
import io
import re
from decimal import Decimal

import pytest

from app import create_app
from conftest import PASSWORD, close_app, sign_in, token_of  # noqa: F401 (re-exported)
from office import csv_rows, day, first_link, next_link, stock_rows
from helpers import created, order, order_item
from identity import people
from models import ServiceSetting
from stock.audit import cli_actor
from storage.db import db


# --- signing in -----------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/documents", "/orders", "/stocktakings", "/movements",
                                  "/?format=csv", "/logout"])
def test_a_page_without_a_session_goes_to_the_login_form(client, path):
    response = client.get(path)
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/login?next=")


@pytest.mark.parametrize("role", ["read", "scan", "admin"])
def test_any_person_of_role_read_or_above_signs_in(client, person, role):
    person(role)
    response = sign_in(client, role, next_path="/orders?state=1")
    assert response.status_code == 302
    assert response.headers["Location"] == "/orders?state=1"
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert PASSWORD not in cookie  # the cookie names the person's id, never the password
    assert client.get("/").status_code == 200


def test_an_unknown_name_a_wrong_password_or_a_disabled_person_is_refused(client, person, session):
    person("scan")
    person("gone", role="read")
    people.disable_person(session, cli_actor(), "gone")
    for name, password in (("nobody", PASSWORD), ("scan", "not the password"), ("gone", PASSWORD),
                           ("", "")):
        response = sign_in(client, name, password)
        assert response.status_code == 401
        assert "name or the password is wrong" in response.get_data(as_text=True)
        assert client.get("/").status_code == 302


@pytest.mark.parametrize("target", [
    "https://elsewhere.example/", "//elsewhere.example/x", "/\\elsewhere", "\\\\elsewhere.example",
    "/\t/elsewhere.example", "\t//elsewhere.example", "/\t\t/elsewhere.example/x",
    "/\r\nSet-Cookie: planted=1", "/orders\n", "/\x00", "javascript:alert(1)", "http:elsewhere.example",
    "data:text/html,<b>x</b>", "orders", "/\u2028/elsewhere.example", "/" + "x" * 3000,
])
def test_after_signing_in_only_pages_of_the_service_are_followed(client, person, target):
    person("read")
    response = sign_in(client, "read", next_path=target)
    assert response.status_code == 302 and response.headers["Location"] == "/"
    assert "planted" not in str(response.headers)


@pytest.mark.parametrize("target, location", [
    ("/orders?state=1", "/orders?state=1"), ("/products/%C4%8Cokolada", "/products/%C4%8Cokolada"),
    ("/products/\u010cokolada", "/products/%C4%8Cokolada"),
    ("/documents?date_from=2026-11-01#lines", "/documents?date_from=2026-11-01#lines")])
def test_a_path_of_the_service_is_followed_after_signing_in(client, person, target, location):
    person("read")
    assert sign_in(client, "read", next_path=target).headers["Location"] == location


@pytest.mark.parametrize("query", ["/%09/elsewhere.example", "//elsewhere.example", "/%0d%0aSet-Cookie:%20x=1",
                                   "https://elsewhere.example/"])
def test_the_login_form_carries_no_next_that_would_leave_the_service(client, query):
    response = client.get(f"/login?next={query}")
    assert response.status_code == 200
    assert 'name="next" value=""' in response.get_data(as_text=True)


def test_a_page_asked_for_with_a_line_break_leads_to_the_login_form_whole(client):
    response = client.get("/orders?q=a%0d%0aSet-Cookie:%20planted=1")
    assert response.status_code == 302
    assert "\n" not in response.headers["Location"] and "planted" not in response.headers.get("Set-Cookie", "")


def test_a_login_posted_without_the_forms_token_is_refused(client, person):
    person("read")
    # As from another site: SameSite=Lax keeps the session cookie (and its token) away.
    response = client.post("/login", data={"username": "read", "password": PASSWORD, "token": "guessed"})
    assert response.status_code == 403
    assert client.get("/").status_code == 302


def test_a_login_from_another_origin_is_refused(client, person):
    person("read")
    token = token_of(client.get("/login"))
    response = client.post("/login", data={"username": "read", "password": PASSWORD, "token": token},
                           headers={"Origin": "http://evil.example"})
    assert response.status_code == 403
    assert client.get("/").status_code == 302


def test_signing_in_starts_a_fresh_session(client, person):
    person("read")
    token_before = token_of(client.get("/login"))
    sign_in(client, "read")
    assert token_of(client.get("/")) != token_before


def test_a_disabled_person_is_signed_out_at_their_next_page(office, session):
    assert office.get("/orders").status_code == 200
    people.disable_person(session, cli_actor(), "read")
    response = office.get("/orders")
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/login")
    assert office.get("/").status_code == 302


def test_sign_out_needs_the_form_token_and_ends_the_session(office):
    page = office.get("/logout")
    assert office.post("/logout", data={"token": "wrong"}).status_code == 403
    assert office.get("/").status_code == 200
    assert office.post("/logout", data={"token": token_of(page)}).headers["Location"] == "/login"
    assert office.get("/").status_code == 302


def test_the_session_secret_is_made_once_and_survives_a_restart(office, database_config):
    assert office.get("/").status_code == 200
    with office.application.app_context():
        secret = db.session.get(ServiceSetting, "page_session_secret").value
    assert len(secret) >= 40

    restarted = create_app({"TESTING": True, **database_config})
    try:
        client = restarted.test_client()
        cookie = office.get_cookie("session")
        client.set_cookie("session", cookie.value)
        assert client.get("/").status_code == 200
        with restarted.app_context():
            assert restarted.secret_key == secret
            assert db.session.query(ServiceSetting).count() == 1
    finally:
        close_app(restarted)


def test_a_cookie_signed_with_another_secret_is_not_a_session(client, office):
    cookie = office.get_cookie("session").value
    forged = cookie[:-4] + ("AAAA" if not cookie.endswith("AAAA") else "BBBB")
    fresh = office.application.test_client()
    fresh.set_cookie("session", forged)
    assert fresh.get("/").status_code == 302


def test_api_calls_carry_no_session_cookie(api, office):
    assert "Set-Cookie" not in api.get("/v1/products/").headers
    assert "Set-Cookie" not in office.get("/health").headers


def test_pages_load_nothing_from_elsewhere(office):
    page = office.get("/movements")
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    html = page.get_data(as_text=True)
    assert "<script" not in html
    assert not re.search(r'(src|href)="(https?:)?//', html)
    style = office.get("/assets/style.css")
    style.close()
    assert style.status_code == 200 and style.mimetype == "text/css"


# --- stock ----------------------------------------------------------------------------------

def test_stock_shows_each_product_at_its_own_level(depot, office):
    # Warehouses by name (DESIGN 17): 1 is "Main", 2 the tests' "Warehouse 2". Code, name, lot,
    # best-before, then the amount (issue 38; a phone shows each row as a card); none of these
    # products has packaging, nor a best-before.
    assert stock_rows(office.get("/")) == [
        ["Main", "CHEESE", "Edam cheese", "L1", "", "2.5", "kg", ""],
        ["Main", "CHEESE", "Edam cheese", "L2", "", "3", "kg", ""],
        ["Main", "MILK-1L", "Milk 1 l", "", "", "45", "pc", ""], ["Main", "SOAP", "Liquid soap", "", "", "6", "pc", ""],
        ["Warehouse 2", "SOAP", "Liquid soap", "", "", "7", "pc", ""]]


def test_stock_level_switch_and_warehouse(depot, office):
    assert stock_rows(office.get("/?level=0&warehouse=1"))[0] == ["Main", "CHEESE", "Edam cheese", "", "", "5.5", "kg", ""]
    assert [row[:2] for row in stock_rows(office.get("/?warehouse=2"))] == [["Warehouse 2", "SOAP"]]


@pytest.mark.parametrize("search, codes", [("milk", ["MILK-1L"]), ("CHEE", ["CHEESE", "CHEESE"]),
                                           ("soap", ["SOAP", "SOAP"]), ("%", []), ("_", [])])
def test_stock_search_by_code_or_name(depot, office, search, codes):
    assert [row[1] for row in stock_rows(office.get("/", query_string={"q": search}))] == codes


def test_stock_is_paged(depot, office, monkeypatch):
    from pages import common as views

    monkeypatch.setitem(views.PER_PAGE, "stock", 2)
    first = office.get("/")
    second = office.get(next_link(first))
    third = office.get(next_link(second))
    assert [row[1] for row in stock_rows(first)] == ["CHEESE", "CHEESE"]
    assert [row[1] for row in stock_rows(second)] == ["MILK-1L", "SOAP"]
    assert [row[1] for row in stock_rows(third)] == ["SOAP"]
    assert next_link(third) is None
    html = third.get_data(as_text=True)
    assert "Page 3 of 3" in html and "5 in all" in html
    assert [row[1] for row in stock_rows(office.get(first_link(third)))] == ["CHEESE", "CHEESE"]
    # At level 0 (a row a product) the places in the list are (warehouse, product).
    first = office.get("/?level=0")
    assert [row[1] for row in stock_rows(office.get(next_link(first)))] == ["SOAP", "SOAP"]


def test_stock_csv_gives_every_row_the_filters_select(depot, office, monkeypatch, api):
    from pages import common as views

    monkeypatch.setitem(views.PER_PAGE, "stock", 1)
    rows = csv_rows(office.get("/?format=csv&page=2"))
    listed = api.post("/v1/inventory/filter", {}).json["list"]
    assert [(r["id_warehouse"], r["product_code"], r["lot"], r["amount"], r["unit"]) for r in rows] == \
        [(str(r["id_warehouse"]), r["product_code"], r["lot"], str(r["amount"]), r["unit"]) for r in listed]
    assert [r["product_code"] for r in csv_rows(office.get("/?format=csv&q=soap&warehouse=2"))] == ["SOAP"]


def test_the_stock_csv_of_thousands_of_lots_is_written_in_pieces_and_whole(depot, office, api):
    """2,400 lots of cheese besides the depot's rows: more than two of the CSV's pieces of a
    thousand rows; every row is there once, in the list's order, as the books say."""
    lots = {f"=L{n:04d}" if n % 500 == 0 else f"L{n:04d}": (1 + n % 2, 1000 + n * 250) for n in range(2_400)}
    for warehouse in (1, 2):
        mine = [(lot, milli) for lot, (w, milli) in lots.items() if w == warehouse]
        for start in range(0, len(mine), 600):
            depot.booked("I", [("CHEESE", Decimal(milli) / 1000, "kg", lot) for lot, milli in mine[start:start + 600]],
                         warehouse=warehouse)
    response = office.get("/?format=csv&level=1")
    assert "Content-Length" not in response.headers  # written as it is read
    rows = csv_rows(response)
    listed = api.post("/v1/inventory/filter", {"level": 1}).json["list"]
    assert len(rows) == len(listed) == 2_400 + 5
    # A lot that begins like a formula is written so that a spreadsheet shows it as text.
    assert [(int(r["id_warehouse"]), r["product_code"], r["lot"].removeprefix("'"), Decimal(r["amount"]), r["unit"])
            for r in rows] == [(r["id_warehouse"], r["product_code"], r["lot"], Decimal(str(r["amount"])), r["unit"])
                               for r in listed]
    cheese = {r["lot"].removeprefix("'"): (int(r["id_warehouse"]), Decimal(r["amount"]))
              for r in rows if r["product_code"] == "CHEESE" and r["lot"] not in ("L1", "L2")}
    assert cheese == {lot: (w, Decimal(milli) / 1000) for lot, (w, milli) in lots.items()}
    assert [r["lot"] for r in rows if r["lot"].startswith("'")] == ["'=L0000", "'=L0500", "'=L1000", "'=L1500",
                                                                    "'=L2000"]


def test_a_person_limited_to_a_warehouse_sees_only_it(depot, client, person, api):
    created(api.post("/v1/documents/", order("W2-ORDER", id_warehouse=2, items=[order_item(1, "SOAP", 1)])))
    created(api.post("/v1/documents/", order("W1-ORDER", items=[order_item(1, "SOAP", 1)])))
    person("read_w1", [1])
    sign_in(client, "read_w1")
    assert {row[0] for row in stock_rows(client.get("/"))} == {"Main"}
    assert stock_rows(client.get("/?warehouse=2")) == []
    assert {r["id_warehouse"] for r in csv_rows(client.get("/?format=csv"))} == {"1"}
    assert {r["id_warehouse"] for r in csv_rows(client.get(f"/documents?format=csv&date_from={day(30)}"))} == {"1"}
    assert {r["document_number"] for r in csv_rows(client.get("/orders?format=csv"))} == {"W1-ORDER"}
    html = client.get("/orders").get_data(as_text=True)
    assert "W1-ORDER" in html and "W2-ORDER" not in html


def picked_warehouses(response) -> list[str]:
    """The names the warehouse filter of a page offers, "all" first."""
    select = re.search(r'<select name="warehouse">(.*?)</select>', response.get_data(as_text=True), re.S).group(1)
    return re.findall(r"<option[^>]*>([^<]+)</option>", select)


@pytest.mark.parametrize("path", ["/", "/documents", "/orders"])
def test_the_warehouse_filters_offer_only_the_persons_warehouses(client, person, app, path):
    person("read_w1", [1])
    person("read")
    limited, everyone = app.test_client(), app.test_client()
    sign_in(limited, "read_w1")
    sign_in(everyone, "read")
    assert picked_warehouses(limited.get(path)) == ["all", "Main"]
    assert picked_warehouses(everyone.get(path))[:3] == ["all", "Main", "Warehouse 2"]


# --- documents ------------------------------------------------------------------------------

def test_documents_show_the_last_seven_days_by_default(depot, office):
    html = office.get("/documents").get_data(as_text=True)
    assert html.count('class="document"') == 3  # the delivery of 20 days ago is out of range
    assert f'value="{day(6)}"' in html and f'value="{day(-7)}"' in html  # up to a week ahead


def test_documents_dated_ahead_show_by_default_and_from_a_date_alone(depot, office):
    # Found by a new user: a booking dated three days ahead (allowed up to WAREHOUSE_MAX_FUTURE_DAYS)
    # was on no page unless asked, and a date_from after today gave an empty range ending today.
    depot.booked("I", [("SOAP", 2, "pc", "")], days_ago=-3)
    html = office.get("/documents").get_data(as_text=True)
    assert html.count('class="document"') == 4 and day(-3) in html
    html = office.get(f"/documents?date_from={day(-2)}").get_data(as_text=True)
    assert html.count('class="document"') == 1 and f'value="{day(-2)}"' in html and f'value="{day(-7)}"' in html
    html = office.get(f"/documents?date_from={day(-30)}").get_data(as_text=True)
    assert html.count('class="document"') == 0 and html.count(f'value="{day(-30)}"') == 2
    html = office.get(f"/documents?date_from={day(30)}&date_to={day(10)}").get_data(as_text=True)
    assert html.count('class="document"') == 1 and "Edam cheese" in html


def test_a_document_booked_days_after_its_date_is_marked_late(depot, office):
    # A scanner that kept its batches while it had no network sends them with the day they were
    # scanned (DESIGN 25): the service books them today, dated back. So were the depot's own.
    depot.booked("I", [("SOAP", 1, "pc", "")], days_ago=0)
    html = office.get("/documents").get_data(as_text=True)
    sections = re.findall(r'<section class="document".*?</section>', html, re.S)
    late = [section for section in sections if 'class="late"' in section]
    assert len(sections) == 4 and len(late) == 3
    assert "came in 2 day(s) late" in html and html.count("came in 1 day(s) late") == 2
    assert day(0) in [section for section in sections if section not in late][0]


def test_documents_filter_by_direction_and_give_their_lines_as_csv(depot, office):
    rows = csv_rows(office.get(f"/documents?format=csv&direction=O&date_from={day(30)}"))
    assert [(r["direction"], r["product_code"], r["amount"], r["unit"], r["date"]) for r in rows] == \
        [("O", "MILK-1L", "5", "pc", day(1))]
    rows = csv_rows(office.get(f"/documents?format=csv&date_from={day(30)}"))
    assert len(rows) == 7 and {r["ufid"][:1] for r in rows} == {"I", "O"}


def test_the_documents_download_gives_every_line_by_date_document_and_line(depot, office, api):
    response = office.get(f"/documents?format=csv&date_from={day(30)}")
    # Sent as written, so of no length known beforehand (bench row i measures the memory of a million lines).
    assert "Content-Length" not in response.headers
    rows = csv_rows(response)
    documents = {d["doc_number"]: d for d in api.post("/v1/docs/filter", {"date_from": day(30)}).json["list"]}
    # Every line of every document of the range, as the API lists them, the goods-out line too.
    expected = sorted(((d["date"], number, i["item_number"], d["ufid"], d["id_warehouse"], d["direction"],
                        i["product_code"], i["lot"], i["amount_base_unit"])
                       for number, d in documents.items() for i in d["wh_doc_items"]))
    assert [(r["date"], int(r["doc_number"]), int(r["item_number"]), r["ufid"], int(r["id_warehouse"]),
             r["direction"], r["product_code"], r["lot"], r["amount"]) for r in rows] == \
        [(*line[:8], str(line[8])) for line in expected]
    assert [r["date"] for r in rows] == sorted(r["date"] for r in rows)
    assert ("Edam cheese", "kg") in {(r["name"], r["unit"]) for r in rows}


def test_the_documents_download_as_xlsx_holds_the_same_lines(depot, office):
    from openpyxl import load_workbook
    rows = csv_rows(office.get(f"/documents?format=csv&date_from={day(30)}&warehouse=1"))
    response = office.get(f"/documents?format=xlsx&date_from={day(30)}&warehouse=1")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == 'attachment; filename="documents.xlsx"'
    sheet = load_workbook(io.BytesIO(response.data)).active
    header, *lines = [[cell.value for cell in row] for row in sheet.iter_rows()]
    assert header == list(rows[0])
    assert len(lines) == len(rows) == 6 and {(line[2], line[3]) for line in lines} == {(1, "Main")}
    assert [(line[1], line[7], line[8], str(line[12])) for line in lines] == \
        [(int(r["doc_number"]), int(r["item_number"]), r["product_code"], r["amount"]) for r in rows]


def test_more_lines_than_a_worksheet_holds_are_refused_as_xlsx_but_not_as_csv(depot, office, monkeypatch):
    from pages import common
    from transfer import xlsx_format

    monkeypatch.setattr(common, "SHEET_ROWS", 7)  # a header and six lines fit; the range has seven
    response = office.get(f"/documents?format=xlsx&date_from={day(30)}")
    assert response.status_code == 422
    assert "more than one worksheet holds" in response.get_data(as_text=True)
    assert len(csv_rows(office.get(f"/documents?format=csv&date_from={day(30)}"))) == 7
    assert office.get(f"/documents?format=xlsx&date_from={day(30)}&warehouse=1").status_code == 200
    # Any other list meets the same limit while its workbook is written: exactly at it, it is whole.
    stock_rows = len(csv_rows(office.get("/?format=csv")))
    monkeypatch.setattr(xlsx_format, "SHEET_ROWS", stock_rows + 1)
    assert office.get("/?format=xlsx").status_code == 200
    monkeypatch.setattr(xlsx_format, "SHEET_ROWS", stock_rows)
    response = office.get("/?format=xlsx")
    assert response.status_code == 422
    assert f"More than {stock_rows - 1:,} rows" in response.get_data(as_text=True)


def test_documents_are_paged(depot, office, monkeypatch):
    from pages import common as views

    monkeypatch.setitem(views.PER_PAGE, "documents", 2)
    first = office.get(f"/documents?date_from={day(30)}")
    second = office.get(next_link(first)).get_data(as_text=True)
    first = first.get_data(as_text=True)
    assert first.count('class="document"') == 2 and second.count('class="document"') == 2
    assert "Page 2 of 2" in second and "4 in all" in second and 'rel="next"' not in second
    assert set(re.findall(r'data-ufid="([^"]+)"', first)).isdisjoint(re.findall(r'data-ufid="([^"]+)"', second))


@pytest.mark.parametrize("query, field", [("date_from=yesterday", "date_from"), ("direction=X", "direction"),
                                          (f"date_from={day(1)}&date_to={day(3)}", "date_from"),
                                          ("page=0", "page"), ("after=WyJhIl0", "after"), ("after=%25", "after"),
                                          ("warehouse=a", "warehouse"),
                                          ("format=pdf", "format"), ("other=1", "other")])
def test_a_bad_filter_is_named_and_shows_nothing_else(office, query, field):
    response = office.get(f"/documents?{query}")
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert f"<code>{field}</code>" in html and 'class="document"' not in html
    assert '<a href="/documents">Open this page again without them</a>' in html


# --- orders, stocktakings, movements --------------------------------------------------------

def test_orders_by_state_with_ordered_and_delivered(depot, office, api):
    created(api.post("/v1/documents/", order("SO-1", directions=("O",), items=[order_item(1, "MILK-1L", 8)])))
    created(api.post("/v1/documents/", order("SO-2", directions=("O",), items=[order_item(1, "SOAP", 2)])))
    depot.booked("O", [("MILK-1L", 3, "pc", "")], document_number="SO-1")
    html = office.get("/orders?state=3").get_data(as_text=True)
    assert "SO-1" in html and "SO-2" not in html
    rows = csv_rows(office.get("/orders?format=csv"))
    # Open orders, newest first (DESIGN §18).
    assert [(r["document_number"], r["state"], r["amount_ordered"], r["amount_delivered"]) for r in rows] == \
        [("SO-2", "1", "2", "0"), ("SO-1", "3", "8", "3")]


def test_orders_are_paged(depot, office, api, monkeypatch):
    from pages import common as views

    for number in ("SO-1", "SO-2", "SO-3"):
        created(api.post("/v1/documents/", order(number, items=[order_item(1, "SOAP", 1)])))
    monkeypatch.setitem(views.PER_PAGE, "orders", 2)
    first = office.get("/orders")
    second = office.get(next_link(first))
    numbers = lambda response: re.findall(r"SO-\d", response.get_data(as_text=True))  # noqa: E731
    # Open orders come newest first (DESIGN 18): the last imported on the first page.
    assert sorted(set(numbers(first))) == ["SO-2", "SO-3"] and sorted(set(numbers(second))) == ["SO-1"]
    assert "Page 2 of 2" in second.get_data(as_text=True) and next_link(second) is None


def test_stocktakings_show_counts_against_the_books(depot, office):
    depot.booked("I", [("MILK-1L", 43, "pc", ""), ("SOAP", 6, "pc", "")], days_ago=0, type_="V")
    html = office.get("/stocktakings").get_data(as_text=True)
    assert html.count('class="differs"') == 1
    rows = csv_rows(office.get("/stocktakings?format=csv"))
    assert [(r["product_code"], r["amount_real"], r["amount_snap"], r["amount_diff"]) for r in rows] == \
        [("MILK-1L", "43", "45", "-2"), ("SOAP", "6", "6", "0")]


def test_stocktakings_are_paged(depot, office, monkeypatch):
    from pages import common as views

    depot.booked("I", [("SOAP", 6, "pc", "")], days_ago=3, type_="V")
    depot.booked("I", [("SOAP", 7, "pc", "")], days_ago=0, type_="V", warehouse=2)
    monkeypatch.setitem(views.PER_PAGE, "stocktakings", 1)
    first = office.get("/stocktakings")
    second = office.get(next_link(first)).get_data(as_text=True)
    first = first.get_data(as_text=True)
    assert f"Main, {day(3)}" in first and "Warehouse 2, " not in first
    assert f"Warehouse 2, {day(0)}" in second and 'rel="next"' not in second


def chart_bars(html) -> dict:
    return {(month, direction): int(count) for month, direction, count in re.findall(
        r'data-month="([^"]+)" data-direction="(.)" data-count="(\d+)"', html)}


def test_movements_chart_draws_the_monthly_overview(depot, office, api):
    html = office.get("/movements").get_data(as_text=True)
    bars = chart_bars(html)
    assert len(bars) == 24  # twelve months, two directions
    overview = api.get(f"/v1/overview/monthly_movement?date_from={min(bars)[0]}-01").json["list"]
    assert {(f"{r['year']}-{r['month']:02d}", r["direction"]): r["count"] for r in overview} == \
        {key: count for key, count in bars.items() if count}
    heights = {key: float(h) for key, h in zip(bars, re.findall(r'<rect class="bar [IO]"[^>]* height="([\d.]+)"', html))}
    tallest = max(bars, key=bars.get)
    assert heights[tallest] == max(heights.values()) > 0
    rows = csv_rows(office.get("/movements?format=csv"))
    assert sum(int(r["count"]) for r in rows) == sum(bars.values()) == 4


def test_movements_from_a_date_and_at_most_ten_years(depot, office):
    assert len(chart_bars(office.get(f"/movements?date_from={day(40)}").get_data(as_text=True))) in (4, 6)
    assert office.get("/movements?date_from=2001-01-01").status_code == 422


# --- empty lists say what to do next -------------------------------------------------------

def empty_state(response) -> str:
    """The page's text that says why its list is empty, with its links' addresses kept."""
    assert response.status_code == 200, response.get_data(as_text=True)
    found = re.search(r'class="empty"[^>]*>(.*?)</(?:p|td)>', response.get_data(as_text=True), re.S)
    text = re.sub(r"<[^>]+>", "", re.sub(r'<a href="([^"]+)">', r"[\1] ", found.group(1)))
    return " ".join(html_lib.unescape(text).split())


@pytest.mark.parametrize("path, says", [
    ("/", ["No stock yet:", "[/products] Products", "[/admin/import] import a product list"]),
    ("/products", ["No products yet:", "[/products/new] add one", "[/admin/import] import a list"]),
    ("/customers", ["No customers yet:", "[/customers/new] add one", "[/admin/import] import a list"]),
    ("/orders", ["No open orders:", "POST /v1/documents/", "[/admin/import] Import", "state 0"]),
    ("/stocktakings", ["No stocktakings yet: a scanner counts a warehouse with a batch of type V"]),
    ("/documents", ["choose an earlier From date", "each time a scanner books goods in or out"]),
    ("/movements", ["choose an earlier From date", "[/movements/lines] Movement lines"]),
    ("/movements/lines", ["No movements yet:"]),
    ("/reorder-levels", ["No reorder levels yet: set one with the form below", "[/admin/import] Import"]),
    ("/admin/webhooks", ["No webhooks yet: add one with POST /v1/webhooks/"]),
])
def test_each_empty_list_says_what_to_do_next_with_its_links(admin, path, says):
    text = empty_state(admin.get(path))
    assert all(part in text for part in says), text


@pytest.mark.parametrize("path, says", [
    ("/?q=nothing-like-it", ["No stock matches:", "[/] show all stock"]),
    ("/products?q=nothing-like-it", ["No product matches “nothing-like-it”", "[/products] show every product"]),
    ("/customers?q=nothing-like-it", ["No customer matches “nothing-like-it”", "[/customers] show every customer"]),
    ("/orders?state=0", ["No orders match:", "[/orders] show every open order"]),
    ("/documents?direction=O&date_from=2000-01-01&date_to=2000-01-02",
     ["No documents from 2000-01-01 to 2000-01-02 of this warehouse and direction",
      "[/documents?date_from=2000-01-01&date_to=2000-01-02] every warehouse and direction"]),
    ("/admin/audit?who=nobody", ["No entries match:", "[/admin/audit] clear the filters"]),
])
def test_a_filter_that_matches_nothing_says_how_to_widen_it(depot, admin, path, says):
    text = empty_state(admin.get(path))
    assert all(part in text for part in says), text


def test_a_reader_is_not_offered_what_only_an_admin_may_do(office):
    for path in ("/", "/products", "/customers", "/orders", "/reorder-levels"):
        assert "/admin/import" not in empty_state(office.get(path)), path
    assert "an admin adds them here or imports a list" in empty_state(office.get("/products"))


def test_the_product_list_offers_a_new_product_and_an_import_to_an_admin(admin):
    page = admin.get("/products").get_data(as_text=True)
    assert '<a class="button" href="/products/new">New product</a>' in page
    assert '<a class="button secondary" href="/admin/import">Import a list</a>' in page


# --- an unknown page ------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/nothing", "/v2/products/", "/assets/none.css"])
def test_an_unknown_page_in_a_browser_is_an_html_404_with_a_link_home(client, path):
    response = client.get(path, headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert response.status_code in (404, 405)
    assert response.mimetype == "text/html"
    assert re.search(r'<a href="/" rel="home">', response.get_data(as_text=True))


@pytest.mark.parametrize("headers", [{"Accept": "text/html"}, {}, {"Accept": "application/json"}])
def test_under_v1_errors_stay_json_whatever_the_client_accepts(client, headers):
    response = client.get("/v1/nothing", headers=headers)
    assert response.status_code == 401 or response.status_code == 404
    assert response.mimetype == "application/json" and "error" in response.json


def test_an_unknown_path_for_a_json_client_stays_json(client):
    response = client.get("/nothing", headers={"Accept": "application/json"})
    assert response.status_code == 404 and response.json["error"]["code"] == "not_found"


@pytest.mark.parametrize("remote, proto, secure", [
    ("10.0.0.5", "https", True),  # through the trusted proxy, which the browser reached over HTTPS
    ("10.0.0.5", "http", False),
    ("10.0.0.9", "https", False),  # a header from anyone else is not believed
])
def test_the_session_cookie_is_secure_when_the_page_came_over_https(app, person, remote, proto, secure):
    app.config["TRUSTED_PROXY"] = "10.0.0.5"
    client = app.test_client()
    client.environ_base.update(REMOTE_ADDR=remote, HTTP_X_FORWARDED_PROTO=proto)
    person("read")
    signed_in = sign_in(client, "read")
    cookie = next(value for name, value in signed_in.headers.items()
                  if name == "Set-Cookie" and value.startswith("session="))
    assert ("; Secure" in cookie) is secure
