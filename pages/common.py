"""What every page shares: amounts in templates, headers, error pages, paging and file answers.

The page modules beside this one (stock, documents, orders, stocktakings, movements) each hold
the pages of one concern; they import from here, never from each other.
"""
import base64
import json
from datetime import date

from flask import Response, abort, current_app, g, render_template, request, stream_with_context, url_for
from flask_babel import force_locale, gettext as _, lazy_gettext as _l, pgettext
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from identity.client import client_address
from language import LANGUAGES, NAMES
from language.catalogue import translated, translated_fields
from language.choice import chosen, current, depot_language
from language.formats import amount_text, count_text, csv_convention

from pages import bp
from pages.signin import form_token, signed_in_caller
from stock.audit import Actor
from stock.errors import Invalid, ServiceError, say
from stock import warehouses as warehouse_records
from stock.quantities import from_milli
from storage.db import HandedOver, db
from transfer import exporting
from transfer.xlsx_format import SHEET_ROWS, TooLongForASheet

PER_PAGE = {"stock": 100, "documents": 25, "orders": 50, "stocktakings": 10, "products": 100,
            "customers": 100, "movement_lines": 100, "reorder_levels": 100,
            "alerts": 100}
STATES = {0: _l("closed"), 1: _l("imported"), 2: _l("being processed"), 3: _l("batch exists")}
DIRECTIONS = {"I": _l("goods-in"), "O": _l("goods-out")}


@bp.app_template_filter("amount")
def amount(milli: int) -> str:
    """Thousandths as the page's language writes them: 1234.5 (en), 1.234,5 (sl, de)."""
    return amount_text(from_milli(milli), current())


@bp.app_template_filter("number")
def number(count: int) -> str:
    """A count as the page's language groups it: 12,345 (en), 12.345 (sl, de)."""
    return count_text(count, current())


@bp.app_template_filter("packages")
def packages_text(counted: dict | None, base_unit: str) -> str:
    """stock/packages.py in_packages' answer as people say it: "16 crate + 3 pc" ("" for none)."""
    if not counted:
        return ""
    rest = counted["rest_milli"]
    text = f"{counted['count']} {counted['unit']}"
    if rest:
        text += f" {'+' if rest > 0 else '-'} {amount_text(from_milli(abs(rest)), current())} {base_unit}"
    return text


def warehouse_names() -> dict[int, str]:
    """{id: name} of the warehouses the signed-in person sees (their pickers offer those alone),
    read once per page."""
    if "warehouse_names" not in g:
        caller = getattr(g, "caller", None)
        g.warehouse_names = {number: name for number, name in warehouse_records.names(db.session).items()
                             if caller is None or caller.sees(number)}
    return g.warehouse_names


@bp.app_template_filter("warehouse")
def warehouse_name(id_warehouse: int) -> str:
    """A warehouse as people know it: by its name (DESIGN 17), its number only if it has none."""
    return warehouse_names().get(id_warehouse) or _("Warehouse %(number)s", number=id_warehouse)


def warehouse_namer():
    """warehouse_name for a download's every row: the names read once, and no look-up of the
    request's globals per row (a stock list by lot is hundreds of thousands of rows)."""
    names, unnamed = warehouse_names(), _("Warehouse %(number)s", number="{}")
    return lambda id_warehouse: names.get(id_warehouse) or unnamed.format(id_warehouse)


@bp.app_context_processor
def page_globals():
    return {"states": STATES, "directions": DIRECTIONS, "csv_url": csv_url, "form_token": form_token,
            "warehouse_names": warehouse_names, "field_errors": field_errors, "language": current,
            "language_names": NAMES, "other_csv": other_csv}


