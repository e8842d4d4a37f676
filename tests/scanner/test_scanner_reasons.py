"""The scanner's write-off reasons are the service's (stock/write_offs.py REASONS), in its order: the
device queues a write-off offline, so a reason the service does not take would wait and then be refused."""
import json
import pathlib
import re

from stock.write_offs import REASONS

LOT_FLOWS = pathlib.Path(__file__).parents[2] / "scanner" / "static" / "lot_flows.js"


def test_the_scanners_write_off_reasons_are_the_services():
    found = re.search(r"^export const WRITE_OFF_REASONS = (\[[^\]]*\]);", LOT_FLOWS.read_text(encoding="utf-8"), re.M)
    assert found, "lot_flows.js no longer says WRITE_OFF_REASONS as one array of strings"
    assert json.loads(found.group(1)) == list(REASONS)
