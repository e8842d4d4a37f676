"""The browser scanner through a dead spot (DESIGN 25), in chromium at 390x844: batches booked with no
network wait on the device (IndexedDB) and reach the service exactly once, whatever happens between:
a reload, two tabs, the service restarted, an answer lost on the way back, the phone's clock off by
hours, the device paired anew. The stock after each equals the stock of the batches booked once each.
"""
import hashlib
import re
from datetime import date, datetime, timedelta
from pathlib import Path

from playwright.sync_api import expect

from static_files import hashed_name

from scanner_page import (CHEESE, MILK, MILK_CRATE, booked, choose, close_context, keep_screenshot, kept,
                          lease_sending_to_this_tab, open_context, paired, pick_order, ready_for_a_dead_spot, receive, stock_up,
                          wedge)
from server import REPO


def waiting(tab, count):
    expect(tab.locator("[data-queue-waiting]")).to_have_text(str(count))


def pause_is(tab, milliseconds):
    """Wait (a bounded while) until the queue's pause before its next try is this long: a try ends
    when its request fails, a moment after it began."""
    for _ in range(100):
        if (kept(tab, "sending") or {}).get("pause") == milliseconds:
            return
        tab.wait_for_timeout(50)
    assert (kept(tab, "sending") or {}).get("pause") == milliseconds


def sent_batches(dairy):
    """The batches the service booked, by number, and how many there are of each (exactly once: 1)."""
    return [b["batch_settings"]["batch_number"] for b in dairy.batches()]


def test_three_batches_booked_offline_survive_a_reload_and_are_booked_once_back_online(phone, dairy):
    tab = paired(phone, dairy, dairy.key("phone-1"))
    ready_for_a_dead_spot(tab)
    phone.set_offline(True)
    expect(tab.locator("#net")).to_have_text("Offline")
    for code in (MILK, MILK_CRATE, MILK):
        receive(tab, code)
    waiting(tab, 3)
    assert dairy.batches() == []
    # A reload with no network: the service worker gives the page, IndexedDB the batches.
    tab.reload()
    expect(tab.locator("body")).to_have_attribute("data-screen", "home")
    waiting(tab, 3)
    # Waiting, or being tried again by the page as it started: never booked, never lost.
    expect(tab.locator(".entry.waiting, .entry.sending")).to_have_count(3)
    expect(tab.locator("#data-at")).not_to_have_text("never")  # the data of the last refresh, and when
    keep_screenshot(tab, "scanner-offline.png")
    phone.set_offline(False)
    booked(tab, 3)
    numbers = sent_batches(dairy)
    assert len(numbers) == len(set(numbers)) == 3
    assert dairy.stock("MILK-1L") == 1 + 12 + 1


def test_the_service_worker_keeps_every_file_of_the_page_for_a_start_offline(phone, dairy):
    """Every module and stylesheet of scanner/static, whatever its name: one left out of what the
    worker keeps is missing when the phone next starts the page in a dead spot, and the page with it."""
    tab = paired(phone, dairy, dairy.key("phone-1"))
    ready_for_a_dead_spot(tab)  # the worker in control: it has kept what it keeps
    held = tab.evaluate("""async () => (await (await caches.open("warehouse-scanner-page")).keys())
        .map((request) => new URL(request.url).pathname)""")
    static = Path(REPO) / "scanner" / "static"
    # Each at the address its contents name (static_files.py): name.<first 12 hex of its SHA-256>.ext
    files = {"/scan/assets/" + hashed_name(path.relative_to(static).as_posix(),
                                           hashlib.sha256(path.read_bytes()).hexdigest()[:12])
             for path in static.rglob("*") if path.is_file() and path.name != "worker.js"}
    assert any(re.fullmatch(r"/scan/assets/app\.[0-9a-f]{12}\.js", address) for address in files)
    assert sorted((files | {"/scan", "/scan/help"}) - set(held)) == []


def test_two_tabs_coming_online_at_once_send_each_batch_once(phone, dairy):
    first = paired(phone, dairy, dairy.key("phone-1"))
    ready_for_a_dead_spot(first)
    second = phone.new_page()
    second.goto(f"{dairy.base}/scan")
    expect(second.locator("body")).to_have_attribute("data-screen", "home")
    # The sends that reached the service, by tab and batch number. Only those answered: a send
    # tried offline fails in the browser and may be reported after this line, never here.
    sent = []
    phone.on("requestfinished", lambda request: sent.append(
        ("first" if request.frame.page == first else "second", request.post_data_json["data"]["batch_settings"]["batch_number"]))
        if request.method == "POST" and request.url.endswith("/v1/batches/") else None)
    phone.set_offline(True)
    for code in (MILK, MILK_CRATE, MILK):
        receive(first, code)
    waiting(second, 3)  # the other tab sees the same queue
    phone.set_offline(False)  # both tabs hear "online" at once
    booked(first, 3)
    booked(second, 3)
    assert len(sent_batches(dairy)) == 3
    assert len(sent) == 3 and len({tab for tab, _number in sent}) == 1  # one sender, each batch once
    assert dairy.stock("MILK-1L") == 14


