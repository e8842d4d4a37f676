"""The real service in a subprocess (`python app.py`, waitress on 127.0.0.1), for server tests.

`LiveServer(database_config, workdir)` points the process at the database the
`database_config` fixture made: the SQLite file, or the PostgreSQL URL with the
test's private search_path carried in the URL's `options` query parameter
(psycopg passes it to the server as it does the `connect_args` option). The
process is always stopped by its pid; every wait is bounded.
"""
import http.client
import itertools
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Seconds for /health to answer after the process starts. A start takes 2-3 s of CPU; on a 2-core
# machine that other runs share (load 10-12) its share of the CPU stretches that past 20 s, which
# failed two starts in a row of one browser-test worker. A crash is seen at once (poll()).
START_TIMEOUT = 60.0
STOP_TIMEOUT = 10.0
REQUEST_TIMEOUT = 30.0  # a socket timeout for every request, so no thread can hang
# Until the port is open each try is one refused connect: trying often costs nothing, and
# every live test waits for at least one start.
HEALTH_POLL = 0.01  # seconds
LOG_POLL = 0.001  # seconds; reading the small log file of a starting process costs next to nothing


def server_url(database_config: dict) -> str:
    """One database URL that names everything `database_config` sets up."""
    url = make_url(database_config["SQLALCHEMY_DATABASE_URI"])
    options = database_config.get("SQLALCHEMY_ENGINE_OPTIONS", {}).get("connect_args", {}).get("options")
    if options:
        url = url.update_query_dict({"options": options})
    return url.render_as_string(hide_password=False)


def database_engine(database_config: dict):
    """An engine on the test's database, for reading it directly (dispose it after use)."""
    return create_engine(database_config["SQLALCHEMY_DATABASE_URI"],
                         **database_config.get("SQLALCHEMY_ENGINE_OPTIONS", {}))


def hold_writers_lock(database_config: dict):
    """Another writer holding the write lock (SQLite) or every writer's lock (PostgreSQL),
    as a long booking would; returns the function that lets go of it."""
    from storage.db import lock_all_writers

    engine = database_engine(database_config)
    connection = engine.connect()
    if engine.dialect.name == "sqlite":
        connection.connection.driver_connection.isolation_level = None
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        lock_all_writers(connection)

    def release():
        connection.rollback()
        connection.close()
        engine.dispose()
    return release


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LiveServer:
    def __init__(self, database_config: dict, workdir, threads: int = 4, api_key: str | None = None,
                 ready_at: str | None = None, code: str = REPO):
        """`ready_at`: start() returns as soon as the log holds this text (the process may still
        be starting), instead of once /health answers. `code`: the checkout to run (a copy of
        this one, changed as a new release would be)."""
        self.code = str(code)
        self.database_config = database_config
        self.ready_at = ready_at
        self.url = server_url(database_config)
        self.workdir = str(workdir)
        self.threads = threads
        self.api_key = api_key or secrets.token_urlsafe(24)
        self.process: subprocess.Popen | None = None
        self.port: int | None = None
        self.starts = 0

    # --- life cycle ---------------------------------------------------------------------

    def start(self, same_port: bool = False) -> "LiveServer":
        """Start the process; `same_port`: again on the port it had (a restart its clients follow)."""
        assert self.process is None, "already running"
        for _attempt in range(3):  # another process may take the free port before we bind it
            if not (same_port and self.port):
                self.port = free_port()
            self.starts += 1
            self.log_path = os.path.join(self.workdir, f"server-{self.starts}.log")
            env = {k: v for k, v in os.environ.items()
                   if k not in ("DATABASE_URL", "WAREHOUSE_HOST", "WAREHOUSE_PORT", "WAREHOUSE_THREADS")}
            env["WAREHOUSE_API_KEY"] = self.api_key
            # No automatic backup unless the test asks for one (tests/operations/test_backups.py).
            env.setdefault("WAREHOUSE_BACKUP_HOURS", "0")
            busy_timeout = self.database_config.get("BUSY_TIMEOUT")  # conftest: PostgreSQL is shared
            if busy_timeout:
                env.setdefault("WAREHOUSE_BUSY_TIMEOUT", str(busy_timeout))
            env["PYTHONUNBUFFERED"] = "1"
            with open(self.log_path, "wb") as log:
                self.process = subprocess.Popen(
                    [sys.executable, os.path.join(self.code, "app.py"), "--host", "127.0.0.1",
                     "--port", str(self.port), "--threads", str(self.threads),
                     "--database-url", self.url],
                    cwd=self.workdir, env=env, stdout=log, stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL)
            if self._wait_ready():
                return self
            exited = self.process.poll() is not None
            self.stop()
            if not (exited and "address already in use" in self.log().lower()):
                break
        awaited = f"log {self.ready_at!r}" if self.ready_at is not None else "become healthy"
        raise RuntimeError(f"the service did not {awaited} within {START_TIMEOUT}s:\n{self.log()[-4000:]}")

    def _wait_ready(self) -> bool:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            if self.ready_at is not None:
                if self.ready_at in self.log():
                    return True
                time.sleep(LOG_POLL)
                continue
            try:
                status, _ = self.request("GET", "/health", timeout=2.0)
                if status == 200:
                    return True
            except OSError:
                pass
            time.sleep(HEALTH_POLL)
        return False

    def kill(self) -> None:
        """SIGKILL, as a crash or the OOM killer would: nothing gets to clean up."""
        self._signal(signal.SIGKILL)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it has not gone within the bound."""
        self._signal(signal.SIGTERM)

    def _signal(self, signum) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            os.kill(process.pid, signum)
            try:
                process.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                os.kill(process.pid, signal.SIGKILL)
                process.wait(timeout=STOP_TIMEOUT)

    def log(self) -> str:
        with open(self.log_path, encoding="utf-8", errors="replace") as file:
            return file.read()

    # --- requests -----------------------------------------------------------------------

    def connection(self, timeout: float = REQUEST_TIMEOUT) -> http.client.HTTPConnection:
        """A connection of one's own (one per thread)."""
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def request(self, method: str, path: str, data=None, connection=None, timeout=REQUEST_TIMEOUT):
        """(status, parsed JSON body or raw text) of one call; /v1 calls carry the key."""
        status, _headers, body = self.exchange(method, path, data, connection, timeout)
        return status, body

    def exchange(self, method: str, path: str, data=None, connection=None, timeout=REQUEST_TIMEOUT):
        """(status, headers, parsed JSON body or raw text) of one call."""
        own = connection is None
        conn = self.connection(timeout) if own else connection
        try:
            headers = {"TS-Apikey": self.api_key} if path.startswith("/v1") else {}
            body = None
            if data is not None:
                body = json.dumps({"data": data}).encode("utf-8")
                headers["Content-Type"] = "application/json"
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            raw = response.read().decode("utf-8", errors="replace")
            headers = dict(response.getheaders())
            try:
                return response.status, headers, json.loads(raw)
            except ValueError:
                return response.status, headers, raw
        finally:
            if own:
                conn.close()

    def post(self, path: str, data, connection=None):
        return self.request("POST", path, data, connection)

    def get(self, path: str, connection=None):
        return self.request("GET", path, None, connection)


