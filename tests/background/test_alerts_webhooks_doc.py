"""docs/alerts-webhooks.md: its receiver runs as written and takes what the service signs."""
import json
import os
import re
import subprocess
import sys
import time

import pytest

from background import sender
from server import free_port
from storage.db import utc_now

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
pytestmark = pytest.mark.live


def receiver_source() -> str:
    with open(os.path.join(REPO, "docs", "alerts-webhooks.md"), encoding="utf-8") as file:
        blocks = re.findall(r"^```python\n(.*?)^```", file.read(), re.MULTILINE | re.DOTALL)
    assert len(blocks) == 1
    return blocks[0]


def test_the_receiver_of_the_docs_takes_signed_events_and_refuses_others(tmp_path):
    source = receiver_source()
    assert len(source.strip().splitlines()) <= 20
    script = tmp_path / "receiver.py"
    script.write_text(source)
    port = free_port()
    process = subprocess.Popen([sys.executable, str(script)], env={**os.environ, "PORT": str(port),
                                                                   "WEBHOOK_SECRET": "whsec_test"},
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = f"http://127.0.0.1:{port}/hook"
        body = sender.event_body(7, "batch.booked", utc_now(), json.dumps({"batch_number": 1}))
        deadline = time.monotonic() + 20
        while True:  # until the receiver listens
            status, _ = sender.post(url, "whsec_test", body, timeout=2)
            if status or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert status == 200
        assert sender.post(url, "whsec_wrong", body, timeout=2)[0] == 401
    finally:
        process.kill()
        out, _ = process.communicate(timeout=10)
    assert out.splitlines() == ["batch.booked"]
