"""The catalogues' upkeep, the one way it is done: `python -m language.messages update|compile`.

  update    `pybabel extract` over the rooms that show words (SOURCES, by babel.cfg), then
            `pybabel update` of every language's messages.po: new messages come in empty,
            gone ones are dropped. Fill the empty msgstr (docs/language.md), then:
  compile   messages.po to messages.mo, which the service reads (both are committed).

tests/house/test_language.py extracts the same way (`extract`) and fails on a message of the
code that a catalogue lacks or leaves empty, and on an .mo that is not its .po compiled.
"""
import os
import sys
import tempfile

from babel.messages.frontend import CommandLineInterface

from language import LANGUAGES, TRANSLATIONS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = ("pages", "printing", "language", "stock", "identity", "transfer", "scanner", "schemas")
# Beside gettext's own (_, gettext, ngettext, pgettext): lazy strings, a rule's message
# (stock.errors.say, say_count with its plural), an HTTP error's description (abort(403, "...")),
# the scanner's t("...") and tn("one", "many", count).
KEYWORDS = ("_l", "lazy_gettext", "say", "say_count:1,2", "abort:2", "t", "tn:1,2")


def pybabel(*arguments: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *arguments])


def extract(pot: str) -> None:
    """Every message of the code and templates into the template `pot`."""
    keywords = [argument for keyword in KEYWORDS for argument in ("-k", keyword)]
    cwd = os.getcwd()
    os.chdir(ROOT)  # the locations in the catalogues are relative to the repository
    try:
        pybabel("extract", "-F", "babel.cfg", *keywords, "--no-wrap", "--sort-by-file",
                "--project", "warehouse", "--copyright-holder", "the depot", "-o", pot, *SOURCES)
    finally:
        os.chdir(cwd)


def update() -> None:
    with tempfile.TemporaryDirectory() as folder:
        pot = os.path.join(folder, "messages.pot")
        extract(pot)
        for language in LANGUAGES:
            if language == "en":
                continue
            if (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").exists():
                pybabel("update", "-i", pot, "-d", str(TRANSLATIONS), "-l", language, "--no-wrap",
                        "--no-fuzzy-matching", "--ignore-obsolete")
            else:
                pybabel("init", "-i", pot, "-d", str(TRANSLATIONS), "-l", language, "--no-wrap")


def compile_all() -> None:
    pybabel("compile", "-d", str(TRANSLATIONS), "--use-fuzzy")


if __name__ == "__main__":
    {"update": update, "compile": compile_all}[sys.argv[1] if len(sys.argv) > 1 else "update"]()
