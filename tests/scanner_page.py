"""The browser scanner (/scan, DESIGN 24) as the tests drive it: the live service with a small dairy's
catalogue (Depot), a browser context that may reach the service only, a tab paired by the keys page's
address, and a wedge scanner's trigger (characters typed a few milliseconds apart, then Enter, as a
Zebra or Honeywell scanner types them). conftest.py's fixtures `dairy` and `phone` are made of these.
"""
import http.client
import json
import os
import re

from playwright.sync_api import expect

from conftest import BROWSER_TIMEOUT_MS
from helpers import batch, item, order, order_item

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
MILK, MILK_CRATE, CHEESE, BUTTER = "4006381333924", "4006381333931", "4012345000016", "SCAN-BUTTER-250"


class Depot:
    """The live service with a small dairy's catalogue (dairy()), and API calls as its office makes them."""

    def __init__(self, server):
        self.server = server
        self.base = f"http://127.0.0.1:{server.port}"

    def call(self, method, path, data=None):
        status, body = self.server.request(method, path, data)
        return status, body

    def ok(self, method, path, data=None, status=(200, 201)):
        got, body = self.call(method, path, data)
        assert got in status, (method, path, got, body)
        return body

    def as_key(self, key, method, path, data=None):
        """(status, body) of a call with another key than the service's bootstrap key."""
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
        try:
            body = None if data is None else json.dumps({"data": data})
            conn.request(method, path, body=body, headers={"TS-Apikey": key, "Content-Type": "application/json"})
            response = conn.getresponse()
            return response.status, json.loads(response.read() or b"{}")
        finally:
            conn.close()

    def key(self, name, role="scan", warehouses=(1,)):
        return self.ok("POST", "/v1/keys/", {"name": name, "role": role, "warehouses": list(warehouses)})["item"]["key"]

    def stock(self, code, lot="", warehouse=1):
        rows = self.ok("POST", "/v1/inventory/filter", {"id_warehouses": [warehouse], "product_code": code, "level": 1})
        return sum(row["amount"] for row in rows["list"] if row["lot"] == lot)

    def batches(self, **filters):
        return self.ok("POST", "/v1/batches/filter", filters)["list"]

    def order_state(self, number):
        return self.ok("GET", f"/v1/documents/{number}")["item"]["state"]


def dairy(server) -> Depot:
    """The service with Milk (an EAN-13, crates of 12), Gouda kept by lot, and Butter (a Code 128)."""
    depot = Depot(server)
    for body in [
        {"product_code": "MILK-1L", "name": "Milk 1 l", "base_unit": "pc", "base_unit_barcode": MILK,
         "decimal_places": 0, "packaging": [{"unit": "crate", "amount_base_units": 12, "barcode": MILK_CRATE}]},
        {"product_code": "CHEESE", "name": "Gouda 400 g", "base_unit": "pc", "base_unit_barcode": CHEESE,
         "lot_level": 1, "decimal_places": 0},
        {"product_code": "BUTTER", "name": "Butter 250 g", "base_unit": "pc", "base_unit_barcode": BUTTER},
    ]:
        depot.ok("POST", "/v1/products/", body)
    return depot


def open_context(browser, depot, viewport=PHONE, base=None):
    context = browser.new_context(viewport=viewport, has_touch=viewport == PHONE, is_mobile=viewport == PHONE)
    context.set_default_timeout(BROWSER_TIMEOUT_MS)
    elsewhere = []

    base = base or depot.base

    def only_the_service(route):
        if route.request.url.startswith(base + "/"):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    context.route("**/*", only_the_service)
    context.elsewhere = elsewhere
    # A script error anywhere fails the test: the page must never stop on one.
    context.errors = []
    context.on("weberror", lambda error: context.errors.append(str(error.error)))
    return context


def close_context(context):
    """Close a context of open_context, failing the test on any request elsewhere or script error."""
    try:
        assert context.elsewhere == [], context.elsewhere
        assert context.errors == [], context.errors
    finally:
        context.close()


