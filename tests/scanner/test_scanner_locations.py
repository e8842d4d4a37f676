"""The browser scanner in warehouses with locations (DESIGN 27, its "Scanner"), in chromium against the
live service, with wedge input: Receive into a location scanned (or typed, or proposed), a Move within
a warehouse and into another one, a move booked in a dead spot and sent once, Pick led location by
location by the order's pick plan, and Count of a location. Each checked through the API: the stock
per location (GET /v1/locations/stock), the moves, the batches' wplace.
"""
from playwright.sync_api import expect

from scanner_page import (BUTTER, CHEESE, MILK, MILK_CRATE, PHONE, booked, choose, keep_screenshot, kept, paired,
                          pick_order, placed, put_away, racks, ready_for_a_dead_spot, told, warehouse_name,
                          wedge)


def lots_fetched(tab):
    """Wait (a bounded while) until the page holds what lies at the move's From: it asks the service
    for it after telling the From scan."""
    for _ in range(200):
        if (kept(tab, "flow") or {}).get("fromStock"):
            return
        tab.wait_for_timeout(50)
    assert (kept(tab, "flow") or {}).get("fromStock"), "the stock at From was never fetched"


def shot(tab, name):
    """A screenshot for docs/, of the phone's run only: the docs show the page at 390 px."""
    if tab.viewport_size == PHONE:
        keep_screenshot(tab, name)


# --- Receive --------------------------------------------------------------------------------------

def test_receive_goes_to_the_location_scanned_typed_or_proposed_and_a_warehouse_without_them_asks_none(device, dairy):
    racks(dairy)
    tab = paired(device, dairy, dairy.key("phone-1", warehouses=(1, 2)))
    tab.get_by_role("button", name="Receive").click()
    choose(tab, warehouse_name(dairy, 1))
    expect(tab.locator("#last")).to_contain_text("Scan the location")
    expect(tab.get_by_label("Location")).to_have_attribute("placeholder", "DOCK (proposed)")
    assert wedge(tab, MILK) == "ok"  # nothing chosen yet: the receiving location
    expect(tab.locator("#lines li").first).to_contain_text("at DOCK")
    assert wedge(tab, "a-2") == "ok"  # a shelf's label: whatever its case, it is the code
    expect(tab.get_by_label("Location")).to_have_value("A-2")
    wedge(tab, MILK_CRATE)
    assert wedge(tab, CHEESE) == "warning"
    tab.get_by_label("Lot").fill("L-7")
    tab.get_by_label("Best before").fill("2027-05-31")
    told(tab, tab.get_by_role("button", name="Add").click)
    tab.get_by_label("Quantity").fill("5")
    told(tab, tab.get_by_role("button", name="Set").click)
    shot(tab, "scanner-receive-location.png")
    # Typed into the field, as a person without a trigger does.
    tab.get_by_label("Location").fill("B-1")
    tab.get_by_label("Location").press("Enter")
    expect(tab.locator("#last")).to_contain_text("Location B-1")
    wedge(tab, BUTTER)
    assert wedge(tab, "NO-SUCH-SHELF") == "error"
    tab.get_by_role("button", name="Book").click()
    booked(tab, 1)
    assert placed(dairy) == {("DOCK", "MILK-1L", ""): 1, ("A-2", "MILK-1L", ""): 12, ("A-2", "CHEESE", "L-7"): 5,
                             ("B-1", "BUTTER", ""): 1}
    [made] = dairy.batches()
    assert [(i["product_code"], i["wplace"]) for i in made["batch_items"]] == [
        ("MILK-1L", "DOCK"), ("MILK-1L", "A-2"), ("CHEESE", "A-2"), ("BUTTER", "B-1")]
    # The next delivery proposes where this device put each product last.
    tab.get_by_role("button", name="Receive").click()
    choose(tab, warehouse_name(dairy, 1))
    wedge(tab, BUTTER)
    expect(tab.locator("#lines li").first).to_contain_text("at B-1")
    tab.get_by_role("button", name="Book").click()
    booked(tab, 2)
    assert placed(dairy)[("B-1", "BUTTER", "")] == 2
    # A warehouse without locations: the flow as it always was, no field, wplace empty.
    tab.get_by_role("button", name="Receive").click()
    choose(tab, warehouse_name(dairy, 2))
    expect(tab.get_by_label("Location")).to_be_hidden()
    wedge(tab, MILK)
    tab.get_by_role("button", name="Book").click()
    booked(tab, 3)
    assert [i["wplace"] for b in dairy.batches() if b["batch_settings"]["id_warehouse"] == 2
            for i in b["batch_items"]] == [""]
    assert placed(dairy, 2) == {("", "MILK-1L", ""): 1}


