"""stock/caller.py: the Caller, and `may_manage`, the one rule of who may manage what (DESIGN 26).

stock/audit.py asks the same rule in SQL of the trail's rows (`within`); the last test holds the
two alike on the database, for every caller and reach drawn here.
"""
import pytest

from stock.caller import EVERY, SHARED, Caller, may_manage, reach_of, require_may_manage
from stock import audit
from stock.audit import Actor
from stock.errors import Forbidden
from storage.db import writing

UNLIMITED = Caller(1, "boss", "admin", None)
W1 = Caller(2, "admin_w1", "admin", frozenset({1}))
W12 = Caller(3, "admin_w12", "admin", frozenset({1, 2}))
SCAN = Caller(4, "scan", "scan", None)
REACHES = [EVERY, SHARED, frozenset({1}), frozenset({2}), frozenset({1, 2}), frozenset({1, 2, 3}),
           frozenset({12}), frozenset({21})]


@pytest.mark.parametrize("caller, reach, allowed", [
    (None, EVERY, True),  # the terminal
    (UNLIMITED, EVERY, True), (UNLIMITED, frozenset({2}), True), (UNLIMITED, SHARED, True),
    (W1, EVERY, False), (W1, frozenset({2}), False), (W1, frozenset({1, 2}), False),
    (W1, frozenset({1}), True), (W1, SHARED, True),
    (W12, frozenset({1, 2}), True), (W12, frozenset({2}), True), (W12, frozenset({1, 2, 3}), False),
    (SCAN, frozenset({1}), False), (SCAN, SHARED, False),
])
def test_an_admin_manages_what_stays_within_its_warehouses(caller, reach, allowed):
    assert may_manage(caller, reach) is allowed


def test_a_refusal_names_the_callers_warehouses():
    with pytest.raises(Forbidden, match=r"A key for every warehouse would reach beyond warehouse\(s\) 1, "
                                        r"to which 'admin_w1' is limited"):
        require_may_manage(W1, EVERY, "A key for every warehouse")
    with pytest.raises(Forbidden, match="only an admin may do that"):
        require_may_manage(SCAN, frozenset({1}), "This key")
    require_may_manage(W1, frozenset({1}), "This key")


def test_an_empty_list_of_warehouses_reaches_every_one():
    assert reach_of([]) is EVERY and reach_of(None) is EVERY and reach_of([2, 1, 2]) == frozenset({1, 2})


def test_the_trails_rows_are_read_by_the_same_rule(session):
    for number, reach in enumerate(REACHES):
        with writing(session):
            audit.record(session, Actor("boss", "192.0.2.1", "person"), "key.create", f"row-{number}", reach=reach)
    for caller in (None, UNLIMITED, W1, W12, Caller(5, "admin_w2", "admin", frozenset({2})),
                   Caller(6, "admin_w21", "admin", frozenset({21})), SCAN):
        shown = {entry["record"] for entry in audit.list_entries(session, caller=caller)}
        assert shown == {f"row-{number}" for number, reach in enumerate(REACHES) if may_manage(caller, reach)}, caller