def paired(context, depot, key):
    """A tab of the scanner, paired by the address the keys page's QR code holds."""
    tab = context.new_page()
    tab.goto(f"{depot.base}/scan#pair={key}")
    expect(tab.locator("body")).to_have_attribute("data-screen", "home")
    expect(tab.locator("#data-size")).to_have_text(re.compile(r"^[1-9]\d* products"))
    return tab


TRIGGER_AGAIN_MS = 300  # a person pulls the trigger again no sooner; a wedge's double comes within 250 ms


def wedge(tab, code):
    """A scanner with a trigger: the code typed fast, then Enter; waits for the page's feedback."""
    expect(tab.locator("body")).to_have_attribute("data-screen", "flow")
    before = int(tab.locator("body").get_attribute("data-feedbacks") or 0)
    if getattr(tab, "last_code", None) == code:
        tab.wait_for_timeout(TRIGGER_AGAIN_MS)
    tab.last_code = code
    tab.keyboard.type(code, delay=8)
    tab.keyboard.press("Enter")
    expect(tab.locator("body")).to_have_attribute("data-feedbacks", str(before + 1))
    return tab.locator("body").get_attribute("data-feedback")


def told(tab, act):
    """act() (a tap on Set, Add, a Reason chosen), then wait for the page's feedback of it: otherwise a
    wedge scan that follows at once may read the feedback count before that feedback, and wait for a
    count the two feedbacks together step over."""
    before = int(tab.locator("body").get_attribute("data-feedbacks") or 0)
    act()
    expect(tab.locator("body")).to_have_attribute("data-feedbacks", str(before + 1))


def waiting(tab):
    return int(tab.locator("[data-queue-waiting]").inner_text())


def all_sent(tab):
    expect(tab.locator("[data-queue-waiting]")).to_have_text("0")


def booked(tab, count):
    """Wait until the queue shows `count` entries booked by the service, and none waiting."""
    expect(tab.locator(".entry.booked")).to_have_count(count)
    all_sent(tab)


def stock_up(depot, milk=40, lots=(("L-OLD", 4, "2027-01-31"), ("L-NEW", 10, "2027-06-30"))):
    """Goods in warehouse 1 through the API, as the office's own scanner software would book them."""
    items = [item("MILK-1L", milk)] + [item("CHEESE", amount, lot=lot, date_exp=day) for lot, amount, day in lots]
    depot.ok("POST", "/v1/batches/", batch(1, items))


def pick_order(depot, number="SO-1", lines=(("MILK-1L", 24), ("CHEESE", 6))):
    depot.ok("POST", "/v1/documents/", order(number, directions=("O",), description="Fresh Foods, Tuesday",
                                             items=[order_item(i, code, amount) for i, (code, amount) in enumerate(lines, 1)]))


def choose(tab, text):
    expect(tab.locator("body")).to_have_attribute("data-screen", "choose")
    tab.locator("#choices button", has_text=text).click()


def other_acquires(depot, key, number):
    conn = http.client.HTTPConnection("127.0.0.1", depot.server.port, timeout=30)
    try:
        conn.request("GET", f"/v1/documents/acquire/{number}", headers={"TS-Apikey": key})
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def kept(tab, name):
    """What the page keeps on the device under `name` (IndexedDB, store.js's kv)."""
    return tab.evaluate("""name => new Promise((resolve, reject) => {
        const opening = indexedDB.open("warehouse-scanner");
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
            const read = opening.result.transaction("kv").objectStore("kv").get(name);
            read.onsuccess = () => { resolve(read.result ?? null); opening.result.close(); };
        };
    })""", name)


def words_js(tab, function, calls):
    """words.js's `function` as the page's own module has it (the import map's hashed name), applied
    to each list of arguments in `calls`."""
    return tab.evaluate("""async ([name, calls]) => {
        const modules = JSON.parse(document.querySelector('script[type="importmap"]').textContent).imports;
        const words = await import(Object.keys(modules).find((module) => module.endsWith("/words.js")));
        return calls.map((args) => words[name](...args));
    }""", [function, calls])


