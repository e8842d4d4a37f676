"""The browser scanner (/scan, DESIGN 24) in Debian's chromium, driven by Playwright, against the live
service: paired by the keys page's QR, each flow booked with wedge input (characters typed a few
milliseconds apart, then Enter, as a Zebra or Honeywell scanner types them) and checked through the
API: the stock, the batch, the order's state. At a phone's 390x844 and at a desktop's size.

Every request the page makes must go to the service: the page needs nothing from elsewhere.
"""
import re

import pytest
from playwright.sync_api import expect

from conftest import sideways, laid_out
from helpers import batch, item
from scanner_page import (BUTTER, CHEESE, DESKTOP, MILK, MILK_CRATE, PHONE, TRIGGER_AGAIN_MS, booked, choose,
                          close_context, keep_screenshot, open_context, other_acquires, paired, pick_order, stock_up, told,
                          wedge)


# --- pairing ----------------------------------------------------------------------------------

def test_pairing_by_the_qr_address_keeps_the_key_off_the_address_and_the_history(phone, dairy):
    key = dairy.key("phone-1")
    tab = paired(phone, dairy, key)
    assert tab.url == f"{dairy.base}/scan"
    assert key not in tab.evaluate("location.href + history.length")
    assert tab.context.cookies() == []
    tab.go_back()  # nothing before it holds the key either
    assert key not in tab.url


def test_a_pasted_key_pairs_and_unpair_forgets_it(phone, dairy):
    key = dairy.key("phone-1")
    tab = phone.new_page()
    tab.goto(f"{dairy.base}/scan")
    expect(tab.locator("body")).to_have_attribute("data-screen", "pair")
    keep_screenshot(tab, "scanner-pair.png")
    tab.get_by_label("Key").fill(key)
    tab.get_by_role("button", name="Pair").click()
    expect(tab.locator("body")).to_have_attribute("data-screen", "home")
    tab.get_by_role("button", name="Unpair").click()
    tab.get_by_role("button", name="Unpair").last.click()  # the dialog's
    expect(tab.locator("body")).to_have_attribute("data-screen", "pair")
    tab.reload()
    expect(tab.locator("body")).to_have_attribute("data-screen", "pair")


# --- the flows ----------------------------------------------------------------------------------

def test_receive_without_an_order_books_one_batch_with_crates_lots_and_best_before(phone, dairy):
    tab = paired(phone, dairy, dairy.key("phone-1"))
    tab.get_by_role("button", name="Receive").click()
    expect(tab.locator("body")).to_have_attribute("data-screen", "flow")
    assert wedge(tab, MILK_CRATE) == "ok"
    expect(tab.locator("#last")).to_contain_text("1 crate (12 pc)")
    wedge(tab, MILK_CRATE)
    wedge(tab, MILK)
    # A lot-kept product asks for its lot and best-before.
    assert wedge(tab, CHEESE) == "warning"
    keep_screenshot(tab, "scanner-lot.png")
    tab.get_by_label("Lot").fill("L-2611")
    tab.get_by_label("Best before").fill("2027-03-31")
    tab.get_by_role("button", name="Add").click()
    tab.get_by_label("Quantity").fill("5")
    tab.get_by_role("button", name="Set").click()
    expect(tab.locator("#last")).to_contain_text("5 pc")
    keep_screenshot(tab, "scanner-receive.png")
    tab.get_by_role("button", name="Book").click()
    expect(tab.locator("body")).to_have_attribute("data-screen", "home")
    booked(tab, 1)
    assert dairy.stock("MILK-1L") == 25
    assert dairy.stock("CHEESE", "L-2611") == 5
    [made] = dairy.batches()
    settings, items = made["batch_settings"], made["batch_items"]
    assert (settings["direction"], settings["type"], settings["id_warehouse"], settings["name"]) == ("I", "R", 1, "Receive")
    assert [(i["product_code"], i["amount_base_unit"], i["lot"], i["date_exp"]) for i in items] == [
        ("MILK-1L", 24, "", ""), ("MILK-1L", 1, "", ""), ("CHEESE", 5, "L-2611", "2027-03-31")]
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d{4}", i["timestamp_client"]) for i in items)
    expect(tab.locator(".entry.booked")).to_have_count(1)
    keep_screenshot(tab, "scanner-home.png")








