"""The office's pages, beside the API: one module per concern, one blueprint for them all.

Rendered on the server from Jinja templates; every asset is served from
pages/static, so the pages work without the internet. They read and change through the
same functions as the API routes (stock/, and the rooms beside it: transfer/, printing/,
background/), so a page and an API call can never disagree.

  common.py        what every page shares: headers, error pages, paging, CSV answers
  clock.py         times in the depot's time zone (WAREHOUSE_TIME_ZONE)
  signin.py        signing in, the session, the form token
  stock.py, documents.py, orders.py, stocktakings.py, movements.py, products.py, customers.py
                   the pages of each concern
  alerts.py (and the navigation's alert count), picking.py (pick lists), webhooks.py (/admin/webhooks)
  lots.py          a lot's story and its recall list (/lots/<product>/<lot>), write-offs (/write-offs)
  reorder_levels.py  /reorder-levels: seen by all, set and removed by an admin
  admin.py         the pages under /admin/ (role admin): people, keys and pairing, the audit trail
  admin_warehouses.py, admin_backups.py, admin_depot.py   /admin/warehouses, /admin/backups, /admin/depot
                   (the depot's profile the paper prints)
  locations.py     a warehouse's locations (list, add, edit, hold, deactivate, labels) and what lies on one
  moves.py         the Move form: stock between locations and warehouses, once however often it is sent
  imports.py       /admin/import: a file's dry run, then its import; the exports of each kind
  settings.py      /settings: a person's own language
  params.py        each page's query parameters and forms, as marshmallow schemas
  chart.py         SVG charts drawn on the server
  printing.py      labels (PDF, ZPL), delivery notes and count sheets, drawn by printing/

May import: stock/, transfer/, printing/, background/, safekeeping/, language/, schemas/, storage/, models, identity,
static_files;
never routes/ or operations/.
"""
from pathlib import Path

from flask import Blueprint

from static_files import StaticFiles

bp = Blueprint("pages", __name__, template_folder="templates")
# The stylesheets (and the paper's print script) under content-hashed addresses, cached a year
# (static_files.py): url_for("pages.static", filename="style.css") gives the hashed address.
STATIC = StaticFiles(Path(__file__).parent / "static", "/assets")
STATIC.attach(bp)


def register(app) -> None:
    # Importing the modules joins their views to the blueprint.
    from pages import (admin, admin_backups, admin_depot, admin_warehouses, alerts, clock, common,  # noqa: F401
                       customers, documents, imports, locations, lots, moves, movements, orders, picking,
                       printing, products, reorder_levels, settings, signin, stock, stocktakings, webhooks)

    signin.configure(app)
    app.register_blueprint(bp)


def wants_a_page(request) -> bool:
    """Whether an error outside every view (an unknown path) is answered as an HTML page.

    Under /v1, and for any caller that sends a key or prefers JSON, errors stay JSON
    (DESIGN §3): a scanner that mistypes a path must still read the error body.
    """
    path = request.path
    if path.startswith("/v1/") or path in ("/v1", "/health") or "TS-Apikey" in request.headers:
        return False
    accept = request.accept_mimetypes
    return bool(accept) and accept.best_match(["text/html", "application/json"]) == "text/html"


def error_page(error):
    """The HTML page of an HTTP error (404 and the like), with a link home."""
    from pages.common import page_http_error
    return page_http_error(error)
