"""Load generation: the wrk runner, request bodies shaped like the contract, timing helpers."""
import datetime
import json
import re
import statistics
import subprocess
import time

WRK_THREADS, WRK_CONNECTIONS = 2, 8


def run_wrk(port, path, key, duration_s):
    """Requests/s of GET path, from `wrk -t2 -c8`. Any failed response invalidates the figure."""
    url = f"http://127.0.0.1:{port}{path}"
    argv = ["wrk", f"-t{WRK_THREADS}", f"-c{WRK_CONNECTIONS}", f"-d{duration_s}s",
            "-H", f"TS-Apikey: {key}", url]
    out = subprocess.run(argv, capture_output=True, text=True, check=True,
                         timeout=duration_s + 30).stdout
    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if not rps:
        raise RuntimeError(f"cannot read wrk output:\n{out}")
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    if bad:
        raise RuntimeError(f"{bad.group(1)} non-2xx responses from {url}")
    sock = re.search(r"Socket errors: (.*)", out)
    if sock:
        raise RuntimeError(f"socket errors from {url}: {sock.group(1)}")
    return float(rps.group(1))


def timestamp(day, second=0):
    """A client timestamp in the contract's form: YYYY-MM-DDThh:mm:ss.SSS+hhmm."""
    return f"{day}T10:{second // 60 % 60:02d}:{second % 60:02d}.000+0100"


def day(n, start=datetime.date(2025, 1, 1)):
    """The n-th business date of the seeded history, as YYYY-MM-DD."""
    return (start + datetime.timedelta(days=n)).isoformat()


def product_code(i):
    return f"P{i:05d}"


def product_body(i, n_packagings=1):
    """POST /v1/products/ body: packaging 'box' of 10, 'crate' of 100, 'pallet' of 1000."""
    units = [("box", 10), ("crate", 100), ("pallet", 1000)][:n_packagings]
    return {"data": {
        "product_code": product_code(i),
        "name": f"Bench product {i}",
        "base_unit": "pc",
        "packaging": [{"unit": u, "amount_base_units": n, "barcode": ""} for u, n in units],
    }}


def create_products(client, count, n_packagings=1, start=0):
    for i in range(start, start + count):
        status, body = client.request("POST", "/v1/products/", product_body(i, n_packagings))
        if status != 201:
            raise RuntimeError(f"creating {product_code(i)}: {status} {body[:300]!r}")


def create_warehouses(client, numbers):
    """Warehouses beyond 1 (a new database has only "Main"): batches may name only these."""
    for number in numbers:
        status, body = client.request("POST", "/v1/warehouses/",
                                      {"data": {"id_warehouse": number, "name": f"Bench warehouse {number}"}})
        if status != 201:
            raise RuntimeError(f"creating warehouse {number}: {status} {body[:300]!r}")


def batch_lines(n_items, n_products, offset):
    """(product_code, unit, base units) for each item; products cycle from offset.

    Every tenth item is one 'box' (10 pc) so unit conversion is exercised; the rest 2 pc.
    """
    lines = []
    for i in range(n_items):
        code = product_code((offset + i) % n_products)
        lines.append((code, "box", 10) if i % 10 == 9 else (code, "pc", 2))
    return lines


def batch_body(batch_number, direction, date, lines, id_warehouse=1):
    """POST /v1/batches/ body for type R; goods-out books 1 pc per line (less than goods-in)."""
    items = []
    for n, (code, unit, base) in enumerate(lines):
        if direction == "O":
            unit, amount, base = "pc", 1, 1
        else:
            amount = 1 if unit == "box" else base
        # Every field a scanner sends, as it sends them (amounts as strings).
        items.append({"product_code": code, "amount": str(amount), "amount_base_unit": str(base),
                      "unit": unit, "barcode": f"{4006381000000 + n % 1000:013d}",
                      "date_exp": "2027-06-30", "lot": "", "name": f"Scanned {code}",
                      "palette": n // 40 + 1, "status": 1, "timestamp_client": timestamp(date, n),
                      "wplace": f"A-{n % 20:02d}-{n % 7:02d}"})
    return {"data": {
        "batch_settings": {"batch_number": str(batch_number), "id_warehouse": str(id_warehouse),
                           "direction": direction, "type": "R", "date": date},
        "batch_items": items,
        "batch_extras": [],
    }}


def encode(obj):
    return json.dumps(obj).encode()


def median_ms(seconds):
    return statistics.median(seconds) * 1000


def timed_requests(client, method, path, body, repeats, time_limit_s, expect=200):
    """Median ms of `repeats` identical requests after one warm-up, bounded by time_limit_s."""
    body = encode(body) if body is not None else None
    status, data = client.request(method, path, body)
    if status != expect:
        raise RuntimeError(f"{method} {path}: {status} {data[:300]!r}")
    times, deadline = [], time.monotonic() + time_limit_s
    while len(times) < repeats and time.monotonic() < deadline:
        status, data, sec = client.timed(method, path, body)
        if status != expect:
            raise RuntimeError(f"{method} {path}: {status} {data[:300]!r}")
        times.append(sec)
    return median_ms(times), data