def test_a_double_tap_on_book_books_the_flow_once(phone, dairy):
    tab = paired(phone, dairy, dairy.key("phone-1"))
    tab.get_by_role("button", name="Receive").click()
    wedge(tab, MILK)
    wedge(tab, MILK)
    tab.get_by_role("button", name="Book").dblclick()
    expect(tab.locator("body")).to_have_attribute("data-screen", "home")
    booked(tab, 1)
    assert len(dairy.batches()) == 1
    assert dairy.stock("MILK-1L") == 2


def test_a_lot_asked_when_its_flow_ends_is_not_asked_in_the_next_one(phone, dairy):
    tab = paired(phone, dairy, dairy.key("phone-1"))
    tab.get_by_role("button", name="Receive").click()
    wedge(tab, MILK)
    assert wedge(tab, CHEESE) == "warning"  # its lot asked, then the flow booked without it
    tab.get_by_role("button", name="Book").click()
    booked(tab, 1)
    tab.get_by_role("button", name="Receive").click()
    expect(tab.get_by_label("Lot")).to_be_hidden()
    assert wedge(tab, MILK) == "ok"
    assert wedge(tab, CHEESE) == "warning"  # and discarded with the lot asked
    tab.get_by_role("button", name="Discard").click()
    tab.get_by_role("dialog").get_by_role("button", name="Discard").click()
    expect(tab.locator("body")).to_have_attribute("data-screen", "home")
    tab.get_by_role("button", name="Ship").click()
    expect(tab.get_by_label("Lot")).to_be_hidden()
    assert wedge(tab, MILK) == "ok"
    expect(tab.locator("#last")).to_contain_text("Milk")


def test_pick_an_order_first_expiring_lots_wrong_product_over_pick_and_a_partial_delivery(phone, dairy):
    stock_up(dairy)
    pick_order(dairy)
    other = dairy.key("phone-2")
    tab = paired(phone, dairy, dairy.key("phone-1"))
    tab.get_by_role("button", name="Pick an order").click()
    choose(tab, "SO-1")
    expect(tab.locator("body")).to_have_attribute("data-screen", "flow")
    assert dairy.order_state("SO-1") == 2  # taken: acquired for this device's key
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
    keep_screenshot(tab, "scanner-over-pick.png")
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
    keep_screenshot(tab, "scanner-pick.png")
    tab.get_by_role("button", name="Book").click()
    tab.get_by_role("dialog").get_by_role("button", name="Book partial").click()
    expect(tab.locator("body")).to_have_attribute("data-screen", "home")
    booked(tab, 2)
    # The order got 24 milk and 5 of its 6 cheeses: a partial delivery, state 3, no lock held.
    assert dairy.order_state("SO-1") == 3
    view = dairy.ok("GET", "/v1/documents/SO-1")["item"]
    assert [(line["product_code"], line["amount_delivered"]) for line in view["items"]] == [("MILK-1L", 24), ("CHEESE", 5)]
    scanned = [b for b in dairy.batches() if b["batch_settings"]["batch_number"] != 1]  # 1: stock_up's
    on_order, beyond = sorted(scanned, key=lambda b: b["batch_settings"]["document_number"], reverse=True)
    assert on_order["batch_settings"]["document_number"] == "SO-1"
    assert [(i["product_code"], i["barcode"], i["amount_base_unit"], i["lot"]) for i in on_order["batch_items"]] == [
        ("MILK-1L", MILK_CRATE, 24, ""), ("CHEESE", CHEESE, 4, "L-OLD"), ("CHEESE", CHEESE, 1, "L-NEW")]
    assert (beyond["batch_settings"]["document_number"], beyond["batch_settings"]["name"]) == ("", "Pick: beyond order SO-1")
    assert [(i["product_code"], i["barcode"], i["amount_base_unit"]) for i in beyond["batch_items"]] == [
        ("MILK-1L", MILK_CRATE, 12)]
    assert dairy.stock("MILK-1L") == 40 - 36
    assert (dairy.stock("CHEESE", "L-OLD"), dairy.stock("CHEESE", "L-NEW")) == (0, 9)
    # The lock ended with the booking: another scanner takes the order at once.
    status, _ = other_acquires(dairy, other, "SO-1")
    assert status == 200