@bp.app_template_filter("write_off_reason")
def write_off_reason(reason: str) -> str:
    """A write-off's reason (stock/write_offs.py REASONS) in words of the page's language; the API
    and the CSV keep the code. A reason of its own context: "expired" of a key is another word in sl."""
    words = {"expired": pgettext("write-off reason", "expired"), "damaged": pgettext("write-off reason", "damaged"),
             "lost": pgettext("write-off reason", "lost"), "sample": pgettext("write-off reason", "sample"),
             "other": pgettext("write-off reason", "other")}
    return words.get(reason, reason)


@bp.app_template_filter("translated")
def translated_filter(message) -> str:
    """A rule's or a schema's message in the page's language (language/catalogue.py)."""
    return translated(message)


@bp.errorhandler(ServiceError)
def page_error(error: ServiceError):
    # A page refused for its address's parameters (a range the wrong way round) leads back to
    # the same page as it opens without them, where the form is.
    again = request.path if request.method == "GET" and request.args and request.path != url_for("pages.stock") else None
    return render_template("error.html", status=error.status, message=translated(error.message),
                           fields=translated_fields(error.fields or {}), again=again), error.status


@bp.errorhandler(HTTPException)
def page_http_error(error: HTTPException):
    if g.get("caller") is None and "language" not in g:
        # An address no view answers: the error page still speaks the signed-in person's language.
        caller = signed_in_caller()
        g.language = caller.language if caller is not None else ""
    return render_template("error.html", status=error.code, message=translated(error.description), fields={}), error.code


def paper_language():
    """Paper speaks the depot's language (DESIGN 29), or the one chosen on the paper itself
    (?language=sl): a delivery note goes to a customer, whatever the office reads."""
    asked = request.args.get("language", "")
    return force_locale(asked if asked in LANGUAGES else depot_language() or chosen())