# --- Move -----------------------------------------------------------------------------------------

def test_a_move_within_a_warehouse_and_one_into_another_warehouse(device, dairy):
    racks(dairy)
    racks(dairy, 2, codes=("C-1", "C-2"), receiving="")
    put_away(dairy, 1, [("MILK-1L", 40, "A-1", "", ""), ("CHEESE", 2, "A-1", "L-NEW", "2027-06-30"),
                        ("CHEESE", 4, "A-1", "L-OLD", "2027-01-31")])
    tab = paired(device, dairy, dairy.key("phone-1", warehouses=(1, 2)))
    # Within warehouse 1: From scanned, what moves, To scanned.
    tab.get_by_role("button", name="Move").click()
    choose(tab, warehouse_name(dairy, 1))
    expect(tab.locator("#last")).to_contain_text("Scan From")
    assert wedge(tab, "A-1") == "ok"
    expect(tab.get_by_label("From")).to_have_value("A-1")
    wedge(tab, MILK_CRATE)
    wedge(tab, MILK)
    tab.get_by_role("button", name="Book").click()  # no To yet: the page asks for it, books nothing
    expect(tab.locator("#last")).to_contain_text("Scan To")
    assert wedge(tab, "A-2") == "ok"
    expect(tab.get_by_label("To")).to_have_value("A-2")
    shot(tab, "scanner-move.png")
    tab.get_by_role("button", name="Book").click()
    booked(tab, 1)
    assert placed(dairy) == {("A-1", "MILK-1L", ""): 27, ("A-2", "MILK-1L", ""): 13, ("A-1", "CHEESE", "L-OLD"): 4,
                             ("A-1", "CHEESE", "L-NEW"): 2}
    assert dairy.stock("MILK-1L") == 40  # within a warehouse only the locations change
    # Into warehouse 2: From typed, a lot, To a location of the other warehouse.
    tab.get_by_role("button", name="Move").click()
    choose(tab, warehouse_name(dairy, 1))
    tab.get_by_label("From").fill("A-1")
    tab.get_by_label("From").press("Enter")
    expect(tab.locator("#last")).to_contain_text("From: A-1")
    lots_fetched(tab)
    wedge(tab, CHEESE)
    # The lot prompt offers what lies at From, the first expiring first.
    expect(tab.get_by_label("Lot")).to_have_value("L-OLD")
    expect(tab.locator("#lot-choices button")).to_have_text(["L-OLD · 2027-01-31 · 4", "L-NEW · 2027-06-30 · 2"])
    told(tab, tab.get_by_role("button", name="Add").click)
    tab.get_by_label("Quantity").fill("3")
    told(tab, tab.get_by_role("button", name="Set").click)
    wedge(tab, "C-2")
    expect(tab.locator("#flow-title")).to_contain_text(f"→ {warehouse_name(dairy, 2)}")
    tab.get_by_role("button", name="Book").click()
    booked(tab, 2)
    assert placed(dairy)[("A-1", "CHEESE", "L-OLD")] == 1
    assert placed(dairy, 2) == {("C-2", "CHEESE", "L-OLD"): 3}
    assert (dairy.stock("CHEESE", "L-OLD"), dairy.stock("CHEESE", "L-OLD", warehouse=2)) == (1, 3)
    moves = dairy.ok("GET", "/v1/moves/")["list"]
    assert [(m["from"], m["to"], [(i["product_code"], i["amount"]) for i in m["items"]]) for m in moves] == [
        ({"id_warehouse": 1, "location": "A-1"}, {"id_warehouse": 1, "location": "A-2"}, [("MILK-1L", 13)]),
        ({"id_warehouse": 1, "location": "A-1"}, {"id_warehouse": 2, "location": "C-2"}, [("CHEESE", 3)])]
    assert moves[1]["out_doc"] and moves[1]["in_doc"]


