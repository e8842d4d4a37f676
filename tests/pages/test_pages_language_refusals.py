"""A rule's refusal (stock/, said with `say`) on a page in the person's language, while the API
answers the same refusal in its English, word for word (DESIGN 29): a product form with a code
taken, a move short at its source, a write-off beyond the stock. Through the test client.
"""
import html
import re
from datetime import date

import pytest
from flask_babel import force_locale

from conftest import token_of
from helpers import batch, created, item, product
from identity import people
from language.catalogue import translated, translated_fields
from stock.audit import cli_actor
from stock.errors import Invalid, say
from stock.policy import Policy, refuse_far_future
from storage.db import db


def speaks(app, language):
    with app.app_context():
        people.set_language(db.session, cli_actor(), "admin", language)
        db.session.remove()


def said(response) -> str:
    """The page's text as a person reads it (quotes unescaped, lines joined)."""
    return " ".join(html.unescape(response.get_data(as_text=True)).split())


def write_off_form(admin, write_off_id, amount):
    """The write-off form of lot L1 of CHEESE in warehouse 1, as sent from its confirmation page."""
    confirm = admin.get("/write-offs/new?warehouse=1&product=CHEESE&lot=L1")
    return admin.post("/write-offs/new", data={
        "token": token_of(confirm), "write_off_id": write_off_id, "warehouse": "1", "product": "CHEESE", "lot": "L1",
        "amount": amount, "reason": "damaged", "note": ""})


def product_form(admin, **fields):
    """The new-product form sent, its fields those of a plain product but `fields`."""
    token = token_of(admin.get("/products/new"))
    return admin.post("/products/new", data={
        "token": token, "product_code": "NEW", "name": "New", "base_unit": "pc", "base_unit_barcode": "",
        "category": "0", "lot_level": "0", "decimal_places": "0", "active": "1", "weight_brutto": "0",
        "weight_netto": "0", "weight_unit": "kg", "pack_unit": [""], "pack_amount": [""], "pack_barcode": [""]}
        | fields)


@pytest.fixture
def depot(api):
    """Warehouse 1 (Main) with shelves A-1 and B-1: 10 MILK on A-1; 5 of CHEESE lot L1 unplaced."""
    for body in (product("MILK", name="Milk 1 l"), product("CHEESE", name="Edam", base_unit="kg", lot_level=1)):
        created(api.post("/v1/products/", body))
    for code in ("A-1", "B-1"):
        created(api.post("/v1/locations/", {"id_warehouse": 1, "code": code}))
    created(api.post("/v1/batches/", batch(1, [item("MILK", 10, wplace="A-1"),
                                               item("CHEESE", 5, "kg", lot="L1", date_exp="2031-01-31")])))
    return api


@pytest.mark.parametrize("language, says", [
    ("sl", "Artikel 'MILK' že obstaja."),
    ("de", "Artikel 'MILK' existiert bereits."),
])
def test_a_product_code_taken_is_refused_on_the_form_in_the_persons_language(depot, admin, app, language, says):
    speaks(app, language)
    response = product_form(admin, product_code="MILK", name="Milk again")
    assert response.status_code == 409
    assert says in said(response)
    assert "exists already" not in said(response)
    answer = depot.post("/v1/products/", product("MILK", name="Milk again"))
    assert answer.status_code == 409 and answer.json["error"]["message"] == "Product 'MILK' exists already."


@pytest.mark.parametrize("language, says", [
    ("sl", "Premalo zaloge artikla Milk 1 l, brez lota, na lokaciji A-1 v Main: tam je 10, premakniti 50."),
    ("de", "Nicht genug Bestand von Milk 1 l, ohne Charge, auf Lagerplatz A-1 in Main: dort 10, umzulagern 50."),
])
def test_a_move_short_at_its_source_is_refused_in_the_persons_language(depot, admin, app, language, says):
    speaks(app, language)
    page = admin.get("/moves/new")
    move_id = re.search(r'name="move_id" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    response = admin.post("/moves/new", data={
        "token": token_of(page), "move_id": move_id, "from_warehouse": "1", "from_location": "A-1",
        "to_warehouse": "1", "to_location": "B-1", "note": "", "product_code": ["MILK"], "lot": [""], "amount": ["50"]})
    assert response.status_code == 409
    assert says in said(response)
    assert "Not enough stock" not in said(response)
    answer = depot.post("/v1/moves/", {"move_id": "m-1", "from": {"id_warehouse": 1, "location": "A-1"},
                                       "to": {"id_warehouse": 1, "location": "B-1"},
                                       "items": [{"product_code": "MILK", "amount": 50}]})
    assert answer.status_code == 409
    assert answer.json["error"]["message"] == ("1 product/lot(s) short. Not enough stock of Milk 1 l, without a lot, "
                                               "in location A-1 of Main: 10 there, 50 to move.")


