"""Read-only pages for the depot's office, beside the API: stock, documents, orders, counts, movements.

Rendered on the server from Jinja templates; every asset is served from
pages/static, so the pages work without the internet. They read through the
same functions as the API routes (stock/: reports.py, records.py, orders.py).

May import: stock/, storage/, models and operations.logs (KEY_NAME); never routes/.
"""
from flask import Blueprint

bp = Blueprint("pages", __name__, template_folder="templates", static_folder="static",
               static_url_path="/assets")


def register(app) -> None:
    from pages import signin, views  # noqa: F401  (their views join the blueprint)

    signin.configure(app)
    app.register_blueprint(bp)