def test_putting_an_order_back_releases_it_and_books_nothing(phone, dairy):
    stock_up(dairy)
    pick_order(dairy)
    tab = paired(phone, dairy, dairy.key("phone-1"))
    tab.get_by_role("button", name="Pick an order").click()
    choose(tab, "SO-1")
    wedge(tab, MILK)
    tab.get_by_role("button", name="Put back").click()
    tab.get_by_role("dialog").get_by_role("button", name="Put back").click()
    expect(tab.locator("body")).to_have_attribute("data-screen", "home")
    booked(tab, 1)
    assert dairy.order_state("SO-1") == 1
    assert other_acquires(dairy, dairy.key("phone-2"), "SO-1")[0] == 200
    assert [b["batch_settings"]["batch_number"] for b in dairy.batches()] == [1]


def test_an_order_another_scanner_holds_says_who(phone, dairy):
    stock_up(dairy)
    pick_order(dairy)
    assert other_acquires(dairy, dairy.key("gate-2"), "SO-1")[0] == 200
    tab = paired(phone, dairy, dairy.key("phone-1"))
    tab.get_by_role("button", name="Pick an order").click()
    choose(tab, "SO-1 · held by gate-2")
    expect(tab.locator("#notice")).to_contain_text("being processed by another key ('gate-2', since")
    expect(tab.locator("body")).to_have_attribute("data-screen", "home")


def test_ship_without_an_order_and_a_blind_count_of_the_day(phone, dairy):
    stock_up(dairy)
    tab = paired(phone, dairy, dairy.key("phone-1"))
    tab.get_by_role("button", name="Ship").click()
    wedge(tab, MILK)
    wedge(tab, MILK)
    tab.get_by_role("button", name="Book").click()
    booked(tab, 1)
    assert dairy.stock("MILK-1L") == 38
    # The count: what is found, not what the books say (the page never shows the book stock).
    tab.get_by_role("button", name="Count").click()
    expect(tab.locator("body")).not_to_contain_text("38")
    wedge(tab, MILK_CRATE)
    wedge(tab, MILK_CRATE)
    wedge(tab, MILK)
    wedge(tab, CHEESE)
    tab.get_by_label("Lot").fill("L-NEW")
    expect(tab.get_by_label("Best before")).to_be_hidden()
    tab.get_by_role("button", name="Add").click()
    tab.get_by_label("Quantity").fill("9")
    tab.get_by_role("button", name="Set").click()
    keep_screenshot(tab, "scanner-count.png")
    tab.get_by_role("button", name="Book").click()
    booked(tab, 2)
    assert dairy.stock("MILK-1L") == 25
    assert (dairy.stock("CHEESE", "L-NEW"), dairy.stock("CHEESE", "L-OLD")) == (9, 4)  # L-OLD was not counted
    ship, count = [b for b in dairy.batches() if b["batch_settings"]["batch_number"] != 1]
    assert (ship["batch_settings"]["direction"], ship["batch_settings"]["type"]) == ("O", "R")
    assert count["batch_settings"]["type"] == "V"
    [taking] = dairy.ok("GET", "/v1/stocktakings/list")["list"]
    assert taking["date"] == count["batch_settings"]["date"]