@pytest.mark.parametrize("language, says", [
    ("sl", "Premalo zaloge artikla Edam, lot L1, v Main: na zalogi 5, manjka 4."),
    ("de", "Nicht genug Bestand von Edam, Charge L1, in Main: 5 im Bestand, es fehlen 4."),
])
def test_a_write_off_beyond_the_stock_is_refused_in_the_persons_language(depot, admin, app, language, says):
    speaks(app, language)
    response = write_off_form(admin, "w-1", "9")
    assert response.status_code == 409
    assert says in said(response)
    assert "Not enough stock" not in said(response)
    answer = depot.post("/v1/write_offs/", {"write_off_id": "w-2", "id_warehouse": 1, "reason": "damaged",
                                            "items": [{"product_code": "CHEESE", "lot": "L1", "amount": 9}]})
    assert answer.status_code == 409
    assert answer.json["error"]["message"] == ("1 product/lot(s) short. Not enough stock of Edam, lot L1, in Main: "
                                               "5 in stock, short by 4.")


@pytest.mark.parametrize("language, says", [
    ("en", "5 in stock, short by 4.5."),
    ("sl", "na zalogi 5, manjka 4,5."),
    ("de", "5 im Bestand, es fehlen 4,5."),
])
def test_an_amount_in_a_refusal_is_written_with_the_languages_decimal_sign(depot, admin, app, language, says):
    speaks(app, language)
    response = write_off_form(admin, "w-3", "9.5")
    assert response.status_code == 409
    assert says in said(response)


@pytest.mark.parametrize("language, one, two, five", [
    ("sl", "1 vrstica", "2 vrstici", "5 vrstic"),
    ("de", "1 Zeile", "2 Zeilen", "5 Zeilen"),
])
def test_a_count_in_a_refusal_takes_the_languages_plural(app, language, one, two, five):
    """A count's message has every form its language has (Slovenian four); the API keeps "(s)"."""
    from flask_babel import force_locale

    from language.catalogue import translated
    from stock.errors import say_count

    def lines(count):
        return say_count("%(count)s line refused; nothing was imported.", "%(count)s lines refused; nothing was imported.",
                         count, text="%(count)s line(s) refused; nothing was imported.")

    assert str(lines(2)) == "2 line(s) refused; nothing was imported."
    with app.test_request_context(), force_locale(language):
        assert [translated(lines(n)).split(" zavrn")[0].split(" abgel")[0] for n in (1, 2, 5)] == [one, two, five]


@pytest.mark.parametrize("language, says", [
    ("sl", ["Dolžina mora biti med 1 in 200.", "Ni veljavno celo število."]),
    ("de", ["Die Länge muss zwischen 1 und 200 liegen.", "Keine gültige ganze Zahl."]),
])
def test_marshmallow_s_own_messages_read_in_the_persons_language_on_a_form(depot, admin, app, language, says):
    """A field the schema refuses (too long, not a number) says so in the person's language, its
    value in place; the API answers the same in marshmallow's English."""
    speaks(app, language)
    response = product_form(admin, name="N" * 201, category="many")
    assert response.status_code == 422
    for words in says:
        assert words in said(response)
    assert "Length must be" not in said(response) and "Not a valid integer" not in said(response)
    answer = depot.post("/v1/products/", product("NEW", name="N" * 201))
    assert answer.status_code == 422
    assert answer.json["error"]["fields"]["data"]["name"] == ["Length must be between 1 and 200."]


@pytest.mark.parametrize("language, says", [
    ("sl", "Dovoljeni so le znaki, ki se jih da natisniti."),
    ("de", "Nur druckbare Zeichen sind erlaubt."),
])
def test_a_schema_s_own_message_reads_in_the_persons_language_on_a_form(depot, admin, app, language, says):
    speaks(app, language)
    response = product_form(admin, name="Bell\x07")
    assert response.status_code == 422
    assert says in said(response) and "Only printable" not in said(response)
    answer = depot.post("/v1/products/", product("NEW", name="Bell\x07"))
    assert answer.json["error"]["fields"]["data"]["name"] == ["Only printable characters are allowed."]


@pytest.mark.parametrize("language, far, keeps", [
    ("en", "2099-01-01 is more than 7 days after today (2026-11-27).", "The order needs goods that keep until 2027-01-05."),
    ("sl", "1. 1. 2099 je več kot 7 dni po današnjem dnevu (27. 11. 2026).", "Naročilo potrebuje blago, uporabno do 5. 1. 2027."),
    ("de", "01.01.2099 liegt mehr als 7 Tage nach heute (27.11.2026).", "Der Auftrag braucht Ware, die bis 05.01.2027 haltbar ist."),
])
def test_a_day_in_a_refusal_is_written_as_the_language_writes_it(app, language, far, keeps):
    """A rule passes its days as dates (the API's English writes them ISO, tests/api/test_messages.py):
    a page writes them as its language does, sl 1. 1. 2099, de 01.01.2099."""
    with pytest.raises(Invalid) as refused:
        refuse_far_future(date(2099, 1, 1), date(2026, 11, 27), Policy(), ("data", "batch_settings", "date"))
    assert str(refused.value.fields["data"]["batch_settings"]["date"][0]) == (
        "2099-01-01 is more than 7 day(s) after today (2026-11-27).")
    keep_until = say("The order needs goods that keep until %(day)s.", day=date(2027, 1, 5))
    assert str(keep_until) == "The order needs goods that keep until 2027-01-05."
    with app.test_request_context(), force_locale(language):
        assert translated_fields(refused.value.fields)["data"]["batch_settings"]["date"] == [far]
        assert translated(keep_until) == keeps
