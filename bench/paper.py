"""Scenario p: printing from the office pages: a product's label as PDF, a delivery note of 200 lines.

Both are judged on their own time (the issue's goals: a label in under 200 ms, a delivery note of
200 lines in under 1 s); beside each stands the API's read of the same record, to show what the
drawing adds to the reading. The other printing answers are timed as notes.
"""
import time

import server
from load import batch_body, batch_lines, create_products, day, encode, median_ms
from report import Row
from scenarios import _expect, _page_session

P_PRODUCTS = P_LINES = 200
P_REPEATS, P_TIME_LIMIT_S = 15, 120
LABEL_GOAL, LABEL_FLOOR = 200.0, 400.0
NOTE_GOAL, NOTE_FLOOR = 1000.0, 2000.0
EAN = "4006381333931"


def _median(client, path, what, deadline, check=None):
    """Median ms of P_REPEATS GETs of path after a warm-up; check(body) tests the first answer."""
    status, data = client.request("GET", path)
    _expect(status, data, 200, f"GET {path}")
    if check:
        check(data)
    times = []
    while len(times) < P_REPEATS and time.monotonic() < deadline:
        status, data, sec = client.timed("GET", path)
        _expect(status, data, 200, f"GET {path} ({what})")
        times.append(sec)
    return median_ms(times)


def _require(condition, message):
    if not condition:
        raise RuntimeError(message)


def scenario_p(ctx):
    """Label PDF and a 200-line delivery note from the office pages: ms, judged on their own."""
    what_label = "p. product label PDF (62x29 mm) vs API product read"
    what_note = f"p. delivery note of {P_LINES} lines vs API document read"
    if not ctx.has_service:
        ctx.add(Row(what_label, "ms", None, None, LABEL_GOAL, LABEL_FLOOR, False, judge_value=True))
        ctx.add(Row(what_note, "ms", None, None, NOTE_GOAL, NOTE_FLOOR, False, judge_value=True))
        return
    with ctx.service("p") as svc, server.Client(svc.port, ctx.key) as api:
        create_products(api, P_PRODUCTS)
        _expect(*api.request("POST", "/v1/products/", {"data": {
            "product_code": "LABEL-EAN", "name": "Milk 1 l", "base_unit": "pc", "base_unit_barcode": EAN}}),
            201, "the label's product")
        lines = batch_lines(P_LINES, P_PRODUCTS, 0)
        _expect(*api.request("POST", "/v1/batches/", encode(batch_body(1, "I", day(0), lines))), 201, "goods-in")
        _expect(*api.request("POST", "/v1/batches/", encode(batch_body(2, "O", day(0), lines))), 201, "goods-out")
        deadline = time.monotonic() + P_TIME_LIMIT_S  # a fresh database: goods-in is document 1, goods-out 2

        with server.Client(svc.port) as pages:
            pages.headers = {"Cookie": _page_session(svc)}

            def one_page_pdf(body):
                _require(body.startswith(b"%PDF") and b"/Count 1 " in body, "the label is not a one-page PDF")

            def every_line(body):
                _require(body.decode().count('<td class="num">') == P_LINES,
                         f"the delivery note does not show {P_LINES} lines")

            label = _median(pages, "/products/LABEL-EAN/label.pdf?lot=L1&date_exp=2030-01-31", "label",
                            deadline, one_page_pdf)
            product_api = _median(api, "/v1/products/LABEL-EAN", "API", deadline)
            note = _median(pages, "/documents/2/delivery-note", "delivery note", deadline, every_line)
            document_api = _median(api, "/v1/docs/2", "API", deadline)
            notes = {name: _median(pages, path, name, deadline) for name, path in (
                ("label ZPL", "/products/LABEL-EAN/label.zpl"),
                ("500 labels on A4 sheets", "/products/LABEL-EAN/label.pdf?copies=500&sheet=a4"),
                (f"labels of a {P_LINES}-line goods-in document", "/documents/1/labels.pdf"),
                (f"count sheet of {P_PRODUCTS} products", "/warehouses/1/count-sheet"))}
    ctx.note("p: medians: " + ", ".join(f"{name} {ms:.1f} ms" for name, ms in notes.items()))
    ctx.add(Row(what_label, "ms", label, product_api, LABEL_GOAL, LABEL_FLOOR, False, judge_value=True))
    ctx.add(Row(what_note, "ms", note, document_api, NOTE_GOAL, NOTE_FLOOR, False, judge_value=True))
