"""The browser scanner (/scan, DESIGN 24) in Debian's chromium, driven by Playwright, against the live
service: paired by the keys page's QR, each flow booked with wedge input (characters typed a few
milliseconds apart, then Enter, as a Zebra or Honeywell scanner types them) and checked through the
API: the stock, the batch, the order's state. At a phone's 390x844 and at a desktop's size.

Every request the page makes must go to the service: the page needs nothing from elsewhere.
"""
import re

import pytest
from playwright.sync_api import expect

from helpers import batch, item, order, order_item

TIMEOUT_MS = 15_000
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
MILK, MILK_CRATE, CHEESE, BUTTER = "4006381333924", "4006381333931", "4012345000016", "SCAN-BUTTER-250"


class Depot:
    """The live service with a small dairy's catalogue, and API calls as its office makes them."""

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

    def key(self, name, role="scan", warehouses=(1,)):
        return self.ok("POST", "/v1/keys/", {"name": name, "role": role, "warehouses": list(warehouses)})["item"]["key"]

    def stock(self, code, lot="", warehouse=1):
        rows = self.ok("POST", "/v1/inventory/filter", {"id_warehouses": [warehouse], "product_code": code, "level": 1})
        return sum(row["amount"] for row in rows["list"] if row["lot"] == lot)

    def batches(self, **filters):
        return self.ok("POST", "/v1/batches/filter", filters)["list"]

    def order_state(self, number):
        return self.ok("GET", f"/v1/documents/{number}")["item"]["state"]


@pytest.fixture
def depot(live_server):
    depot = Depot(live_server())
    for body in [
        {"product_code": "MILK-1L", "name": "Milk 1 l", "base_unit": "pc", "base_unit_barcode": MILK,
         "decimal_places": 0, "packaging": [{"unit": "crate", "amount_base_units": 12, "barcode": MILK_CRATE}]},
        {"product_code": "CHEESE", "name": "Gouda 400 g", "base_unit": "pc", "base_unit_barcode": CHEESE,
         "lot_level": 1, "decimal_places": 0},
        {"product_code": "BUTTER", "name": "Butter 250 g", "base_unit": "pc", "base_unit_barcode": BUTTER},
    ]:
        depot.ok("POST", "/v1/products/", body)
    return depot


