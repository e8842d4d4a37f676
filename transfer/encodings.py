"""Which characters a CSV's bytes stand for: UTF-8 (with or without a byte-order mark), or the
code page of the Windows that saved it, Windows-1250 (Central Europe) or Windows-1252 (West).

UTF-8 is certain when the bytes decode as UTF-8. Between the two code pages the bytes alone
cannot tell: 0xC8 is `Č` in one and `È` in the other. The guess reads the text both ways and
keeps the reading whose accented words belong to a language of that code page's region
(`Pšenična` is Slovenian; `Pšeniène` is no language at all); when both fit alike (a short
file), the reading whose letters stand where letters can (`Caffè`, not `Caffč`), then the one
whose letters are the more common in their languages. The page shows the names as read and
lets the person choose another encoding before anything is written; the API and `flask
import` take the encoding as an option.

charset-normalizer (installed with reportlab) was measured against this guess on 201 short
product lists in 13 languages (bench/encoding_guess.py): it read 116 of them right, this guess
183; on a long list of Western European names it chose Windows-1250 (docs/import-export.md,
"How the encoding is found").
"""
import re
import unicodedata

from stock.errors import say

UTF8, CENTRAL, WESTERN = "utf-8", "windows-1250", "windows-1252"
# The code page a depot's language saves in (DESIGN 29): what a file from its own office's Excel
# most likely is when the bytes alone cannot tell ("Crème" reads as a word either way).
CODE_PAGES = {"sl": CENTRAL, "de": WESTERN}
NAMES = {UTF8: "UTF-8", CENTRAL: "Windows-1250 (Central European)", WESTERN: "Windows-1252 (Western European)"}
CODECS = {UTF8: "utf-8-sig", CENTRAL: "cp1250", WESTERN: "cp1252"}

# The accented letters each language of a code page's region writes.
ALPHABETS = {
    CENTRAL: ("áčďéěíňóřšťúůýž", "áäčďéíĺľňóôŕšťúýž", "čšžćđ", "ąćęłńóśźż", "áéíóöőúüű", "ăâîşţ", "äöüß"),
    WESTERN: ("äöüß", "àâæçéèêëîïôœùûüÿ", "áéíñóúü", "àèéìíîòóùú", "áâãàçéêíóôõú", "åäöé", "æøåé",
              "éëïöü"),
}
# Letters the two code pages write with the same byte, and how common each is in the
# languages that use it (per thousand letters, roughly): the tie-break of a short file.
COMMON = {
    CENTRAL: {"č": 10, "ř": 12, "ě": 16, "ů": 6, "ň": 1, "ť": 2, "ď": 1, "ľ": 4, "ĺ": 1, "ŕ": 1, "ą": 9,
              "ę": 11, "ł": 18, "ś": 7, "ć": 5, "ń": 2, "ż": 8, "ź": 1, "ő": 9, "ű": 1, "ă": 10, "ş": 5,
              "ţ": 5, "đ": 2},
    WESTERN: {"è": 3, "à": 5, "ì": 1, "ò": 1, "ù": 1, "ê": 3, "ñ": 3, "ã": 7, "õ": 1, "ø": 9, "å": 12,
              "æ": 9, "ï": 1, "û": 1, "œ": 1, "ð": 1, "þ": 1},
}
ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz")
CONSONANTS = "bcdfghjklmnpqrstvwxzčřňťďľĺŕłśćńżźşţđñšžß"
SQUEEZED = {encoding: re.compile(f"(?<=[{CONSONANTS}])[{''.join(c for c in letters if c in CONSONANTS)}]"
                                 f"(?![^\\W\\d_])")
            for encoding, letters in COMMON.items()}
SAMPLE_BYTES = 256 * 1024
# A word with a letter beyond ASCII; a symbol beyond ASCII touching a letter (`Jab³ka`, `Ma¹lo`),
# which is a letter read with the wrong code page.
ACCENTED_WORD = re.compile(r"[^\W\d_]*[^\x00-\x7f\W\d_][^\W\d_]*")
STRAY = re.compile(r"(?<=[^\W\d_])[^\x00-\x7f\w\s]|[^\x00-\x7f\w\s](?=[^\W\d_])")


class NotText(ValueError):
    """Bytes that are no text in the encoding asked for."""


def decode(data: bytes, encoding: str | None = None, language: str | None = None) -> tuple[str, str]:
    """(text, encoding used): in `encoding`, or in the one detected when it is None (`language`:
    the depot's, which settles a guess the bytes leave open)."""
    chosen = encoding or detect(data, language)
    if chosen is None:
        raise NotText(say("Not text in UTF-8, Windows-1250 or Windows-1252: save it as \"CSV UTF-8\"."))
    try:
        return data.decode(CODECS[chosen]), chosen
    except UnicodeDecodeError as error:
        raise NotText(say("Not %(encoding)s text (byte %(byte)s at position %(position)s): choose the file's encoding.",
                          encoding=NAMES[chosen], byte=format(error.object[error.start], "#04x"),
                          position=error.start + 1)) from None


def detect(data: bytes, language: str | None = None) -> str | None:
    """UTF-8, else the likelier code page; None when neither reads the bytes. When both readings
    are words of their regions alike (the first two measures of _likelihood tie), the code page of
    the depot's `language` is taken, where it has one, before how common the letters are."""
    try:
        data.decode("utf-8")
        return UTF8
    except UnicodeDecodeError:
        pass
    # The first 256 KiB (thousands of rows) tell as well as the whole file, and cost a
    # 50 MB file no more than a small one.
    sample = data[:SAMPLE_BYTES]
    scores = {}
    for encoding in (CENTRAL, WESTERN):
        try:
            scores[encoding] = _likelihood(sample.decode(CODECS[encoding]), encoding)
        except UnicodeDecodeError:  # a byte this code page leaves undefined
            continue
    if not scores:
        return None
    preferred = CODE_PAGES.get(language or "")
    if preferred and len(scores) == 2 and scores[CENTRAL][:2] == scores[WESTERN][:2]:
        return preferred
    # Both equally: the code page DESIGN 19 names for a file not in UTF-8.
    return max((WESTERN, CENTRAL), key=lambda encoding: scores.get(encoding, (-10**9,)))


def _likelihood(text: str, encoding: str) -> tuple[int, int, int]:
    """How well a reading fits the code page's region, most telling first: accented words of its
    likeliest language, less words of no language there and stray symbols; less letters only this
    reading gives standing where such a letter cannot; how common those letters are."""
    lowered = text.lower()
    alphabets = [set(alphabet) for alphabet in ALPHABETS[encoding]]
    in_language, misfits = [0] * len(alphabets), 0
    for word in set(ACCENTED_WORD.findall(lowered)):
        letters = set(word) - ASCII_LETTERS
        fits = [letters <= alphabet for alphabet in alphabets]
        in_language = [count + fit for count, fit in zip(in_language, fits)]
        misfits += not any(fits)
    stray = len(STRAY.findall(text))
    # `Caffč`, `Smř`: a consonant ending a word after a consonant is a vowel read with the
    # wrong code page.
    squeezed = len(SQUEEZED[encoding].findall(lowered))
    common = sum(count * lowered.count(char) for char, count in COMMON[encoding].items())
    return max(in_language) - misfits - 2 * stray, -squeezed, common


def has_accents(text: str) -> bool:
    """Whether a text holds a letter beyond ASCII: the ones a wrong encoding shows wrong."""
    return any(ord(char) > 127 and unicodedata.category(char).startswith("L") for char in text)
