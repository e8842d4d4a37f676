"""/scan, its service worker and its help: served whole by the service, for any device's browser."""
import base64
import hashlib
import json

from flask import make_response, render_template, request
from flask_babel import force_locale
from markupsafe import Markup

from language import LANGUAGES, NAMES
from language.catalogue import scanner_messages, scanner_refusals
from language.choice import browser_language, depot_language
from language.formats import decimal_sign
from page_policy import blueprint_policy
from scanner import STATIC, bp
from version import VERSION

# The page's modules import each other by plain relative names ("./api.js"), which do not carry
# a module's hash: the import map sends each plain address to its hashed one (static_files.py).
# Made once, at start, from the files themselves; the page holds it inline, allowed by its hash.
IMPORT_MAP = json.dumps(STATIC.import_map(), separators=(",", ":"), sort_keys=True)
IMPORT_MAP_HASH = "'sha256-" + base64.b64encode(hashlib.sha256(IMPORT_MAP.encode()).digest()).decode() + "'"

# The page reaches nothing but this service; the camera and its frames are its own (blob: for a
# frame sent to the service's reader, mediastream: for the camera's picture). The camera for these
# pages alone: the office pages never ask for it. No referrer: the page's address never leaves it.
# Its one inline script is the import map, allowed by its hash.
blueprint_policy(bp, {"img-src": "'self' data: blob:", "media-src": "'self' blob: mediastream:",
                      "connect-src": "'self'", "worker-src": "'self'", "script-src": f"'self' {IMPORT_MAP_HASH}"},
                 headers={"Permissions-Policy": "camera=(self), microphone=(), geolocation=()",
                          "Referrer-Policy": "no-referrer"})

# The line of worker.js that names what it keeps, written in once here: every file of static/
# at its hashed address, so the worker's bytes change whenever any file does, and the browser,
# which compares them at each check, installs the new worker, which fetches the new files.
ASSETS_LINE = "const ASSETS = [];"


def _worker() -> bytes:
    source = (STATIC.folder / "worker.js").read_text(encoding="utf-8")
    if ASSETS_LINE not in source:
        raise RuntimeError(f"scanner/static/worker.js has no line {ASSETS_LINE!r} for the page's files")
    return source.replace(ASSETS_LINE, f"const ASSETS = {json.dumps(STATIC.urls())};", 1).encode()


WORKER = _worker()


# The device's own language (DESIGN 29), chosen on the scanner's home screen and kept by the
# device itself in a cookie of /scan alone (language.js): the page is drawn in it from the start.
LANGUAGE_COOKIE = "scan_language"


def device_language() -> str:
    chosen = request.cookies.get(LANGUAGE_COOKIE, "")
    return chosen if chosen in LANGUAGES else ""


def page_language() -> str:
    """The device's choice, else the depot's, else the browser's, else English."""
    return device_language() or depot_language() or browser_language() or "en"


def words_json(words: dict) -> Markup:
    """The scripts' words as JSON that may stand inside <script>: no "</" can close it."""
    return Markup(json.dumps(words, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c"))


@bp.get("/scan")
def scan_page():
    """The scanner: pairing, its flows, the queue of what waits to be sent."""
    language = page_language()
    with force_locale(language):
        page = render_template("scanner/scan.html", version=VERSION, import_map=Markup(IMPORT_MAP), language=language,
                               words=words_json(scanner_messages(language)), refusals=words_json(scanner_refusals(language)),
                               device_language=device_language(), language_names=NAMES,
                               decimal=decimal_sign(language))
    response = make_response(page)
    # The page is kept by the service worker; the browser's own cache must never serve an old one,
    # and asks again with the page's ETag: a reload costs a 304 while the release is the same.
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)


@bp.get("/scan/help")
def scan_help():
    """What the phone needs: HTTPS for the camera and for starting offline, and how to pair."""
    language = page_language()
    with force_locale(language):
        return render_template("scanner/help.html", version=VERSION, host=request.host, language=language)


@bp.get("/scan/worker.js")
def service_worker():
    """The service worker that keeps the page for offline start (its scope is /scan, one step above it)."""
    response = make_response(WORKER)
    response.mimetype = "text/javascript"
    response.headers["Service-Worker-Allowed"] = "/scan"
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)
