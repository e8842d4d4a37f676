"""logs.py: the access line of the real server, and what it does with odd paths."""
import logging
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


def test_the_logged_path_is_the_one_the_client_wrote_on_one_line(api, caplog):
    with caplog.at_level(logging.INFO, logger="warehouse.access"):
        api.get("/v1/products/M%C3%9CSLI")
        api.get("/v1/products/A%0AGET /v1/forged 200 0.1ms admin")
    lines = [record.getMessage() for record in caplog.records if record.name == "warehouse.access"]
    assert lines[0].startswith("GET /v1/products/MÜSLI 404 ")
    assert len(lines) == 2 and "\n" not in lines[1]
    assert lines[1].startswith("GET /v1/products/A\\nGET /v1/forged")
