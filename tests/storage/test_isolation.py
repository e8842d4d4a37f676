"""conftest.py builds the `app` once per run: each test must still find it as a new one.

Nothing a test before it made may show: not its keys or products (in the database or
kept in memory by storage/cache.py), not the settings it changed, not the pages'
session secret. The same test runs three times, so that each run follows one that
left all of that behind.
"""
import pytest

from conftest import Api
from helpers import created, product
from identity import api_keys
from storage import cache
from storage.db import db

# The runs must follow each other in one process (one worker of pytest-xdist).
pytestmark = pytest.mark.xdist_group("isolation")

left_behind = []  # (key, product code) of each run before, in this process


@pytest.mark.parametrize("run", [1, 2, 3])
def test_nothing_of_the_test_before_is_seen(run, app, client, monkeypatch):
    # What the runs before kept must not simply have grown old in the meantime.
    monkeypatch.setattr(cache, "MAX_AGE", 3600.0)
    for key, _code in left_behind:
        # Asked before this test writes: its first write moves the change mark, after
        # which a key kept from the test before would be forgotten anyway.
        assert client.get("/v1/products/", headers={"TS-Apikey": key}).status_code == 401
    assert app.config["ALLOW_NEGATIVE_STOCK"] is False
    assert not app.secret_key

    with app.app_context():
        key = api_keys.create_key(db.session, f"admin-{run}", "admin")
        assert [k.name for k in api_keys.list_keys(db.session)] == [f"admin-{run}"]
        db.session.remove()
    api = Api(client, key)
    for _key, code in left_behind:
        assert api.get(f"/v1/products/{code}").status_code == 404
    assert api.get("/v1/products/").json["list"] == []

    # What this run leaves behind: a setting changed, a session secret made (the login form
    # opens a session), and, read after the last write, a key and a product kept in memory.
    app.config["ALLOW_NEGATIVE_STOCK"] = True
    assert client.get("/login").status_code == 200
    assert app.secret_key
    code = f"P-{run}"
    created(api.post("/v1/products/", product(code)))
    assert api.get(f"/v1/products/{code}").status_code == 200
    left_behind.append((key, code))
