"""Stopping (SIGTERM, Ctrl-C) and the log file: requests under way are finished, the WAL is
emptied into the database file (also after a stop that comes while the service starts), and
the log file rotates.

Every loop is bounded in count and time; the service is always stopped by its pid.
"""
import os
import shutil
import signal
import socket
import sqlite3
import threading
import time

import pytest

from conftest import BACKEND
from server import Posters, batch_body, create_products, hold_writers_lock, query

POSTERS = 4
ANSWERED_BEFORE_STOP = 30
LOAD_BUDGET = 20.0  # seconds
STOPS = 4  # starts of one service, each stopped at once
# The start line is logged once start-up has written its keys, before the background work, the
# presence row and the backups start and before waitress serves.
START_LINE = "serving on"


def exit_code(server, signum=signal.SIGTERM, timeout=30.0) -> int:
    process = server.process
    os.kill(process.pid, signum)
    try:
        return process.wait(timeout=timeout)
    finally:
        server.stop()  # SIGKILL only if it had not gone


@pytest.mark.skipif(BACKEND != "sqlite", reason="the WAL and the .db file are SQLite's")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_after_a_stop_the_db_file_alone_holds_every_batch_answered(live_server, database_config,
                                                                   tmp_path, signum):
    server = live_server(threads=4)
    create_products(server)
    with Posters(server, POSTERS, [("P1", 1)] * 20, LOAD_BUDGET) as posters:
        posters.wait_for(ANSWERED_BEFORE_STOP)
        assert exit_code(server, signum) == 0, server.log()[-3000:]
    answered = posters.answered  # a batch cut off by the stop is not answered 201, nor counted
    assert len(answered) >= ANSWERED_BEFORE_STOP
    assert "the WAL is emptied into the database file" in server.log()

    database = database_config["SQLALCHEMY_DATABASE_URI"][len("sqlite:///"):]
    alone = tmp_path / "usb-stick" / "warehouse.db"
    alone.parent.mkdir()
    shutil.copyfile(database, alone)  # the .db file only, as people copy it
    copy = sqlite3.connect(alone)
    try:
        stored = {n for (n,) in copy.execute("SELECT batch_number FROM batches")}
        assert copy.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        copy.close()
    assert set(answered) <= stored


@pytest.mark.parametrize("ready_at", [START_LINE, None], ids=["while-starting", "once-health-answers"])
def test_a_stop_at_once_after_the_start_stops_every_writer_and_leaves_the_db_file_whole(
        live_server, database_config, ready_at):
    """SIGTERM as soon as the start line is logged (the threads that write are starting), or as
    soon as /health answers: the stop still joins them, empties the WAL and ends with 0."""
    database = database_config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    server = live_server(ready_at=ready_at)
    for stop in range(STOPS):
        if stop:
            server.start()
        assert exit_code(server) == 0, server.log()[-3000:]
        log = server.log()
        assert log.rstrip().endswith("stopped"), log[-3000:]
        if BACKEND == "sqlite":
            assert "the WAL is emptied into the database file" in log, log[-3000:]
            # Looked at before anything opens the file again: the last connection to close takes
            # the -wal file away, ours included.
            assert not os.path.exists(f"{database}-wal"), f"stop {stop + 1}: {log[-3000:]}"
        # The presence row is written as the threads start and removed by the stop.
        assert query(database_config, "SELECT name FROM service_settings WHERE name LIKE 'process:%'") == []


def started_and_held(live_server, database_config):
    """A service whose start-up waits for the writers' lock another writer holds: it has bound
    its port (first of all) and waits to write its keys. Returns (server, release)."""
    release = hold_writers_lock(database_config)
    try:
        server = live_server(ready_at="")  # at once: /health cannot answer before start-up ends
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and server.process.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", server.port), timeout=1).close()
                break  # bound: start-up is under way, held at its first write
            except OSError:
                time.sleep(0.05)
        time.sleep(0.5)  # the signal handlers are set before the port is bound
        assert server.process.poll() is None, server.log()[-3000:]
    except BaseException:
        release()
        raise
    return server, release


