"""Static files under content-hashed addresses (DESIGN 30): one mechanism for the office's pages
(pages/static at /assets) and the scanner (scanner/static at /scan/assets).

Each blueprint's folder is read once, when the blueprint is made (at start, never per request):
every file is kept in memory with the first 12 hex digits of its SHA-256, and is addressed by a
name that holds them, `style.css` as `/assets/style.1f3a9c0b7e2d.css`. Such an address names
those bytes and no others, so it is answered with `Cache-Control: public, max-age=31536000,
immutable`: a browser keeps it a year and never asks again, and a release that changes the
file changes its address. `url_for("<blueprint>.static", filename="style.css")` gives the hashed
address (a url_defaults hook), so templates name files as they always did.

What an address that is not the current one gets (a page of the release before, still open in a
browser, asking for a file that has changed since; a bookmark; a tool that knows only the plain
name): the file as it is now, with `Cache-Control: no-cache` and its hash as the ETag, so it is
never kept under an address that does not name it, and is asked again cheaply (304) next time.
`/assets/style.css` (no hash) and `/assets/style.0123456789ab.css` (a hash not the file's) are
answered so. A name the folder does not hold is 404.

The scanner's ES modules import each other by plain relative names (`import ... from
"./api.js"`), which a module's own address does not carry its hash to; `import_map` gives the
page an import map from every plain module address to its hashed one, so those imports reach
hashed addresses too. `fingerprint` changes whenever any file's hash does (the scanner's service
worker carries it, so the browser installs a new worker when a release changes a file).

Imports nothing of the project (flask only), so that pages/ and scanner/ both stand on it.
"""
import hashlib
import mimetypes
import re
from pathlib import Path
from typing import NamedTuple

from flask import Response, abort, request

IMMUTABLE = "public, max-age=31536000, immutable"
NOT_THE_CURRENT_ADDRESS = "no-cache"
DIGITS = 12
_HASHED = re.compile(rf"^(?P<stem>.+)\.(?P<digest>[0-9a-f]{{{DIGITS}}})(?P<suffix>\.[^./]+)$")


class Asset(NamedTuple):
    name: str          # as the folder names it: "style.css", "app.js"
    hashed: str        # as it is addressed: "style.1f3a9c0b7e2d.css"
    digest: str
    body: bytes
    mimetype: str


def hashed_name(name: str, digest: str) -> str:
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}.{digest}.{suffix}" if dot and stem and "/" not in suffix else f"{name}.{digest}"


class StaticFiles:
    """Every file of one folder, read once, served from memory under content-hashed addresses."""

    def __init__(self, folder, url_path: str, leave_out: tuple = ()):
        self.folder = Path(folder)
        self.url_path = url_path.rstrip("/")
        self.files: dict[str, Asset] = {}
        self.by_hashed: dict[str, Asset] = {}
        for path in sorted(self.folder.rglob("*")):
            name = path.relative_to(self.folder).as_posix()
            if not path.is_file() or name in leave_out:
                continue
            body = path.read_bytes()
            digest = hashlib.sha256(body).hexdigest()[:DIGITS]
            mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
            if mimetype == "application/javascript":
                mimetype = "text/javascript"  # RFC 9239; Python 3.11 still guesses the old name
            asset = Asset(name, hashed_name(name, digest), digest, body, mimetype)
            self.files[name] = asset
            self.by_hashed[asset.hashed] = asset

    def url(self, name: str) -> str:
        """The hashed address of a file of the folder (its plain address when the folder has none such)."""
        asset = self.files.get(name)
        return f"{self.url_path}/{asset.hashed if asset else name}"

    def import_map(self) -> dict:
        """{"imports": {plain module address: hashed address}} for every module (.js) of the folder."""
        return {"imports": {f"{self.url_path}/{name}": self.url(name)
                            for name in sorted(self.files) if name.endswith(".js")}}

    def urls(self) -> list[str]:
        """Every file's hashed address."""
        return [self.url(name) for name in sorted(self.files)]

    def fingerprint(self) -> str:
        """Changes whenever any file's contents, name, or the set of files does."""
        digest = hashlib.sha256()
        for name in sorted(self.files):
            digest.update(f"{name}:{self.files[name].digest}\n".encode())
        return digest.hexdigest()[:DIGITS]

    def serve(self, filename: str) -> Response:
        asset = self.by_hashed.get(filename)
        cache = IMMUTABLE
        if asset is None:
            cache = NOT_THE_CURRENT_ADDRESS
            found = _HASHED.match(filename)
            asset = self.files.get(filename) or (
                self.files.get(found["stem"] + found["suffix"]) if found else None)
        if asset is None:
            abort(404)
        response = Response(asset.body, mimetype=asset.mimetype)
        response.headers["Cache-Control"] = cache
        response.set_etag(asset.digest)
        return response.make_conditional(request)

    def attach(self, blueprint) -> None:
        """Serve the folder as the blueprint's `static` endpoint, and have url_for give hashed addresses."""
        endpoint = f"{blueprint.name}.static"

        def static(filename):
            return self.serve(filename)

        blueprint.add_url_rule(f"{self.url_path}/<path:filename>", endpoint="static", view_func=static)

        def hashed(target, values):
            if target == endpoint and "filename" in values:
                values["filename"] = self.files[values["filename"]].hashed \
                    if values["filename"] in self.files else values["filename"]

        blueprint.url_defaults(hashed)
