"""Start-up of `python app.py` (DESIGN 22): the port before anything is written, the start-up
backup only when the last automatic one is old, and what a killed backup left removed."""
import os
import socket
import subprocess
import sys
import time

import pytest

from server import REPO, server_url
from version import VERSION

pytestmark = pytest.mark.live


def run_app(database_config, cwd, port: int, **environ) -> subprocess.CompletedProcess:
    """`python app.py` to its end (it must end by itself: these starts are refused)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WAREHOUSE_") and k != "DATABASE_URL"}
    env.update(environ)
    return subprocess.run([sys.executable, os.path.join(REPO, "app.py"), "--host", "127.0.0.1",
                           "--port", str(port), "--database-url", server_url(database_config)],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


def files_under(folder) -> set[str]:
    return {os.path.relpath(os.path.join(root, name), folder)
            for root, _dirs, names in os.walk(folder) for name in names}


def test_a_port_in_use_is_one_line_exit_2_and_nothing_written(database_config, tmp_path):
    workdir = tmp_path / "work"
    workdir.mkdir()
    database = tmp_path / "new" / "warehouse.db"
    database.parent.mkdir()
    config = dict(database_config)
    if database_config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        # A database that does not exist yet: not even it may be made.
        config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{database}"
    backup_dir = tmp_path / "backups"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = run_app(config, workdir, port, WAREHOUSE_BACKUP_HOURS="24",
                       WAREHOUSE_BACKUP_DIR=str(backup_dir))
    assert done.returncode == 2, done.stderr
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert str(port) in lines[0] and "WAREHOUSE_PORT" in lines[0] and "--port" in lines[0]
    assert "Traceback" not in done.stderr
    assert files_under(tmp_path) == set()  # no database, no backup, no .partial


def backups_in(folder) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.startswith("warehouse-")) \
        if os.path.isdir(folder) else []


def wait_for(condition, budget: float = 60.0) -> bool:
    deadline = time.monotonic() + budget
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_a_restart_makes_no_start_up_backup_while_the_last_is_recent(live_server, tmp_path, monkeypatch):
    folder = tmp_path / "kept"
    monkeypatch.setenv("WAREHOUSE_BACKUP_DIR", str(folder))
    monkeypatch.setenv("WAREHOUSE_BACKUP_HOURS", "24")
    monkeypatch.setenv("WAREHOUSE_BACKUP_KEEP", "1")
    server = live_server(threads=1)
    assert wait_for(lambda: "backup written to" in server.log()), server.log()
    first = backups_in(folder)
    assert len(first) == 1
    server.stop()
    for _restart in range(3):  # a restart loop
        server.start()
        assert wait_for(lambda: "next one in" in server.log()), server.log()
        assert "backup written to" not in server.log()
        server.stop()
    assert backups_in(folder) == first  # the good backup was not rotated away


def test_a_start_up_backup_is_made_when_the_last_is_older_than_the_interval(live_server, tmp_path, monkeypatch):
    folder = tmp_path / "kept"
    folder.mkdir()
    old = folder / "warehouse-20200101-000000.db"
    old.write_bytes(b"an old backup")
    os.utime(old, (time.time() - 3 * 3600, time.time() - 3 * 3600))
    monkeypatch.setenv("WAREHOUSE_BACKUP_DIR", str(folder))
    monkeypatch.setenv("WAREHOUSE_BACKUP_HOURS", "2")
    server = live_server(threads=1)
    assert wait_for(lambda: "backup written to" in server.log()), server.log()
    assert len(backups_in(folder)) == 2


def test_a_partial_file_of_a_killed_backup_is_removed_at_start(live_server, tmp_path, monkeypatch):
    folder = tmp_path / "kept"
    (folder / "manual").mkdir(parents=True)
    left = [folder / "warehouse-20260101-000000.db.partial", folder / "manual" / "warehouse-x.db.partial"]
    for path in left:
        path.write_bytes(b"half a copy")
    monkeypatch.setenv("WAREHOUSE_BACKUP_DIR", str(folder))
    server = live_server(threads=1)
    assert not any(path.exists() for path in left)
    assert "left by a backup that did not finish" in server.log()


# --- the version and the start line -----------------------------------------------------------

def test_python_app_py_says_its_version(tmp_path):
    done = subprocess.run([sys.executable, os.path.join(REPO, "app.py"), "--version"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.strip()) == (0, f"warehouse service {VERSION}")
    assert os.listdir(tmp_path) == []


def test_flask_version_needs_no_database(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("WAREHOUSE_")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'none.db'}"
    flask = os.path.join(os.path.dirname(sys.executable), "flask")
    done = subprocess.run([flask, "--app", os.path.join(REPO, "app.py"), "version"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.strip()) == (0, f"warehouse service {VERSION}")
    assert os.listdir(tmp_path) == []


def test_flask_settings_lists_every_setting(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("WAREHOUSE_")}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'none.db'}", WAREHOUSE_IDLE_TIMEOUT="12",
               WAREHOUSE_API_KEY="secret-key", WAREHOUSE_TIME_ZONE="Europe/Ljubljana")
    flask = os.path.join(os.path.dirname(sys.executable), "flask")
    done = subprocess.run([flask, "--app", os.path.join(REPO, "app.py"), "settings"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    names = [line.split("=", 1)[0] for line in done.stdout.splitlines()]
    for name in ("WAREHOUSE_MAX_FUTURE_DAYS", "WAREHOUSE_IDLE_TIMEOUT", "WAREHOUSE_CONNECTION_LIMIT",
                 "WAREHOUSE_TRUSTED_PROXY", "WAREHOUSE_LOG_LEVEL", "WAREHOUSE_DEPOT_NAME"):
        assert name in names
    assert "WAREHOUSE_IDLE_TIMEOUT=12 " in done.stdout
    assert "WAREHOUSE_TIME_ZONE=Europe/Ljubljana  default the machine's" in done.stdout
    assert "secret-key" not in done.stdout


def test_the_start_line_is_one_line_with_version_address_database_and_backups(live_server, tmp_path, monkeypatch):
    monkeypatch.setenv("WAREHOUSE_BACKUP_DIR", str(tmp_path / "kept"))
    server = live_server(threads=1)
    status, health = server.get("/health")
    assert (status, health) == (200, {"status": "ok", "version": VERSION})
    [start] = [line for line in server.log().splitlines() if "serving on" in line]
    assert VERSION in start and f"http://127.0.0.1:{server.port}" in start
    assert str(tmp_path / "kept") in start and "database " in start
    # Alembic's own lines only at WAREHOUSE_LOG_LEVEL=debug.
    assert "Context impl" not in server.log() and "alembic" not in server.log()


def test_library_lines_come_back_at_log_level_debug(database_config, tmp_path):
    # An upgrade to run, so Alembic has something to say: a new SQLite file, or on PostgreSQL
    # the run's schema, where Alembic still says which implementation it uses.
    config = dict(database_config)
    if config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{tmp_path / 'new.db'}"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("WAREHOUSE_") and k != "DATABASE_URL"}
    env.update(WAREHOUSE_LOG_LEVEL="debug", WAREHOUSE_BACKUP_HOURS="0", PYTHONUNBUFFERED="1")
    with open(tmp_path / "out.log", "wb") as out:
        process = subprocess.Popen([sys.executable, os.path.join(REPO, "app.py"), "--host", "127.0.0.1",
                                    "--port", str(port), "--database-url", server_url(config)],
                                   cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            assert wait_for(lambda: "serving on" in (tmp_path / "out.log").read_text(errors="replace"))
        finally:
            process.terminate()
            process.wait(timeout=30)
    assert "alembic" in (tmp_path / "out.log").read_text(errors="replace")


# --- what a start holds in memory -------------------------------------------------------------

def test_a_service_on_sqlite_loads_the_file_printing_and_postgresql_libraries_only_when_used(tmp_path):
    # Loaded at start they held 23 of the 98 MiB of a service that may never write an XLSX, print a
    # PDF label, pair a scanner or see PostgreSQL (docs/performance.md, row f).
    probe = ("import sys, app; from operations import upgrades; "
             "service = app.create_app({'SQLALCHEMY_DATABASE_URI': sys.argv[1]}); "
             "upgrades.upgrade_database(service, who='the test'); "
             "print(sorted({name.split('.')[0] for name in sys.modules} "
             "& {'openpyxl', 'PIL', 'reportlab', 'segno', 'psycopg'}))")
    env = {k: v for k, v in os.environ.items() if not k.startswith("WAREHOUSE_") and k != "DATABASE_URL"}
    done = subprocess.run([sys.executable, "-c", probe, f"sqlite:///{tmp_path / 'w.db'}"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.strip().splitlines()[-1:]) == (0, ["[]"]), done.stderr


# --- a second process on the same database ----------------------------------------------------

def start_line(server) -> str:
    [line] = [line for line in server.log().splitlines() if "serving on" in line]
    return line


def test_a_second_process_on_the_same_database_says_another_runs(live_server):
    first = live_server(threads=1)
    assert "another service process" not in start_line(first)
    second = live_server(threads=1, api_key=first.api_key)
    line = start_line(second)
    assert f"pid {first.process.pid}" in line and f"http://127.0.0.1:{first.port}" in line
    # Both serve, and exactly (DESIGN 22): one books, the other reads it.
    assert first.post("/v1/products/", {"product_code": "P1", "name": "P", "base_unit": "pc"})[0] == 201
    assert second.get("/v1/products/P1")[0] == 200
    first.stop()
    second.stop()
    third = live_server(threads=1)  # the others stopped: their rows went with them
    assert "another service process" not in start_line(third)
