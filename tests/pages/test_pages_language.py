"""The depot's language on the pages (DESIGN 29) through the test client: which language a page
speaks (the person's, the depot's, WAREHOUSE_LANGUAGE, the browser's, English), `<html lang>`,
dates and amounts as each writes them, forms with a decimal comma, CSV downloads, error pages,
flash messages and paper; and the API, which stays English and ISO.
"""
import re

import pytest

from conftest import PASSWORD, sign_in, signed_in, token_of
from identity import people
from models import Person
from stock import depot
from stock.audit import cli_actor
from storage.db import db


def lang(response) -> str:
    return re.search(r'<html lang="([a-z]+)">', response.get_data(as_text=True)).group(1)


def text(response) -> str:
    return response.get_data(as_text=True)


def depot_speaks(app, language):
    with app.app_context():
        depot.set_language(db.session, cli_actor(), language)
        db.session.remove()


def person_speaks(app, name, language):
    with app.app_context():
        people.set_language(db.session, cli_actor(), name, language)
        db.session.remove()


# --- which language -------------------------------------------------------------------------

def test_english_when_nothing_chooses(client):
    response = client.get("/login")
    assert lang(response) == "en" and "Sign in with your name and password." in text(response)


@pytest.mark.parametrize("header, expected", [("de-AT,de;q=0.9,en;q=0.5", "de"), ("sl", "sl"),
                                              ("fr-FR,fr;q=0.9", "en"), ("fr,sl;q=0.4", "sl")])
def test_the_browsers_language_when_the_depot_has_none(client, header, expected):
    assert lang(client.get("/login", headers={"Accept-Language": header})) == expected


def test_the_depots_language_comes_before_the_browsers(client, app):
    depot_speaks(app, "sl")
    response = client.get("/login", headers={"Accept-Language": "de"})
    assert lang(response) == "sl" and "Prijavite se z imenom in geslom." in text(response)


def test_warehouse_language_is_the_depots_until_the_depot_page_chooses(make_app):
    app = make_app(LANGUAGE="de")
    client = app.test_client()
    assert lang(client.get("/login", headers={"Accept-Language": "sl"})) == "de"
    depot_speaks(app, "sl")
    assert lang(client.get("/login", headers={"Accept-Language": "en"})) == "sl"


def test_a_persons_own_choice_comes_before_the_depots_and_lasts_across_sessions(client, app, person):
    depot_speaks(app, "sl")
    person("read")
    person_speaks(app, "read", "de")
    sign_in(client, "read")
    response = client.get("/", headers={"Accept-Language": "sl"})
    assert lang(response) == "de" and ">Bestand</a>" in text(response)
    # Another device: a new session, the same person, the same language.
    other = app.test_client()
    sign_in(other, "read")
    assert lang(other.get("/")) == "de"


def test_a_person_sets_their_own_language_on_their_settings(office, app):
    page = office.get("/settings")
    assert page.status_code == 200
    response = office.post("/settings", data={"token": token_of(page), "language": "sl"})
    assert response.status_code == 303
    after = office.get(response.headers["Location"])
    assert lang(after) == "sl" and "Vaš jezik je shranjen." in text(after)
    with app.app_context():
        assert db.session.query(Person).filter_by(name="read").one().language == "sl"
    # Back to the depot's (none here: the browser's).
    office.post("/settings", data={"token": token_of(after), "language": ""})
    assert lang(office.get("/", headers={"Accept-Language": "de"})) == "de"


def test_an_unknown_language_is_refused_and_nothing_changes(office, app):
    page = office.get("/settings")
    response = office.post("/settings", data={"token": token_of(page), "language": "xx"})
    assert response.status_code == 422 and "xx" in text(response)
    with app.app_context():
        assert db.session.query(Person).filter_by(name="read").one().language == ""


def test_the_admin_chooses_a_persons_language_and_the_depots(admin, app, person):
    person("read")
    page = admin.get("/admin/people")
    assert 'name="language"' in text(page)
    response = admin.post("/admin/people/read/language", data={"token": token_of(page), "language": "de"})
    assert response.status_code == 302
    with app.app_context():
        assert db.session.query(Person).filter_by(name="read").one().language == "de"
    added = admin.post("/admin/people", data={"token": token_of(page), "name": "mojca", "role": "read",
                                              "password": PASSWORD, "language": "sl"})
    assert added.status_code == 302
    with app.app_context():
        assert db.session.query(Person).filter_by(name="mojca").one().language == "sl"
    form = admin.get("/admin/depot")
    saved = admin.post("/admin/depot", data={"token": token_of(form), "name": "Riverside", "address": "",
                                             "vat_number": "", "language": "sl"},
                       content_type="multipart/form-data")
    assert saved.status_code == 303
    with app.app_context():
        assert depot.language(db.session) == "sl"
    # The admin's own pages follow the depot's now (the admin chose none of their own).
    assert lang(admin.get("/admin/depot")) == "sl"