def test_a_page_reloaded_while_it_was_sending_takes_its_lease_back_at_once(phone, dairy):
    tab = paired(phone, dairy, dairy.key("phone-1"))
    ready_for_a_dead_spot(tab)
    phone.set_offline(True)
    receive(tab, MILK)
    waiting(tab, 1)
    # Reloaded in the middle of a send: the lease is still held by the page that was, for a minute.
    lease_sending_to_this_tab(tab, 60)
    tab.reload()
    waiting(tab, 1)
    phone.set_offline(False)
    booked(tab, 1)  # within expect's 15 s, not after the lease's minute
    assert len(sent_batches(dairy)) == 1


def test_the_service_stopped_and_started_while_batches_wait_and_the_pauses_grow(phone, dairy):
    tab = phone.new_page()
    tab.clock.install()
    tab.goto(f"{dairy.base}/scan#pair={dairy.key('phone-1')}")
    ready_for_a_dead_spot(tab)
    dairy.server.stop()
    receive(tab, MILK)
    receive(tab, MILK_CRATE)
    waiting(tab, 2)
    expect(tab.locator(".entry.waiting").first).to_contain_text("waiting")
    # No answer to either booking's send: the next try waits a minute, the one after two...
    pause_is(tab, 60_000)
    tab.clock.fast_forward("00:30")
    pause_is(tab, 60_000)  # not yet
    tab.clock.fast_forward("00:31")
    pause_is(tab, 120_000)
    dairy.server.start(same_port=True)
    assert dairy.batches() == []
    tab.clock.fast_forward("02:01")  # ...and then it answers
    booked(tab, 2)
    assert len(sent_batches(dairy)) == 2
    assert dairy.stock("MILK-1L") == 13
    assert kept(tab, "sending") is None


def test_an_answer_lost_on_the_way_back_is_sent_again_and_booked_once(phone, dairy):
    tab = paired(phone, dairy, dairy.key("phone-1"))
    ready_for_a_dead_spot(tab)
    lost = []

    def answer_lost(route):
        if route.request.method == "POST" and not lost:
            lost.append(route.fetch().status)  # it reached the service and was booked...
            route.abort("connectionreset")  # ...but the answer never came back
        else:
            route.continue_()

    tab.route(re.compile(r".*/v1/batches/$"), answer_lost)
    receive(tab, MILK_CRATE)
    expect(tab.locator(".entry.waiting")).to_contain_text("The service did not answer.")
    assert lost == [201] and len(sent_batches(dairy)) == 1
    tab.get_by_role("button", name="Send now").click()
    booked(tab, 1)
    assert len(sent_batches(dairy)) == 1
    assert dairy.stock("MILK-1L") == 12


def test_the_phones_clock_hours_off_and_a_batch_booked_two_days_late_keep_the_day_it_was_scanned(phone, dairy):
    scanned = datetime.now() - timedelta(days=2, hours=-5)  # two days ago, five hours ahead of that
    tab = phone.new_page()
    tab.clock.install(time=scanned)
    tab.goto(f"{dairy.base}/scan#pair={dairy.key('phone-1')}")
    ready_for_a_dead_spot(tab)
    phone.set_offline(True)
    receive(tab, MILK)
    tab.clock.set_system_time(datetime.now() + timedelta(hours=3))  # days later, still off by hours
    phone.set_offline(False)
    booked(tab, 1)
    [made] = dairy.batches()
    day = scanned.date().isoformat()
    assert made["batch_settings"]["date"] == day
    assert made["batch_settings"]["created_date"] == date.today().isoformat()
    assert made["batch_items"][0]["timestamp_client"].startswith(day + "T")


