"""storage/cache.py: keys and products kept in memory, forgotten whenever any process writes."""
import os
import subprocess
import sys
import time

import pytest
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from helpers import product
from identity import api_keys
from schemas import product_schema
from server import database_engine
from stock import catalog
from storage import cache
from storage.cache import MAX_AGE, Cache, ChangeMark
from storage.db import configure_sqlite, db, sqlite_file, writing


class Loads:
    """A load() that counts its calls and gives a new value each time."""

    def __init__(self):
        self.calls = 0

    def __call__(self):
        self.calls += 1
        return f"value {self.calls}"


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def for_sqlite(engine) -> Cache:
    return cache.for_engine(engine, sqlite_file(engine.url))


@pytest.fixture
def mark(tmp_path):
    return ChangeMark(str(tmp_path / "w.db-changes"))


def test_a_value_is_loaded_once_while_the_mark_stays(mark):
    loads, kept = Loads(), Cache(mark, Clock())
    assert [kept.get("k", loads) for _ in range(3)] == ["value 1"] * 3
    assert loads.calls == 1


def test_a_moved_mark_forgets_everything(mark):
    loads, kept = Loads(), Cache(mark, Clock())
    kept.get("k", loads)
    mark.move()
    assert kept.get("k", loads) == "value 2"


def test_what_is_kept_is_forgotten_after_max_age(mark):
    clock = Clock()
    loads, kept = Loads(), Cache(mark, clock)
    kept.get("k", loads)
    clock.now += MAX_AGE / 2
    assert kept.get("k", loads) == "value 1"
    clock.now += MAX_AGE
    assert kept.get("k", loads) == "value 2"


def test_the_mark_is_read_before_loading_so_a_write_during_the_load_is_not_missed(mark):
    kept = Cache(mark, Clock())

    def load_while_a_write_commits():
        mark.move()  # the write commits and moves the mark after our read began
        return "read before the write"

    assert kept.get("k", load_while_a_write_commits) == "read before the write"
    assert kept.get("k", lambda: "read after the write") == "read after the write"


