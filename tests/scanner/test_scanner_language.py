"""The scanner's language (DESIGN 29) through the test client: the device's own choice (its cookie
of /scan), else the depot's, else the browser's; the page's words and its scripts' words (the
JSON words.js reads) from the same catalogues.
"""
import json
import re

from stock import depot
from stock.audit import cli_actor
from storage.db import db


def page_of(client, **headers):
    response = client.get("/scan", headers=headers)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    words = json.loads(re.search(r'<script type="application/json" id="words">(.*?)</script>', html, re.S).group(1))
    return re.search(r'<html lang="([a-z]+)">', html).group(1), html, words


def test_the_browsers_language_then_the_depots_then_the_devices_own(client, app):
    lang, html, words = page_of(client)
    assert lang == "en" and ">Send now<" in html and words == {}
    lang, html, words = page_of(client, **{"Accept-Language": "de"})
    assert lang == "de" and ">Jetzt senden<" in html and ">Wareneingang<" in html
    assert words["Receive"] == "Wareneingang" and words["Scan the first code"] == "Scannen Sie den ersten Code"
    with app.app_context():
        depot.set_language(db.session, cli_actor(), "sl")
        db.session.remove()
    lang, html, words = page_of(client, **{"Accept-Language": "de"})
    assert lang == "sl" and ">Pošlji zdaj<" in html and ">Prevzem<" in html and words["Count"] == "Inventura"
    client.set_cookie("scan_language", "de", path="/scan")
    lang, html, _ = page_of(client)
    assert lang == "de" and 'value="de" lang="de" selected' in html
    client.set_cookie("scan_language", "xx", path="/scan")  # not a language: as if none were chosen
    assert page_of(client)[0] == "sl"


def test_the_words_cannot_close_the_script_they_stand_in(client):
    html = client.get("/scan", headers={"Accept-Language": "sl"}).get_data(as_text=True)
    block = re.search(r'<script type="application/json" id="words">(.*?)</script>', html, re.S).group(1)
    assert "<" not in block


def test_write_off_and_return_speak_the_depots_words(client):
    """The glossary's words (GLOSSARY.md): Odpis and Vračilo, Ausbuchung and Retoure, and the reasons."""
    lang, html, words = page_of(client, **{"Accept-Language": "sl"})
    assert ">Odpis<" in html and ">Vračilo<" in html and ">Razlog <" in html
    assert (words["Write off"], words["Return"], words["Expired"], words["Damaged"]) == (
        "Odpis", "Vračilo", "Pretečen rok", "Poškodovano")
    lang, html, words = page_of(client, **{"Accept-Language": "de"})
    assert ">Ausbuchung<" in html and ">Retoure<" in html and ">Grund <" in html
    assert (words["Write off"], words["Return"], words["Lost"], words["Sample"], words["Other"]) == (
        "Ausbuchung", "Retoure", "Verloren", "Muster", "Sonstiges")
