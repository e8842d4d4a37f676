"""The office's pages, beside the API: one module per concern, one blueprint for them all.

Rendered on the server from Jinja templates; every asset is served from
pages/static, so the pages work without the internet. They read and change through the
same functions as the API routes (stock/, and the rooms beside it: transfer/, printing/,
background/), so a page and an API call can never disagree.

  common.py        what every page shares: headers, error pages, paging, CSV answers
  signin.py        signing in, the session, the form token
  stock.py, documents.py, orders.py, stocktakings.py, movements.py   the pages of each concern
  imports.py       /admin/import: a file's dry run, then its import; the exports of each kind
  params.py        each page's query parameters, as marshmallow schemas
  chart.py         SVG charts drawn on the server

May import: stock/, transfer/, printing/, background/, schemas/, storage/, models, identity;
never routes/ or operations/.
"""
from flask import Blueprint

bp = Blueprint("pages", __name__, template_folder="templates", static_folder="static",
               static_url_path="/assets")


def register(app) -> None:
    # Importing the modules joins their views to the blueprint.
    from pages import common, documents, imports, movements, orders, signin, stock, stocktakings  # noqa: F401

    signin.configure(app)
    app.register_blueprint(bp)