def test_flask_users_create_takes_a_language(runner, app):
    result = runner.invoke(args=["users", "create", "anna", "--role", "read", "--language", "de"],
                           input=PASSWORD + "\n")
    assert result.exit_code == 0, result.output
    with app.app_context():
        assert db.session.query(Person).filter_by(name="anna").one().language == "de"
    refused = runner.invoke(args=["users", "create", "bine", "--role", "read", "--language", "xx"],
                            input=PASSWORD + "\n")
    assert refused.exit_code != 0


# --- formats --------------------------------------------------------------------------------

@pytest.mark.parametrize("language, amount, day", [("en", "2.5", r"\d{4}-\d{2}-\d{2}"),
                                                   ("sl", "2,5", r"\d{1,2}\. \d{1,2}\. \d{4}"),
                                                   ("de", "2,5", r"\d{2}\.\d{2}\.\d{4}")])
def test_amounts_and_dates_as_the_language_writes_them(client, app, person, depot, language, amount, day):
    signed_in(client, person, "read")
    person_speaks(app, "read", language if language != "en" else "")
    stock = text(client.get("/?level=1&q=CHEESE"))
    assert f">{amount}<" in stock
    documents = text(client.get("/documents"))
    assert re.search(rf"· {day}</small>", documents), documents[:3000]


def test_the_same_page_shows_the_same_figures_in_every_language(client, app, person, depot):
    signed_in(client, person, "read")
    figures = {}
    for language in ("", "sl", "de"):
        person_speaks(app, "read", language)
        page = text(client.get("/?level=1"))
        cells = re.findall(r'<td[^>]*class="num"[^>]*>([^<]*)<', page)
        figures[language] = [cell.replace(".", "").replace(",", ".") if language else cell for cell in cells]
    assert figures[""] and figures[""] == figures["sl"] == figures["de"]


def test_a_form_takes_the_decimal_comma_in_sl_and_de(admin, app, depot):
    person_speaks(app, "admin", "sl")
    page = admin.get("/reorder-levels")
    response = admin.post("/reorder-levels", data={"token": token_of(page), "id_warehouse": "1",
                                                   "product_code": "MILK-1L", "min_amount": "1.234,5",
                                                   "target_amount": "2000,25"})
    assert response.status_code == 303, text(response)
    shown = text(admin.get(response.headers["Location"]))
    assert "1.234,5" in shown and "2.000,25" in shown


def test_csv_in_sl_and_de_has_semicolons_and_decimal_commas_and_the_other_form_is_a_choice(client, app, person,
                                                                                             depot):
    signed_in(client, person, "read")
    person_speaks(app, "read", "de")
    body = client.get("/?level=1&format=csv").get_data(as_text=True)
    assert body.splitlines()[0].lstrip("\ufeff").startswith("id_warehouse;warehouse_name;product_code")
    assert ";2,5;" in body
    other = client.get("/?level=1&format=csv-comma").get_data(as_text=True)
    assert other.splitlines()[0].lstrip("\ufeff").startswith("id_warehouse,warehouse_name,")
    assert ",2.5," in other
    assert 'value="csv-comma"' in text(client.get("/"))
    person_speaks(app, "read", "")
    english = client.get("/?level=1&format=csv").get_data(as_text=True)
    assert ",2.5," in english and 'value="csv-semicolon"' in text(client.get("/"))


# --- error pages, flash messages, rule messages -------------------------------------------

def test_error_pages_and_a_rules_message_in_the_persons_language(admin, app):
    person_speaks(app, "admin", "sl")
    missing = admin.get("/no-such-page", headers={"Accept": "text/html"})
    assert missing.status_code == 404 and lang(missing) == "sl"
    assert "Nazaj na zalogo (domov)" in text(missing)
    page = admin.get("/admin/people")
    refused = admin.post("/admin/people/nobody/password", data={"token": token_of(page), "password": PASSWORD})
    assert refused.status_code == 404
    assert "Ni osebe z imenom &#39;nobody&#39;." in text(refused)


def test_a_flash_message_in_the_persons_language(admin, app):
    person_speaks(app, "admin", "de")
    page = admin.get("/admin/people")
    response = admin.post("/admin/people", data={"token": token_of(page), "name": "anna", "role": "read",
                                                 "password": PASSWORD})
    assert "anna kann sich jetzt anmelden." in text(admin.get(response.headers["Location"]))


# --- paper ------------------------------------------------------------------------------------

def test_paper_speaks_the_depots_language_and_another_on_request(admin, app, depot):
    depot_speaks(app, "sl")
    person_speaks(app, "admin", "en")
    sheet = admin.get("/warehouses/1/count-sheet")
    assert lang(sheet) == "sl" and "Popisni list" in text(sheet)
    german = admin.get("/warehouses/1/count-sheet?language=de")
    assert lang(german) == "de" and "Zählliste" in text(german)
    # The office's own page stays in the person's language.
    assert lang(admin.get("/")) == "en"


# --- the API --------------------------------------------------------------------------------

def test_the_api_stays_english_and_iso(api, app):
    depot_speaks(app, "de")
    response = api.get("/v1/products/NO-SUCH", headers={"Accept-Language": "de"})
    assert response.status_code == 404
    assert response.get_json()["error"]["message"].startswith("No product")
    document = api.get("/v1/openapi.json", headers={"Accept-Language": "sl"}).get_json()
    assert document["info"]["title"] and "Zaloga" not in str(document)
