"""`make bench`: measure the service against baselines in one run and print one table.

Every ratio compares two figures taken in this run on this machine, so the table means the
same on a laptop and on CI. Usage (from the repo root):

    .venv/bin/python bench/run.py [--only abcdeghijklmnopstvwx] [--seed-batches 200] [--keep-tmp]

g and j need the PostgreSQL server at 127.0.0.1:5432; i and l build their depots once and
keep them in <temp dir>/warehouse-bench-cache/ (docs/performance-growth.md);
BENCH_DEPOT_SCALE=0.1 builds a tenth of l's depot for a quick run.

Exit status 1 when a row is below its floor (FAIL).
"""
import argparse
import datetime
import os
import platform
import secrets
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

import five_years
import idle_connections
import imports
import locations
import lots_past
import many_depots
import page_languages
import paper
import processes
import report
import scanner_weight
import scenarios
import server
import stock_list
import stock_warnings
import weak_link

SCENARIOS = {  # f (peak memory) is measured inside b and d
    "a": scenarios.scenario_a,
    "b": scenarios.scenario_b,
    "c": scenarios.scenario_c,
    "d": scenarios.scenario_d,
    "e": scenarios.scenario_e,
    "g": many_depots.scenario_g,
    "h": scenarios.scenario_h,
    "i": five_years.scenario_i,
    "j": processes.scenario_j,
    "k": idle_connections.scenario_k,
    "l": lots_past.scenario_l,
    "m": imports.scenario_m,
    "w": stock_warnings.scenario_w,
    "x": stock_warnings.scenario_x,
    "p": paper.scenario_p,
    "s": scanner_weight.scenario_s,
    "t": stock_list.scenario_t,
    "n": weak_link.scenario_n,
    "v": page_languages.scenario_v,
    "o": locations.scenario_o,
}


def machine():
    model, mem = "unknown CPU", "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem = f"{int(line.split()[1]) // 1024:,} MiB"
    except OSError:
        pass
    return (f"{os.cpu_count()} cores ({model}), {mem} RAM, {platform.system()} "
            f"{platform.release()}, Python {platform.python_version()}, "
            f"SQLite {sqlite3.sqlite_version}")


def git_head():
    out = subprocess.run(["git", "-C", str(server.REPO), "log", "-1", "--format=%h %s"],
                         capture_output=True, text=True)
    head = out.stdout.strip() or "(no commit yet)"
    dirty = subprocess.run(["git", "-C", str(server.REPO), "status", "--porcelain",
                            "--untracked-files=no"], capture_output=True, text=True).stdout
    return head + (" + uncommitted changes" if dirty.strip() else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="abcdeghijklmnopsvwx", help="scenarios to run, e.g. 'ab'")
    parser.add_argument("--seed-batches", type=int, default=200,
                        help="1000-item batches of history for c (default 200)")
    parser.add_argument("--seed-time-limit", type=float, default=300,
                        help="seconds c may spend seeding history (default 300)")
    parser.add_argument("--keep-tmp", action="store_true", help="keep databases and logs")
    parser.add_argument("--baselines-only", action="store_true",
                        help="measure only the baselines (as when there is no app.py yet)")
    args = parser.parse_args()
    if not args.only or set(args.only) - set(SCENARIOS):
        parser.error(f"--only takes letters of {''.join(SCENARIOS)}")
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed (make bench installs it with apt-get)")

    started = datetime.datetime.now().astimezone()
    load_start = os.getloadavg()[0]  # other work on the machine skews every figure
    tmp = Path(tempfile.mkdtemp(prefix="warehouse-bench-"))
    ctx = scenarios.Ctx(tmp=tmp, key=secrets.token_hex(16),
                        has_service=(server.REPO / "app.py").exists()
                        and not args.baselines_only,
                        seed_batches=args.seed_batches, seed_time_limit_s=args.seed_time_limit)
    if not ctx.has_service:
        ctx.note("only the baselines run (no app.py or --baselines-only): service figures SKIP")
    t_all = time.monotonic()
    try:
        for letter in args.only:
            scenario = SCENARIOS[letter]
            title = scenario.__doc__.splitlines()[0]
            short = title.split(":")[0]  # e.g. "POST /v1/batches/ with 1000 items"
            print(f"== {letter}: {title}", flush=True)
            t0 = time.monotonic()
            try:
                scenario(ctx)
            except Exception as exc:  # one broken scenario must not hide the others' figures
                traceback.print_exc()
                ctx.rows.append(report.failed_row(f"{letter}. {short}", str(exc)))
                first_line = str(exc).splitlines()[0] if str(exc) else repr(exc)
                ctx.note(f"{letter}: FAILED: {first_line[:300]}")
            print(f"   ({time.monotonic() - t0:.0f} s)", flush=True)
    finally:
        if args.keep_tmp:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)

    text = "\n".join([
        "",
        f"Warehouse service benchmark, {started:%Y-%m-%d %H:%M %Z}",
        f"machine: {machine()}",
        f"code: {git_head()}; bench took {time.monotonic() - t_all:.0f} s; "
        f"load average (1 min) {load_start:.2f} at start, {os.getloadavg()[0]:.2f} at end",
        "",
        report.format_table(ctx.rows),
        "",
        "ratio = service / baseline; in c the baseline is the service at small history.",
        "* goal and floor set by the bench (none given in the brief).",
        "PASS: meets the goal; WARN: between goal and floor; FAIL: beyond the floor.",
        "",
        "notes:",
        *(f"  {n}" for n in ctx.notes),
    ])
    print(text)
    results = server.BENCH / "results"  # ignored by git
    results.mkdir(exist_ok=True)
    (results / f"bench-{started:%Y%m%d-%H%M%S}.txt").write_text(text + "\n")
    return 1 if any(row.result == "FAIL" for row in ctx.rows) else 0


if __name__ == "__main__":
    sys.exit(main())
