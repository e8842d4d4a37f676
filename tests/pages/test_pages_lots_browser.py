"""A lot's story, its recall list and a write-off from the alerts page, in chromium at 1280 px and on
a 390 px phone (DESIGN 28), on the demo depot; an order's returns on its page."""
import csv
import io

import pytest
from playwright.sync_api import expect

from browsing import DESKTOP, PHONE, fits, fits_and_kept, keep_screenshot, short_targets, sign_in, sign_in_as_admin
from conftest import laid_out

pytestmark = pytest.mark.live


def expired_lot(server) -> dict:
    status, body = server.get("/v1/alerts/")
    assert status == 200, body
    past = [row for row in body["item"]["expiring"] if row["days_left"] < 0]
    assert past, "the demo depot holds lots past their best-before"
    return past[0]


def delivered_lot(server) -> tuple[str, str, str]:
    """A lot of the demo delivered on an order: (product, lot, order)."""
    status, body = server.post("/v1/docs/filter", {"level": 1, "doc_direction": "O"})
    assert status == 200, body
    for doc in reversed(body["list"]):
        lines = [line for line in doc["wh_doc_items"] if line["lot"]]
        if not lines or doc["batch_number"] <= 0:
            continue
        status, batch = server.get(f"/v1/batches/{doc['batch_number']}")
        if status == 200 and batch["item"]["batch_settings"]["document_number"]:
            return lines[0]["product_code"], lines[0]["lot"], batch["item"]["batch_settings"]["document_number"]
    raise AssertionError("no delivery of a lot on an order in the demo")


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_lot_page_tells_both_directions_and_downloads_the_recall_list(page, demo_depot, size, tmp_path):
    server, password = demo_depot
    code, lot, number = delivered_lot(server)
    status, body = server.post("/v1/returns/", {"return_id": "demo-r1", "document_number": number,
                                                "reason": "crate broken",
                                                "items": [{"product_code": code, "lot": lot, "amount": 1}]})
    assert status == 201, body
    page.set_viewport_size(size)
    sign_in(page, password)
    page.goto(page.base + f"/lots/{code}/{lot}")
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Lot {lot}")
    expect(page.locator("#lot-received tbody tr").first).to_be_visible()
    expect(page.locator("#lot-delivered tbody tr").filter(has_text=number).first).to_be_visible()
    expect(page.locator("#lot-returned")).to_contain_text("crate broken")
    came, went = laid_out(page.locator("#lot-came-from")), laid_out(page.locator("#lot-went-to"))
    if size is DESKTOP:  # both directions on one screen, side by side
        assert went["x"] > came["x"] + came["width"] - 1 and abs(went["y"] - came["y"]) < 2
    else:  # one under the other, each card the phone's width
        assert went["y"] >= came["y"] + came["height"] - 1
        assert short_targets(page) == []
    assert fits(page)
    shot = tmp_path / "lot.png"
    page.screenshot(path=shot, full_page=size is PHONE)
    keep_screenshot(shot, f"lot-{'desktop' if size is DESKTOP else 'phone'}.png")
    with page.expect_download() as download:
        page.locator("#recall-csv").click()
    with open(download.value.path(), encoding="utf-8-sig") as file:
        text = file.read()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows and all(row["name"] for row in rows if row["id_customer"] != "0")
    assert any(row["returned"] == "1" and number in row["orders"] for row in rows)
    with page.expect_download() as download:
        page.locator("#recall-xlsx").click()
    assert download.value.suggested_filename.endswith(".xlsx")
    # The order lists what came back, and why.
    page.goto(page.base + f"/orders/{number}")
    expect(page.locator("#order-returns")).to_contain_text("crate broken")
    assert fits(page)
    assert page.elsewhere == []


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_lot_past_its_best_before_is_written_off_from_the_alerts_page(page, demo_depot, session, size, tmp_path):
    server, _ = demo_depot
    lot = expired_lot(server)
    sign_in_as_admin(page, session)
    page.set_viewport_size(size)
    page.goto(page.base + "/alerts?kind=expired")
    row = page.locator("#expired-table tbody tr").filter(has_text=lot["lot"]).first
    row.get_by_role("link", name="Write off…").click()
    # Asked first: the amount is the lot's stock, the reason expired; nothing booked yet.
    expect(page.get_by_role("heading", level=1)).to_contain_text("Write off")
    expect(page.get_by_label("Amount")).to_have_value(f"{lot['amount']:g}")
    expect(page.locator("select[name=reason]")).to_have_value("expired")
    fits_and_kept(page, size, tmp_path, "write-off")
    status, before = server.get("/v1/write_offs/")
    assert before["list"] == []
    page.get_by_label("Note").fill("past its best-before")
    page.get_by_role("button", name="Write off").click()
    expect(page.locator("p.done")).to_contain_text("Written off")
    expect(page.locator("#write-off-totals")).to_contain_text("expired")
    assert fits(page)
    status, after = server.get("/v1/write_offs/")
    assert [(w["reason"], w["note"], w["items"][0]["lot"]) for w in after["list"]] == [
        ("expired", "past its best-before", lot["lot"])]
    # Gone from the lots past their best-before in that warehouse.
    page.goto(page.base + "/alerts?kind=expired")
    expect(page.locator("#expired-table tbody tr").filter(has_text=lot["lot"])
           .filter(has_text=lot["product_code"])).to_have_count(0)
    shot = tmp_path / "write-offs.png"
    page.goto(page.base + "/write-offs")
    page.screenshot(path=shot)
    keep_screenshot(shot, f"write-offs-{'desktop' if size is DESKTOP else 'phone'}.png")
    assert page.elsewhere == []


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_lot_on_a_location_is_written_off_from_the_stock_page(page, demo_depot, session, size, tmp_path):
    """The stock page's row (a lot at a location of a warehouse) opens the alerts page's write-off form:
    its amount filled in, a reason to choose, confirmed; booked by the same rule as the API, from that location."""
    server, _ = demo_depot
    sign_in_as_admin(page, session)
    page.set_viewport_size(size)
    page.goto(page.base + "/?warehouse=1")
    rows = page.locator("#stock tbody tr").filter(has=page.locator('td[data-label="Lot"] a')) \
        .filter(has=page.locator('td[data-label="Location"] a:not(.unplaced)'))
    row = rows.first
    code = row.locator('td[data-label="Code"]').inner_text().strip()
    lot = row.locator('td[data-label="Lot"]').inner_text().strip()
    where = row.locator('td[data-label="Location"]').inner_text().strip()
    status, there = server.get(f"/v1/locations/stock?id_warehouse=1&location={where}")
    assert status == 200, there
    [before] = [r["amount"] for r in there["list"] if (r["product_code"], r["lot"]) == (code, lot)]
    fits_and_kept(page, size, tmp_path, "stock-write-off")
    row.get_by_role("link", name="Write off…").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Write off")
    expect(page.locator("#confirm-write-off")).to_be_visible()
    expect(page.locator("main")).to_contain_text(f"at location {where}")
    expect(page.get_by_label("Amount")).to_have_value(f"{before:g}")
    expect(page.locator("select[name=reason]")).to_have_value("")  # the person says why
    assert fits(page)
    if size is PHONE:
        assert short_targets(page) == []
    page.get_by_role("button", name="Write off").click()  # no reason: the browser asks, nothing is sent
    expect(page.locator("#confirm-write-off")).to_be_visible()
    assert server.get("/v1/write_offs/")[1]["list"] == []
    page.get_by_label("Amount").fill("1")
    page.locator("select[name=reason]").select_option("damaged")
    page.get_by_role("button", name="Write off").click()
    expect(page.locator("p.done")).to_contain_text("Written off")
    status, after = server.get("/v1/write_offs/")
    assert [(w["reason"], [(i["product_code"], i["lot"], i["amount"]) for i in w["items"]]) for w in after["list"]] == [
        ("damaged", [(code, lot, 1)])]
    status, there = server.get(f"/v1/locations/stock?id_warehouse=1&location={where}")
    assert [r["amount"] for r in there["list"] if (r["product_code"], r["lot"]) == (code, lot)] == [before - 1]
    # Cancel goes back to the stock page it came from.
    page.goto(page.base + "/?warehouse=1")
    page.locator("#stock tbody tr").filter(has=page.locator('td[data-label="Lot"] a')).first \
        .get_by_role("link", name="Write off…").click()
    page.get_by_role("link", name="Cancel").click()
    expect(page.locator("#stock")).to_be_visible()
    assert page.elsewhere == []