def test_an_unknown_code_an_inactive_product_and_a_whole_piece_rule_are_told_at_once(phone, dairy):
    dairy.ok("POST", "/v1/products/", {"product_code": "OLD", "name": "Old cream", "base_unit": "pc",
                                       "base_unit_barcode": "OLD-CREAM", "active": 0})
    tab = paired(phone, dairy, dairy.key("phone-1"))
    tab.get_by_role("button", name="Receive").click()
    requests = []
    tab.on("request", lambda request: requests.append(request.url))
    assert wedge(tab, "0000-NOTHING") == "error"
    expect(tab.locator("#last")).to_contain_text("Unknown code: 0000-NOTHING")
    assert wedge(tab, "OLD-CREAM") == "error"
    expect(tab.locator("#last")).to_contain_text("Old cream is not active")
    wedge(tab, MILK)
    tab.get_by_label("Quantity").fill("1.5")
    tab.get_by_role("button", name="Set").click()
    expect(tab.locator("#last")).to_contain_text("Milk 1 l is counted in whole pc")
    assert requests == []  # a scan resolves on the device: no request per scan
    tab.get_by_role("button", name="Book").click()
    expect(tab.locator("#last")).to_contain_text("counted in whole pc")
    assert dairy.batches() == []


def test_a_batch_the_service_refuses_needs_attention_with_its_message_and_stays(phone, dairy):
    tab = paired(phone, dairy, dairy.key("phone-1"))
    tab.get_by_role("button", name="Ship").click()
    wedge(tab, BUTTER)
    tab.get_by_role("button", name="Book").click()
    attention = tab.locator(".entry.attention")
    expect(attention).to_contain_text("needs attention")
    expect(attention).to_contain_text("409")
    expect(tab.locator("[data-queue-attention]")).to_have_text("1")
    tab.reload()
    expect(tab.locator(".entry.attention")).to_contain_text("short")
    keep_screenshot(tab, "scanner-attention.png")
    # Stock arrives; sent again as it was, it is booked.
    dairy.ok("POST", "/v1/batches/", batch(900000, [item("BUTTER", 5)]))
    tab.locator(".entry.attention").get_by_role("button", name="Send again").click()
    expect(tab.locator("[data-queue-attention]")).to_have_text("0")
    booked(tab, 1)
    assert dairy.stock("BUTTER") == 4


def test_a_reload_in_the_middle_of_a_flow_loses_no_scan(phone, dairy):
    tab = paired(phone, dairy, dairy.key("phone-1"))
    tab.get_by_role("button", name="Receive").click()
    wedge(tab, MILK)
    wedge(tab, MILK_CRATE)
    tab.reload()
    expect(tab.locator("body")).to_have_attribute("data-screen", "flow")
    expect(tab.locator("#lines li")).to_have_count(2)
    wedge(tab, MILK)
    tab.get_by_role("button", name="Book").click()
    booked(tab, 1)
    assert dairy.stock("MILK-1L") == 14


@pytest.fixture
def desktop(browser, dairy):
    context = open_context(browser, dairy, DESKTOP)
    yield context
    close_context(context)


