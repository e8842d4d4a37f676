"""Scenario v: a page in Slovenian against the same page in English (DESIGN 29, issue 41).

The stock page of 200 products and the documents page, signed in, asked in turns with
Accept-Language sl and en (the person and the depot choose none, so the browser's decides). The
catalogue is read once at start; what a page in sl adds is each message looked up and each amount
and date written by Babel. Goal: at most 1.1x English.
"""
import time

import server
from load import batch_body, batch_lines, create_products, day, encode
from report import Row
from scenarios import _expect, _page_session

V_PRODUCTS = 200
V_REPEATS, V_TIME_LIMIT_S = 30, 120
GOAL, FLOOR = 1.1, 1.25
PATHS = ("/?level=0", "/documents")


def scenario_v(ctx):
    """The stock and documents pages in sl vs en: ratio of median times."""
    what = "v. pages in Slovenian vs English (stock, documents)"
    if not ctx.has_service:
        ctx.add(Row(what, "ms", None, None, GOAL, FLOOR, False))
        return
    with ctx.service("v") as svc, server.Client(svc.port, ctx.key) as api:
        create_products(api, V_PRODUCTS)
        lines = batch_lines(V_PRODUCTS, V_PRODUCTS, 0)
        _expect(*api.request("POST", "/v1/batches/", encode(batch_body(1, "I", day(0), lines))), 201, "goods-in")
        cookie = _page_session(svc)
        deadline = time.monotonic() + V_TIME_LIMIT_S
        times = {"sl": [], "en": []}
        with server.Client(svc.port) as pages:
            for language in times:  # warm-up: the first page of each loads its catalogue
                pages.headers = {"Cookie": cookie, "Accept-Language": language}
                for path in PATHS:
                    status, data = pages.request("GET", path)
                    _expect(status, data, 200, f"GET {path} in {language}")
                    if language == "sl" and path == PATHS[0]:
                        if b'<html lang="sl">' not in data:
                            raise RuntimeError("the stock page did not speak Slovenian")
            while min(len(t) for t in times.values()) < V_REPEATS and time.monotonic() < deadline:
                for language in times:  # in turns, so a busy moment of the machine hits both
                    pages.headers = {"Cookie": cookie, "Accept-Language": language}
                    took = 0.0
                    for path in PATHS:
                        status, data, sec = pages.timed("GET", path)
                        _expect(status, data, 200, f"GET {path} in {language}")
                        took += sec
                    times[language].append(took)
    sl, en = (sorted(times[name])[len(times[name]) // 2] * 1000 for name in ("sl", "en"))
    ctx.note(f"v: medians of the two pages: sl {sl:.1f} ms, en {en:.1f} ms")
    ctx.add(Row(what, "ms", sl, en, GOAL, FLOOR, False))