def test_a_mark_beside_a_linked_path_is_the_same_mark(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    one = for_sqlite(create_engine(f"sqlite:///{tmp_path / 'real' / 'w.db'}")).mark
    other = for_sqlite(create_engine(f"sqlite:///{tmp_path / 'link' / 'w.db'}")).mark
    one.move()
    assert other.read() == one.read()


def test_keys_are_kept_apart(mark):
    kept = Cache(mark, Clock())
    assert kept.get(("product", "A"), lambda: "a") == "a"
    assert kept.get(("product", "B"), lambda: "b") == "b"
    assert kept.get(("product", "A"), lambda: "not this") == "a"


def test_a_failed_load_is_not_kept(mark):
    kept = Cache(mark, Clock())

    def refuse():
        raise LookupError("no such thing")

    with pytest.raises(LookupError):
        kept.get("k", refuse)
    assert kept.get("k", lambda: "found") == "found"


def test_without_a_mark_every_get_loads():
    loads, kept = Loads(), Cache(None, Clock())
    assert [kept.get("k", loads) for _ in range(2)] == ["value 1", "value 2"]


@pytest.mark.live
def test_a_move_in_another_process_is_seen_without_reopening(tmp_path, mark):
    before = mark.read()
    code = "import sys; from storage.cache import ChangeMark; ChangeMark(sys.argv[1]).move()"
    subprocess.run([sys.executable, "-c", code, str(tmp_path / "w.db-changes")], check=True,
                   timeout=60, cwd=os.path.dirname(os.path.dirname(os.path.abspath(cache.__file__))))
    assert mark.read() != before


def test_the_app_keeps_a_mark_beside_a_sqlite_file_and_none_on_postgresql(app):
    kept = app.extensions["warehouse_cache"]
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            assert kept.mark is cache.marks[db.engine]
        else:
            assert kept.mark is None


def test_a_write_moves_the_mark_after_its_commit_never_before(tmp_path):
    engine = create_engine(f"sqlite:///{tmp_path / 'w.db'}")
    configure_sqlite(engine)  # as the app does (so BEGIN covers every statement)
    mark = for_sqlite(engine).mark
    at_commit = []
    event.listen(engine, "commit", lambda _connection: at_commit.append(mark.read()))
    with Session(engine) as session:
        with writing(session):
            session.execute(text("CREATE TABLE t (x INTEGER)"))
        before = mark.read()
        with writing(session):
            session.execute(text("INSERT INTO t VALUES (1)"))
        # A reader that saw the mark moved while the commit was still to come
        # would keep what it read before the commit under the new mark.
        assert at_commit[-1] == before
        assert mark.read() != before
        # A failed write moves it too: a commit that raised may still have been written.
        after_commit = mark.read()
        with pytest.raises(RuntimeError):
            with writing(session):
                session.execute(text("INSERT INTO t VALUES (2)"))
                raise RuntimeError("changed my mind")
        assert mark.read() != after_commit
        assert session.scalars(text("SELECT x FROM t")).all() == [1]
    engine.dispose()


# --- through HTTP: what another process changes shows at the next request ------------------

def test_a_key_revoked_by_another_process_is_refused_at_the_next_request(live_server, session):
    server = live_server(threads=2)
    key = api_keys.create_key(session, "scanner 1", "scan")
    server.api_key = key
    assert server.get("/v1/products/NOPE")[0] == 404  # known key, and now kept in memory
    api_keys.revoke_key(session, "scanner 1")  # this pytest process is the other process
    assert server.get("/v1/products/NOPE")[0] == 401


def test_a_product_changed_by_another_process_shows_at_the_next_request(live_server, session):
    server = live_server(threads=2)
    catalog.create_product(session, product_schema.load(product("P1", name="Old name")))
    assert server.get("/v1/products/P1")[1]["item"]["name"] == "Old name"
    catalog.update_product(session, "P1", {"name": "New name"})
    assert server.get("/v1/products/P1")[1]["item"]["name"] == "New name"


def test_a_change_that_bypasses_the_service_shows_within_max_age(live_server, session,
                                                               database_config):
    server = live_server(threads=2)
    catalog.create_product(session, product_schema.load(product("P1", name="Old name")))
    assert server.get("/v1/products/P1")[1]["item"]["name"] == "Old name"
    engine = database_engine(database_config)  # no change mark: like the sqlite3 shell
    try:
        with engine.begin() as connection:
            connection.exec_driver_sql("UPDATE products SET name = 'Edited by hand'")
    finally:
        engine.dispose()
    deadline = time.monotonic() + MAX_AGE + 5
    name = None
    while time.monotonic() < deadline:
        name = server.get("/v1/products/P1")[1]["item"]["name"]
        if name == "Edited by hand":
            break
        time.sleep(0.05)
    assert name == "Edited by hand"


def test_a_truncated_mark_reads_short_and_the_next_move_mends_it(mark, tmp_path):
    kept, loads = Cache(mark, Clock()), Loads()
    kept.get("k", loads)
    os.truncate(tmp_path / "w.db-changes", 0)
    assert kept.get("k", loads) == "value 2"  # another mark: forgotten, and no SIGBUS
    assert kept.get("k", loads) == "value 2"
    mark.move()
    assert os.path.getsize(tmp_path / "w.db-changes") == ChangeMark.SIZE
    assert kept.get("k", loads) == "value 3"


def test_a_deleted_mark_is_made_again_and_followed(mark, tmp_path):
    path = tmp_path / "w.db-changes"
    clock = Clock()
    kept, loads = Cache(mark, clock), Loads()
    kept.get("k", loads)
    os.remove(path)
    other = ChangeMark(str(path))  # a process started after the deletion makes a new file
    other.move()
    clock.now += MAX_AGE  # within MAX_AGE the reader opens the new file
    assert kept.get("k", loads) == "value 2"
    other.move()
    assert kept.get("k", loads) == "value 3"
    os.remove(path)
    mark.move()  # a write follows the path too, and makes the file again
    assert path.exists() and ChangeMark(str(path)).read() == mark.read()


def test_the_service_lives_through_its_mark_truncated_and_deleted(live_server, session,
                                                                  database_config):
    path = sqlite_file(make_url(database_config["SQLALCHEMY_DATABASE_URI"]))
    if path is None:
        pytest.skip("PostgreSQL keeps no change mark")
    server = live_server(threads=2)
    marks = os.path.realpath(path) + "-changes"
    catalog.create_product(session, product_schema.load(product("P1", name="Old name")))
    assert server.get("/v1/products/P1")[1]["item"]["name"] == "Old name"
    os.truncate(marks, 0)
    assert server.get("/v1/products/P1")[1]["item"]["name"] == "Old name"
    assert server.post("/v1/products/P1", {"name": "After truncation"})[0] == 200
    assert server.get("/v1/products/P1")[1]["item"]["name"] == "After truncation"
    os.remove(marks)
    assert server.post("/v1/products/P1", {"name": "After deletion"})[0] == 200
    assert server.get("/v1/products/P1")[1]["item"]["name"] == "After deletion"
    # This process writes through the file it opens now; the service follows it.
    catalog.update_product(session, "P1", {"name": "From another process"})
    deadline = time.monotonic() + MAX_AGE + 5
    name = None
    while time.monotonic() < deadline and name != "From another process":
        name = server.get("/v1/products/P1")[1]["item"]["name"]
        time.sleep(0.05)
    assert name == "From another process"
    assert server.process.poll() is None, server.log()[-2000:]