def test_an_order_taken_before_the_network_went_away_is_picked_offline_one_not_taken_is_not(phone, dairy):
    stock_up(dairy)
    pick_order(dairy, "SO-1")
    pick_order(dairy, "SO-2", lines=(("MILK-1L", 2),))
    tab = paired(phone, dairy, dairy.key("phone-1"))
    ready_for_a_dead_spot(tab)
    tab.get_by_role("button", name="Pick an order").click()
    choose(tab, "SO-1")
    wedge(tab, MILK_CRATE)
    phone.set_offline(True)
    tab.reload()  # the flow is kept, the order's lines and lots too
    wedge(tab, MILK_CRATE)
    wedge(tab, CHEESE)
    expect(tab.get_by_label("Lot")).to_have_value("L-OLD")
    tab.get_by_role("button", name="Add").click()
    tab.get_by_role("button", name="Book").click()
    tab.get_by_role("dialog").get_by_role("button", name="Book partial").click()
    waiting(tab, 1)
    tab.get_by_role("button", name="Pick an order").click()
    choose(tab, "SO-2")
    expect(tab.locator("#notice")).to_contain_text("Order SO-2 was not taken before the network went away")
    expect(tab.locator("body")).to_have_attribute("data-screen", "home")
    phone.set_offline(False)
    booked(tab, 1)
    assert dairy.order_state("SO-1") == 3 and dairy.order_state("SO-2") == 1
    assert dairy.stock("MILK-1L") == 40 - 24 and dairy.stock("CHEESE", "L-OLD") == 3


def test_a_reserved_number_is_409_for_another_key_and_a_refused_batch_stays_for_attention(phone, dairy):
    tab = paired(phone, dairy, dairy.key("phone-1"))
    ready_for_a_dead_spot(tab)
    [block] = kept(tab, "numbers")
    other = dairy.key("gate-2")
    status, answer = dairy.as_key(other, "POST", "/v1/batches/", {
        "batch_settings": {"batch_number": str(block["next"]), "id_warehouse": "1", "direction": "I", "type": "R"},
        "batch_items": [{"product_code": "MILK-1L", "amount": "1", "unit": "pc"}]})
    assert status == 409 and "reserved for the scanner 'phone-1'" in answer["error"]["message"]
    phone.set_offline(True)
    receive(tab, MILK)  # will be booked
    tab.get_by_role("button", name="Ship").click()
    wedge(tab, CHEESE)  # will be refused: no stock of the lot
    tab.get_by_label("Lot").fill("NONE")
    tab.get_by_role("button", name="Add").click()
    tab.get_by_role("button", name="Book").click()
    waiting(tab, 2)
    phone.set_offline(False)
    expect(tab.locator("[data-queue-attention]")).to_have_text("1")
    booked(tab, 1)
    attention = tab.locator(".entry.attention")
    expect(attention).to_contain_text("409")
    tab.reload()
    expect(tab.locator(".entry.attention")).to_contain_text("needs attention")
    assert sent_batches(dairy) == [block["next"]]
    tab.locator(".entry.attention").get_by_role("button", name="Delete").click()
    tab.get_by_role("dialog").get_by_role("button", name="Delete").click()
    expect(tab.locator("[data-queue-attention]")).to_have_text("0")


def test_unpairing_with_work_waiting_asks_and_keeps_it_for_the_next_key(phone, dairy):
    tab = paired(phone, dairy, dairy.key("phone-1"))
    ready_for_a_dead_spot(tab)
    phone.set_offline(True)
    receive(tab, MILK)
    tab.get_by_role("button", name="Unpair").click()
    expect(tab.get_by_role("dialog")).to_contain_text("1 batch(es) are not booked by the service yet. They stay on this device")
    tab.get_by_role("dialog").get_by_role("button", name="Unpair").click()
    expect(tab.locator("body")).to_have_attribute("data-screen", "pair")
    waiting(tab, 1)
    phone.set_offline(False)
    tab.get_by_label("Key").fill(dairy.key("phone-2"))
    tab.get_by_role("button", name="Pair").click()
    # Numbered from phone-1's block, it is numbered anew from phone-2's: booked once, by phone-2.
    booked(tab, 1)
    [made] = dairy.batches()
    assert dairy.stock("MILK-1L") == 1
    assert made["batch_extras"] == [] and made["batch_settings"]["batch_number"] > 100


def test_over_plain_http_the_page_says_that_starting_offline_needs_https_and_still_queues(browser, dairy):
    from conftest import CHROMIUM, CHROMIUM_ARGS

    lan = browser.browser_type.launch(executable_path=CHROMIUM, headless=True,
                                      args=CHROMIUM_ARGS + ["--host-resolver-rules=MAP depot.lan 127.0.0.1"])
    base = f"http://depot.lan:{dairy.server.port}"
    try:
        context = open_context(lan, dairy, base=base)
        tab = context.new_page()
        tab.goto(f"{base}/scan#pair={dairy.key('phone-1')}")
        expect(tab.locator("#notice")).to_contain_text("starting it without the network, and the camera, need HTTPS")
        assert tab.evaluate("window.isSecureContext") is False
        assert tab.evaluate("'serviceWorker' in navigator") is False
        ready_for_a_dead_spot(tab)
        context.set_offline(True)
        receive(tab, MILK)
        waiting(tab, 1)
        context.set_offline(False)
        booked(tab, 1)
        assert dairy.stock("MILK-1L") == 1
        close_context(context)
    finally:
        lan.close()