def test_a_move_to_a_warehouse_without_locations_and_one_the_service_refuses_needs_attention(phone, dairy):
    racks(dairy)
    put_away(dairy, 1, [("MILK-1L", 5, "A-1", "", "")])
    tab = paired(phone, dairy, dairy.key("phone-1", warehouses=(1, 2)))
    tab.get_by_role("button", name="Move").click()
    choose(tab, warehouse_name(dairy, 1))
    wedge(tab, "A-1")
    wedge(tab, MILK_CRATE)  # 12, where 5 lie
    tab.get_by_role("button", name="To a warehouse").click()
    choose(tab, warehouse_name(dairy, 2))
    expect(tab.get_by_label("To")).to_have_attribute("placeholder", f"unplaced stock of {warehouse_name(dairy, 2)}")
    tab.get_by_role("button", name="Book").click()
    expect(tab.locator(".entry.attention")).to_have_count(1)
    expect(tab.locator(".entry.attention .why").first).to_contain_text("409")
    assert dairy.ok("GET", "/v1/moves/")["list"] == []
    # Edited: the move opens again; the crate taken out, the 5 pieces there are moved instead.
    tab.get_by_role("button", name="Edit").click()
    tab.locator("#lines li").first.click()
    tab.get_by_label("Quantity").fill("0")
    told(tab, tab.get_by_role("button", name="Set").click)
    wedge(tab, MILK)
    tab.get_by_label("Quantity").fill("5")
    told(tab, tab.get_by_role("button", name="Set").click)
    tab.get_by_role("button", name="Book").click()
    booked(tab, 1)
    assert placed(dairy) == {}
    assert placed(dairy, 2) == {("", "MILK-1L", ""): 5}


def test_a_move_booked_in_a_dead_spot_waits_and_is_sent_once_back_online(phone, dairy):
    racks(dairy)
    put_away(dairy, 1, [("MILK-1L", 30, "A-1", "", "")])
    tab = paired(phone, dairy, dairy.key("phone-1"))
    ready_for_a_dead_spot(tab)
    phone.set_offline(True)
    expect(tab.locator("#net")).to_have_text("Offline")
    tab.get_by_role("button", name="Move").click()
    wedge(tab, "A-1")
    wedge(tab, MILK_CRATE)
    wedge(tab, "B-1")
    tab.get_by_role("button", name="Book").click()
    expect(tab.locator("body")).to_have_attribute("data-screen", "home")
    expect(tab.locator("[data-queue-waiting]")).to_have_text("1")
    tab.reload()  # the move waits on the device, its move_id with it
    expect(tab.locator("[data-queue-waiting]")).to_have_text("1")
    assert placed(dairy) == {("A-1", "MILK-1L", ""): 30}
    phone.set_offline(False)
    booked(tab, 1)
    # Sent again (as after an answer lost on the way back): the service moves nothing more.
    tab.get_by_role("button", name="Send now").click()
    expect(tab.locator(".entry.booked")).to_have_count(1)
    [moved] = dairy.ok("GET", "/v1/moves/")["list"]
    assert moved["items"] == [{"product_code": "MILK-1L", "lot": "", "amount": 12}]
    assert placed(dairy) == {("A-1", "MILK-1L", ""): 18, ("B-1", "MILK-1L", ""): 12}


# --- Pick and Count -------------------------------------------------------------------------------

