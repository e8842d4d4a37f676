"""/scan, its service worker and its help: served whole by the service, for any device's browser."""
import json
from pathlib import Path

from flask import make_response, render_template, request

from page_policy import blueprint_policy
from scanner import bp
from version import VERSION

# The page reaches nothing but this service; the camera and its frames are its own (blob: for a
# frame sent to the service's reader, mediastream: for the camera's picture). The camera for these
# pages alone: the office pages never ask for it. No referrer: the page's address never leaves it.
blueprint_policy(bp, {"img-src": "'self' data: blob:", "media-src": "'self' blob: mediastream:",
                      "connect-src": "'self'", "worker-src": "'self'"},
                 headers={"Permissions-Policy": "camera=(self), microphone=(), geolocation=()",
                          "Referrer-Policy": "no-referrer"})


@bp.get("/scan")
def scan_page():
    """The scanner: pairing, the four flows, the queue of batches waiting to be sent."""
    response = render_template("scanner/scan.html", version=VERSION)
    # The page is kept by the service worker; the browser's own cache must never serve an old one.
    return response, 200, {"Cache-Control": "no-cache"}


@bp.get("/scan/help")
def scan_help():
    """What the phone needs: HTTPS for the camera and for starting offline, and how to pair."""
    return render_template("scanner/help.html", version=VERSION, host=request.host)


# The line of worker.js that service_worker() fills in with the page's assets.
ASSETS_LINE = "const ASSETS = [];"


def page_assets() -> list[str]:
    """The addresses of every file in static/ but the worker itself: the page's stylesheet and modules."""
    folder = Path(bp.static_folder)
    return sorted(f"{bp.static_url_path}/{path.relative_to(folder).as_posix()}" for path in folder.rglob("*")
                  if path.is_file() and path != folder / "worker.js")


@bp.get("/scan/worker.js")
def service_worker():
    """The service worker that keeps the page for offline start (its scope is /scan, one step above it).

    The list of what it keeps is written in here, from the files themselves: a module added to
    static/ is kept with no list to keep in step, and the worker's text changes with it, so a
    device that opens the page online installs the new worker, which keeps the new module too."""
    source = (Path(bp.static_folder) / "worker.js").read_text(encoding="utf-8")
    if ASSETS_LINE not in source:
        raise RuntimeError(f"scanner/static/worker.js has no line {ASSETS_LINE!r} for the page's assets")
    response = make_response(source.replace(ASSETS_LINE, f"const ASSETS = {json.dumps(page_assets())};", 1))
    response.mimetype = "text/javascript"
    response.headers["Service-Worker-Allowed"] = "/scan"
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)
