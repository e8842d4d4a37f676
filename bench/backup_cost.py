"""What a backup of a large SQLite database costs the serving service.

    .venv/bin/python bench/backup_cost.py [--size-mb 1024] [--keep-tmp]

Builds a warehouse database of about --size-mb (batches of 100 scanned items,
written straight into the file), serves it with `python app.py` on 127.0.0.1, and
posts 100-item batches one after another, timing each:
  alone       no backup running
  command     while `flask --app app backup` runs in its own process (copy + checks)
  automatic   while the service's own start-up backup runs in its process
It prints the backup times and the POST latencies (median, 95th percentile) and
their ratio to `alone`. Every phase is bounded in time; servers are stopped by pid.
"""
import argparse
import http.client
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.server import PYTHON, REPO, Server, clean_env, free_port  # noqa: E402

KEY = "backup-cost-bench-key-0123456789"
ITEMS = 100
ALONE_S = 20.0
PHASE_LIMIT_S = 1800.0


def build(path: Path, size_mb: int) -> int:
    """The schema by the migrations, then filler batches until the file is size_mb; batches made."""
    env = clean_env(DATABASE_URL=f"sqlite:///{path}")
    done = subprocess.run([str(Path(PYTHON).parent / "flask"), "--app", str(REPO / "app.py"), "db", "upgrade"],
                          env=env, cwd=path.parent, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        sys.exit(done.stderr)
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("INSERT INTO products (product_code, name, active, base_unit, base_unit_barcode, "
                       "category, lot_level, weight_brutto_milli, weight_netto_milli, weight_unit) "
                       "VALUES ('P1', 'Product P1', 1, 'pc', '', 0, 0, 0, 0, 'kg')")
    number, per_round = 0, 2000
    while path.stat().st_size < size_mb * 1024 * 1024:
        connection.execute("BEGIN")
        batches, items = [], []
        for number in range(number + 1, number + 1 + per_round):
            batches.append((number, 1, "I", "R", "2026-01-01", "2026-01-01", "3.2", "gate 2", 7, "",
                            f"{number:064d}"))
            items.extend((number, position, "P1", "pc", 1000, 1000, "4006381333931", "2026-12-31",
                          "", "Product P1", 0, 0, "2026-01-01T08:15:02.120+0100", "", 0, 0)
                         for position in range(1, ITEMS + 1))
        connection.executemany("INSERT INTO batches VALUES (?,?,?,?,?,?,?,?,?,?,?)", batches)
        connection.executemany(
            "INSERT INTO batch_items (batch_number, position, product_code, unit, amount_milli, "
            "amount_base_milli, barcode, date_exp, lot, name, palette, status, timestamp_client, wplace, "
            "doc_number, doc_item_number) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", items)
        connection.execute("COMMIT")
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    return number


def batch(number: int) -> bytes:
    return json.dumps({"data": {
        "batch_settings": {"batch_number": str(number), "id_warehouse": "1", "direction": "I", "type": "R",
                           "date": "2026-11-01"},
        "batch_items": [{"product_code": "P1", "amount": "1", "unit": "pc"}] * ITEMS}}).encode()


class Poster:
    """Posts batches one after another on one kept-alive connection, timing each."""

    def __init__(self, port: int, first_number: int):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.number = first_number

    def post_while(self, busy, limit_s: float) -> list[float]:
        took, deadline = [], time.monotonic() + limit_s
        while busy() and time.monotonic() < deadline:
            self.number += 1
            started = time.perf_counter()
            self.connection.request("POST", "/v1/batches/", body=batch(self.number),
                                     headers={"TS-Apikey": KEY, "Content-Type": "application/json"})
            response = self.connection.getresponse()
            response.read()
            took.append(time.perf_counter() - started)
            if response.status != 201:
                sys.exit(f"batch {self.number} answered {response.status}")
        return took

    def close(self):
        self.connection.close()


def service(workdir: Path, database: Path, backup_hours: str) -> Server:
    port = free_port()
    argv = [PYTHON, "app.py", "--host", "127.0.0.1", "--port", str(port), "--threads", "4",
            "--database-url", f"sqlite:///{database}"]
    env = clean_env(WAREHOUSE_API_KEY=KEY, WAREHOUSE_BACKUP_HOURS=backup_hours,
                    WAREHOUSE_BACKUP_DIR=str(workdir / "automatic"), WAREHOUSE_BACKUP_KEEP="1")
    return Server("service", argv, env, workdir / f"service-{backup_hours}.log", port)


def summary(name: str, took: list[float], alone: list[float] | None) -> str:
    median, p95 = statistics.median(took), sorted(took)[max(0, int(len(took) * 0.95) - 1)]
    ratio = "" if alone is None else (f"  {median / statistics.median(alone):5.2f}x median, "
                                      f"{p95 / sorted(alone)[max(0, int(len(alone) * 0.95) - 1)]:5.2f}x p95")
    return f"{name:<10} {len(took):5d} POSTs  median {median * 1000:7.1f} ms  p95 {p95 * 1000:7.1f} ms{ratio}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--keep-tmp", action="store_true")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="backup-cost-"))
    try:
        database = workdir / "warehouse.db"
        started = time.monotonic()
        batches = build(database, args.size_mb)
        print(f"database: {database.stat().st_size / 2 ** 20:,.0f} MiB, {batches:,} batches of {ITEMS} items "
              f"(built in {time.monotonic() - started:.0f} s)", flush=True)
        lines = []
        with service(workdir, database, "0") as server:
            poster = Poster(server.port, batches + 1000)
            poster.post_while(lambda: True, 3.0)  # warm-up
            alone = poster.post_while(lambda: True, ALONE_S)
            lines.append(summary("alone", alone, None))
            env = clean_env(DATABASE_URL=f"sqlite:///{database}")
            started = time.monotonic()
            command = subprocess.Popen([str(Path(PYTHON).parent / "flask"), "--app", str(REPO / "app.py"),
                                        "backup", str(workdir / "by-hand.db")], env=env, cwd=workdir,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            during = poster.post_while(lambda: command.poll() is None, PHASE_LIMIT_S)
            _out, err = command.communicate(timeout=PHASE_LIMIT_S)
            command_s = time.monotonic() - started
            if command.returncode != 0:
                sys.exit(f"flask backup failed: {err}")
            lines.append(summary("command", during, alone))
            poster.close()
        log = workdir / "service-24.log"
        started = time.monotonic()
        with service(workdir, database, "24") as server:
            poster = Poster(server.port, batches + 100_000)
            written = lambda: "backup written to" in log.read_text(errors="replace")  # noqa: E731
            during = poster.post_while(lambda: not written(), PHASE_LIMIT_S)
            automatic_s = time.monotonic() - started
            lines.append(summary("automatic", during, alone))
            poster.close()
        copy = os.path.getsize(workdir / "by-hand.db") / 2 ** 20
        print(f"flask backup (copy {copy:,.0f} MiB, integrity_check, balance check): {command_s:.1f} s")
        print(f"automatic start-up backup, service start to 'backup written': {automatic_s:.1f} s")
        for line in log.read_text(errors="replace").splitlines():
            if ": copied in " in line:
                print("  of which, as the service logged it:", line.split(" ", 3)[3])
        print("\n".join(lines))
    finally:
        if args.keep_tmp:
            print(f"kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
