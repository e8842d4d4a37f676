"""The scanner's words for its queue (DESIGN 29): a count's message reaches words.js with every
form of the language's plural, in the catalogue's order, and the queue's lines are whole messages."""
import json
import re

import pytest


def words_of(client, language):
    html = client.get("/scan", headers={"Accept-Language": language}).get_data(as_text=True)
    return json.loads(re.search(r'<script type="application/json" id="words">(.*?)</script>', html, re.S).group(1))


@pytest.mark.parametrize("language, forms", [
    ("sl", ["%(count)s vrstica", "%(count)s vrstici", "%(count)s vrstice", "%(count)s vrstic"]),
    ("de", ["%(count)s Zeile", "%(count)s Zeilen"]),
])
def test_a_count_reaches_the_scanner_with_each_form_of_its_plural(client, language, forms):
    words = words_of(client, language)
    assert words["%(count)s line"] == forms
    assert words["Move %(from)s → %(to)s"] == {"sl": "Premik %(from)s → %(to)s", "de": "Umlagerung %(from)s → %(to)s"}[language]
    assert "%(title)s · %(warehouse)s · %(lines)s — %(state)s" in words and "No batch number is left on the device." in words


def test_the_queues_counts_are_one_sentence_with_their_numbers_in_place(client):
    html = client.get("/scan", headers={"Accept-Language": "sl"}).get_data(as_text=True)
    assert ("čaka: <span data-queue-waiting>0</span> · potrebuje pozornost: <span data-queue-attention>0</span>"
            in html)


def refusals_of(client, language):
    html = client.get("/scan", headers={"Accept-Language": language}).get_data(as_text=True)
    return json.loads(re.search(r'<script type="application/json" id="refusals">(.*?)</script>', html, re.S).group(1))


def test_the_services_refusals_reach_the_scanner_by_the_english_the_api_answers(client):
    """The messages a refusal of the API may carry (the rules', the schemas', marshmallow's own), for
    words.js to read a refusal back; a count's message by its "(s)" English, with every form of the
    language; none of the pages' own words."""
    assert refusals_of(client, "en") == {}
    sl = refusals_of(client, "sl")
    assert sl["No product %(code)r."] == "Ni artikla %(code)r."
    assert sl["without a lot"] == "brez lota" and sl["Not a valid number."] == "Ni veljavno število."
    assert sl["%(count)s product/lot(s) short. %(first)s"] == [
        "Premalo zaloge pri %(count)s artiklu/lotu. %(first)s", "Premalo zaloge pri %(count)s artiklih/lotih. %(first)s",
        "Premalo zaloge pri %(count)s artiklih/lotih. %(first)s", "Premalo zaloge pri %(count)s artiklih/lotih. %(first)s"]
    assert "%(count)s product/lot short. %(first)s" not in sl  # the API never answers a count's own forms
    assert "Sign out" not in sl and "Delivery note" not in sl  # pages' and paper's words stay on the server
    # A count the English leaves out: the form the English says.
    de = refusals_of(client, "de")
    assert (de["Unknown event(s)."], de["No active warehouse %(numbers)s."]) == (
        "Unbekannte Ereignisse.", "Kein aktives Lager %(numbers)s.")


def test_every_count_the_rules_refuse_with_is_found_with_its_english(app):
    """A count's message reaches the scanner by say_count's `text`, read from the code: one whose
    text is not written out in the call would reach it by forms the API never answers."""
    from babel.messages.pofile import read_po

    from language.catalogue import REFUSING, answered_counts, po_path

    with open(po_path("sl"), "rb") as file:
        counts = [tuple(message.id) for message in read_po(file, locale="sl")
                  if message.pluralizable and any(place.startswith(REFUSING) for place, _ in message.locations)]
    assert counts and [count for count in counts if count not in answered_counts()] == []