def test_a_stop_during_start_up_is_said_kept_and_then_done_without_starting_anything(
        live_server, database_config):
    server, release = started_and_held(live_server, database_config)
    try:
        os.kill(server.process.pid, signal.SIGTERM)
        time.sleep(1)
        assert server.process.poll() is None  # still starting: its write waits for the lock
    finally:
        # (On SQLite the signal is handled once the waiting write returns: Python runs its
        # handlers between statements, not inside SQLite's wait.)
        release()
    assert server.process.wait(timeout=30) == 0, server.log()[-3000:]
    log = server.log()
    assert "stop asked during start-up: the service stops once start-up is done" in log, log[-3000:]
    assert log.rstrip().endswith("stopped during start-up, before serving"), log[-3000:]
    # Nothing was started only to be stopped: no request served, no presence row, no lease taken.
    assert "stopping: no new connections" not in log and "serving on" not in log
    assert query(database_config, "SELECT name FROM service_settings WHERE name LIKE 'process:%'") == []
    if BACKEND == "sqlite":
        assert "the WAL is emptied into the database file" in log, log[-3000:]
    server.stop()


@pytest.mark.skipif(BACKEND == "sqlite", reason="held here, SQLite's start-up waits for the lock inside "
                    "SQLite (C code): Python runs no handler until it returns, and a second SIGTERM "
                    "sent meanwhile merges with the first, still pending")
def test_a_second_stop_during_start_up_ends_the_process_without_finishing_it(live_server, database_config):
    server, release = started_and_held(live_server, database_config)
    try:
        os.kill(server.process.pid, signal.SIGTERM)
        time.sleep(0.5)
        os.kill(server.process.pid, signal.SIGTERM)
        time.sleep(0.5)
    finally:
        release()
    try:
        # Ended by the signal itself: start-up not finished, nothing served, no "stopped".
        assert server.process.wait(timeout=30) == -signal.SIGTERM, server.log()[-3000:]
        log = server.log()
        assert "a second stop: ending at once" in log and "serving on" not in log, log[-3000:]
    finally:
        server.stop()


def test_a_request_under_way_is_finished_and_answered_before_the_service_stops(live_server, database_config):
    server = live_server(threads=2)
    create_products(server)
    release = hold_writers_lock(database_config)
    answer = {}

    def post():
        answer["status"] = server.post("/v1/batches/", batch_body(1, "I", [("P1", 3)]))[0]

    try:
        poster = threading.Thread(target=post)
        poster.start()
        time.sleep(0.5)  # not a measure: the batch waits for the lock until it is released
        assert not answer
        process = server.process
        os.kill(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        refused = False
        while time.monotonic() < deadline and not refused:
            try:
                server.get("/health", connection=None)
            except OSError:
                refused = True  # no new connections are taken any more
            time.sleep(0.05)
        assert refused
        assert process.poll() is None  # still finishing the batch
    finally:
        release()
    poster.join(timeout=30)
    assert answer == {"status": 201}
    assert process.wait(timeout=30) == 0
    server.stop()
    assert query(database_config, "SELECT count(*) FROM batches") == [(1,)]


def test_the_log_file_rotates_and_keeps_the_newest(live_server, tmp_path, monkeypatch):
    log_file = tmp_path / "logs" / "warehouse.log"
    log_file.parent.mkdir()
    monkeypatch.setenv("WAREHOUSE_LOG_FILE", str(log_file))
    monkeypatch.setenv("WAREHOUSE_LOG_MAX_MB", "0.01")  # about 10 KB a file
    monkeypatch.setenv("WAREHOUSE_LOG_KEEP", "2")
    server = live_server(threads=2)
    connection = server.connection()
    try:
        for _ in range(400):  # about 80 bytes a line: over three files' worth
            assert server.get("/v1/products/", connection=connection)[0] == 200
    finally:
        connection.close()
    assert exit_code(server) == 0
    names = sorted(os.listdir(log_file.parent))
    assert names == ["warehouse.log", "warehouse.log.1", "warehouse.log.2"]
    assert all(os.path.getsize(log_file.parent / name) <= 11 * 1024 for name in names)
    older = (log_file.parent / "warehouse.log.1").read_text(encoding="utf-8")
    assert "warehouse.access 127.0.0.1 GET /v1/products/ 200" in older
    assert (log_file.parent / "warehouse.log").read_text(encoding="utf-8").rstrip().endswith("stopped")
