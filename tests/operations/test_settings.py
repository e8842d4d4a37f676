"""operations/settings.py: yes/no settings mean what they say, and a bad value stops the start naming it."""
import os
import subprocess
import sys

import pytest

from helpers import batch, created, item, product
from identity import api_keys
from operations import settings
from stock.errors import SettingError
from storage.db import db

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def app_with(make_app, monkeypatch):
    """An app made with these WAREHOUSE_* variables set."""

    def make(**environ):
        for name, value in environ.items():
            monkeypatch.setenv(name, value)
        return make_app()

    return make


def ship_more_than_stock(app):
    """Status of a goods-out of 5 P1 when none is in stock."""
    with app.app_context():
        key = api_keys.create_key(db.session, "admin", "admin")
        db.session.remove()
    client = app.test_client()
    headers = {"TS-Apikey": key}
    created(client.post("/v1/products/", json={"data": product("P1")}, headers=headers))
    body = {"data": batch(1, [item("P1", 5)], direction="O")}
    return client.post("/v1/batches/", json=body, headers=headers).status_code


@pytest.mark.parametrize("value", ["no", "No", "FALSE", "off", "0", ""])
def test_no_in_any_spelling_keeps_stock_from_going_below_zero(app_with, value):
    assert ship_more_than_stock(app_with(WAREHOUSE_ALLOW_NEGATIVE_STOCK=value)) == 409


@pytest.mark.parametrize("value", ["yes", "On", "TRUE", "1"])
def test_yes_in_any_spelling_lets_stock_go_below_zero(app_with, value):
    assert ship_more_than_stock(app_with(WAREHOUSE_ALLOW_NEGATIVE_STOCK=value)) == 201


@pytest.mark.parametrize("name, value", [
    ("WAREHOUSE_ALLOW_NEGATIVE_STOCK", "nope"),
    ("WAREHOUSE_ALLOW_NEGATIVE_STOCK", "2"),
    ("WAREHOUSE_ACQUIRE_TIMEOUT", "30m"),
    ("WAREHOUSE_ACQUIRE_TIMEOUT", "-1"),
    ("WAREHOUSE_MAX_BODY", "10MB"),
    ("WAREHOUSE_BUSY_TIMEOUT", "0"),
    ("WAREHOUSE_BUSY_TIMEOUT", "nan"),
    ("WAREHOUSE_BACKUP_HOURS", "daily"),
    ("WAREHOUSE_BACKUP_KEEP", "0"),
    ("WAREHOUSE_TIME_ZONE", "Mars/Olympus"),
    ("WAREHOUSE_TIME_ZONE", "europe/ljubljana"),  # the database's names are spelt with capitals
    ("WAREHOUSE_TIME_ZONE", "../etc/passwd"),
    ("WAREHOUSE_TIME_ZONE", "Europe"),
])
def test_a_bad_value_stops_create_app_naming_the_setting(app_with, name, value):
    with pytest.raises(SettingError) as refused:
        app_with(**{name: value})
    assert name in refused.value.message and repr(value) in refused.value.message


def test_numbers_are_read():
    config = settings.app_config({"WAREHOUSE_ACQUIRE_TIMEOUT": " 60 ", "WAREHOUSE_BUSY_TIMEOUT": "2.5",
                                  "WAREHOUSE_BACKUP_KEEP": "3", "WAREHOUSE_BACKUP_HOURS": "0"})
    assert (config["ACQUIRE_TIMEOUT"], config["BUSY_TIMEOUT"]) == (60, 2.5)
    assert (config["BACKUP_KEEP"], config["BACKUP_HOURS"]) == (3, 0)


def test_the_time_zone_is_an_iana_name_or_the_machines_own():
    assert settings.app_config({})["TIME_ZONE"] is None
    assert settings.app_config({"WAREHOUSE_TIME_ZONE": " Europe/Ljubljana "})["TIME_ZONE"] == "Europe/Ljubljana"
    assert settings.app_config({"WAREHOUSE_TIME_ZONE": "UTC"})["TIME_ZONE"] == "UTC"


def run(argv, tmp_path, **environ):
    env = {k: v for k, v in os.environ.items() if not k.startswith("WAREHOUSE_") and k != "DATABASE_URL"}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'warehouse.db'}"
    env.update(environ)
    return subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("name, value", [("WAREHOUSE_ALLOW_NEGATIVE_STOCK", "maybe"),
                                         ("WAREHOUSE_PORT", "eighty"),
                                         ("WAREHOUSE_LOG_KEEP", "-2"),
                                         ("WAREHOUSE_TIME_ZONE", "Central European")])
@pytest.mark.live
def test_python_app_py_refuses_to_start_naming_the_setting(tmp_path, name, value):
    done = run([sys.executable, os.path.join(REPO, "app.py"), "--host", "127.0.0.1", "--port", "1"],
               tmp_path, **{name: value})
    assert done.returncode != 0
    assert f"Refusing to start: {name}={value!r}" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.live
def test_a_command_refuses_to_run_naming_the_setting(tmp_path):
    flask = os.path.join(os.path.dirname(sys.executable), "flask")
    done = run([flask, "--app", os.path.join(REPO, "app.py"), "keys", "list"], tmp_path,
               WAREHOUSE_BUSY_TIMEOUT="soon")
    assert done.returncode == 1
    assert "Error: WAREHOUSE_BUSY_TIMEOUT='soon' is not a number." in done.stderr
    assert "Traceback" not in done.stderr


def test_flask_settings_knows_every_setting_this_module_reads():
    import re

    from operations import settings

    with open(settings.__file__, encoding="utf-8") as file:
        read = set(re.findall(r'environ, "([A-Z_]+)"', file.read()))
    assert read == {name for name, *_ in settings.SETTINGS}
