"""The movement lines page (/movements/lines, pages/movements.py) through the test client: newest
first, filters, keyset pages with the total, and the download of every line as CSV and XLSX.

stock/reports.py movement_lines is tested on its own in tests/stock/test_reports.py; the page in
chromium, at 1280 and 390 px, in tests/pages/test_pages_lists_browser.py.
"""
import html as html_lib
import io
import re
from datetime import date

import pytest

from office import csv_rows, day, next_link


def lines(response) -> list[tuple[str, str, str, str]]:
    """(date, product, amount, warehouse) of each line the page shows."""
    assert response.status_code == 200, response.get_data(as_text=True)
    page = response.get_data(as_text=True)
    if 'id="movement-lines"' not in page:
        return []
    return [(when, product, amount, warehouse) for when, product, amount, warehouse in re.findall(
        r'<tr data-line="[^"]+"><td>([^<]+)</td>\s*<td><a [^>]+>([^<]+)</a></td>\s*'
        r'<td class="num[^"]*">([^<]+)</td><td>[^<]*</td>\s*<td>(?:<a [^>]+>[^<]*</a>)?</td><td>[^<]*<small>[^<]*</small></td>\s*'
        r'<td>([^<]+)</td>', page)]


def total(response) -> str:
    return re.search(r"Page \d+ of \d+ &middot; ([\d,]+) in all", response.get_data(as_text=True)).group(1)


def test_the_lines_newest_first_with_signed_amounts_and_warehouse_names(depot, office):
    assert lines(office.get("/movements/lines")) == [
        (day(1), "SOAP", "7", "Warehouse 2"), (day(1), "MILK-1L", "-5", "Main"),
        (day(2), "SOAP", "6", "Main"), (day(2), "MILK-1L", "10", "Main"),
        (day(20), "CHEESE", "3", "Main"), (day(20), "CHEESE", "2.5", "Main"), (day(20), "MILK-1L", "40", "Main")]


@pytest.mark.parametrize("query, products", [
    ("product=MILK-1L", ["MILK-1L"] * 3),
    ("warehouse=2", ["SOAP"]),
    ("product=SOAP&warehouse=1", ["SOAP"]),
    (f"date_from={day(2)}&date_to={day(2)}", ["SOAP", "MILK-1L"]),
    (f"date_to={day(3)}", ["CHEESE", "CHEESE", "MILK-1L"]),
])
def test_filters_by_product_warehouse_and_dates(depot, office, query, products):
    response = office.get("/movements/lines?" + query)
    assert [line[1] for line in lines(response)] == products
    assert total(response) == str(len(products))


def test_more_lines_than_a_page_page_by_the_next_link_with_the_total(depot, office, monkeypatch):
    from pages import common

    monkeypatch.setitem(common.PER_PAGE, "movement_lines", 3)
    every = lines(office.get("/movements/lines?page=1"))  # 3 of them
    response = office.get("/movements/lines")
    seen, pages = [], []
    for _ in range(5):  # bounded: seven lines, three a page
        assert total(response) == "7"
        pages.append(re.search(r"Page (\d+) of (\d+)", response.get_data(as_text=True)).groups())
        seen += lines(response)
        following = next_link(response)
        if following is None:
            break
        response = office.get(following)
    assert pages == [("1", "3"), ("2", "3"), ("3", "3")]
    assert seen[:3] == every and len(seen) == len(set(seen)) == 7


def test_a_booking_between_two_pages_is_neither_repeated_nor_makes_one_skipped(depot, office, monkeypatch):
    from pages import common

    monkeypatch.setitem(common.PER_PAGE, "movement_lines", 3)
    first = office.get("/movements/lines")
    before = lines(first)
    depot.booked("I", [("SOAP", 11, "pc", "")], days_ago=0)  # newer than every line shown
    depot.booked("O", [("MILK-1L", 4, "pc", "")], days_ago=5)  # among the lines still to come
    seen, response = list(before), office.get(next_link(first))
    for _ in range(5):
        seen += lines(response)
        if next_link(response) is None:
            break
        response = office.get(next_link(response))
    assert len(seen) == len(set(seen)) == 8  # the seven booked before, and the late one in its place
    assert (day(5), "MILK-1L", "-4", "Main") in seen and (day(0), "SOAP", "11", "Warehouse 2") not in seen


