"""operations/logs.py: the access line of the real server, and what it does with odd paths."""
import getpass
import logging
import os
import subprocess
import sys
import time

import pytest

from operations import upgrades

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_the_served_process_logs_each_request_with_the_key_name(live_server):
    server = live_server(threads=2)
    assert server.get("/v1/products/NOPE")[0] == 404
    deadline = time.monotonic() + 10
    while "/v1/products/NOPE" not in server.log() and time.monotonic() < deadline:
        time.sleep(0.05)
    lines = [line for line in server.log().splitlines() if "/v1/products/NOPE" in line]
    assert len(lines) == 1, server.log()[-2000:]
    _date, _time, logger, client, method, path, status, took, name = lines[0].split(" ")
    assert (logger, client, method, path, status, name) == (
        "warehouse.access", "127.0.0.1", "GET", "/v1/products/NOPE", "404", "bootstrap")
    assert took.endswith("ms") and float(took[:-2]) >= 0
    assert server.api_key not in server.log()


def test_the_logged_path_is_the_one_the_client_wrote_on_one_line(api, caplog):
    with caplog.at_level(logging.INFO, logger="warehouse.access"):
        api.get("/v1/products/M%C3%9CSLI")
        api.get("/v1/products/A%0AGET /v1/forged 200 0.1ms admin")
    lines = [record.getMessage() for record in caplog.records if record.name == "warehouse.access"]
    assert lines[0].startswith("127.0.0.1 GET /v1/products/MÜSLI 404 ")
    assert len(lines) == 2 and "\n" not in lines[1]
    assert lines[1].startswith("127.0.0.1 GET /v1/products/A\\nGET /v1/forged")


@pytest.mark.live
def test_key_changes_imports_and_upgrades_are_logged_with_who_ran_them(tmp_path):
    log_file = tmp_path / "warehouse.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("WAREHOUSE_") and k != "DATABASE_URL"}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'warehouse.db'}", WAREHOUSE_LOG_FILE=str(log_file))
    flask = [os.path.join(os.path.dirname(sys.executable), "flask"), "--app", os.path.join(REPO, "app.py")]
    products = tmp_path / "products.jsonl"
    products.write_text('{"product_code": "MILK", "name": "Milk", "base_unit": "pc"}\n', encoding="utf-8")
    for args in (["db", "upgrade"], ["keys", "create", "--name", "scanner-3", "--role", "scan", "--warehouses", "1"],
                 ["keys", "revoke", "scanner-3"], ["products", "import", str(products)]):
        done = subprocess.run(flask + args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
    lines = [line.split(" ", 3)[3] for line in log_file.read_text(encoding="utf-8").splitlines()
             if " warehouse.audit " in line]
    user = getpass.getuser()
    assert lines == [
        f"database upgraded from empty to {upgrades.scripts().get_current_head()} by 'flask db upgrade' run by {user}",
        f"key 'scanner-3' (scan, warehouses [1]) created by 'flask keys create' run by {user}",
        f"key 'scanner-3' revoked by 'flask keys revoke' run by {user}",
        f"1 product(s) imported from {products} by 'flask products import' run by {user}",
    ]


@pytest.mark.parametrize("remote, forwarded, trusted, logged", [
    ("10.0.0.5", "192.168.1.77", "10.0.0.5", "192.168.1.77"),  # behind the trusted proxy: the scanner
    ("10.0.0.6", "192.168.1.77", "10.0.0.5", "10.0.0.6"),  # anyone else's header is not believed
    ("10.0.0.5", "192.168.1.77", None, "10.0.0.5"),  # no proxy trusted
])
def test_the_access_line_names_the_client_behind_the_trusted_proxy(app, keys, caplog, remote, forwarded,
                                                                   trusted, logged):
    app.config["TRUSTED_PROXY"] = trusted
    client = app.test_client()
    with caplog.at_level(logging.INFO, logger="warehouse.access"):
        client.get("/v1/products/", headers={"TS-Apikey": keys["admin"], "X-Forwarded-For": forwarded},
                   environ_base={"REMOTE_ADDR": remote})
    [line] = [record.getMessage() for record in caplog.records if record.name == "warehouse.access"]
    assert line.startswith(f"{logged} GET /v1/products/ 200 ")
