"""Scenario n: the office and the scanner over a weak Wi-Fi link, in Debian's chromium (DESIGN 30).

Chromium's own network emulation, through the DevTools protocol (`Network.emulateNetworkConditions`):
300 ms round trip, 1 Mbit/s (125,000 bytes a second) each way, as a far corner of a depot's hall
gets. The depot is the demo's (`flask demo`), made by each release for itself. The baseline is the
release before static files were hashed and answers compressed (REFERENCE), served side by side
from `git archive` on its own demo depot, measured the same way in the same run.

- An office page (/products) opened a second time, signed in, its stylesheets already seen once:
  the seconds from the navigation's start to its load event as the page times them (Navigation
  Timing; the median of three), and the requests that reached the service (its access log,
  counted between two marks). Aims: under 0.6 s, with one request (the HTML alone).
- /scan reloaded once its service worker keeps it: the requests that reached the service. Aim: its
  page alone (the service worker's own update check is the browser's, and is told apart).
- The bytes on the wire (every answer's encoded length, headers included, as chromium counts it)
  of /, /products and /scan opened in a browser that has nothing kept: the page and what it loads.
"""
import subprocess
import time

import server
from report import Row
from scanner_weight import CHROMIUM, CHROMIUM_ARGS
from scenarios import _page_session

# Release 1.4.1 with issue 38's first points (its rooms' tests in folders): every static file
# `no-cache` (one revalidation each per page), the scanner's modules at plain addresses, nothing
# compressed.
REFERENCE = "157ac12"
WEAK = {"offline": False, "latency": 300, "downloadThroughput": 125_000, "uploadThroughput": 125_000}
AGAIN_AIM_S, AGAIN_FLOOR_S = 0.6, 0.7
TIMED = 3  # the office page opened again: the median of three
PAGES = ("/", "/products", "/scan")


def _demo_depot(ctx, name: str, code) -> str:
    """A fresh demo depot made by `code`'s own `flask demo`: its database URL."""
    folder = ctx.tmp / f"n-{name}"
    folder.mkdir(parents=True, exist_ok=True)
    url = f"sqlite:///{folder}/warehouse.db"
    made = subprocess.run([server.PYTHON, "-m", "flask", "--app", "app", "demo"], cwd=code, capture_output=True,
                          text=True, timeout=300, env=server.clean_env(DATABASE_URL=url))
    if made.returncode != 0:
        raise RuntimeError(f"n: flask demo ({name}): {made.stderr[-500:]}")
    return url


class Wire:
    """What one tab asks of the network, as chromium's DevTools protocol tells it."""

    def __init__(self, context, tab):
        self.cdp = context.new_cdp_session(tab)
        self.cdp.send("Network.enable")
        self.bytes = 0
        self.cdp.on("Network.loadingFinished", self._finished)

    def _finished(self, event):
        self.bytes += event["encodedDataLength"]

    def weak(self):
        self.cdp.send("Network.emulateNetworkConditions", WEAK)


def _access_lines(svc) -> list[str]:
    """The service's access lines so far (`... client METHOD path status 1.2ms key`)."""
    return [line for line in svc.log_path.read_text(errors="replace").splitlines()
            if " warehouse.access " in line]


def _requests_since(svc, mark: int) -> list[str]:
    """The access log's requests (METHOD path status) written after `mark` (a count of lines)."""
    return [" ".join(line.split()[-5:-2]) for line in _access_lines(svc)[mark:]]


def _log_mark(svc) -> int:
    return len(_requests_since(svc, 0))


def _settled(svc, mark: int) -> list[str]:
    """The requests after `mark`, once the log has had time to take the last of them."""
    time.sleep(0.5)
    return _requests_since(svc, mark)


def _timing(tab) -> dict:
    """The page's own Navigation Timing, in seconds from the navigation's start: its first byte
    (`first`: the emulated round trip and the service's work) and the end of its load event
    (`load`: what a person waits for), without the driver's own round trips."""
    tab.wait_for_function("() => performance.getEntriesByType('navigation')[0].loadEventEnd > 0")
    return tab.evaluate("() => { const n = performance.getEntriesByType('navigation')[0];"
                        " return {first: (n.responseStart - n.startTime) / 1000,"
                        " load: (n.loadEventEnd - n.startTime) / 1000}; }")


def _served_ms(svc, mark: int, path: str) -> float:
    """The service's own time for the request of `path` after `mark` (its access line)."""
    return max(float(line.split()[-2].removesuffix("ms")) for line in _access_lines(svc)[mark:]
               if f" GET {path} " in line)


