"""README.md: its shell examples run as written, in order, on a fresh database.

Every ```sh block is run, in order, in one bash (so the keys and variables a
block makes reach the next) from the repository's directory, against a live
server on this test's database. The only thing a reader fills in, the admin key
and the address in the `K=` line, is filled in here. Each `curl` must be
followed by a `# -> STATUS` line, and answers exactly that.
"""
import os
import re
import subprocess

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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


def readme_blocks() -> list[str]:
    with open(os.path.join(REPO, "README.md"), encoding="utf-8") as file:
        return SH_BLOCK.findall(file.read())


def curl_calls(block: str) -> int:
    return len(re.findall(r"^curl ", block, re.MULTILINE))


def test_every_curl_in_the_readme_promises_a_status():
    blocks = readme_blocks()
    assert sum(curl_calls(block) for block in blocks) >= 25
    for block in blocks:
        assert curl_calls(block) == len(PROMISE.findall(block)), block
    assert sum(len(KEY_LINE.findall(block)) for block in blocks) == 1


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
