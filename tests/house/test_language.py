"""The catalogues (DESIGN 29): every message of the code in Slovenian and German, none left
empty, each .mo its .po compiled, no template word outside a catalogue, the glossary's words.

`pybabel extract` runs here as `python -m language.messages update` runs it (language/messages.py).
"""
import glob
import os
import re

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from language import LANGUAGES, TRANSLATIONS
from language.messages import ROOT, extract
from language.wrap import unwrapped, wrap

TRANSLATED = [language for language in LANGUAGES if language != "en"]
PLACES = re.compile(r"%\(\w+\)[sdr]")


def catalogue(language: str):
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as file:
        return read_po(file, locale=language)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    pot = str(tmp_path_factory.mktemp("messages") / "messages.pot")
    extract(pot)
    with open(pot, "rb") as file:
        return read_po(file)


def _key(message):
    return message.context, tuple(message.id) if isinstance(message.id, list) else message.id


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_of_the_code_is_in_the_catalogue_and_translated(extracted, language):
    found = {_key(message): message for message in catalogue(language) if message.id}
    missing = [message.id for message in extracted if message.id and _key(message) not in found]
    assert not missing, f"not in {language}: run `python -m language.messages update` and translate: {missing[:10]}"
    empty = [message.id for message in found.values()
             if not all(message.string if isinstance(message.string, tuple) else (message.string,))
             or message.fuzzy]
    assert not empty, f"left empty or fuzzy in {language}: {empty[:10]}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_translation_keeps_every_place_of_its_message(language):
    for message in catalogue(language):
        if not message.id:
            continue
        places = set(PLACES.findall(" ".join(message.id) if isinstance(message.id, tuple) else message.id))
        for form in message.string if isinstance(message.string, tuple) else (message.string,):
            assert set(PLACES.findall(form)) == places, (language, message.id, form)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalogue_is_its_po_compiled(language):
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo", "rb") as file:
        compiled = {_key(message): tuple(message.string) if isinstance(message.string, list) else message.string
                    for message in read_mo(file) if message.id}
    written = {_key(message): message.string for message in catalogue(language) if message.id}
    assert compiled == written, f"run `python -m language.messages compile` ({language})"


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(ROOT, "pages", "templates", "*.html"))
                                        + glob.glob(os.path.join(ROOT, "scanner", "templates", "scanner", "*.html"))),
                         ids=os.path.basename)
def test_no_template_shows_a_word_outside_the_catalogues(path):
    with open(path, encoding="utf-8") as file:
        assert unwrapped(file.read()) == [], "wrap them: python -m language.wrap " + os.path.relpath(path, ROOT)


def test_wrapping_keeps_a_sentence_with_its_values_as_one_message():
    wrapped = wrap('<p title="Last use">Page {{ p.page }} of {{ p.pages }} <code>x</code> shown.</p>')
    assert wrapped == ('<p title="{{ _("Last use") }}">{{ _("Page %(page)s of %(pages)s <code>x</code> shown.", '
                       'page=p.page, pages=p.pages) }}</p>')
    assert unwrapped(wrapped) == []


@pytest.mark.parametrize("english, sl, de", [
    ("Delivery note", "Dobavnica", "Lieferschein"),
    ("Pick list", "Seznam za komisioniranje", "Kommissionierliste"),
    ("Count sheet", "Popisni list", "Zählliste"),
    ("Stocktakings", "Inventure", "Inventuren"),
    ("goods-in", "prevzem", "Wareneingang"),
    ("Reorder levels", "Minimalne zaloge", "Meldebestände"),
    ("Sign out", "Odjava", "Abmelden"),
])
def test_the_glossarys_words(english, sl, de):
    for language, word in (("sl", sl), ("de", de)):
        found = {message.id: message.string for message in catalogue(language)}
        assert found[english] == word


def test_the_glossary_is_honoured_across_the_catalogue():
    """One word per idea: the German catalogue never says "Lagerort" or "Posten" for a location or lot."""
    text = (TRANSLATIONS / "de" / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
    strings = "\n".join(line for line in text.splitlines() if line.startswith("msgstr"))
    assert "Lagerort" not in strings and "Los " not in strings and "Mindesthaltbarkeitsdatum" not in strings