def open_context(browser, depot, viewport=PHONE):
    context = browser.new_context(viewport=viewport, has_touch=viewport == PHONE, is_mobile=viewport == PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    elsewhere = []

    def only_the_service(route):
        if route.request.url.startswith(depot.base + "/"):
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


@pytest.fixture
def phone(browser, depot):
    context = open_context(browser, depot)
    yield context
    assert context.elsewhere == []
    assert context.errors == []
    context.close()


def paired(context, depot, key):
    """A tab of the scanner, paired by the address the keys page's QR code holds."""
    tab = context.new_page()
    tab.goto(f"{depot.base}/scan#pair={key}")
    expect(tab.locator("body")).to_have_attribute("data-screen", "home")
    expect(tab.get_by_text(re.compile(r"\d+ products"))).to_have_text(re.compile(r"3 products"))
    return tab


TRIGGER_AGAIN_MS = 300  # a person pulls the trigger again no sooner; a wedge's double comes within 250 ms


def wedge(tab, code):
    """A scanner with a trigger: the code typed fast, then Enter; waits for the page's feedback."""
    before = int(tab.locator("body").get_attribute("data-feedbacks") or 0)
    if getattr(tab, "last_code", None) == code:
        tab.wait_for_timeout(TRIGGER_AGAIN_MS)
    tab.last_code = code
    tab.keyboard.type(code, delay=8)
    tab.keyboard.press("Enter")
    expect(tab.locator("body")).to_have_attribute("data-feedbacks", str(before + 1))
    return tab.locator("body").get_attribute("data-feedback")


def waiting(tab):
    return int(tab.locator("[data-queue-waiting]").inner_text())


def all_sent(tab):
    expect(tab.locator("[data-queue-waiting]")).to_have_text("0")


# --- pairing ----------------------------------------------------------------------------------

def test_pairing_by_the_qr_address_keeps_the_key_off_the_address_and_the_history(phone, depot):
    key = depot.key("phone-1")
    tab = paired(phone, depot, key)
    assert tab.url == f"{depot.base}/scan"
    assert key not in tab.evaluate("location.href + history.length")
    assert tab.context.cookies() == []
    tab.go_back()  # nothing before it holds the key either
    assert key not in tab.url


def test_a_pasted_key_pairs_and_unpair_forgets_it(phone, depot):
    key = depot.key("phone-1")
    tab = phone.new_page()
    tab.goto(f"{depot.base}/scan")
    tab.get_by_label("Key").fill(key)
    tab.get_by_role("button", name="Pair").click()
    expect(tab.locator("body")).to_have_attribute("data-screen", "home")
    tab.get_by_role("button", name="Unpair").click()
    tab.get_by_role("button", name="Unpair").last.click()  # the dialog's
    expect(tab.locator("body")).to_have_attribute("data-screen", "pair")
    tab.reload()
    expect(tab.locator("body")).to_have_attribute("data-screen", "pair")


# --- the flows ----------------------------------------------------------------------------------

def test_receive_without_an_order_books_one_batch_with_crates_lots_and_best_before(phone, depot):
    tab = paired(phone, depot, depot.key("phone-1"))
    tab.get_by_role("button", name="Receive").click()
    expect(tab.locator("body")).to_have_attribute("data-screen", "flow")
    assert wedge(tab, MILK_CRATE) == "ok"
    expect(tab.locator("#last")).to_contain_text("1 crate (12 pc)")
    wedge(tab, MILK_CRATE)
    wedge(tab, MILK)
    # A lot-kept product asks for its lot and best-before.
    assert wedge(tab, CHEESE) == "warning"
    tab.get_by_label("Lot").fill("L-2611")
    tab.get_by_label("Best before").fill("2027-03-31")
    tab.get_by_role("button", name="Add").click()
    tab.get_by_label("Quantity").fill("5")
    tab.get_by_role("button", name="Set").click()
    expect(tab.locator("#last")).to_contain_text("5 pc")
    tab.get_by_role("button", name="Book").click()
    expect(tab.locator("body")).to_have_attribute("data-screen", "home")
    all_sent(tab)
    assert depot.stock("MILK-1L") == 25
    assert depot.stock("CHEESE", "L-2611") == 5
    [booked] = depot.batches()
    settings, items = booked["batch_settings"], booked["batch_items"]
    assert (settings["direction"], settings["type"], settings["id_warehouse"], settings["name"]) == ("I", "R", 1, "Receive")
    assert [(i["product_code"], i["amount_base_unit"], i["lot"], i["date_exp"]) for i in items] == [
        ("MILK-1L", 24, "", ""), ("MILK-1L", 1, "", ""), ("CHEESE", 5, "L-2611", "2027-03-31")]
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d{4}", i["timestamp_client"]) for i in items)
    expect(tab.locator(".entry.booked")).to_have_count(1)


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


def test_pick_an_order_first_expiring_lots_wrong_product_over_pick_and_a_partial_delivery(phone, depot):
    stock_up(depot)
    pick_order(depot)
    other = depot.key("phone-2")
    tab = paired(phone, depot, depot.key("phone-1"))
    tab.get_by_role("button", name="Pick an order").click()
    choose(tab, "SO-1")
    expect(tab.locator("body")).to_have_attribute("data-screen", "flow")
    assert depot.order_state("SO-1") == 2  # taken: acquired for this device's key
    expect(tab.locator("#left")).to_contain_text("Gouda 400 g: 6 of 6 pc left · take L-OLD (2027-01-31), L-NEW (2027-06-30)")
    # Not on the order: an error that books nothing.
    assert wedge(tab, BUTTER) == "error"
    expect(tab.locator("#last")).to_contain_text("Not on order SO-1: Butter 250 g")
    assert wedge(tab, MILK_CRATE) == "ok"
    wedge(tab, MILK_CRATE)
    expect(tab.locator("#left")).to_contain_text("Milk 1 l: 0 of 24 pc left")
    # A third crate is more than the order has left: asked, and taken.
    tab.wait_for_timeout(TRIGGER_AGAIN_MS)
    tab.keyboard.type(MILK_CRATE, delay=8)
    tab.keyboard.press("Enter")
    dialog = tab.get_by_role("dialog")
    expect(dialog).to_contain_text("12 pc more than is left on order SO-1")
    dialog.get_by_role("button", name="Take it").click()
    expect(tab.locator("#lines li.changed")).to_contain_text("3 crate (36 pc)")
    # A lot-kept product: the first expiring lot is offered first, then the next.
    wedge(tab, CHEESE)
    expect(tab.get_by_label("Lot")).to_have_value("L-OLD")
    tab.get_by_role("button", name="Add").click()
    tab.get_by_label("Quantity").fill("4")
    tab.get_by_role("button", name="Set").click()
    expect(tab.locator("#lines li.changed")).to_contain_text("4 pc")
    wedge(tab, CHEESE)
    expect(tab.get_by_label("Lot")).to_have_value("L-NEW")
    tab.get_by_role("button", name="Add").click()
    tab.get_by_role("button", name="Book").click()
    tab.get_by_role("dialog").get_by_role("button", name="Book partial").click()
    expect(tab.locator("body")).to_have_attribute("data-screen", "home")
    all_sent(tab)
    # The order got 24 milk and 5 of its 6 cheeses: a partial delivery, state 3, no lock held.
    assert depot.order_state("SO-1") == 3
    view = depot.ok("GET", "/v1/documents/SO-1")["item"]
    assert [(line["product_code"], line["amount_delivered"]) for line in view["items"]] == [("MILK-1L", 24), ("CHEESE", 5)]
    scanned = [b for b in depot.batches() if b["batch_settings"]["batch_number"] != 1]  # 1: stock_up's
    on_order, beyond = sorted(scanned, key=lambda b: b["batch_settings"]["document_number"], reverse=True)
    assert on_order["batch_settings"]["document_number"] == "SO-1"
    assert [(i["product_code"], i["barcode"], i["amount_base_unit"], i["lot"]) for i in on_order["batch_items"]] == [
        ("MILK-1L", MILK_CRATE, 24, ""), ("CHEESE", CHEESE, 4, "L-OLD"), ("CHEESE", CHEESE, 1, "L-NEW")]
    assert (beyond["batch_settings"]["document_number"], beyond["batch_settings"]["name"]) == ("", "Pick: beyond order SO-1")
    assert [(i["product_code"], i["barcode"], i["amount_base_unit"]) for i in beyond["batch_items"]] == [
        ("MILK-1L", MILK_CRATE, 12)]
    assert depot.stock("MILK-1L") == 40 - 36
    assert (depot.stock("CHEESE", "L-OLD"), depot.stock("CHEESE", "L-NEW")) == (0, 9)
    # The lock ended with the booking: another scanner takes the order at once.
    status, _ = other_acquires(depot, other, "SO-1")
    assert status == 200


def other_acquires(depot, key, number):
    import http.client, json
    conn = http.client.HTTPConnection("127.0.0.1", depot.server.port, timeout=30)
    try:
        conn.request("GET", f"/v1/documents/acquire/{number}", headers={"TS-Apikey": key})
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()
