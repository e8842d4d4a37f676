"""HTTPS on the LAN (DESIGN 22, docs/https.md): the real Caddy of Debian's `caddy` package, run
with deploy/Caddyfile on loopback ports in front of the live service, books a batch over
HTTPS; the service names the scanner, not the proxy, as the client.

The scanner's address is 127.0.0.2 (Linux answers the whole of 127.0.0.0/8 on loopback), so
that it differs from Caddy's 127.0.0.1. Every process is stopped by its pid; every wait is
bounded.
"""
import http.client
import os
import shutil
import signal
import ssl
import subprocess
import time

import pytest

from server import REPO, batch_body, free_port

pytestmark = pytest.mark.live

CADDY = shutil.which("caddy")
SCANNER = "127.0.0.2"
START_TIMEOUT = 30.0


@pytest.fixture
def caddy(tmp_path):
    """Start Caddy with deploy/Caddyfile in front of an upstream port: `caddy(upstream_port)`."""
    if CADDY is None:
        pytest.skip("Caddy is not installed (Debian: apt-get install caddy; make test installs it)")
    started = []

    def start(upstream: int) -> dict:
        ports = {"admin": free_port(), "http": free_port(), "https": free_port()}
        env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path),
               "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
               "CADDY_ADMIN": f"127.0.0.1:{ports['admin']}", "CADDY_HTTP_PORT": str(ports["http"]),
               "CADDY_HTTPS_PORT": str(ports["https"]), "CADDY_BIND": "127.0.0.1",
               "WAREHOUSE_SITE": "127.0.0.1", "WAREHOUSE_UPSTREAM": f"127.0.0.1:{upstream}"}
        log = open(tmp_path / "caddy.log", "wb")
        process = subprocess.Popen([CADDY, "run", "--config", os.path.join(REPO, "deploy", "Caddyfile"),
                                    "--adapter", "caddyfile"], cwd=tmp_path, env=env, stdout=log,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        started.append((process, log))
        root = tmp_path / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            assert process.poll() is None, (tmp_path / "caddy.log").read_text(errors="replace")[-3000:]
            if root.exists():
                try:
                    https(ports["https"], root).request("GET", "/health")
                    return {**ports, "root": root}
                except (OSError, ssl.SSLError):
                    pass
            time.sleep(0.1)
        raise AssertionError("Caddy did not answer over HTTPS:\n"
                             + (tmp_path / "caddy.log").read_text(errors="replace")[-3000:])

    yield start
    for process, log in started:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
        log.close()


class https:
    """A scanner's HTTPS connection from SCANNER, trusting only Caddy's root certificate."""

    def __init__(self, port: int, root):
        context = ssl.create_default_context(cafile=str(root))
        self.connection = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=30,
                                                      source_address=(SCANNER, 0))

    def request(self, method, path, body=None, headers=None):
        import json

        try:
            self.connection.request(method, path, body=None if body is None else json.dumps({"data": body}),
                                    headers={"Content-Type": "application/json", **(headers or {})})
            response = self.connection.getresponse()
            return response.status, response.getheaders(), response.read()
        finally:
            self.connection.close()


def test_a_batch_booked_over_https_through_caddy_names_the_scanner(live_server, caddy, person, monkeypatch):
    monkeypatch.setenv("WAREHOUSE_TRUSTED_PROXY", "127.0.0.1")
    server = live_server(threads=2)
    proxy = caddy(server.port)
    key = {"TS-Apikey": server.api_key}

    def over_https(method, path, body=None, headers=None):
        return https(proxy["https"], proxy["root"]).request(method, path, body, {**key, **(headers or {})})

    status, _, answer = over_https("POST", "/v1/products/", {"product_code": "P1", "name": "P", "base_unit": "pc"})
    assert status == 201, answer
    # A scanner's own X-Forwarded-For is not passed on: Caddy writes the address it saw.
    status, _, answer = over_https("POST", "/v1/batches/", batch_body(1, "I", [("P1", 3)]),
                                   {"X-Forwarded-For": "6.6.6.6"})
    assert status == 201, answer
    status, batch = server.get("/v1/batches/1")
    assert status == 200
    assert {"key": "posted_from", "value": SCANNER} in batch["item"]["batch_extras"]

    deadline = time.monotonic() + 10
    while "POST /v1/batches/ 201" not in server.log() and time.monotonic() < deadline:
        time.sleep(0.05)
    [line] = [line for line in server.log().splitlines() if "POST /v1/batches/ 201" in line]
    assert line.split(" ")[3] == SCANNER, line  # date, time, logger, client...

    # The pages' session cookie, set over HTTPS, is Secure.
    status, headers, page = over_https("GET", "/login")
    token = page.decode().split('name="token" value="', 1)[1].split('"', 1)[0]
    form_cookie = next(value for name, value in headers if name.lower() == "set-cookie").split(";")[0]
    login = https(proxy["https"], proxy["root"])
    password = person("read")
    login.connection.request("POST", "/login", body=f"username=read&password={password}&token={token}&next=",
                             headers={"Content-Type": "application/x-www-form-urlencoded",
                                      "Cookie": form_cookie})
    response = login.connection.getresponse()
    cookies = [value for name, value in response.getheaders() if name.lower() == "set-cookie"]
    login.connection.close()
    assert any(cookie.startswith("session=") and "; Secure" in cookie for cookie in cookies), cookies


def test_without_the_trusted_proxy_setting_the_proxy_is_the_client(live_server, caddy):
    server = live_server(threads=1)
    proxy = caddy(server.port)
    status, _, _ = https(proxy["https"], proxy["root"]).request("GET", "/v1/products/",
                                                               headers={"TS-Apikey": server.api_key})
    assert status == 200
    deadline = time.monotonic() + 10
    while "GET /v1/products/ 200" not in server.log() and time.monotonic() < deadline:
        time.sleep(0.05)
    [line] = [line for line in server.log().splitlines() if "GET /v1/products/ 200" in line]
    assert line.split(" ")[3] == "127.0.0.1", line
