"""What a browser may do with an answer of this service (DESIGN 26), set in one place for every answer.

Every answer that is not JSON (the pages, their error and 404 pages, downloads, printable paper,
/docs, the assets) carries the Content-Security-Policy below with its companions; every answer,
JSON too, carries `X-Content-Type-Options: nosniff`. A view or a blueprint that needs another
policy states it where it is written, and only there:

    @bp.get("/scan")
    @content_policy({"media-src": "'self' blob:", "worker-src": "'self'"},
                    headers={"Permissions-Policy": "camera=(self)"})
    def scan_page(): ...

    blueprint_policy(swagger_blueprint, {"script-src": "'self' 'sha256-...'"})

Each replaces or adds directives of POLICY (a value None leaves one out) and headers beside it.
An answer that set a header itself keeps it.

Caching (DESIGN 30): every answer that does not say otherwise is `Cache-Control: no-store`: the
pages, their downloads and every /v1 answer hold the depot's stock as it is now, for a signed-in
person or a key, so nothing of them is kept on the disk of a shared office PC after sign-out, nor
by anything between the browser and the service. `no-cache` would keep them to ask again, but a
page has no validator worth asking with (each one carries a fresh form token), so it would save
no byte. The static files say their own (static_files.py: a year, immutable, under hashed
addresses); the scanner's page and its service worker say `no-cache` (scanner/views.py), since
the worker keeps the page for offline start itself. Imports nothing of the project (flask only), so
that routes/ and pages/ may both state their policies here; app.py registers `secure`.
"""
from flask import current_app, request

# Everything from this service, nothing inline, no plugin, no <base>, no framing, forms posted
# only back here: the pages need nothing else (pages/ has no script; the chart is SVG).
POLICY = {
    "default-src": "'self'",
    "img-src": "'self' data:",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
    "object-src": "'none'",
    "base-uri": "'none'",
}
HEADERS = {
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
    # No page needs the camera or the microphone; a page that does (a scanner) says so itself.
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
STATED = "page_policy.blueprints"
NOT_KEPT = "no-store"


class Policy:
    """A Content-Security-Policy and the headers beside it, written out once."""

    def __init__(self, directives: dict | None = None, headers: dict | None = None):
        merged = {**POLICY, **(directives or {})}
        self.csp = "; ".join(f"{name} {value}" for name, value in merged.items() if value is not None)
        self.headers = {name: value for name, value in {**HEADERS, **(headers or {})}.items() if value is not None}


DEFAULT = Policy()


def content_policy(directives: dict | None = None, headers: dict | None = None):
    """A view's own policy (a decorator; functools.wraps carries it through the view's other decorators)."""
    stated = Policy(directives, headers)

    def decorate(view):
        view.content_policy = stated
        return view

    return decorate


def blueprint_policy(blueprint, directives: dict | None = None, headers: dict | None = None) -> None:
    """The policy of every view of a blueprint (ours, or a package's such as flask-swagger-ui's)."""
    stated = Policy(directives, headers)
    blueprint.record_once(lambda state: state.app.extensions.setdefault(STATED, {}).__setitem__(
        blueprint.name, stated))


def secure(response):
    """After every request (app.py): the headers, unless the answer set its own."""
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Cache-Control", NOT_KEPT)
    if response.mimetype == "application/json":
        return response
    stated = _stated()
    response.headers.setdefault("Content-Security-Policy", stated.csp)
    for name, value in stated.headers.items():
        response.headers.setdefault(name, value)
    return response


def _stated() -> Policy:
    view = current_app.view_functions.get(request.endpoint) if request.endpoint else None
    found = getattr(view, "content_policy", None)
    if found is None and request.blueprint:
        found = current_app.extensions.get(STATED, {}).get(request.blueprint)
    return found or DEFAULT