def test_on_a_desktop_with_a_usb_scanner_the_focus_comes_back_to_the_scan_field(desktop, dairy):
    tab = paired(desktop, dairy, dairy.key("pc-1"))
    tab.get_by_role("button", name="Receive").click()
    wedge(tab, MILK)
    # A click on the page, then a scan while the quantity field has the focus: both still reach the scan.
    tab.locator("#lines").click()
    wedge(tab, BUTTER)
    tab.get_by_label("Quantity").click()
    tab.get_by_label("Quantity").fill("")
    tab.keyboard.type("4")
    tab.wait_for_timeout(TRIGGER_AGAIN_MS)  # a person's typing, then the trigger: two bursts
    assert wedge(tab, MILK_CRATE) == "ok"
    expect(tab.get_by_label("Quantity")).to_have_value("4")  # the burst was taken back out of it
    expect(tab.locator("#lines li")).to_have_count(3)
    # A wedge scanner that sends each code twice: counted once.
    tab.wait_for_timeout(TRIGGER_AGAIN_MS)
    tab.locator("#scan").focus()
    tab.keyboard.type(f"{MILK}\n{MILK}\n")  # one stream, as such a scanner sends it
    expect(tab.locator("#lines li", has_text="Milk 1 l").first).to_contain_text("2 pc")
    tab.get_by_role("button", name="Book").click()
    booked(tab, 1)
    assert dairy.stock("MILK-1L") == 14


# The keys of a code land on the page (the scan field had just lost its focus), the focus comes back
# to the scan field, then the code's Enter: as a busy page runs the refocus after the keys queued.
# Spaced `gap` ms apart: at once, or slower than a scanner's pace as a busy phone may deliver them.
SPLIT_BY_REFOCUS = """async ([code, gap]) => {
  const scan = document.getElementById("scan");
  scan.blur();
  for (const key of code) {
    document.body.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }));
    if (gap) await new Promise((done) => setTimeout(done, gap));
  }
  scan.focus();
  scan.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
}"""


@pytest.mark.parametrize("gap", [0, 400], ids=["at-once", "slowly"])
def test_a_code_on_the_page_whose_enter_comes_after_the_focus_came_back_is_still_scanned(desktop, dairy, gap):
    tab = paired(desktop, dairy, dairy.key("pc-1"))
    tab.get_by_role("button", name="Receive").click()
    wedge(tab, MILK)
    told(tab, lambda: tab.evaluate(SPLIT_BY_REFOCUS, [BUTTER, gap]))
    expect(tab.locator("#lines li")).to_have_count(2)
    expect(tab.locator("#lines li", has_text="Butter")).to_have_count(1)


def test_targets_are_a_thumb_wide_and_nothing_scrolls_sideways_on_a_phone(phone, dairy):
    tab = paired(phone, dairy, dairy.key("phone-1"))
    for screen in ("home", "flow"):
        if screen == "flow":
            tab.get_by_role("button", name="Receive").click()
            wedge(tab, MILK)
        assert sideways(tab) <= 0
        small = tab.evaluate("""[...document.querySelectorAll('main button, main input')]
            .filter(e => e.offsetParent !== null)
            .map(e => [e.textContent.trim() || e.id, e.getBoundingClientRect().height])
            .filter(([, h]) => h < 48)""")
        assert small == []
    # The scan field and the last scan in view after many lines.
    for code in (MILK_CRATE, BUTTER):
        wedge(tab, code)
    assert tab.locator("#scan").is_visible() and tab.locator("#last").is_visible()
    box = laid_out(tab.locator("#last"))
    assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"]



def buttons(tab):
    """Every button drawn on the screen now, by its name, with its height in px (read once the page has loaded)."""
    tab.wait_for_load_state("load")
    return tab.evaluate("""() => [...document.querySelectorAll('button')].filter((button) => button.checkVisibility())
        .map((button) => [button.getAttribute('aria-label') || button.textContent.trim(),
                          button.getBoundingClientRect().height])""")


