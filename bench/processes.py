"""Scenario j: booking throughput with 1, 2 and 4 service processes on one PostgreSQL database.

Each run starts N processes (python app.py, each on its own loopback port) on a fresh schema
of the PostgreSQL server at 127.0.0.1:5432 (database `test`), then J_CLIENTS client threads
post 100-item goods-in batches for J_SECONDS, client k into warehouse k+1 through process
k mod N: warehouses book in parallel, each always through the same process. The figure is
batches booked per second; the row sets 4 processes against 1 (the issue's aim: at least
2.5x). The clients run in this process: on a small machine they take CPU from the services,
which the note on the machine's cores should be read with: the row also counts the CPU time the
services and the clients used in the timed window (from /proc), and the machine's other work
(PostgreSQL's, in a quiet bench), and from the run with one process says the most that more
processes could gain on this machine (its cores over the cores one process already kept busy).
That ceiling is the row's baseline: 4 processes against one process times the most more
processes can gain here (at most 4x). A 2-core machine cannot show the 2.5x of 4 processes
against 1 that a bigger one can; against its own ceiling it shows whether the processes leave
any core idle by waiting for each other.
"""
import contextlib
import os
from pathlib import Path
import threading
import time

import server
from load import batch_body, batch_lines, create_products, create_warehouses, day, encode
from many_depots import PG_URL, pg_schema
from report import Row

J_PROCESSES = (1, 2, 4)
J_CLIENTS = 8
J_SECONDS = 8.0
J_ITEMS, J_PRODUCTS = 100, 200
J_GOAL, J_FLOOR = 0.85, 0.6  # of the machine's ceiling


def scenario_j(ctx, url=PG_URL):
    """Booking throughput with 1, 2 and 4 service processes on one PostgreSQL: batches/s."""
    what = f"j. batches/s, 4 processes vs this machine's ceiling ({J_CLIENTS} warehouses, PostgreSQL)"
    if not ctx.has_service:
        ctx.add(Row(what, "/s", None, None, J_GOAL, J_FLOOR, True))
        return
    runs = {count: _throughput(ctx, url, count) for count in J_PROCESSES}
    rates = {count: rate for count, (rate, _cores) in runs.items()}
    for count, (rate, cores) in runs.items():
        ctx.note(f"j: {count} process(es): {rate:.1f} batches/s of {J_ITEMS} items "
                 f"({rate / rates[1]:.2f}x one process); cores busy: services {cores['services']:.2f}, "
                 f"PostgreSQL and the rest {cores['postgres']:.2f}, clients {cores['clients']:.2f}")
    busy_with_one = sum(runs[1][1].values())
    gain = min(os.cpu_count() / busy_with_one, J_PROCESSES[-1])
    ctx.note(f"j: this machine has {os.cpu_count()} cores and one process kept {busy_with_one:.2f} of them "
             f"busy: more processes can gain at most {gain:.2f}x here, a ceiling of {rates[1] * gain:.1f} "
             f"batches/s; 4 processes reached {rates[4] / rates[1]:.2f}x one (2.5x on a machine of 4 cores or more)")
    ctx.add(Row(what, "/s", rates[4], rates[1] * gain, J_GOAL, J_FLOOR, True))


def _throughput(ctx, url, count) -> tuple[float, dict[str, float]]:
    with contextlib.ExitStack() as stack:
        service_url, _engine, _name = stack.enter_context(pg_schema(url))
        services = [stack.enter_context(server.service(ctx.tmp / f"j{count}-{n}", ctx.key,
                                                       database_url=service_url))
                    for n in range(count)]
        with server.Client(services[0].port, ctx.key) as first:
            create_products(first, J_PRODUCTS)
            create_warehouses(first, range(2, J_CLIENTS + 1))
        lines = batch_lines(J_ITEMS, J_PRODUCTS, 0)
        booked = [0] * J_CLIENTS
        errors = []
        barrier = threading.Barrier(J_CLIENTS + 1)
        stop = threading.Event()

        def client(k):
            try:
                with server.Client(services[k % count].port, ctx.key) as c:
                    # Warm-up: one batch each, before the clock starts.
                    number = 1_000_000 * (k + 1)
                    status, data = c.request("POST", "/v1/batches/", encode(
                        batch_body(number, "I", day(0), lines, id_warehouse=k + 1)))
                    if status != 201:
                        raise RuntimeError(f"warm-up batch: {status} {data[:200]!r}")
                    barrier.wait(timeout=60)
                    while not stop.is_set():
                        number += 1
                        status, data = c.request("POST", "/v1/batches/", encode(
                            batch_body(number, "I", day(0), lines, id_warehouse=k + 1)))
                        if status != 201:
                            raise RuntimeError(f"batch {number}: {status} {data[:200]!r}")
                        if not stop.is_set():
                            booked[k] += 1
            except Exception as error:  # noqa: BLE001 - reported by the scenario
                errors.append(error)
                with contextlib.suppress(threading.BrokenBarrierError):
                    barrier.abort()

        threads = [threading.Thread(target=client, args=(k,), daemon=True) for k in range(J_CLIENTS)]
        for thread in threads:
            thread.start()
        pids = [service.pid for service in services]
        cpu_before = _cpu_seconds(pids), _machine_busy_seconds(), time.process_time()
        try:
            barrier.wait(timeout=60)
        except threading.BrokenBarrierError:
            stop.set()
            for thread in threads:
                thread.join(timeout=60)
            raise (errors or [RuntimeError("the clients did not start within 60 s")])[0] from None
        started = time.monotonic()
        time.sleep(J_SECONDS)
        stop.set()
        elapsed = time.monotonic() - started
        cpu_after = _cpu_seconds(pids), _machine_busy_seconds(), time.process_time()
        for thread in threads:
            thread.join(timeout=60)
        if errors:
            raise errors[0]
    services, machine, clients = ((after - before) / elapsed for before, after in zip(cpu_before, cpu_after))
    # PostgreSQL's backends come and go with the pools' connections: what the machine did besides
    # the services and the clients is counted as theirs (nothing else runs in a quiet bench).
    cores = {"services": services, "postgres": max(machine - services - clients, 0.0), "clients": clients}
    return sum(booked) / elapsed, cores


def _cpu_seconds(pids) -> float:
    """User and system CPU seconds the processes have used (a process gone meanwhile counts 0)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return total


def _machine_busy_seconds() -> float:
    """CPU seconds every core of the machine has spent on work (not idle, not waiting for I/O)."""
    ticks = os.sysconf("SC_CLK_TCK")
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(
        int, Path("/proc/stat").read_text().splitlines()[0].split()[1:9])
    return (user + nice + system + irq + softirq + steal) / ticks