def test_pick_names_the_next_location_and_books_each_line_from_where_the_plan_took_it(device, dairy):
    racks(dairy)
    put_away(dairy, 1, [("MILK-1L", 12, "B-1", "", ""), ("MILK-1L", 12, "A-2", "", ""),
                        ("CHEESE", 4, "A-1", "L-OLD", "2027-01-31"), ("CHEESE", 10, "B-1", "L-NEW", "2027-06-30")])
    pick_order(dairy)
    tab = paired(device, dairy, dairy.key("phone-1"))
    tab.get_by_role("button", name="Pick an order").click()
    choose(tab, "SO-1")
    where = tab.locator("#where")
    expect(where).to_have_text("Go to A-1: Gouda 400 g lot L-OLD 4 pc")
    shot(tab, "scanner-pick-location.png")
    assert wedge(tab, "B-1") == "warning"  # not the next stop
    expect(tab.locator("#last")).to_contain_text("Go to A-1")
    assert wedge(tab, "A-1") == "ok"
    wedge(tab, CHEESE)
    expect(tab.get_by_label("Lot")).to_have_value("L-OLD")
    told(tab, tab.get_by_role("button", name="Add").click)
    tab.get_by_label("Quantity").fill("4")
    told(tab, tab.get_by_role("button", name="Set").click)
    expect(where).to_have_text("Go to A-2: Milk 1 l 12 pc")
    wedge(tab, MILK_CRATE)
    expect(where).to_have_text("Go to B-1: Gouda 400 g lot L-NEW 2 pc, Milk 1 l 12 pc")
    wedge(tab, MILK_CRATE)
    wedge(tab, CHEESE)
    expect(tab.get_by_label("Lot")).to_have_value("L-NEW")
    told(tab, tab.get_by_role("button", name="Add").click)
    tab.get_by_label("Quantity").fill("2")
    told(tab, tab.get_by_role("button", name="Set").click)
    expect(where).to_contain_text("Everything planned is taken")
    tab.get_by_role("button", name="Book").click()
    booked(tab, 1)
    assert dairy.order_state("SO-1") == 0  # closed: everything delivered
    [made] = [b for b in dairy.batches() if b["batch_settings"]["document_number"] == "SO-1"]
    assert sorted((i["product_code"], i["lot"], i["wplace"], i["amount_base_unit"]) for i in made["batch_items"]) == [
        ("CHEESE", "L-NEW", "B-1", 2), ("CHEESE", "L-OLD", "A-1", 4), ("MILK-1L", "", "A-2", 12), ("MILK-1L", "", "B-1", 12)]
    assert placed(dairy) == {("B-1", "CHEESE", "L-NEW"): 8}


def test_an_order_taken_online_is_led_location_by_location_in_a_dead_spot(phone, dairy):
    racks(dairy)
    put_away(dairy, 1, [("MILK-1L", 12, "B-1", "", ""), ("MILK-1L", 12, "A-2", "", "")])
    pick_order(dairy, lines=(("MILK-1L", 24),))
    tab = paired(phone, dairy, dairy.key("phone-1"))
    ready_for_a_dead_spot(tab)
    tab.get_by_role("button", name="Pick an order").click()
    choose(tab, "SO-1")
    expect(tab.locator("#where")).to_have_text("Go to A-2: Milk 1 l 12 pc")
    phone.set_offline(True)
    tab.reload()  # the plan is kept with the flow on the device
    expect(tab.locator("#where")).to_have_text("Go to A-2: Milk 1 l 12 pc")
    wedge(tab, MILK_CRATE)
    expect(tab.locator("#where")).to_have_text("Go to B-1: Milk 1 l 12 pc")
    wedge(tab, MILK_CRATE)
    tab.get_by_role("button", name="Book").click()
    expect(tab.locator("[data-queue-waiting]")).to_have_text("1")
    phone.set_offline(False)
    booked(tab, 1)
    assert dairy.order_state("SO-1") == 0
    assert placed(dairy) == {}


def test_count_asks_the_location_first_and_counts_each_location_scanned(phone, dairy):
    racks(dairy)
    put_away(dairy, 1, [("MILK-1L", 10, "A-1", "", ""), ("MILK-1L", 5, "A-2", "", ""), ("BUTTER", 3, "A-1", "", "")])
    tab = paired(phone, dairy, dairy.key("phone-1"))
    tab.get_by_role("button", name="Count").click()
    expect(tab.locator("#last")).to_contain_text("Scan the location first")
    assert wedge(tab, MILK) == "error"
    expect(tab.locator("#lines li")).to_have_count(0)
    assert wedge(tab, "A-1") == "ok"
    wedge(tab, MILK_CRATE)
    wedge(tab, BUTTER)
    tab.get_by_label("Quantity").fill("0")  # found none of it here
    told(tab, tab.get_by_role("button", name="Set").click)
    wedge(tab, "B-1")
    wedge(tab, MILK)
    keep_screenshot(tab, "scanner-count-location.png")
    tab.get_by_role("button", name="Book").click()
    booked(tab, 1)
    [made] = [b for b in dairy.batches() if b["batch_settings"]["type"] == "V"]
    assert [(i["product_code"], i["wplace"], i["amount_base_unit"]) for i in made["batch_items"]] == [
        ("MILK-1L", "A-1", 12), ("BUTTER", "A-1", 0), ("MILK-1L", "B-1", 1)]
    # A-2 was not counted: it keeps its 5.
    assert placed(dairy) == {("A-1", "MILK-1L", ""): 12, ("A-2", "MILK-1L", ""): 5, ("B-1", "MILK-1L", ""): 1}
