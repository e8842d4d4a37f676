"""/scan, its service worker and its help: served whole by the service, for any device's browser."""
from flask import render_template, request, send_from_directory

from page_policy import blueprint_policy
from scanner import STATIC, bp
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


@bp.get("/scan/worker.js")
def service_worker():
    """The service worker that keeps the page for offline start (its scope is /scan, one step above it)."""
    response = send_from_directory(STATIC.folder, "worker.js", mimetype="text/javascript", max_age=0)
    response.headers["Service-Worker-Allowed"] = "/scan"
    response.headers["Cache-Control"] = "no-cache"
    return response
