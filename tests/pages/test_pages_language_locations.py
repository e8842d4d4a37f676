"""The pages main brought with locations, moves, a lot's story and write-offs, in sl and de
(DESIGN 29) through the test client: the glossary's words (Lokacija/Lagerplatz, Premik/Umlagerung,
Odpis/Ausbuchung), flash messages, a move's From/To apart from a date range's, and the count
sheet location by location.
"""
import re

import pytest

from conftest import token_of
from helpers import batch, created, item, product
from identity import people
from stock.audit import cli_actor
from storage.db import db

WORDS = {  # language: (the locations page, walking order, a move, its To, write-offs, a lot, unplaced)
    "sl": ("Lokacije", "Vrstni red obhoda", "Premik", "Kam", "Odpisi", "Lot L1 artikla Edam", "brez lokacije"),
    "de": ("Lagerplätze", "Laufreihenfolge", "Umlagerung", "Nach", "Ausbuchungen", "Charge L1 von Edam",
           "ohne Lagerplatz"),
}


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.get_data(as_text=True)


def speaks(app, language):
    with app.app_context():
        people.set_language(db.session, cli_actor(), "admin", language)
        db.session.remove()


@pytest.fixture
def racks(api):
    """Warehouse 1 with two shelves; MILK on A-1, CHEESE lot L1 on B-1, some MILK unplaced."""
    for body in (product("MILK", name="Milk 1 l"), product("CHEESE", name="Edam", base_unit="kg", lot_level=1)):
        created(api.post("/v1/products/", body))
    for code in ("A-1", "B-1"):
        created(api.post("/v1/locations/", {"id_warehouse": 1, "code": code}))
    created(api.post("/v1/batches/", batch(1, [item("MILK", 10, wplace="A-1"),
                                                item("CHEESE", "2.5", "kg", lot="L1", wplace="B-1"),
                                                item("MILK", 4, wplace="")])))
    return api


@pytest.mark.parametrize("language", sorted(WORDS))
def test_the_new_pages_speak_the_persons_language(racks, admin, app, language):
    locations, walking, move, to, write_offs, lot, unplaced = WORDS[language]
    speaks(app, language)
    page = text(admin.get("/warehouses/1/locations"))
    assert f'<html lang="{language}">' in page and f"<h1>{locations}" in page and walking in page
    assert unplaced in text(admin.get("/locations/1/"))
    form = text(admin.get("/moves/new?from_warehouse=1&from_location=A-1"))
    assert move in form and f"<legend>{to}" in form
    assert lot in text(admin.get("/lots/CHEESE/L1"))
    assert write_offs in text(admin.get("/write-offs"))
    english = ("Location", "Walking order", "Move stock", "Write-offs", "unplaced")
    for page in (text(admin.get("/warehouses/1/locations")), form):
        assert not any(f">{word}<" in page for word in english)


@pytest.mark.parametrize("language, added, moved", [
    ("sl", "Lokacija C-1 je dodana.", "Premaknjenih postavk: 1, iz A-1"),
    ("de", "Lagerplatz C-1 ist angelegt.", "1 Position(en) umgelagert von A-1"),
])
def test_flash_messages_of_locations_and_moves_in_the_persons_language(racks, admin, app, language, added, moved):
    speaks(app, language)
    token = token_of(admin.get("/warehouses/1/locations"))
    response = admin.post("/warehouses/1/locations", data={"token": token, "code": "C-1", "name": "", "sequence": ""})
    assert added in text(admin.get(response.headers["Location"]))
    html = text(admin.get("/moves/new?from_warehouse=1&from_location=A-1"))
    form = {"token": re.search(r'name="token" value="([^"]+)"', html).group(1),
            "move_id": re.search(r'name="move_id" value="([^"]+)"', html).group(1),
            "from_warehouse": "1", "from_location": "A-1", "to_warehouse": "1", "to_location": "C-1", "note": "",
            "product_code": ["MILK"], "lot": [""], "amount": ["3"]}
    response = admin.post("/moves/new", data=form)
    assert response.status_code == 303, text(response)
    assert moved in text(admin.get(response.headers["Location"]))


def test_the_count_sheet_goes_location_by_location_in_the_papers_language(racks, admin):
    sheet = text(admin.get("/warehouses/1/count-sheet?language=de"))
    assert "Lagerplatz für Lagerplatz, in Laufreihenfolge" in sheet and "<th>Lagerplatz</th>" in sheet
    assert "ohne Lagerplatz" in sheet


@pytest.mark.parametrize("language, refused", [
    ("sl", "Na lokaciji A-1 je zaloga 1 artikla/lota"),
    ("de", "Lagerplatz A-1 enthält Bestand von 1 Artikel/Charge"),
])
def test_a_rules_refusal_on_the_locations_page_in_the_persons_language(racks, admin, app, language, refused):
    speaks(app, language)
    token = token_of(admin.get("/warehouses/1/locations"))
    response = admin.post("/warehouses/1/locations/active/A-1", data={"token": token, "active": "0"})
    assert response.status_code == 409
    assert refused in response.get_data(as_text=True)
    # The API keeps the rule's English words.
    answer = racks.post("/v1/locations/1/A-1", {"active": 0})
    assert answer.status_code == 409 and answer.json["error"]["message"].startswith("Location A-1 holds stock")
