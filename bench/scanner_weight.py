"""Scenario s: the browser scanner (/scan) in Debian's chromium, on a catalogue of 5,000 products.

Three figures, each judged on its own (issue: the page loads in under 1 s on the LAN; its own scripts
and styles weigh at most 150 KB compressed; scan to feedback under 50 ms on the device, with no
request per scan). Beside each stands what it is compared with, measured in the same run:
- load: the page from navigation to usable (paired, its data on the device), beside the office's
  sign-in page loaded in the same browser;
- weight: the gzip of every script and style the page loads, beside the office pages' stylesheet;
- scan: the wedge's Enter to the feedback drawn (the scan resolved from the catalogue kept on the
  device, the flow kept in IndexedDB), beside one GET /v1/barcodes/{code} from the same page, which
  is what a scanner that asked the service on every scan would wait for at least.
"""
import gzip
import statistics
import time

import server
from report import Row
from scenarios import _expect

S_PRODUCTS = 5000
S_SCANS = 40
S_LOADS = 5
S_TIME_LIMIT_S = 240
# The scanner holds the catalogue: its count, as the device's language writes it ("5,000" in
# English, "5.000" in German), read by its digits.
LOADED = "document.getElementById('data-size').textContent.replace(/[^0-9]/g, '').startsWith('5000')"
LOAD_GOAL, LOAD_FLOOR = 1000.0, 2000.0
WEIGHT_GOAL, WEIGHT_FLOOR = 150.0, 200.0
SCAN_GOAL, SCAN_FLOOR = 50.0, 100.0
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]


def page_assets() -> list[str]:
    """The page's scripts and styles: every file of scanner/static but the service worker (as the
    worker's own list is made, scanner/views.py)."""
    static = server.REPO / "scanner" / "static"
    return sorted(path.name for path in static.iterdir() if path.is_file() and path.name != "worker.js")


def ean13(number: int) -> str:
    body = f"40{number:010d}"
    check = (10 - sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(body)) % 10) % 10
    return body + str(check)


def product(i: int) -> dict:
    return {"data": {"product_code": f"S{i:05d}", "name": f"Yoghurt {i % 40 + 1} x 150 g, lot {i}", "base_unit": "pc",
                     "base_unit_barcode": ean13(i), "decimal_places": 0,
                     "packaging": [{"unit": "crate", "amount_base_units": 12, "barcode": ean13(100000 + i)}]}}


def scenario_s(ctx):
    """Browser scanner: page load, weight, and scan to feedback, judged on their own."""
    rows = ("s. /scan load to usable (ms) vs office sign-in page", "s. /scan scripts+styles gzip (KB) vs office CSS",
            "s. scan to feedback on the device (ms) vs one barcode request")
    if not ctx.has_service:
        for what, (goal, floor) in zip(rows, ((LOAD_GOAL, LOAD_FLOOR), (WEIGHT_GOAL, WEIGHT_FLOOR),
                                              (SCAN_GOAL, SCAN_FLOOR))):
            ctx.add(Row(what, "ms", None, None, goal, floor, False, judge_value=True))
        return
    from playwright.sync_api import sync_playwright

    with ctx.service("s") as svc, server.Client(svc.port, ctx.key) as api:
        t0 = time.monotonic()
        for i in range(S_PRODUCTS):
            _expect(*api.request("POST", "/v1/products/", product(i)), 201, f"product {i}")
        status, data = api.request("POST", "/v1/keys/", {"data": {"name": "bench-phone", "role": "scan"}})
        _expect(status, data, 201, "the phone's key")
        key = __import__("json").loads(data)["item"]["key"]
        ctx.note(f"s: {S_PRODUCTS} products with EAN-13 and crate barcodes made in {time.monotonic() - t0:.0f} s")
        base = f"http://127.0.0.1:{svc.port}"
        deadline = time.monotonic() + S_TIME_LIMIT_S
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            try:
                context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
                tab = context.new_page()
                tab.goto(f"{base}/scan#pair={key}")
                tab.wait_for_function(f"() => {LOADED}")
                loads, signins = [], []
                for _ in range(S_LOADS):
                    if time.monotonic() > deadline:
                        break
                    started = time.perf_counter()
                    tab.goto(f"{base}/scan")
                    tab.wait_for_function(f"() => document.body.dataset.screen === 'home' && {LOADED}")
                    loads.append((time.perf_counter() - started) * 1000)
                    started = time.perf_counter()
                    other = context.new_page()
                    other.goto(f"{base}/login")
                    other.wait_for_load_state("load")
                    signins.append((time.perf_counter() - started) * 1000)
                    other.close()
                weight = sum(len(gzip.compress(tab.request.get(f"{base}/scan/assets/{name}").body(), 9))
                             for name in page_assets())
                office_css = len(gzip.compress(tab.request.get(f"{base}/assets/style.css").body(), 9))
                tab.get_by_role("button", name="Receive").click()
                tab.wait_for_function("() => document.body.dataset.screen === 'flow'")
                requests = []
                tab.on("request", lambda request: requests.append(request.url))
                feedback = []
                for i in range(S_SCANS):
                    if time.monotonic() > deadline:
                        break
                    count = int(tab.evaluate("() => document.body.dataset.feedbacks || '0'"))
                    tab.keyboard.type(ean13((i * 97) % S_PRODUCTS), delay=4)
                    tab.keyboard.press("Enter")
                    tab.wait_for_function(f"() => Number(document.body.dataset.feedbacks) > {count}")
                    feedback.append(float(tab.evaluate("() => document.body.dataset.feedbackMs")))
                scan_requests = len(requests)
                asked = tab.evaluate("""async ([key, codes]) => {
                    const times = [];
                    for (const code of codes) {
                        const started = performance.now();
                        await (await fetch('/v1/barcodes/' + code, {headers: {'TS-Apikey': key}})).json();
                        times.push(performance.now() - started);
                    }
                    return times;
                }""", [key, [ean13(i) for i in range(20)]])
            finally:
                browser.close()
    load_ms, signin_ms = statistics.median(loads), statistics.median(signins)
    scan_ms, asked_ms = statistics.median(feedback), statistics.median(asked)
    p95 = sorted(feedback)[int(len(feedback) * 0.95) - 1]
    ctx.note(f"s: load medians {load_ms:.0f} ms (sign-in page {signin_ms:.0f} ms) over {len(loads)} loads; "
             f"scan to feedback median {scan_ms:.1f} ms, p95 {p95:.1f} ms over {len(feedback)} scans, "
             f"{scan_requests} request(s) during the scans (aim: none); one barcode request {asked_ms:.1f} ms")
    if scan_requests:
        raise RuntimeError(f"the page made {scan_requests} request(s) while scanning; it must make none")
    ctx.add(Row(rows[0], "ms", load_ms, signin_ms, LOAD_GOAL, LOAD_FLOOR, False, judge_value=True))
    ctx.add(Row(rows[1], "KB", weight / 1024, office_css / 1024, WEIGHT_GOAL, WEIGHT_FLOOR, False, judge_value=True))
    ctx.add(Row(rows[2], "ms", scan_ms, asked_ms, SCAN_GOAL, SCAN_FLOOR, False, judge_value=True))
