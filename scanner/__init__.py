"""The depot's own scanner in the browser (DESIGN 24, 25): `/scan`, a page the service serves whole.

  views.py         the page, its service worker and its help page; the page's own headers
  templates/       the page (scanner/scan.html) and its help (scanner/help.html)
  static/          plain ES modules written here, no build step, nothing from elsewhere:
                     app.js (wires the page), api.js (calls with the key), store.js (IndexedDB),
                     catalogue.js, numbers.js, queue.js (no DOM: a test may drive them alone),
                     input.js (wedge, typed, camera -> one "scanned"), camera.js, feedback.js,
                     amounts.js, flow.js (the open flow's rules), worker.js (offline start)

The page speaks only the public /v1 API with the device's key, as any scanner app does; it
needs no session and sets no cookie.

May import: version, page_policy, static_files, flask. Nothing of the rules: the page books through /v1 like any scanner,
so that a batch from a phone meets exactly the rules of a batch from any other scanner.
"""
from pathlib import Path

from flask import Blueprint

from static_files import StaticFiles

bp = Blueprint("scanner", __name__, template_folder="templates")
# The page's stylesheet and modules under content-hashed addresses, cached a year (static_files.py);
# the service worker has its own address, /scan/worker.js, and is never kept so.
STATIC = StaticFiles(Path(__file__).parent / "static", "/scan/assets", leave_out=("worker.js",))
STATIC.attach(bp)


def register(app) -> None:
    # Importing the module joins its views to the blueprint.
    from scanner import views  # noqa: F401

    app.register_blueprint(bp)
