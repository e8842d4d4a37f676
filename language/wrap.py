"""Wrap a template's words for translation: `python -m language.wrap pages/templates/new_page.html`.

A new page is written in English first; this marks what a person reads, in place, so that
`pybabel extract` finds it (docs/language.md):

- text between tags becomes {{ _("...") }}; a sentence with values in it ({{ x }} between its
  words, and no tag) becomes one message with named places, {{ _("From %(day)s", day=x) }},
  so a translation may put the words in its own order;
- the attributes a person reads (title, aria-label, placeholder, alt, data-label) likewise.

What it leaves alone: text inside {% %} (a list of labels in a `set`, a string literal in an
expression): wrap those by hand, as base.html's menu does. `unwrapped(text)` is what the test
(tests/house/test_language.py) uses to find words a template shows without a catalogue.
Run it once on a file, read the diff, and adjust a place's name where the guess is clumsy.
"""
import re
import sys

JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
READ_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt", "data-label")
ATTRIBUTE = re.compile(r'\b(' + "|".join(READ_ATTRIBUTES) + r')="([^"{}]*[A-Za-z][^"{}]*)"')
LETTERS = re.compile(r"[A-Za-z]{2,}")
ENTITY = re.compile(r"&(?:[A-Za-z]+|#[0-9]+|#x[0-9A-Fa-f]+);")  # &nbsp; is no word to translate


def _words_in(piece: str) -> bool:
    return bool(LETTERS.search(ENTITY.sub("", piece)))
RAW = ("script", "style")
# Tags that stand inside a sentence: kept in its message (a translation moves them with the
# words), as long as they hold no {{ }} of their own.
INLINE = re.compile(r"</?(code|strong|em|q|b|i|kbd|abbr)(\s[^<>{}]*)?>$")


def _tokens(text: str):
    """(kind, piece): kind is "jinja", "tag" or "text"; a tag keeps the Jinja inside it."""
    at, size = 0, len(text)
    while at < size:
        if text.startswith(("{{", "{%", "{#"), at):
            found = JINJA.match(text, at)
            end = found.end() if found else size
            yield "jinja", text[at:end]
        elif text[at] == "<" and at + 1 < size and (text[at + 1].isalpha() or text[at + 1] in "/!"):
            end, depth = at, 0
            while end < size:
                if text.startswith(("{{", "{%", "{#"), end):
                    found = JINJA.match(text, end)
                    end = found.end() if found else size
                    continue
                if text[end] == ">":
                    end += 1
                    break
                end += 1
            yield "tag", text[at:end]
        else:
            end = at + 1
            while end < size and not text.startswith(("{{", "{%", "{#"), end) and not (
                    text[end] == "<" and end + 1 < size and (text[end + 1].isalpha() or text[end + 1] in "/!")):
                end += 1
            yield "text", text[at:end]
        at = end


def _place_name(expression: str, taken: set) -> str:
    words = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", expression.split("|")[0])
    name = (words[-1] if words and words[-1] not in ("isoformat", "get", "name") or len(words) < 2 else words[-2])
    name = re.sub(r"[^a-z0-9_]", "", (name or "value").lower()) or "value"
    candidate, number = name, 2
    while candidate in taken:
        candidate, number = f"{name}{number}", number + 1
    taken.add(candidate)
    return candidate


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _message(parts: list[tuple[str, str]]) -> str:
    """A run of text and {{ }} values as one {{ _() }} call, its outer white space kept outside."""
    taken, words, places = set(), [], []
    for kind, piece in parts:
        if kind in ("text", "inline"):
            words.append(piece.replace("%", "%%"))
        else:
            name = _place_name(piece[2:-2].strip(), taken)
            words.append(f"%({name})s")
            places.append(f"{name}={piece[2:-2].strip()}")
    whole = "".join(words)
    lead = whole[:len(whole) - len(whole.lstrip())]
    tail = whole[len(whole.rstrip()):]
    call = ", ".join([_quoted(whole.strip())] + places)
    return f"{lead}{{{{ _({call}) }}}}{tail}"


def _opened(run: list, tag: str) -> bool:
    """Whether a tag may join the run: an opening one, or the closing one of a tag opened in it."""
    if not tag.startswith("</"):
        return True
    name = INLINE.match(tag).group(1)
    pieces = "".join(piece for kind, piece in run if kind == "inline")
    return len(re.findall(rf"<{name}[\s>]", pieces)) > pieces.count(f"</{name}>")


def wrap(text: str) -> str:
    tokens = list(_tokens(text))
    out, run, raw = [], [], None

    def flush():
        if any(kind == "text" and _words_in(piece) for kind, piece in run):
            # values, tags and white space at the run's edges stay outside the message
            while run and (run[0][0] != "text" or not run[0][1].strip()):
                out.append(run.pop(0)[1])
            trailing = []
            while run and (run[-1][0] != "text" or not run[-1][1].strip()):
                trailing.insert(0, run.pop()[1])
            out.append(_message(run))
            out.extend(trailing)
        else:
            out.extend(piece for _, piece in run)
        run.clear()

    for kind, piece in tokens:
        if raw:
            out.append(piece)
            if kind == "tag" and piece.lower().startswith(f"</{raw}"):
                raw = None
            continue
        if kind == "text" or (kind == "jinja" and piece.startswith("{{")):
            run.append((kind, piece))
            continue
        if kind == "tag" and INLINE.match(piece) and run and _opened(run, piece):
            run.append(("inline", piece))
            continue
        flush()
        if kind == "tag":
            name = re.match(r"</?([A-Za-z0-9]+)", piece)
            if name and name.group(1).lower() in RAW and not piece.startswith("</"):
                raw = name.group(1).lower()
            piece = ATTRIBUTE.sub(lambda m: f'{m.group(1)}="{{{{ _({_quoted(m.group(2))}) }}}}"', piece)
        out.append(piece)
    flush()
    return "".join(out)


def unwrapped(text: str) -> list[str]:
    """The words a template shows outside every {{ }}: what a catalogue never sees."""
    found, raw = [], None
    for kind, piece in _tokens(text):
        if raw:
            if kind == "tag" and piece.lower().startswith(f"</{raw}"):
                raw = None
            continue
        if kind == "text" and _words_in(piece):
            found.append(piece.strip())
        elif kind == "tag":
            name = re.match(r"</?([A-Za-z0-9]+)", piece)
            if name and name.group(1).lower() in RAW and not piece.startswith("</"):
                raw = name.group(1).lower()
            found.extend(value for _, value in ATTRIBUTE.findall(piece))
    return found


if __name__ == "__main__":
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as file:
            wrapped = wrap(file.read())
        with open(path, "w", encoding="utf-8") as file:
            file.write(wrapped)
