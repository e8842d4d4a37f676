"""Text answers compressed for the clients that accept it (DESIGN 30, operations/compression.py).

Through the test client: a page, a stylesheet, a /v1 answer and its errors in each encoding the
client asks for; the whole lists of /v1 and the stock page's CSV still written as they are read
(their first compressed piece is the list's beginning, far short of its end), and the same bytes
once decompressed; a fault before the first byte still the normal JSON error.
"""
import gzip
import json
import re
import zlib

import brotli
import pytest
from backports import zstd
from sqlalchemy import event

from conftest import Scanner, sign_in
from helpers import database_gone, product
from storage.db import db

CHROMIUM = "gzip, deflate, br, zstd"  # what chromium sends, every encoding with equal weight
LOTS = 5_000  # five of routes/streaming.py's pieces of a thousand rows


def decoded(response) -> bytes:
    data = response.get_data()
    encoding = response.headers.get("Content-Encoding")
    return {None: lambda d: d, "gzip": gzip.decompress, "br": brotli.decompress,
            "zstd": zstd.decompress}[encoding](data)


def opener(encoding):
    """A decompressor fed piece by piece, as a browser reads an answer while it arrives."""
    if encoding == "zstd":
        return zstd.ZstdDecompressor().decompress
    return zlib.decompressobj(zlib.MAX_WBITS | 16).decompress  # gzip


@pytest.fixture
def many_lots(api):
    """One product received in LOTS lots: a whole stock list of LOTS rows (about 800 KB of JSON)."""
    assert api.post("/v1/products/", product("LOTTED", name="Yoghurt in lots", lot_level=1)).status_code == 201
    depot = Scanner(api)
    for start in range(0, LOTS, 1000):
        # Lots and amounts as varied as a real depot's, so compressing does not fold the list to nothing.
        depot.receive(*[("LOTTED", f"{1 + n * 7919 % 99991 / 1000:.3f}", f"L{n * 2654435761 % 2**32:08X}")
                        for n in range(start, start + 1000)])
    return depot


@pytest.mark.parametrize("accept, encoding", [(CHROMIUM, "br"), ("gzip", "gzip"), ("zstd;q=1, gzip;q=0.5", "zstd"),
                                              ("identity", None), ("", None)])
def test_a_page_is_compressed_as_the_client_accepts(office, known_products, accept, encoding):
    plain = office.get("/products")
    assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
    page = office.get("/products", headers={"Accept-Encoding": accept})
    assert page.headers.get("Content-Encoding") == encoding
    assert "Accept-Encoding" in page.headers["Vary"]
    # The page carries a fresh form token each time: the same page but for it.
    token = re.compile(rb'name="token" value="[^"]+"')
    assert token.sub(b"", decoded(page)) == token.sub(b"", plain.get_data())
    if encoding:
        assert int(page.headers["Content-Length"]) == len(page.get_data()) < len(plain.get_data()) / 2


def test_stylesheets_and_modules_are_compressed(client):
    for address in (re.search(r'href="(/assets/style\.[0-9a-f]{12}\.css)"', client.get("/login").get_data(as_text=True))
                    .group(1), re.search(r'src="(/scan/assets/app\.[0-9a-f]{12}\.js)',
                                         client.get("/scan").get_data(as_text=True)).group(1)):
        plain = client.get(address)
        for accept, encoding in ((CHROMIUM, "br"), ("gzip", "gzip"), ("zstd", "zstd")):
            answer = client.get(address, headers={"Accept-Encoding": accept})
            assert answer.headers["Content-Encoding"] == encoding, address
            assert decoded(answer) == plain.get_data()
            assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"


def test_a_json_answer_and_a_json_error_stay_json(api, known_products):
    listed = api.client.get("/v1/products/", headers={"TS-Apikey": api.key, "Accept-Encoding": CHROMIUM})
    assert listed.status_code == 200 and listed.headers["Content-Encoding"] == "br"
    assert json.loads(decoded(listed)) == api.get("/v1/products/").json
    # An error is never compressed: a scanner app that reads the body of a 4xx reads it as it is.
    missing = api.client.get("/v1/products/NOPE", headers={"TS-Apikey": api.key, "Accept-Encoding": CHROMIUM})
    assert missing.status_code == 404 and "Content-Encoding" not in missing.headers
    assert missing.json["error"]["code"] == "not_found"


@pytest.mark.parametrize("encoding", ["zstd", "gzip"])
def test_a_whole_list_is_compressed_as_it_is_written(many_lots, api, encoding):
    whole = api.post("/v1/inventory/filter", {"level": 1})
    assert whole.status_code == 200 and len(whole.json["list"]) == LOTS
    answer = api.client.open("/v1/inventory/filter", method="POST", json={"data": {"level": 1}},
                             headers={"TS-Apikey": api.key, "Accept-Encoding": CHROMIUM if encoding == "zstd"
                                      else "gzip"}, buffered=False)
    try:
        assert answer.status_code == 200 and answer.headers["Content-Encoding"] == encoding
        assert "Content-Length" not in answer.headers  # no length is known before the last row
        decompress = opener(encoding)
        pieces = [piece for piece in answer.response if piece]
    finally:
        answer.close()
    # The first piece out is the list's beginning, far short of its end: the rows after it were
    # read and compressed after it was written, not gathered first.
    first = decompress(pieces[0])
    assert whole.data.startswith(first) and len(first) < len(whole.data) / 2
    assert len(pieces) >= 3
    assert first + b"".join(decompress(piece) for piece in pieces[1:]) == whole.data


def test_the_stock_pages_csv_is_compressed_as_it_is_written(many_lots, client, person):
    person("read")
    sign_in(client, "read")
    whole = client.get("/?level=1&format=csv")
    assert whole.status_code == 200 and whole.data.count(b"\n") == LOTS + 1
    answer = client.get("/?level=1&format=csv", headers={"Accept-Encoding": CHROMIUM}, buffered=False)
    try:
        assert answer.headers["Content-Encoding"] == "zstd" and answer.mimetype == "text/csv"
        decompress = opener("zstd")
        pieces = [piece for piece in answer.response if piece]
    finally:
        answer.close()
    assert len(pieces) >= 2
    assert b"".join(decompress(piece) for piece in pieces) == whole.data


def test_a_fault_before_the_first_byte_is_the_json_error_compressed_or_not(many_lots, api, app):
    def refuse(conn, cursor, statement, parameters, context, executemany):
        if "FROM balances" in statement:
            raise database_gone(conn)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", refuse)
    try:
        answer = api.client.open("/v1/inventory/filter", method="POST", json={"data": {"level": 1}},
                                 headers={"TS-Apikey": api.key, "Accept-Encoding": CHROMIUM})
    finally:
        event.remove(engine, "before_cursor_execute", refuse)
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "5"
    assert json.loads(decoded(answer))["error"]["code"] == "unavailable"