def batch_body(number: int, direction: str, items: list[tuple[str, int]], type_: str = "R",
               id_warehouse: int = 1, day: str = "2026-11-01") -> dict:
    """A batch as a scanner posts it; items are (product_code, whole base units)."""
    return {
        "batch_settings": {"batch_number": str(number), "id_warehouse": str(id_warehouse),
                           "direction": direction, "type": type_, "date": day},
        "batch_items": [{"product_code": code, "amount": str(amount), "unit": "pc"}
                        for code, amount in items],
        "batch_extras": [],
    }


def create_products(server, codes=("P1",)) -> None:
    """Products kept in pieces, made through the service."""
    for code in codes:
        status, body = server.post("/v1/products/", {"product_code": code, "name": f"Product {code}",
                                                     "base_unit": "pc"})
        assert status == 201, body


class Posters:
    """Threads posting goods-in batches numbered 1, 2, 3... one after another, each thread on a
    connection of its own, until stop(), the deadline, or the service going away.

    `answered` holds the numbers answered 201, `refused` (number, status, body) every other
    answer; a broken connection ends its thread (the service stopped taking requests).
    """

    def __init__(self, server, threads: int, items: list[tuple[str, int]], budget: float):
        self.server, self.items = server, items
        self.deadline = time.monotonic() + budget
        self.answered: list[int] = []
        self.refused: list[tuple] = []
        self._lock = threading.Lock()
        self._numbers = itertools.count(1)
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._post) for _ in range(threads)]

    def __enter__(self) -> "Posters":
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def _post(self) -> None:
        connection = self.server.connection(timeout=10)
        try:
            while not self._stop.is_set() and time.monotonic() < self.deadline:
                with self._lock:
                    number = next(self._numbers)
                try:
                    status, body = self.server.post("/v1/batches/", batch_body(number, "I", self.items),
                                                    connection=connection)
                except (OSError, http.client.HTTPException):
                    return
                with self._lock:
                    (self.answered.append(number) if status == 201
                     else self.refused.append((number, status, body)))
        finally:
            connection.close()

    def wait_for(self, count: int) -> set[int]:
        """Wait (until the deadline) for `count` answers of 201; the numbers answered so far."""
        while len(self.answered) < count and time.monotonic() < self.deadline:
            time.sleep(0.01)
        with self._lock:
            return set(self.answered)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=max(self.deadline - time.monotonic(), 0) + 15)


def query(database_config: dict, sql: str, **params) -> list[tuple]:
    """Rows of one SQL statement on the test's database, read directly (not through the service)."""
    engine = database_engine(database_config)
    try:
        with engine.connect() as conn:
            return [tuple(row) for row in conn.execute(text(sql), params)]
    finally:
        engine.dispose()


TIME_BUDGET = 20.0  # seconds for the whole load; threads stop early when it is spent
def run_threads(count: int, work, budget: float = TIME_BUDGET) -> list:
    """Run work(index, deadline) in `count` threads started together; re-raise what they raise."""
    barrier = threading.Barrier(count)
    deadline = time.monotonic() + budget
    errors = []

    def target(index):
        try:
            barrier.wait(timeout=budget)
            work(index, deadline)
        except BaseException as error:  # noqa: BLE001 - handed to the test thread below
            errors.append(error)

    threads = [threading.Thread(target=target, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=budget + 40)
    assert not any(thread.is_alive() for thread in threads), "a client thread did not finish"
    if errors:
        raise errors[0]
