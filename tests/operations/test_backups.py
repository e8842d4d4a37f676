"""Backups (DESIGN 12), through a real waitress server and the real commands.

Every loop is bounded in count and time; servers are stopped by their pid.
"""
import os
import re
import sqlite3
import subprocess
import sys
import time

import pytest
from sqlalchemy import text

from conftest import BACKEND
from operations.backups import rotate
from safekeeping.backups import check_sqlite_copy, identity_of_backup
from server import Posters, batch_body, create_products, database_engine, query, server_url

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
POSTERS = 4
LOAD_BUDGET = 60.0  # seconds


def flask(database_config, cwd, *args, **environ):
    env = {k: v for k, v in os.environ.items() if not k.startswith("WAREHOUSE_") and k != "DATABASE_URL"}
    env.update(DATABASE_URL=server_url(database_config), **environ)
    if database_config.get("BUSY_TIMEOUT"):  # conftest: PostgreSQL is shared
        env.setdefault("WAREHOUSE_BUSY_TIMEOUT", str(database_config["BUSY_TIMEOUT"]))
    command = [os.path.join(os.path.dirname(sys.executable), "flask"), "--app", os.path.join(REPO, "app.py")]
    return subprocess.run(command + list(args), cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def backed_up_batches(path: str) -> set[int]:
    """The batch numbers a backup holds."""
    if BACKEND == "sqlite":
        copy = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return {n for (n,) in copy.execute("SELECT batch_number FROM batches")}
        finally:
            copy.close()
    # The dump's COPY block of the batches table, its first column.
    done = subprocess.run(["pg_restore", "--data-only", "--table=batches", "--file=-", path],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    block = re.search(r"^COPY \S*batches \(.*?\) FROM stdin;\n(.*?)^\\\.$", done.stdout, re.S | re.M)
    return {int(line.split("\t")[0]) for line in block.group(1).splitlines()}


def test_a_backup_taken_while_batches_are_posted_holds_every_batch_answered_before_it(
        live_server, database_config, tmp_path):
    server = live_server(threads=4)
    create_products(server)
    with Posters(server, POSTERS, [("P1", 1)] * 50, LOAD_BUDGET) as posters:
        before = posters.wait_for(40)
        target = tmp_path / "by-hand" / "copy.db"
        done = flask(database_config, tmp_path, "backup", str(target))
    assert posters.refused == []  # every batch posted, before and during the backup, is 201
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == str(target)  # the path alone on the last line
    assert len(before) >= 40
    assert before <= backed_up_batches(str(target))
    if BACKEND == "sqlite":
        check_sqlite_copy(str(target))  # integrity_check and the balance check, again here


def test_restore_while_serving_answers_from_the_restored_data_at_the_next_request(
        live_server, database_config, tmp_path):
    server = live_server(threads=2)
    create_products(server)
    for number in (1, 2, 3):
        assert server.post("/v1/batches/", batch_body(number, "I", [("P1", 10)]))[0] == 201
    taken = flask(database_config, tmp_path, "backup")
    assert taken.returncode == 0, taken.stderr
    backup = taken.stdout.splitlines()[-1]
    for number in (4, 5):
        assert server.post("/v1/batches/", batch_body(number, "I", [("P1", 10)]))[0] == 201
    # A change the service keeps in memory (a product read) must not outlive the restore.
    assert server.post("/v1/products/P1", {"name": "renamed"})[0] == 200
    assert server.get("/v1/products/P1")[1]["item"]["name"] == "renamed"

    restored = flask(database_config, tmp_path, "restore", backup)
    assert restored.returncode == 0, restored.stderr
    assert "2 batch(es) booked after that backup are gone" in restored.stdout

    assert server.get("/v1/batches/4")[0] == 404
    assert server.get("/v1/batches/3")[0] == 200
    assert server.get("/v1/products/P1")[1]["item"]["name"] == "Product P1"  # as before the rename
    status, stock = server.post("/v1/inventory/filter", {"id_warehouses": [1], "product_code": "P1", "level": 0})
    assert stock["list"][0]["amount"] == 30
    # And the service books on from there.
    assert server.post("/v1/batches/", batch_body(4, "I", [("P1", 1)]))[0] == 201


def test_a_restore_of_a_broken_copy_is_refused_and_changes_nothing(live_server, database_config, tmp_path):
    server = live_server(threads=2)
    create_products(server)
    assert server.post("/v1/batches/", batch_body(1, "I", [("P1", 10)]))[0] == 201
    broken = tmp_path / "broken.db"
    broken.write_bytes(b"this is no database" * 100)
    done = flask(database_config, tmp_path, "restore", str(broken))
    assert done.returncode == 1
    assert "Error:" in done.stderr
    assert server.get("/v1/batches/1")[0] == 200


def test_the_service_backs_up_at_start_and_every_interval_keeping_the_newest(
        live_server, database_config, tmp_path, monkeypatch):
    folder = tmp_path / "kept"
    monkeypatch.setenv("WAREHOUSE_BACKUP_DIR", str(folder))
    monkeypatch.setenv("WAREHOUSE_BACKUP_HOURS", "0.0003")  # about a second
    monkeypatch.setenv("WAREHOUSE_BACKUP_KEEP", "2")
    folder.mkdir()
    (folder / "notes.txt").write_text("the operator's own file", encoding="utf-8")
    server = live_server(threads=2)
    create_products(server)
    deadline = time.monotonic() + 60
    while server.log().count("backup written to") < 4 and time.monotonic() < deadline:
        time.sleep(0.1)
    server.stop()
    written = re.findall(r"backup written to (\S+)", server.log())
    assert len(written) >= 4
    assert sorted(os.listdir(folder)) == sorted(["notes.txt", *map(os.path.basename, written[-2:])])


def test_rotation_removes_only_its_own_oldest_backups(tmp_path):
    names = ["warehouse-20260101-000000.db", "warehouse-20260102-000000.db",
             "warehouse-20260103-000000.db", "warehouse.db.before-6a1d3f0c2b71", "notes.txt"]
    for name in names:
        (tmp_path / name).write_text("x", encoding="utf-8")
    removed = rotate(str(tmp_path), 2)
    assert [os.path.basename(path) for path in removed] == ["warehouse-20260101-000000.db"]
    assert sorted(os.listdir(tmp_path)) == sorted(names[1:])


# --- the depot's identity (DESIGN 22) ---------------------------------------------------------

def depot_id(database_config) -> str:
    return query(database_config, "SELECT value FROM service_settings WHERE name = 'depot_id'")[0][0]


@pytest.mark.live
def test_a_backup_carries_the_depot_identity(database_config, tmp_path):
    done = flask(database_config, tmp_path, "backup", WAREHOUSE_DEPOT_NAME="Riverside depot")
    assert done.returncode == 0, done.stderr
    assert "Riverside depot" in done.stderr
    path = done.stdout.splitlines()[-1]
    assert os.path.basename(os.path.dirname(path)) == "manual"  # apart from the automatic ones
    assert identity_of_backup(path) == {"id": depot_id(database_config), "name": "Riverside depot"}


def test_a_backup_of_another_depot_is_refused_unless_other_depot_is_given(live_server, database_config, tmp_path):
    server = live_server(threads=1)
    create_products(server)
    assert server.post("/v1/batches/", batch_body(1, "I", [("P1", 10)]))[0] == 201
    taken = flask(database_config, tmp_path, "backup")
    assert taken.returncode == 0, taken.stderr
    backup = taken.stdout.splitlines()[-1]
    assert server.post("/v1/batches/", batch_body(2, "I", [("P1", 10)]))[0] == 201
    # This database now belongs to another depot than the backup (as the demo's backup would).
    ours = depot_id(database_config)
    engine = database_engine(database_config)
    with engine.begin() as connection:
        connection.execute(text("UPDATE service_settings SET value = 'another' WHERE name = 'depot_id'"))
    engine.dispose()

    refused = flask(database_config, tmp_path, "restore", backup)
    assert refused.returncode == 1
    assert "--other-depot" in refused.stderr and ours in refused.stderr
    assert server.get("/v1/batches/2")[0] == 200  # nothing changed

    restored = flask(database_config, tmp_path, "restore", "--other-depot", backup)
    assert restored.returncode == 0, restored.stderr
    assert server.get("/v1/batches/2")[0] == 404
    assert depot_id(database_config) == ours  # the backup's identity came with its data


def test_rotation_never_counts_manual_or_before_restore_copies(tmp_path):
    for folder in ("manual", "before-restore"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "warehouse-20250101-000000.db").write_text("x", encoding="utf-8")
    (tmp_path / "warehouse-20260101-000000.db").write_text("x", encoding="utf-8")
    assert rotate(str(tmp_path), 1) == []
    assert rotate(str(tmp_path), 1) == []
    assert (tmp_path / "manual" / "warehouse-20250101-000000.db").exists()
    assert (tmp_path / "before-restore" / "warehouse-20250101-000000.db").exists()


@pytest.mark.live
def test_make_demo_keeps_its_database_and_backups_in_demo(tmp_path):
    done = subprocess.run(["make", "-n", "demo", "PYTHON=python3"], cwd=REPO, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    commands = [line for line in done.stdout.splitlines() if "app" in line]
    assert commands and all("DATABASE_URL=sqlite:///demo/warehouse.db" in line for line in commands)
    assert all("WAREHOUSE_BACKUP_DIR=backups" in line for line in commands)  # beside it: demo/backups
