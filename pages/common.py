"""What every page shares: amounts in templates, headers, error pages, paging and file answers.

The page modules beside this one (stock, documents, orders, stocktakings, movements) each hold
the pages of one concern; they import from here, never from each other.
"""
from datetime import date

from flask import Response, render_template, request, stream_with_context, url_for
from werkzeug.exceptions import HTTPException

from pages import bp
from pages.signin import form_token
from stock.errors import ServiceError
from stock.quantities import from_milli
from transfer import exporting

PER_PAGE = {"stock": 100, "documents": 25, "orders": 50, "stocktakings": 10}
STATES = {0: "closed", 1: "imported", 2: "being processed", 3: "batch exists"}
DIRECTIONS = {"I": "goods-in", "O": "goods-out"}


@bp.app_template_filter("amount")
def amount(milli: int) -> str:
    return str(from_milli(milli))


@bp.app_context_processor
def page_globals():
    return {"states": STATES, "directions": DIRECTIONS, "csv_url": csv_url, "form_token": form_token}


@bp.after_request
def page_headers(response):
    # Everything comes from this service: no other source may load or be posted to.
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


@bp.errorhandler(ServiceError)
def page_error(error: ServiceError):
    return render_template("error.html", status=error.status, message=error.message,
                           fields=error.fields or {}), error.status


@bp.errorhandler(HTTPException)
def page_http_error(error: HTTPException):
    return render_template("error.html", status=error.code, message=error.description, fields={}), error.code


class Pager:
    """Previous and next links of a list page; `more` says whether a next page exists."""

    def __init__(self, page: int, size: int, rows: list):
        self.page, self.size = page, size
        self.more = len(rows) > size
        self.rows = rows[:size]

    @staticmethod
    def fetch(page: int, size: int) -> dict:
        """offset and limit for the read function: one row more than shown, to know of a next page."""
        return {"offset": (page - 1) * size, "limit": size + 1}

    def url(self, page: int) -> str:
        return url_for(request.endpoint, **{**request.args.to_dict(), "page": page})


def csv_url(format: str = "csv") -> str:
    """This page as a file to download (every row, no paging): csv or xlsx."""
    return url_for(request.endpoint, **{**request.args.to_dict(), "format": format, "page": None})


def csv_response(name: str, header: list[str], rows) -> Response:
    """The rows as a download in the format the address asks for (?format=csv or xlsx).

    Written as it is sent (transfer/exporting.py): CSV is UTF-8 with a byte-order mark; XLSX
    has numbers as numbers, dates as dates and a bold frozen header row. Text that begins
    like a formula never runs as one.
    """
    format = request.args.get("format", "csv")
    media, filename, pieces = exporting.export(name, header, rows, format if format in exporting.FORMATS else "csv")
    return Response(stream_with_context(pieces), content_type=media,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


file_response = csv_response


def day(text: str):
    """A YYYY-MM-DD text as a date (a date cell in XLSX); "" stays ""."""
    return date.fromisoformat(text) if text else ""


def warehouses(query: dict) -> list[int]:
    return [] if query["warehouse"] is None else [query["warehouse"]]


