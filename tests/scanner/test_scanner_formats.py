"""The scanner writes amounts, counts, days and moments as the office's pages write them
(language/formats.py, DESIGN 29), in chromium on a 390 px phone: English keeps the API's own forms
(1234.5, 2027-01-31), Slovenian and German their people's, with thousands grouped from four digits
on (the browser's own Slovenian would write 1234,5 where the pages write 1.234,5). The expected
text is what language/formats.py writes, not a copy of it.
"""
import gettext
from datetime import date, datetime

import pytest
from playwright.sync_api import expect

from language import TRANSLATIONS
from language.formats import amount_text, count_text, day_text, moment_text
from scanner_page import CHEESE, choose, paired, pick_order, stock_up, told, wedge, words_js
from stock.quantities import from_milli

AMOUNTS = [0, 1, 500, 1500, 999_999, 1_234_500, -1_234_500, -500, 12_345_678, 1_000_000_000, 999_999_999_999_999]
COUNTS = [0, 7, 999, 1000, 1234, 12_345, 123_456, 1_234_567]
DAYS = ["2026-12-05", "2027-01-31", "0026-01-31"]  # the last as a best-before typed "26" is kept


def catalogue(language):
    return gettext.translation("messages", localedir=str(TRANSLATIONS), languages=[language])


def in_language(tab, language):
    tab.locator("#language").select_option(language)
    expect(tab.locator("html")).to_have_attribute("lang", language)


@pytest.mark.parametrize("language", ["en", "sl", "de"])
def test_amounts_counts_and_days_read_as_on_the_pages(phone, dairy, language):
    tab = paired(phone, dairy, dairy.key("phone-1"))
    in_language(tab, language)
    assert words_js(tab, "amount", [[milli] for milli in AMOUNTS]) == [
        amount_text(from_milli(milli), language) for milli in AMOUNTS]
    assert words_js(tab, "number", [[count] for count in COUNTS]) == [count_text(count, language) for count in COUNTS]
    assert words_js(tab, "day", [[iso] for iso in DAYS]) == [day_text(date.fromisoformat(iso), language)
                                                             for iso in DAYS]
    # A moment on the device's clock: a local time without a zone stays 14:05 on any machine.
    assert words_js(tab, "moment", [["2026-11-27T14:05:00"]]) == [moment_text(datetime(2026, 11, 27, 14, 5), language)]


def test_a_lots_best_before_and_its_amount_on_the_scanner_read_as_the_language_writes_them(phone, dairy):
    stock_up(dairy, lots=(("L-OLD", 1234, "2027-01-31"), ("L-NEW", 10, "2027-06-30")))
    pick_order(dairy, lines=(("CHEESE", 1240),))
    tab = paired(phone, dairy, dairy.key("phone-1"))
    in_language(tab, "sl")
    tab.get_by_role("button", name=catalogue("sl").gettext("Pick an order")).click()
    choose(tab, "SO-1")
    expect(tab.locator("#left")).to_contain_text("1.240")
    expect(tab.locator("#left")).to_contain_text("L-OLD (31. 1. 2027), L-NEW (30. 6. 2027)")
    wedge(tab, CHEESE)
    expect(tab.locator("#lot-choices button")).to_have_text(["L-OLD · 31. 1. 2027 · 1.234",
                                                             "L-NEW · 30. 6. 2027 · 6"])  # the plan: 1234 + 6


def test_the_keypad_types_an_amount_with_the_languages_decimal_sign(phone, dairy):
    dairy.ok("POST", "/v1/products/", {"product_code": "CREAM", "name": "Cream", "base_unit": "l",
                                       "base_unit_barcode": "CREAM-1L", "decimal_places": 1})
    tab = paired(phone, dairy, dairy.key("phone-1"))
    in_language(tab, "sl")
    tab.get_by_role("button", name=catalogue("sl").gettext("Receive")).click()
    assert wedge(tab, "CREAM-1L") == "ok"
    tab.locator("#quantity").click()
    for key in ("1", "2", "3", "4", ",", "5"):
        tab.locator("#quantity-form button[data-key]", has_text=key).click()
    expect(tab.locator("#quantity")).to_have_value("1234,5")
    told(tab, tab.locator("#quantity-form button.set").click)
    expect(tab.locator("#lines li").first).to_contain_text("1.234,5 l")
    tab.locator("#lines li").first.click()  # the line's amount back in the field, as it was typed
    expect(tab.locator("#quantity")).to_have_value("1234,5")
    assert not tab.locator("#quantity-form button[data-key='.']").count()
