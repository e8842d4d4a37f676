"""Scenario m: a product file of 10,000 rows (two packaging units each) through POST /v1/import.

Timed as the office runs it: the dry run, then the import, then the same file again (nothing
changes). The goal is the brief's: the dry run and the import together in under 30 s.
"""
import io
import json
import time
import uuid

import server
from report import Row

PRODUCTS = 10_000
GOAL_S = 30.0
HEADER = ("product_code,name,base_unit,base_unit_barcode,weight_netto,packaging_1_unit,"
          "packaging_1_amount_base_units,packaging_1_barcode,packaging_2_unit,"
          "packaging_2_amount_base_units,packaging_2_barcode")


def product_file(count: int = PRODUCTS) -> bytes:
    out = io.StringIO()
    out.write(HEADER + "\r\n")
    for n in range(count):
        out.write(f"P{n:06d},Product {n},pc,20{n:011d},0.{n % 1000:03d},crate,12,21{n:011d},"
                  f"pallet,480,22{n:011d}\r\n")
    return out.getvalue().encode("utf-8")


def multipart(data: bytes, name: str) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
            f"Content-Type: text/csv\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def scenario_m(ctx):
    """Import of 10,000 products with packaging (CSV): dry run + import, seconds."""
    what = f"m. import {PRODUCTS:,} products with packaging: dry run + import"
    if not ctx.has_service:
        ctx.add(Row(what, "s", None, None, GOAL_S, GOAL_S, False, own_goal=False, judge_value=True))
        return
    body, content_type = multipart(product_file(), "products.csv")
    times = {}
    with ctx.service("i") as svc, server.Client(svc.port, ctx.key, timeout=600) as api:
        api.headers["Content-Type"] = content_type
        for step, path in (("dry run", "/v1/import/products?dry_run=1"), ("import", "/v1/import/products"),
                           ("again", "/v1/import/products")):
            started = time.perf_counter()
            status, data = api.request("POST", path, body)
            times[step] = time.perf_counter() - started
            if status != 200:
                raise RuntimeError(f"POST {path}: HTTP {status} {data[:300]!r}")
            answer = json.loads(data)["item"]
            want = {"dry run": "created", "import": "created", "again": "unchanged"}[step]
            if answer[want] != PRODUCTS:
                raise RuntimeError(f"{step}: {answer}")
    ctx.note(f"m: dry run {times['dry run']:.1f} s, import {times['import']:.1f} s, "
             f"the same file again (all unchanged) {times['again']:.1f} s; {len(body) / 2**20:.1f} MB")
    ctx.add(Row(what, "s", times["dry run"] + times["import"], None, GOAL_S, GOAL_S, False,
                judge_value=True))