def test_every_button_on_every_screen_is_a_thumb_high_on_a_phone(phone, dairy):
    """48 px at least (DESIGN 24, issue 38), the small ones too: the bar's Send now, Refresh, a lot to
    take, a refused batch's Send again, on each screen a person reaches, and in a question."""
    stock_up(dairy)
    pick_order(dairy)
    tab = phone.new_page()
    tab.goto(f"{dairy.base}/scan")
    short = {}

    def measure(screen, *names):
        drawn = buttons(tab)
        assert set(names) <= {name for name, _ in drawn}, (screen, drawn)
        short[screen] = [(name, height) for name, height in drawn if height < 48]

    expect(tab.locator("body")).to_have_attribute("data-screen", "pair")
    measure("pairing", "Pair", "Send now")
    tab.get_by_label("Key").fill(dairy.key("phone-1"))
    tab.get_by_role("button", name="Pair").click()
    expect(tab.locator("#data-size")).to_have_text(re.compile(r"^[1-9]\d* products"))
    tab.get_by_role("button", name="Ship").click()
    wedge(tab, BUTTER)  # none in stock: refused, and kept with its buttons
    tab.get_by_role("button", name="Book").click()
    expect(tab.locator(".entry.attention")).to_contain_text("needs attention")
    measure("home and the queue", "Receive", "Pick an order", "Refresh", "Unpair", "Send now", "Send again", "Edit",
            "Delete")
    tab.get_by_role("button", name="Pick an order").click()
    expect(tab.locator("body")).to_have_attribute("data-screen", "choose")
    measure("a choice", "Back")
    choose(tab, "SO-1")
    expect(tab.locator("body")).to_have_attribute("data-screen", "flow")
    measure("a flow", "Camera", "Type", "Put back", "Book", "Set")
    wedge(tab, CHEESE)
    expect(tab.locator("#lot-choices button")).to_have_count(2)
    measure("the lot", "Add", "Cancel")
    tab.get_by_role("button", name="Add").click()
    tab.get_by_label("Quantity").click()
    expect(tab.locator("#quantity-form")).to_have_class(re.compile(r"\bopen\b"))
    measure("the keypad", "7", "0", "Delete a digit")
    tab.get_by_role("button", name="Put back").click()
    expect(tab.get_by_role("dialog")).to_be_visible()
    measure("a question", "Put back", "Cancel")
    assert short == {screen: [] for screen in short}


# --- the camera: chromium's fake capture plays a film of printed labels -------------------------------

@pytest.fixture
def camera_phone(browser, dairy, tmp_path):
    """A phone whose camera films two printed labels in turn (the service's own label PDFs): Milk's
    EAN-13, then Butter's Code 128. Chromium here has no BarcodeDetector: the service reads the frames."""
    from conftest import CHROMIUM, CHROMIUM_ARGS
    from printing.label_pdf import labels_pdf
    from scanning import camera_film, page_image

    drawn = [page_image(labels_pdf([{"product_code": code, "name": name, "unit": "pc", "barcode": barcode,
                                     "lot": "", "date_exp": ""}], (62, 29)), dpi=200)
             for code, name, barcode in (("MILK-1L", "Milk 1 l", MILK), ("BUTTER", "Butter 250 g", BUTTER))]
    film = tmp_path / "labels.y4m"
    camera_film(drawn, film)
    args = CHROMIUM_ARGS + ["--use-fake-device-for-media-stream", f"--use-file-for-fake-video-capture={film}",
                            "--use-fake-ui-for-media-stream"]
    # A chromium of its own (its camera is a launch flag), from the worker's one Playwright.
    filming = browser.browser_type.launch(executable_path=CHROMIUM, args=args, headless=True)
    try:
        context = open_context(filming, dairy)
        context.grant_permissions(["camera"], origin=dairy.base)
        yield context
        close_context(context)
    finally:
        filming.close()


def test_the_camera_reads_an_ean13_and_a_code128_label_through_the_service(camera_phone, dairy):
    tab = paired(camera_phone, dairy, dairy.key("phone-1"))
    tab.get_by_role("button", name="Receive").click()
    expect(tab.locator("body")).to_have_attribute("data-screen", "flow")
    with tab.expect_request(re.compile(r"/v1/barcodes/read$")):
        tab.get_by_role("button", name="Camera").click()
    expect(tab.locator("#camera-note")).to_contain_text("the service reads it")
    expect(tab.locator("#lines li", has_text="Milk 1 l")).to_have_count(1, timeout=20_000)
    expect(tab.locator("#lines li", has_text="Butter 250 g")).to_have_count(1, timeout=20_000)
    tab.get_by_role("button", name="Stop camera").click()
    expect(tab.locator("#viewfinder")).to_be_hidden()
    tab.get_by_role("button", name="Book").click()
    booked(tab, 1)
    assert dairy.stock("MILK-1L") >= 1 and dairy.stock("BUTTER") >= 1


