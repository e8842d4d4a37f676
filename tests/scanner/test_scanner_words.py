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