def queued(tab):
    """The entries of the device's queue (IndexedDB, store.js's batches), as kept."""
    return tab.evaluate("""() => new Promise((resolve, reject) => {
        const opening = indexedDB.open("warehouse-scanner");
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
            const read = opening.result.transaction("batches").objectStore("batches").getAll();
            read.onsuccess = () => { resolve(read.result); opening.result.close(); };
        };
    })""")


def lease_sending_to_this_tab(tab, seconds):
    """Write the sender's lease as a page of this tab that was sending would have left it, held
    for this many seconds more."""
    tab.evaluate("""seconds => new Promise((resolve, reject) => {
        const owner = sessionStorage.getItem("scanner-tab");
        const opening = indexedDB.open("warehouse-scanner");
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
            const writing = opening.result.transaction("kv", "readwrite");
            writing.objectStore("kv").put({ owner, until: Date.now() + seconds * 1000 }, "sender");
            writing.oncomplete = () => { resolve(); opening.result.close(); };
            writing.onerror = () => reject(writing.error);
        };
    })""", seconds)


def ready_for_a_dead_spot(tab):
    """Wait until the page holds what it needs offline: its data, a block of numbers, and (on a
    secure origin) its service worker in control."""
    # Functions, not expressions: the page's CSP allows no eval, which an expression would need.
    tab.wait_for_function("() => !document.getElementById('data-size').textContent.startsWith('0')")
    for _ in range(200):
        if kept(tab, "numbers"):
            break
        tab.wait_for_timeout(50)
    assert kept(tab, "numbers"), "no block of batch numbers was reserved"
    tab.wait_for_function("() => !window.isSecureContext || navigator.serviceWorker.controller !== null")


def receive(tab, *codes):
    """A Receive without an order of these codes, booked."""
    expect(tab.locator("body")).to_have_attribute("data-screen", "home")
    tab.get_by_role("button", name="Receive").click()
    for code in codes:
        assert wedge(tab, code) == "ok", tab.locator("#last").inner_text()
    tab.get_by_role("button", name="Book").click()
    expect(tab.locator("body")).to_have_attribute("data-screen", "home")


def keep_screenshot(tab, name):
    """The page as it is now, kept for docs/ when WAREHOUSE_SCREENSHOTS names the folder
    (`WAREHOUSE_SCREENSHOTS=$PWD/docs/images pytest tests/scanner/test_scanner_browser.py tests/scanner/test_scanner_offline.py`)."""
    folder = os.environ.get("WAREHOUSE_SCREENSHOTS")
    if folder:
        tab.screenshot(path=os.path.join(folder, name))


# --- warehouses with locations (DESIGN 27) ------------------------------------------------------

def racks(depot, warehouse=1, codes=("DOCK", "A-1", "A-2", "B-1"), receiving="DOCK"):
    for code in codes:
        depot.ok("POST", "/v1/locations/", {"id_warehouse": warehouse, "code": code, "name": f"Shelf {code}",
                                            "receiving": int(code == receiving)})


def placed(depot, warehouse=1):
    """The warehouse's stock per location: {(location, product, lot): amount}."""
    rows = depot.ok("GET", f"/v1/locations/stock?id_warehouse={warehouse}")["list"]
    return {(row["location"], row["product_code"], row["lot"]): row["amount"] for row in rows}


def put_away(depot, number, lines, warehouse=1):
    """Goods-in through the API onto locations: (code, amount, location, lot, best-before)."""
    items = [item(code, amount, wplace=where, lot=lot, date_exp=day) for code, amount, where, lot, day in lines]
    depot.ok("POST", "/v1/batches/", batch(number, items, id_warehouse=str(warehouse)))


def warehouse_name(depot, warehouse):
    return next(w["name"] for w in depot.ok("GET", "/v1/warehouses/")["list"] if w["id_warehouse"] == warehouse)