def test_over_plain_http_off_this_machine_the_camera_says_why_and_links_the_https_help(phone, dairy):
    tab = paired(phone, dairy, dairy.key("phone-1"))
    tab.get_by_role("button", name="Receive").click()
    # A secure context is what the browser checks; 127.0.0.1 is one, a LAN address over http is not.
    tab.evaluate("Object.defineProperty(window, 'isSecureContext', {value: false})")
    tab.get_by_role("button", name="Camera").click()
    expect(tab.locator("#camera-note")).to_contain_text("The camera needs HTTPS")
    tab.get_by_role("link", name="How to set up HTTPS").click()
    expect(tab.get_by_role("heading", name="HTTPS: the camera and starting offline")).to_be_visible()


# --- pairing from the office's keys page ------------------------------------------------------------

def test_the_keys_pages_code_pairs_a_phone_when_its_camera_app_opens_it(browser, phone, dairy, session):
    import zxingcpp
    from PIL import Image

    from conftest import PASSWORD
    from identity import people
    from stock.audit import cli_actor

    people.create_person(session, cli_actor(), "boss", "admin", PASSWORD)
    session.remove()
    office = open_context(browser, dairy, DESKTOP)
    try:
        tab = office.new_page()
        tab.goto(dairy.base + "/login")
        tab.get_by_label("Name").fill("boss")
        tab.get_by_label("Password").fill(PASSWORD)
        tab.get_by_role("button", name="Sign in").click()
        tab.goto(dairy.base + "/admin/keys")
        tab.get_by_label("Device name").fill("phone-anna")
        tab.get_by_role("checkbox", name="Main").check()
        tab.get_by_role("button", name="Make key and show pairing code").click()
        shot = tab.locator("svg.qr").first.screenshot()
    finally:
        office.close()
    import io
    [code] = zxingcpp.read_barcodes(Image.open(io.BytesIO(shot)).convert("L"))
    assert code.text.startswith(dairy.base + "/scan#pair=")
    scanner = phone.new_page()
    scanner.goto(code.text)  # what the phone's camera app opens
    expect(scanner.locator("body")).to_have_attribute("data-screen", "home")
    scanner.get_by_role("button", name="Receive").click()
    wedge(scanner, MILK)
    scanner.get_by_role("button", name="Book").click()
    booked(scanner, 1)
    [made] = dairy.batches()
    assert made["batch_settings"]["batch_number"] > 0
    assert dairy.stock("MILK-1L") == 1


def test_a_code_that_stalls_halfway_or_begins_before_the_focus_comes_back_is_read_whole(phone, dairy):
    tab = paired(phone, dairy, dairy.key("phone-1"))
    tab.get_by_role("button", name="Receive").click()
    expect(tab.locator("body")).to_have_attribute("data-screen", "flow")
    # A busy phone: the wedge's characters stop for longer than a pause between scans, then go on.
    tab.keyboard.type(MILK[:4])
    tab.wait_for_timeout(400)
    tab.keyboard.type(MILK[4:])
    tab.keyboard.press("Enter")
    expect(tab.locator("#last")).to_contain_text("Milk 1 l")
    # A tap on the list, and the trigger at once: the code begins before the scan field has its focus back.
    tab.locator("#lines li").first.click()
    tab.keyboard.type(BUTTER)
    tab.keyboard.press("Enter")
    expect(tab.locator("#lines li")).to_have_count(2)
    expect(tab.locator("#last")).to_contain_text("Butter 250 g")