class Pager:
    """One page of a list read by keyset: the rows after the last one of the page before (the
    `after` parameter), how many rows the list has in all, and the links to the next page and
    the first. A late page costs what the first does: no OFFSET reads the rows before it.

    `key` gives a row's place in the list's order; the next link carries that of the last row
    shown. `page` is the number shown ("page 3 of 40"), carried along by the links.
    """

    def __init__(self, query: dict, size: int, rows: list, total: int, key):
        self.page, self.size, self.total = query["page"], size, total
        self.more = len(rows) > size
        self.rows = rows[:size]
        self.pages = max(1, -(-total // size))
        self.first = query["after"] is None
        self._next = encode_key(key(self.rows[-1])) if self.more else None

    @staticmethod
    def fetch(query: dict, size: int) -> dict:
        """after and limit for the read function: one row more than shown, to know of a next page."""
        return {"after": query["after"], "limit": size + 1}

    def next_url(self) -> str:
        return url_for(request.endpoint, **{**request.args.to_dict(), "after": self._next, "page": self.page + 1})

    def first_url(self) -> str:
        return url_for(request.endpoint, **{**request.args.to_dict(), "after": None, "page": None})


def encode_key(values) -> str:
    """A row's place in its list, as the `after` parameter carries it (pages/params.py Keyset reads it)."""
    text = json.dumps([value.isoformat() if isinstance(value, date) else value for value in values],
                      separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def csv_url(format: str = "csv") -> str:
    """This page as a file to download (every row, no paging): csv or xlsx."""
    return url_for(request.endpoint, **{**request.args.to_dict(), "format": format, "page": None, "after": None})


CSV_FORMS = {"csv-comma": (",", False), "csv-semicolon": (";", True)}


def download_format() -> tuple[str, str, bool]:
    """(csv or xlsx, a CSV's separator, decimal comma or not) of ?format=: csv as the page's
    language writes it, csv-comma and csv-semicolon the other form (DESIGN 29)."""
    format = request.args.get("format", "csv")
    if format in CSV_FORMS:
        return ("csv", *CSV_FORMS[format])
    return ("xlsx" if format == "xlsx" else "csv", *csv_convention(current()))


def other_csv() -> tuple[str, str]:
    """The other CSV form than the language's: (its ?format=, its label)."""
    if csv_convention(current())[1]:
        return "csv-comma", _("CSV with commas")
    return "csv-semicolon", _("CSV with semicolons")


def csv_response(name: str, header: list[str], rows, count=None) -> Response:
    """The rows as a download in the format the address asks for (?format=csv or xlsx).

    Written as it is sent (transfer/exporting.py): CSV is UTF-8 with a byte-order mark; XLSX
    has numbers as numbers, dates as dates and a bold frozen header row. Text that begins
    like a formula never runs as one. More rows than a worksheet holds are refused as XLSX:
    `count` (how many rows there are, asked only for XLSX) refuses a long list before its
    workbook is written; without it the workbook stops at the limit.
    """
    format, separator, comma = download_format()
    try:
        if format == "xlsx" and count is not None and count() >= SHEET_ROWS:
            raise TooLongForASheet(SHEET_ROWS)
        media, filename, pieces = exporting.export(name, header, rows, format, separator, comma)
    except BaseException as error:
        # Rows left unread close their cursor now, on its connection: the error's traceback
        # holds them, and the garbage collector would close it after the connection went back.
        if hasattr(rows, "close"):
            rows.close()
        if isinstance(error, TooLongForASheet):
            raise Invalid(say("%(error)s Choose fewer rows, or CSV.", error=error.args[0]), {"format": [say("Too many rows for XLSX.")]}) from None
        raise
    # The rows may be read from a cursor as they are written (export read the first): the answer
    # takes the request's session over, and its snapshot, until the last row.
    return Response(HandedOver(stream_with_context(pieces), pieces), content_type=media,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def file_answer(body: bytes | str, mimetype: str, name: str) -> Response:
    """Printed labels as the answer (pages/printing.py, pages/locations.py), never kept by a cache."""
    # A PDF opens in the browser, whose print button sends it to the label printer; ZPL is a file
    # to send to a Zebra as it is (docs/printing.md), so it is saved.
    disposition = "inline" if mimetype == "application/pdf" else "attachment"
    return Response(body, mimetype=mimetype, headers={
        "Content-Disposition": f'{disposition}; filename="{name}"', "Cache-Control": "no-store"})


def safe_file_name(text: str) -> str:
    """A file name for the download: letters, digits, - and _ of the code; the rest becomes _."""
    return "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-_") else "_" for ch in text)[:60] or "label"


def day(text: str):
    """A YYYY-MM-DD text as a date (a date cell in XLSX); "" stays ""."""
    return date.fromisoformat(text) if text else ""


def warehouses(query: dict) -> list[int]:
    return [] if query["warehouse"] is None else [query["warehouse"]]




def page_actor() -> Actor:
    """Who changes something from a page, for the audit trail: the signed-in name and the client."""
    return Actor.of(g.caller, client_address(request.environ, current_app.config.get("TRUSTED_PROXY")))


def require_admin() -> None:
    """Pages that change master data or orders need role admin, as the API does."""
    if not g.caller.has_role("admin"):
        abort(403, "Only an admin may change this.")


def field_errors(error: ServiceError | ValidationError) -> dict:
    """A rule's or a schema's complaints by form field: {field: "message"}, packaging rows as
    {"packaging": {row index: {field: "message"}}} or {"packaging": "message"}."""
    if isinstance(error, ValidationError):
        messages = error.messages
    else:  # a rule names the fields of the API's body under "data", or those of a form as they are
        messages = (error.fields or {}).get("data", error.fields or {})
    if isinstance(error, ServiceError) and not messages:
        return {"": translated(error.message)}
    return {name: _flat(translated_fields(problem)) for name, problem in messages.items()}


def _flat(problem):
    if isinstance(problem, dict):
        return {key if not str(key).isdigit() else int(key): _flat(inner) for key, inner in problem.items()}
    if isinstance(problem, list):
        return " ".join(str(p) for p in problem)
    return str(problem)
