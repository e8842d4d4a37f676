"""The depot's own scanner in the browser (DESIGN 24, 25): `/scan`, a page the service serves whole.

  views.py         the page, its service worker and its help page; the page's own headers
  templates/       the page (scanner/scan.html) and its help (scanner/help.html)
  static/          plain ES modules written here, no build step, nothing from elsewhere; each
                   imports only those listed below it, never in a circle (docs/scanner.md):
    app.js           the page module: wires the others to the page, offers the flows, starts it
    receive.js, pick.js, ship.js, count.js, move.js, write_off.js, returns.js   one per flow: its screen,
                     what it does its own way
    flow_screen.js   what a flow's module is, and what every flow does unless it says otherwise
    booking.js       the open flow opened from its home button, booked onto the queue, or left
    places.js        a location scanned or typed: where what follows goes, a move's From and To
    reason.js        a write-off's or a return's field Reason: its choices in words, asked at Book
    scanning.js      what a scan does in a flow: resolved, checked, its lot asked, added, told
    quantity.js      the Quantity field and its keypad; a tap on a line highlights it
    attention.js     a refused batch's buttons: send again, edit, delete
    data.js          the catalogue, warehouses, locations and open orders kept for offline work, refreshed
    sending.js       the queue sent from this tab, one round at a time
    pairing.js       the key: from the pairing QR's address or pasted, unpaired, refused
    show.js          which screen shows, drawn whole from the state
    lines.js         the open flow drawn: the last scan's big line, the lines, what the order has left
    status.js        the bar's online / offline / not paired, and the queue's list
    viewfinder.js    the Camera button: camera.js opened and closed, and why it cannot open
    screen.js        small parts: an element by id, the notice, a question, a choice, the scan's focus
    state.js         what the page holds while open, one object shared; the flows it offers
    input.js         wedge, typed, camera -> one "scanned"
    camera.js, feedback.js   the camera as a scanner; tones and vibration
    queue.js, numbers.js, catalogue.js, store.js, api.js   the queue and its one sender, blocks of
                     batch numbers, the catalogue, IndexedDB, calls with the key (no DOM: a test
                     may drive them alone)
    lot_flows.js     a write-off's and a return's reasons and bodies (no DOM)
    flow.js, locations.js   a flow's rules (what a scan adds, the batches it books); locations on the
                     device (a code looked up, the pick plan followed, a move's body) (no DOM)
    language.js      the device's own language, kept in a cookie of /scan, the page drawn again in it
    words.js         the page's words in its language, t("..."), from the catalogues the page carries;
                     numbers and dates as the pages write them (DESIGN 29)
    amounts.js       amounts as whole thousandths, as the API writes and takes them (no DOM)
    worker.js        the service worker (offline start): keeps every file of static/, listed by
                     views.py as it serves it

The page speaks only the public /v1 API with the device's key, as any scanner app does; it
needs no session, and the service sets no cookie (the device keeps its language in one of its own).
The page is drawn in the device's language, else the depot's, else the browser's (language/).

May import: version, page_policy, static_files, language, flask. Nothing of the rules: the page books through /v1 like any scanner,
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
