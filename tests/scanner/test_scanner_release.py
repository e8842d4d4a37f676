"""A new release reaches a scanner that keeps the page for offline start (DESIGN 25, 30), in chromium.

The page's files are at content-hashed addresses kept a year, its modules reached through an
import map, and the service worker serves the kept ones without asking: what brings a release to
the phone is the worker's own text, which names every file's hashed address. A copy of this
checkout is served, the phone installs the scanner from it, then one module the entry module
imports (not the entry itself) is changed, as a release would, and the service restarted on the
same address: the next time the phone opens the page it runs the new module, and so it does when
it then starts with no network at all.
"""
import shutil
from pathlib import Path

from playwright.sync_api import expect

from scanner_page import close_context, open_context
from server import REPO

KEPT = "warehouse-scanner-page"
SKIPPED = shutil.ignore_patterns(".git", ".venv", "tests", "docs", "bench", "__pycache__", "*.db*", "backups", "demo")


def until(tab, script: str, seconds: float = 30.0) -> None:
    """Wait (bounded) until an async function of the page answers true. evaluate awaits its promise;
    wait_for_function would take the promise itself for a true answer."""
    for _ in range(int(seconds * 10)):
        if tab.evaluate(script):
            return
        tab.wait_for_timeout(100)
    raise AssertionError(f"not true within {seconds} s: {script}")


def installed(tab) -> None:
    """The worker controls the page and is the only one (none installing or waiting)."""
    until(tab, """async () => {
        const registration = await navigator.serviceWorker.getRegistration("/scan");
        return navigator.serviceWorker.controller !== null && Boolean(registration) && Boolean(registration.active)
            && registration.active.state === "activated" && !registration.installing && !registration.waiting;
    }""")


def api_module(tab) -> str:
    """The hashed address of api.js, as the page's import map gives it."""
    return tab.evaluate("""() => JSON.parse(document.querySelector('script[type="importmap"]').textContent)
                               .imports["/scan/assets/api.js"]""")


def test_a_changed_module_reaches_a_scanner_that_keeps_the_page(browser, database_config, live_server, tmp_path):
    code = tmp_path / "release"
    shutil.copytree(REPO, code, ignore=SKIPPED)
    service = live_server(code=code)
    base = f"http://127.0.0.1:{service.port}"  # the same address after the restart: the worker's scope
    phone = open_context(browser, None, base=base)
    try:
        tab = phone.new_page()
        tab.goto(f"{base}/scan")
        expect(tab.locator("body")).to_have_attribute("data-screen", "pair")
        installed(tab)
        before = api_module(tab)
        assert tab.evaluate("() => globalThis.scannerRelease") is None

        # The next release: api.js changed (imported by app.js), nothing else.
        service.stop()
        module = Path(code) / "scanner" / "static" / "api.js"
        module.write_text(module.read_text(encoding="utf-8") + '\nglobalThis.scannerRelease = "next";\n',
                          encoding="utf-8")
        service.start(same_port=True)

        tab.reload()
        expect(tab.locator("body")).to_have_attribute("data-screen", "pair")
        after = api_module(tab)
        assert after != before
        assert tab.evaluate("() => globalThis.scannerRelease") == "next"
        # The browser checks the worker at the page's opening, finds its text changed (it names
        # the new address), and installs it, which keeps the new module and lets the old go.
        until(tab, f"""async () => {{
            const kept = await caches.open("{KEPT}");
            return Boolean(await kept.match("{after}", {{ ignoreVary: true }}))
                && !(await kept.match("{before}", {{ ignoreVary: true }}));
        }}""")
        installed(tab)

        # With no network at all, the phone starts the new release from what its worker keeps.
        phone.set_offline(True)
        tab.reload()
        expect(tab.locator("body")).to_have_attribute("data-screen", "pair")
        assert tab.evaluate("() => globalThis.scannerRelease") == "next"
        phone.set_offline(False)
    finally:
        close_context(phone)
