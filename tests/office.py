"""The office pages through the test client: a small depot booked for them, and how a page's
table, links and CSV are read back (tests/pages/, tests/printing/)."""
import csv
import html as html_lib
import io
import re
from datetime import date, timedelta

from conftest import Scanner


def day(days_ago: int) -> str:
    return (date.today() - timedelta(days=days_ago)).isoformat()


def csv_rows(response) -> list[dict]:
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "text/csv"
    # UTF-8 with a byte-order mark, so that a spreadsheet reads its accents (DESIGN 19).
    assert response.data.startswith(b"\xef\xbb\xbf")
    return list(csv.DictReader(io.StringIO(response.data.decode("utf-8-sig"))))


class Depot(Scanner):
    """Books batches (items: code, amount, unit, lot) for the pages to show."""

    def booked(self, direction, items, days_ago=0, type_="R", **kw):
        self.book(type_, direction, [{"product_code": code, "amount": str(amount), "unit": unit, "lot": lot}
                                     for code, amount, unit, lot in items], date=day(days_ago), **kw)


def next_link(response) -> str | None:
    """Where the page's Next link leads (None: it has none)."""
    found = re.search(r'<a href="([^"]+)" rel="next"', response.get_data(as_text=True))
    return html_lib.unescape(found.group(1)) if found else None


def first_link(response) -> str:
    return html_lib.unescape(re.search(r'<a href="([^"]+)" rel="first"', response.get_data(as_text=True)).group(1))


def stock_rows(response) -> list[list[str]]:
    html = response.get_data(as_text=True)
    if 'id="stock"' not in html:  # no table: the page says what to do instead
        return []
    body = html[html.index("<tbody>"):html.index("</tbody>")]
    # A cell's text without the link it may hold (a lot links to its story).
    return [[re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", body, re.S) if 'class="empty"' not in row]
