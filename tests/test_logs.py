"""logs.py: the access line of the real server (the in-process line is in test_app.py)."""
import time


def test_the_served_process_logs_each_request_with_the_key_name(live_server):
    server = live_server(threads=2)
    assert server.get("/v1/products/NOPE")[0] == 404
    deadline = time.monotonic() + 10
    while "/v1/products/NOPE" not in server.log() and time.monotonic() < deadline:
        time.sleep(0.05)
    lines = [line for line in server.log().splitlines() if "/v1/products/NOPE" in line]
    assert len(lines) == 1, server.log()[-2000:]
    _date, _time, logger, method, path, status, took, name = lines[0].split(" ")
    assert (logger, method, path, status, name) == ("warehouse.access", "GET", "/v1/products/NOPE",
                                                    "404", "bootstrap")
    assert took.endswith("ms") and float(took[:-2]) >= 0
    assert server.api_key not in server.log()