def _measure(ctx, name: str, code, browser) -> dict:
    found = {}
    url = _demo_depot(ctx, name, code)
    with server.service(ctx.tmp / f"n-{name}", ctx.key, database_url=url, code=code) as svc:
        base = f"http://127.0.0.1:{svc.port}"
        cookie_name, cookie_value = _page_session(svc, code).split("=", 1)
        cookie = {"name": cookie_name, "value": cookie_value, "url": base}

        # Bytes on the wire of each page opened with nothing kept (a fresh browser profile each).
        for path in PAGES:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            try:
                context.add_cookies([cookie])
                tab = context.new_page()
                wire = Wire(context, tab)
                tab.goto(base + path, wait_until="load")
                tab.wait_for_load_state("networkidle")
                found[f"bytes {path}"] = wire.bytes
            finally:
                context.close()

        # The office page opened a second time, over the weak link.
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            context.add_cookies([cookie])
            tab = context.new_page()
            wire = Wire(context, tab)
            tab.goto(base + "/products", wait_until="load")
            wire.weak()
            times, counts = [], []
            for _ in range(TIMED):
                tab.goto(base + "/")  # elsewhere first: the next one is an opening, not a reload
                mark = _log_mark(svc)
                tab.goto(base + "/products", wait_until="load")
                counts.append(_settled(svc, mark))
                times.append({**_timing(tab), "served": _served_ms(svc, mark, "/products") / 1000})
            found["again"] = sorted(times, key=lambda each: each["load"])[len(times) // 2]
            found["again s"] = found["again"]["load"]
            found["again requests"] = max(counts, key=len)
        finally:
            context.close()

        # /scan reloaded once its service worker keeps the page.
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        try:
            tab = context.new_page()
            wire = Wire(context, tab)
            tab.goto(base + "/scan", wait_until="load")
            tab.evaluate("navigator.serviceWorker.ready.then(() => true)")  # installed, the page kept
            tab.reload(wait_until="load")  # now under the worker's control
            tab.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
            wire.weak()
            mark = _log_mark(svc)
            tab.reload(wait_until="load")
            found["scan s"] = _timing(tab)["load"]
            time.sleep(2)  # the browser's check for a new worker comes after the load
            found["scan requests"] = _settled(svc, mark)
        finally:
            context.close()
    return found


def scenario_n(ctx):
    """The office and the scanner over a weak link (300 ms, 1 Mbit/s): cached, compressed."""
    rows = {"again s": "n. weak link: office page opened again (s)",
            "again requests": "n. weak link: office page opened again, requests",
            "scan requests": "n. weak link: /scan reloaded, page requests to the service"}
    if not ctx.has_service:
        ctx.add(Row(rows["again s"], "s", None, None, AGAIN_AIM_S, AGAIN_FLOOR_S, False, absolute=True))
        ctx.add(Row(rows["again requests"], "requests", None, None, 1, 1, False, judge_value=True))
        ctx.add(Row(rows["scan requests"], "requests", None, None, 1, 1, False, judge_value=True))
        for path in PAGES:
            ctx.add(Row(f"n. bytes on the wire, first visit: {path}", "bytes", None, None, 0.5, 0.8, False,
                        own_goal=True))
        return
    from playwright.sync_api import sync_playwright

    reference_code = server.checkout(ctx.tmp, REFERENCE)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            reference = _measure(ctx, "reference", reference_code, browser)
            service = _measure(ctx, "service", server.REPO, browser)
        finally:
            browser.close()
    for name, found in (("reference", reference), ("service", service)):
        again = found["again"]
        ctx.note(f"n: {name}: /products opened again in {again['load']:.2f} s (its first byte at "
                 f"{again['first']:.2f} s, of which the service's own {again['served'] * 1000:.0f} ms) with "
                 f"{len(found['again requests'])} request(s): {', '.join(found['again requests'])}")
        ctx.note(f"n: {name}: /scan reloaded in {found['scan s']:.2f} s; it reached the service with "
                 f"{', '.join(found['scan requests']) or 'nothing'}")
        ctx.note(f"n: {name}: bytes on the wire, first visit: "
                 + ", ".join(f"{path} {found[f'bytes {path}']:,}" for path in PAGES))
    ctx.add(Row(rows["again s"], "s", service["again s"], reference["again s"], AGAIN_AIM_S, AGAIN_FLOOR_S, False,
                absolute=True))
    ctx.add(Row(rows["again requests"], "requests", len(service["again requests"]),
                len(reference["again requests"]), 1, 1, False, judge_value=True))
    # The page's own requests: the worker's update check (/scan/worker.js) is the browser's, told
    # apart in the notes.
    own = [line for line in service["scan requests"] if "/scan/worker.js" not in line]
    reference_own = [line for line in reference["scan requests"] if "/scan/worker.js" not in line]
    ctx.add(Row(rows["scan requests"], "requests", len(own), len(reference_own), 1, 1, False, judge_value=True))
    for path in PAGES:
        ctx.add(Row(f"n. bytes on the wire, first visit: {path}", "bytes", service[f"bytes {path}"],
                    reference[f"bytes {path}"], 0.5, 0.8, False, own_goal=True))
