"""Processes the bench starts (the service, the bare baseline server) and a small HTTP client.

Every server listens on 127.0.0.1 only, on a free port, keeps its log in the run's temp
directory, and is stopped by its own pid when the `with` block ends.
"""
import http.client
import io
import json
import os
import socket
import subprocess
import sys
import tarfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BENCH = Path(__file__).resolve().parent
# make runs .venv/bin/python bench/run.py: the servers use that same interpreter and packages.
PYTHON = sys.executable
HEALTH_TIMEOUT_S = 30


def free_port():
    """A port nobody listens on right now (the kernel picks it; a tiny race is acceptable)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def clean_env(**extra):
    """The caller's environment without settings that would change what the service does."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("WAREHOUSE_") and k != "DATABASE_URL"}
    env.update(extra)
    return env


class Server:
    """One server process; use as a context manager so it is always stopped."""

    def __init__(self, name, argv, env, log_path, port):
        self.name, self.argv, self.env = name, argv, env
        self.log_path, self.port = Path(log_path), port
        self.proc = None

    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc):
        self.stop()

    @property
    def pid(self):
        return self.proc.pid

    def start(self):
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(self.argv, cwd=REPO, env=self.env,
                                         stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + HEALTH_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.proc.returncode}:\n"
                                   f"{self.log_tail()}")
            if self._healthy():
                return
            time.sleep(0.1)
        raise RuntimeError(f"{self.name} not healthy after {HEALTH_TIMEOUT_S}s:\n{self.log_tail()}")

    def _healthy(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
        try:
            conn.request("GET", "/health")
            resp = conn.getresponse()
            body = resp.read()
            return resp.status == 200 and json.loads(body).get("status") == "ok"
        except (OSError, http.client.HTTPException, ValueError):
            return False
        finally:
            conn.close()

    def stop(self):
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def forget_peak_memory(self):
        """Start VmHWM again from the present RSS (Linux: 5 to /proc/PID/clear_refs), so that a
        row reads the peak of its own load, not of the start-up before it."""
        Path(f"/proc/{self.pid}/clear_refs").write_text("5")

    def vm_hwm_mb(self):
        """Peak resident memory of the process so far (VmHWM), in MiB."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmHWM in /proc status")

    def log_tail(self, lines=20):
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"


def service(workdir, key, threads=4, database_url=None, code=REPO):
    """The service as the contract starts it, on a fresh SQLite file in workdir (or database_url);
    `code` is a checkout of it (another release's, to compare with)."""
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    argv = [PYTHON, str(Path(code) / "app.py"), "--host", "127.0.0.1", "--port", str(port),
            "--threads", str(threads), "--database-url",
            database_url or f"sqlite:///{workdir}/warehouse.db"]
    # No start-up backup: it would run beside the first scenario's load (bench/backup_cost.py
    # measures what a backup costs).
    return Server("service", argv, clean_env(WAREHOUSE_API_KEY=key, WAREHOUSE_BACKUP_HOURS="0"),
                  workdir / "service.log", port)


def bare(workdir, threads=4, list_size=10_000):
    """The bare Flask + waitress baseline (bench/baselines.py) in its own process."""
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    argv = [PYTHON, str(BENCH / "baselines.py"), "--port", str(port),
            "--threads", str(threads), "--list-size", str(list_size)]
    return Server("bare baseline", argv, clean_env(), workdir / "bare.log", port)


class Client:
    """One keep-alive HTTP/1.1 connection. No retries: a broken connection is an error to count."""

    def __init__(self, port, key=None, timeout=120):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        self.headers = {"Content-Type": "application/json"}
        if key:
            self.headers["TS-Apikey"] = key

    def request(self, method, path, body=None):
        """Send one request; body may be a JSON-able object or pre-encoded bytes."""
        if body is not None and not isinstance(body, bytes):
            body = json.dumps(body).encode()
        self.conn.request(method, path, body=body, headers=self.headers)
        resp = self.conn.getresponse()
        return resp.status, resp.read()

    def timed(self, method, path, body=None):
        """(status, body, seconds) for one request, timed from send to the last byte read."""
        if body is not None and not isinstance(body, bytes):
            body = json.dumps(body).encode()
        t0 = time.perf_counter()
        status, data = self.request(method, path, body)
        return status, data, time.perf_counter() - t0

    def close(self):
        self.conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def office_client(port, cookie: str) -> Client:
    """A connection of a person signed in (the cookie of `scenarios._page_session`). Opened where it
    is used: one left idle while others worked is closed by the service after its idle timeout
    (WAREHOUSE_IDLE_TIMEOUT, 30 s), and the next read on it fails ("Remote end closed connection")."""
    client = Client(port)
    client.headers = {"Cookie": cookie}
    return client


def checkout(tmp, commit: str) -> Path:
    """The files of an older commit, out of git (`git archive`), in the run's temp directory: a
    release to serve side by side with this one (`service(..., code=checkout(...))`)."""
    folder = Path(tmp) / f"reference-{commit}"
    if not folder.exists():
        folder.mkdir(parents=True)
        archive = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", commit],
                                 capture_output=True, check=True, timeout=120).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(folder, filter="data")
    return folder
