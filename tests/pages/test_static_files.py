"""Static files under content-hashed addresses, and what every other answer may be kept as
(DESIGN 30; static_files.py, page_policy.py).

Through the test client: each file of pages/static and scanner/static at the address its
contents name, kept a year; the plain name, a stale hash and an unknown name; the mechanism on
a folder of its own (a changed file changes its address, the import map and the fingerprint);
pages, downloads and /v1 answers not kept.
"""
import base64
import hashlib
import json
import re
from pathlib import Path

import pytest

import pages
import scanner
from static_files import IMMUTABLE, StaticFiles

REPO = Path(__file__).resolve().parents[2]
HTML = {"Accept": "text/html"}


@pytest.mark.parametrize("folder, url_path, leave_out", [("pages/static", "/assets", ()),
                                                         ("scanner/static", "/scan/assets", ("worker.js",))])
def test_every_file_is_served_at_the_address_its_contents_name(client, folder, url_path, leave_out):
    files = sorted(path for path in (REPO / folder).iterdir() if path.is_file() and path.name not in leave_out)
    assert files
    for path in files:
        body = path.read_bytes()
        digest = hashlib.sha256(body).hexdigest()[:12]
        stem, suffix = path.name.rsplit(".", 1)
        answer = client.get(f"{url_path}/{stem}.{digest}.{suffix}")
        assert answer.status_code == 200, path
        assert answer.data == body
        assert answer.headers["Cache-Control"] == IMMUTABLE == "public, max-age=31536000, immutable"


def test_the_pages_link_the_hashed_addresses(office, client):
    linked = re.findall(r'(?:href|src)="(/(?:scan/)?assets/[^"]+)"', office.get("/").get_data(as_text=True)
                        + client.get("/scan").get_data(as_text=True))
    assert {address.split("/")[-1].split(".")[0] for address in linked} >= {"style", "alerts", "scan", "app"}
    for address in linked:
        assert re.fullmatch(r"/(scan/)?assets/[\w-]+\.[0-9a-f]{12}\.\w+", address), address
        assert client.get(address).headers["Cache-Control"] == IMMUTABLE


def test_a_plain_name_and_a_stale_hash_get_the_file_as_it_is_now_never_kept(client):
    now = (REPO / "pages/static/style.css").read_bytes()
    digest = hashlib.sha256(now).hexdigest()[:12]
    for address in ("/assets/style.css", "/assets/style.0123456789ab.css"):
        answer = client.get(address)
        assert answer.status_code == 200 and answer.data == now
        assert answer.headers["Cache-Control"] == "no-cache"
        assert answer.headers["ETag"] == f'"{digest}"'
        again = client.get(address, headers={"If-None-Match": answer.headers["ETag"]})
        assert again.status_code == 304 and again.data == b""
    assert client.get("/assets/nothing.css").status_code == 404
    assert client.get("/assets/nothing.0123456789ab.css").status_code == 404
    # The service worker has its own address and is never kept a year.
    assert client.get("/scan/assets/worker.js").status_code == 404


def test_a_changed_file_changes_its_address_the_import_map_and_the_fingerprint(tmp_path):
    (tmp_path / "app.js").write_text('import { call } from "./api.js";\n')
    (tmp_path / "api.js").write_text("export function call() {}\n")
    (tmp_path / "scan.css").write_text("body { margin: 0 }\n")
    before = StaticFiles(tmp_path, "/scan/assets")
    assert before.import_map() == {"imports": {"/scan/assets/api.js": before.url("api.js"),
                                               "/scan/assets/app.js": before.url("app.js")}}
    (tmp_path / "api.js").write_text("export function call() { return 1; }\n")
    after = StaticFiles(tmp_path, "/scan/assets")
    assert after.url("api.js") != before.url("api.js") and after.url("app.js") == before.url("app.js")
    assert after.fingerprint() != before.fingerprint()
    assert after.import_map()["imports"]["/scan/assets/api.js"] == after.url("api.js")
    (tmp_path / "more.js").write_text("export const more = 1;\n")
    assert StaticFiles(tmp_path, "/scan/assets").fingerprint() != after.fingerprint()


def test_both_blueprints_hash_their_files_once_at_start():
    # One mechanism, made as each blueprint is: nothing is read or hashed per request.
    assert isinstance(pages.STATIC, StaticFiles) and isinstance(scanner.STATIC, StaticFiles)
    assert pages.STATIC.files and "worker.js" not in scanner.STATIC.files


@pytest.mark.parametrize("path", ["/", "/products", "/?format=csv", "/no/such/page", "/login"])
def test_pages_and_their_downloads_are_not_kept(admin, path):
    answer = admin.get(path, headers=HTML)
    answer.close()
    assert answer.headers["Cache-Control"] == "no-store"


def test_api_answers_and_errors_are_not_kept(api, known_products):
    for answer in (api.get("/v1/products/"), api.get("/v1/products/NOPE"), api.client.get("/health"),
                   api.client.get("/v1/products/")):
        assert answer.headers["Cache-Control"] == "no-store", answer.request.path


def test_the_scanner_page_is_asked_again_each_time(client):
    # Its service worker keeps it for offline start; the browser's own cache must not serve an old one.
    assert client.get("/scan").headers["Cache-Control"] == "no-cache"
    assert client.get("/scan/worker.js").headers["Cache-Control"] == "no-cache"


def test_the_scanner_page_maps_every_module_to_its_hashed_address_allowed_by_its_hash(client):
    page = client.get("/scan")
    html = page.get_data(as_text=True)
    text = re.search(r'<script type="importmap">(.*?)</script>', html, re.S).group(1)
    modules = sorted(path.name for path in (REPO / "scanner/static").iterdir()
                     if path.suffix == ".js" and path.name != "worker.js")
    imports = json.loads(text)["imports"]
    assert sorted(imports) == [f"/scan/assets/{name}" for name in modules]  # from the files, every one
    for plain, hashed in imports.items():
        assert client.get(hashed).data == client.get(plain).data
        assert client.get(hashed).headers["Cache-Control"] == IMMUTABLE
    # The map is the page's one inline script, allowed by its hash and nothing wider.
    allowed = dict(part.strip().split(" ", 1) for part in page.headers["Content-Security-Policy"].split(";"))
    digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
    assert allowed["script-src"] == f"'self' 'sha256-{digest}'"


def test_the_service_worker_names_every_file_at_its_hashed_address(client):
    worker = client.get("/scan/worker.js").get_data(as_text=True)
    named = json.loads(re.search(r"const ASSETS = (\[.*?\]);", worker).group(1))
    assert named == scanner.STATIC.urls() and len(named) == len(scanner.STATIC.files)
    assert all(re.fullmatch(r"/scan/assets/[\w-]+\.[0-9a-f]{12}\.\w+", address) for address in named)
