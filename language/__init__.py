"""The depot's language (DESIGN 29): which language a request is answered in, the catalogues,
and how dates and amounts are written in it. English, Slovenian and German, each whole.

  choice.py      which language: the person's own, else the depot's (the depot page, then
                 WAREHOUSE_LANGUAGE), else the browser's Accept-Language, else English;
                 Flask-Babel set up with that as its locale selector
  formats.py     dates and amounts as each language writes them (Babel), amounts typed with
                 a decimal comma, the CSV convention of each language
  catalogue.py   a rule's message (stock.errors.Said) translated for a page; the scanner's
                 strings as JSON, read from the same catalogues
  translations/  <language>/LC_MESSAGES/messages.po and the compiled .mo, both committed

The API, its errors and its document stay English and ISO: nothing under /v1 calls gettext.
How a developer wraps a new page's strings and adds a language: docs/language.md.

May import: flask, flask_babel, babel, stock/ (the depot's setting), storage/. Never routes/,
pages/, scanner/, printing/ or operations/: those import this.
"""
from pathlib import Path

LANGUAGES = ("en", "sl", "de")
# Each language by its own name, as a person who reads only it finds it in a list.
NAMES = {"en": "English", "sl": "Slovenščina", "de": "Deutsch"}
TRANSLATIONS = Path(__file__).parent / "translations"


def register(app) -> None:
    from language import choice
    choice.configure(app)
