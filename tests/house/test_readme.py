"""README.md and docs/: their shell examples run as written, and their links lead somewhere.

Every ```sh block of the README and then of docs/api.md (the walkthrough in curl) is run,
in that order, in one bash (so the keys and variables a block makes reach the next) from
the repository's directory, against a live server on this test's database. The only thing
a reader fills in, the admin key and the address in the `K=` line, is filled in here. Each
`curl` must be followed by a `# -> STATUS` line, and answers exactly that. No other page
holds a ```sh block: what is written to be run, runs here.

Every relative link of README.md and docs/*.md (images too) must name a file that exists,
and an `#anchor` a heading of that page, as GitHub makes them; a docs page no link of the
README leads to is an error too. Nothing is skipped: a link that cannot be checked fails.
"""
import glob
import os
import re
import subprocess

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The pages whose ```sh blocks run, in the order they run.
WALKTHROUGH = ("README.md", "docs/api.md")
SH_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.MULTILINE | re.DOTALL)
PROMISE = re.compile(r"^# -> (\d{3})\b", re.MULTILINE)
KEY_LINE = re.compile(r"^K=.*$", re.MULTILINE)

# Records every status curl gets, then prints the answer as curl would have.
CURL_WRAPPER = r"""
curl() {
  local answer
  answer=$(command curl -sS --max-time 30 -w '\n%{http_code}' "$@")
  echo "${answer##*$'\n'}" >> "$STATUSES"
  printf '%s\n' "${answer%$'\n'*}"
}
"""


def read(page: str) -> str:
    with open(os.path.join(REPO, page), encoding="utf-8") as file:
        return file.read()


def readme_blocks() -> list[str]:
    return [block for page in WALKTHROUGH for block in SH_BLOCK.findall(read(page))]


def pages() -> list[str]:
    return ["README.md"] + sorted(os.path.relpath(path, REPO)
                                  for path in glob.glob(os.path.join(REPO, "docs", "*.md")))


def curl_calls(block: str) -> int:
    return len(re.findall(r"^curl ", block, re.MULTILINE))


def test_every_curl_in_the_readme_promises_a_status():
    blocks = readme_blocks()
    assert sum(curl_calls(block) for block in blocks) >= 25
    for block in blocks:
        assert curl_calls(block) == len(PROMISE.findall(block)), block
    assert sum(len(KEY_LINE.findall(block)) for block in blocks) == 1


def test_only_the_walkthrough_pages_hold_blocks_that_run():
    assert all(SH_BLOCK.findall(read(page)) for page in WALKTHROUGH)
    assert {page: len(SH_BLOCK.findall(read(page))) for page in pages()
            if page not in WALKTHROUGH and SH_BLOCK.search(read(page))} == {}


def test_the_readme_walkthrough_runs_in_order_on_a_fresh_database(live_server, tmp_path):
    server = live_server(threads=2)
    statuses = tmp_path / "statuses"
    script = ["set -euo pipefail", CURL_WRAPPER]
    promised = []
    for number, block in enumerate(readme_blocks()):
        block = KEY_LINE.sub(f"K='{server.api_key}'; W=http://127.0.0.1:{server.port}", block)
        script += [f'echo "block {number}" >> "$STATUSES"', block]
        promised += [f"block {number}", *PROMISE.findall(block)]
    env = {**os.environ, "DATABASE_URL": server.url, "STATUSES": str(statuses)}
    done = subprocess.run(["bash", "-c", "\n".join(script)], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert statuses.read_text().split("\n")[:-1] == promised, done.stdout[-6000:]
    assert "OK: every balance equals" in done.stdout
    # The stock the text promises: 228 after the count, 480 once PO-1002 has arrived.
    assert '"amount":228' in done.stdout and '"amount":480' in done.stdout


# --- links ------------------------------------------------------------------------------------

FENCE = re.compile(r"^(```|~~~)")
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(([^()\s]*)(?:\s+\"[^\"]*\")?\)")
REFERENCE_LINK = re.compile(r"\]\[[^\]]*\]|^\s*\[[^\]]+\]:\s", re.MULTILINE)
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def prose(text: str) -> list[str]:
    """The page's lines outside fenced code blocks, with inline code taken out."""
    lines, fenced = [], False
    for line in text.split("\n"):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def anchors(page: str) -> set[str]:
    """The anchors of a page's headings, as GitHub makes them (a repeated one gets -1, -2...)."""
    found, seen = set(), {}
    for line in prose(read(page)):
        heading = HEADING.match(line)
        if heading:
            slug = re.sub(r"[^\w\- ]", "", heading.group(2).replace("`", "").lower()).replace(" ", "-")
            found.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
            seen[slug] = seen.get(slug, 0) + 1
    return found


def links(page: str) -> list[str]:
    return [target for line in prose(read(page)) for target in LINK.findall(INLINE_CODE.sub("", line))]


def broken(page: str, target: str) -> str | None:
    """Why a link of `page` leads nowhere, or None."""
    if re.match(r"[a-z][a-z0-9+.-]*:", target):
        return None if target.startswith(("https://", "http://localhost", "http://127.0.0.1")) \
            else "an address that is neither https nor this machine"
    path, _, anchor = target.partition("#")
    if not path and not anchor:
        return "an empty link"
    named = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
    if os.path.isabs(path) or named.startswith(".."):
        return "outside the repository"
    if not os.path.isfile(os.path.join(REPO, named)):
        return f"no file {named}"
    if anchor and not named.endswith(".md"):
        return f"an anchor into {named}, which has no headings"
    if anchor and anchor not in anchors(named):
        return f"no heading #{anchor} in {named}"
    return None


def test_the_pages_link_both_ways():
    assert "docs/api.md" in pages() and len(pages()) >= 5
    targets = {os.path.normpath(target.partition("#")[0]) for target in links("README.md")}
    assert [page for page in pages()[1:] if page not in targets] == [], "docs pages the README does not link"


@pytest.mark.parametrize("page", pages())
def test_every_link_leads_somewhere(page):
    found = links(page)
    assert found, f"{page} links nowhere"
    assert {target: broken(page, target) for target in found if broken(page, target)} == {}
    assert REFERENCE_LINK.findall("\n".join(INLINE_CODE.sub("", line) for line in prose(read(page)))) == [], \
        "reference-style links are not checked: write them inline"


def test_the_link_check_finds_a_broken_link_and_anchor():
    assert broken("README.md", "docs/api.md#errors") is None
    assert broken("docs/api.md", "../README.md#settings") is None
    assert broken("docs/api.md", "#query-parameters") is None
    assert broken("README.md", "docs/nowhere.md") == "no file docs/nowhere.md"
    assert broken("README.md", "docs/api.md#nowhere") == "no heading #nowhere in docs/api.md"
    assert broken("README.md", "docs/images/stock.png#x") == "an anchor into docs/images/stock.png, which has no headings"
    assert broken("README.md", "../outside.md") == "outside the repository"
    assert "a-scanners-day-in-curl" in anchors("docs/api.md")


def test_the_readme_lists_every_setting_the_service_reads():
    names = set(re.findall(r'environ, "([A-Z_]+)"', read("operations/settings.py")))
    assert len(names) >= 15
    table = "\n".join(line for line in read("README.md").split("\n") if line.startswith("|"))
    assert sorted(name for name in names if f"`{name}`" not in table) == []


def rooms_named_by_the_readme() -> set[str]:
    """The folders and modules the README's "Where things are" names, as the tree spells them."""
    text = read("README.md")
    section = text[text.index("## Where things are"):]
    block = section[section.index("```text") + len("```text"):]
    block = block[:block.index("```")]
    named = set()
    for line in block.splitlines():
        if line and not line.startswith(" "):
            named |= {name.rstrip(",").rstrip("/") for name in line.split("  ")[0].split()}
    return named


def rooms_of_the_tree() -> set[str]:
    """Every top-level folder and Python module git keeps: the rooms a newcomer may open."""
    tracked = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True).stdout
    tops = {path.split("/")[0] + ("/" if "/" in path else "") for path in tracked.splitlines()}
    return {top.rstrip("/") for top in tops if top.endswith("/") or top.endswith(".py")}


def test_the_readme_names_every_room_of_the_tree_and_no_other():
    named, tree = rooms_named_by_the_readme(), rooms_of_the_tree()
    assert (sorted(tree - named), sorted(named - tree)) == ([], [])
