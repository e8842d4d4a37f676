"""schemathesis against the real service (waitress, a subprocess) from its own document.

Every operation, with valid and invalid data (negative mode): no 5xx, every
status documented, every answer of the documented shape, invalid data refused.
The depot is first given the records the document's examples name (MILK-1L,
PO-1001, batch 5001, document 1), so the examples reach real records.
Bounded: a fixed number of cases per operation, a fixed seed, one worker, and
a timeout on the whole run (about a minute per database on 2 cores).
"""
import os
import subprocess
import sys

from routes.api_examples import EXAMPLES

CHECKS = ["not_a_server_error", "status_code_conformance", "response_schema_conformance",
          "content_type_conformance", "response_headers_conformance", "negative_data_rejection"]
CASES_PER_OPERATION = 80
SEED = 13
RUN_TIMEOUT = 240  # seconds; a run takes about a minute


def seed_the_depot(server):
    for path, example in [("/v1/products/", "add_product"), ("/v1/customers/", "add_customer"), ("/v1/documents/", "add_order"),
                          ("/v1/batches/", "add_batch")]:
        status, body = server.post(path, EXAMPLES[example]["body"])
        assert status == 201, (path, body)
    count = {"batch_settings": {"batch_number": "9001", "id_warehouse": "1", "direction": "I", "type": "V",
                                "date": "2026-11-30"},
             "batch_items": [{"product_code": "MILK-1L", "amount": "19", "unit": "crate"}]}
    status, body = server.post("/v1/batches/", count)
    assert status == 201, body


def test_schemathesis_finds_nothing_wrong(live_server, tmp_path):
    server = live_server(threads=2)
    seed_the_depot(server)
    command = [
        os.path.join(os.path.dirname(sys.executable), "st"), "run",
        f"http://127.0.0.1:{server.port}/v1/openapi.json", "--header", f"TS-Apikey: {server.api_key}",
        "--checks", ",".join(CHECKS), "--mode", "all", "--phases", "examples,coverage,fuzzing",
        "--max-examples", str(CASES_PER_OPERATION), "--seed", str(SEED), "--workers", "1",
        "--request-timeout", "20", "--no-color",
        # Hypothesis keeps a store of examples for later runs; this run's directory is gone
        # after it, and keeping the store costs a third of the run's CPU.
        "--generation-database", "none",
    ]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": ""}
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=RUN_TIMEOUT, stdin=subprocess.DEVNULL)
    report = done.stdout + done.stderr
    assert done.returncode == 0, report[-8000:]
    assert "Tested: 54" in report, report[-3000:]  # the 20 of interface.md and those of DESIGN 16 to 20, 24, 25, 27, 28
    assert " passed" in report and " failed" not in report
