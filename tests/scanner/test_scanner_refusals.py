"""The service's refusal on the scanner in the device's language (DESIGN 29), in chromium against the
live service on a 390 px phone. The API answers in its English, word for word; the device keeps that
answer on its queue as it came and reads it back by its English in the catalogue's words when it is
shown (words.js `said`), so a refusal kept before the language was chosen reads in the new one: a
goods-out beyond the stock (409, its amounts with the language's decimal sign) and a line of an
inactive product (422, the first refused line's message inside the count's). The words expected
are the catalogues' (the compiled .mo), filled as gettext fills them.
"""
import gettext

from playwright.sync_api import expect

from browsing import fits
from helpers import batch, item
from language import TRANSLATIONS
from scanner_page import BUTTER, paired, queued, receive, told, warehouse_name, wedge, words_js

CREAM = "CREAM-1L"


def words(language):
    return gettext.translation("messages", localedir=str(TRANSLATIONS), languages=[language])


def short(catalogue, warehouse):
    """The 409 of 4 l of cream shipped with 2.5 l in stock, and its line's message, in the catalogue's words."""
    first = catalogue.gettext("Not enough stock of %(product)s, %(lot)s, in %(warehouse)s: %(amount)s in stock, "
                              "short by %(short)s.") % {
        "product": "Cream", "lot": catalogue.gettext("without a lot"), "warehouse": warehouse,
        "amount": "2,5", "short": "1,5"}
    whole = catalogue.ngettext("%(count)s product/lot short. %(first)s", "%(count)s products/lots short. %(first)s",
                               1) % {"count": 1, "first": first}
    return whole, first


def inactive(catalogue):
    """The 422 of a line of Butter, which the office made inactive after the device fetched it."""
    first = catalogue.gettext("%(product)s (%(code)s) is not active.") % {"product": "Butter 250 g", "code": "BUTTER"}
    whole = catalogue.ngettext("%(count)s batch item refused, e.g.: %(message)s",
                               "%(count)s batch items refused, e.g.: %(message)s", 1) % {"count": 1, "message": first}
    return whole, first


def line(catalogue, product, field, problem):
    return catalogue.gettext("Line %(number)s (%(product)s): %(problems)s") % {
        "number": 1, "product": product, "problems": f"{field}: {problem}"}


def test_a_refusal_kept_on_the_queue_reads_in_the_language_chosen_later(phone, dairy):
    dairy.ok("POST", "/v1/products/", {"product_code": "CREAM", "name": "Cream", "base_unit": "l",
                                       "base_unit_barcode": CREAM, "decimal_places": 1})
    dairy.ok("POST", "/v1/batches/", batch(900000, [item("CREAM", "2.5", unit="l")]))
    main = warehouse_name(dairy, 1)
    tab = paired(phone, dairy, dairy.key("phone-1"))
    tab.get_by_role("button", name="Ship").click()
    assert wedge(tab, CREAM) == "ok"
    tab.get_by_label("Quantity").fill("4")
    told(tab, tab.get_by_role("button", name="Set").click)
    tab.get_by_role("button", name="Book").click()
    expect(tab.locator(".entry.attention")).to_have_count(1)
    dairy.ok("POST", "/v1/products/BUTTER", {"active": 0})  # the device still holds it as active
    receive(tab, BUTTER)
    expect(tab.locator(".entry.attention")).to_have_count(2)
    # In English, as the API answered: the newest entry first.
    received, shipped = tab.locator(".entry.attention").nth(0), tab.locator(".entry.attention").nth(1)
    english_short = ("1 product/lot(s) short. Not enough stock of Cream, without a lot, in "
                     f"{main}: 2.5 in stock, short by 1.5.")
    expect(shipped.locator(".why").first).to_have_text(f"409: {english_short}")
    expect(received.locator(".why").first).to_have_text(
        "422: 1 batch item(s) refused, e.g.: Butter 250 g (BUTTER) is not active.")

    for language in ("sl", "de"):
        tab.locator("#language").select_option(language)  # the page is drawn again in it
        expect(tab.locator("html")).to_have_attribute("lang", language)
        expect(tab.locator("body")).to_have_attribute("data-screen", "home")
        catalogue = words(language)
        whole, first = short(catalogue, main)
        expect(shipped.locator(".why")).to_have_text([f"409: {whole}", line(catalogue, "Cream", "amount", first)])
        whole, first = inactive(catalogue)
        expect(received.locator(".why")).to_have_text([f"422: {whole}", line(catalogue, "Butter 250 g", "product_code",
                                                                             first)])
        assert "short" not in shipped.inner_text() and "refused" not in received.inner_text()
        assert fits(tab), language  # on a phone, the longest words of the language too
    # Kept as the service answered it: read in the device's language only as it is shown.
    assert sorted(entry["answer"]["message"] for entry in queued(tab)) == [
        "1 batch item(s) refused, e.g.: Butter 250 g (BUTTER) is not active.", english_short]


def test_a_name_or_a_code_inside_a_refusal_stays_as_the_label_says_it(phone, dairy):
    """Only a place that holds a message, an amount or a day is read anew: a product named like a
    message ("lot 5 screws"), a lot that looks like a day and a shelf that looks like an amount
    stay as they came, while the amounts beside them take the language's decimal sign."""
    main = warehouse_name(dairy, 1)
    tab = paired(phone, dairy, dairy.key("phone-1"))
    tab.locator("#language").select_option("sl")
    expect(tab.locator("html")).to_have_attribute("lang", "sl")
    catalogue = words("sl")
    lot = catalogue.gettext("lot %(lot)s") % {"lot": "2026-11-28"}
    in_warehouse = ("Not enough stock of %(product)s, %(lot)s, in %(warehouse)s: %(amount)s in stock, "
                    "short by %(short)s.")
    at_location = ("Not enough stock of %(product)s, %(lot)s, at location %(location)s of %(warehouse)s: "
                   "%(amount)s there, short by %(short)s.")
    english = [in_warehouse % {"product": "lot 5 screws", "lot": "lot 2026-11-28", "warehouse": main,
                               "amount": "2.5", "short": "1.5"},
               at_location % {"product": "Cream", "lot": "without a lot", "location": "01.02", "warehouse": main,
                              "amount": "0.5", "short": "3.25"}]
    assert words_js(tab, "said", [[text] for text in english]) == [
        catalogue.gettext(in_warehouse) % {"product": "lot 5 screws", "lot": lot, "warehouse": main,
                                           "amount": "2,5", "short": "1,5"},
        catalogue.gettext(at_location) % {"product": "Cream", "lot": catalogue.gettext("without a lot"),
                                          "location": "01.02", "warehouse": main, "amount": "0,5", "short": "3,25"}]