def test_a_person_limited_to_a_warehouse_sees_only_its_lines(depot, office_w1):
    assert {line[3] for line in lines(office_w1.get("/movements/lines"))} == {"Main"}
    assert lines(office_w1.get("/movements/lines?warehouse=2")) == []
    assert {r["id_warehouse"] for r in csv_rows(office_w1.get("/movements/lines?format=csv"))} == {"1"}


def test_each_empty_list_says_what_to_do(depot, office):
    unknown = office.get("/movements/lines?product=NO-SUCH").get_data(as_text=True)
    assert "There is no product with the code NO-SUCH" in unknown and 'href="/products?q=NO-SUCH"' in unknown
    none = office.get("/movements/lines?product=SOAP&date_to=2000-01-01").get_data(as_text=True)
    assert "No movement lines match: widen the dates" in none


def test_a_depot_without_movements_says_where_lines_come_from(office):
    assert "No movements yet: lines appear here when a scanner books goods in or out" in \
        office.get("/movements/lines").get_data(as_text=True)


@pytest.mark.parametrize("query, field", [
    (f"date_from={day(1)}&date_to={day(3)}", "date_from"),
    ("after=garbage", "after"),
    ("product=A%01B", "product"),  # no code holds a control character
    ("warehouse=x", "warehouse"),
])
def test_a_bad_parameter_is_named(office, query, field):
    response = office.get("/movements/lines?" + query)
    assert response.status_code == 422 and f"<code>{field}</code>" in response.get_data(as_text=True)


def test_the_download_gives_every_line_of_the_filter_as_the_page_lists_them(depot, office, monkeypatch):
    from pages import common

    monkeypatch.setitem(common.PER_PAGE, "movement_lines", 2)  # the download is never paged
    response = office.get("/movements/lines?format=csv&warehouse=1&page=2")
    assert "Content-Length" not in response.headers  # sent as written
    assert response.headers["Content-Disposition"] == 'attachment; filename="movement-lines.csv"'
    rows = csv_rows(response)
    assert list(rows[0]) == ["date", "ufid", "doc_number", "id_warehouse", "warehouse", "direction",
                             "product_code", "name", "lot", "date_exp", "amount", "unit"]
    assert [(r["date"], r["product_code"], r["amount"], r["warehouse"]) for r in rows] == [
        (day(1), "MILK-1L", "-5", "Main"), (day(2), "SOAP", "6", "Main"), (day(2), "MILK-1L", "10", "Main"),
        (day(20), "CHEESE", "3", "Main"), (day(20), "CHEESE", "2.5", "Main"), (day(20), "MILK-1L", "40", "Main")]
    assert {(r["ufid"][0], r["direction"]) for r in rows} == {("I", "I"), ("O", "O")}
    assert ("CHEESE", "L2", "kg", "Edam cheese") in {(r["product_code"], r["lot"], r["unit"], r["name"]) for r in rows}


def test_the_xlsx_download_is_a_workbook_of_the_same_lines(depot, office):
    from openpyxl import load_workbook

    rows = csv_rows(office.get("/movements/lines?format=csv&product=MILK-1L"))
    response = office.get("/movements/lines?format=xlsx&product=MILK-1L")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == 'attachment; filename="movement-lines.xlsx"'
    header, *cells = [[cell.value for cell in row] for row in load_workbook(io.BytesIO(response.data)).active.iter_rows()]
    assert header == list(rows[0])
    assert [(line[0].date(), line[6], line[10]) for line in cells] == \
        [(date.fromisoformat(r["date"]), r["product_code"], int(r["amount"])) for r in rows]


def test_more_lines_than_a_worksheet_holds_are_refused_as_xlsx_before_it_is_written(depot, office, monkeypatch):
    from pages import common

    monkeypatch.setattr(common, "SHEET_ROWS", 7)  # a header and six lines fit; there are seven
    response = office.get("/movements/lines?format=xlsx")
    assert response.status_code == 422 and "Too many rows for XLSX." in html_lib.unescape(
        response.get_data(as_text=True))
    assert office.get("/movements/lines?format=xlsx&warehouse=1").status_code == 200
