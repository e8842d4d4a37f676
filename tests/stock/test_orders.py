"""stock/orders.py on a session, the rule layer of order documents (DESIGN §6): the states an
order goes through as scanners acquire it and batches fill it, and the lock of the caller
that acquired it.

Callers are conftest's: alice and bob scan everywhere, carol only in warehouse 1 (over HTTP
these were the "scan", admin and "scan_w1" keys; the rules see no roles, only warehouses).
What only HTTP shows (status codes, the error body, the list and its query) is in
test_documents.py.
"""
from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import update

from helpers import add_order, batch, item, order, order_item, the_order
from models import OrderDocument
from stock import audit, catalog, orders, records
from stock.audit import Actor
from stock.errors import Conflict, Forbidden, Invalid, NotFound
from stock.policy import Policy
from stock.quantities import from_milli
from storage.db import writing

pytestmark = pytest.mark.usefixtures("catalog_products")


@pytest.fixture
def customer(session):
    catalog.save_customers(session, [{"id_customer": 42, "name": "Acme"}])
    return 42


def state(session, caller, number="D1"):
    return the_order(session, caller, number).state


def delivered(session, caller, number="D1"):
    return [from_milli(line.amount_delivered_milli) for line in the_order(session, caller, number).items]


def acquire(session, caller, number="D1", policy=Policy()):
    """The state the order is in once acquired (raises what acquire_order raises)."""
    return orders.acquire_order(session, caller, number, policy).state


# --- refused creates ------------------------------------------------------------------------

def test_duplicate_number_conflicts_before_unknown_products(session, callers):
    add_order(session, callers["alice"], order("D1"))
    with pytest.raises(Conflict):
        add_order(session, callers["alice"], order("D1", [order_item(1, "NOPE", 1)]))


# --- states ---------------------------------------------------------------------------------

def test_a_lock_older_than_the_timeout_is_taken_over(session, callers):
    alice, bob = callers["alice"], callers["bob"]
    add_order(session, bob, order("D1"))
    assert acquire(session, alice) == 2
    assert acquire(session, bob, policy=Policy(acquire_timeout=timedelta(0))) == 2
    assert state(session, bob) == 2
    with pytest.raises(Conflict):  # now bob holds it
        acquire(session, alice)
    assert acquire(session, bob) == 2


def test_a_lock_moved_back_past_the_timeout_is_taken_over(session, callers):
    alice, bob = callers["alice"], callers["bob"]
    add_order(session, bob, order("D1"))
    acquire(session, alice)
    with writing(session):
        session.execute(update(OrderDocument).values(locked_at=datetime.now(timezone.utc) - timedelta(seconds=1000)))
    with pytest.raises(Conflict):
        acquire(session, bob)
    with writing(session):
        session.execute(update(OrderDocument).values(locked_at=datetime.now(timezone.utc) - timedelta(seconds=2000)))
    assert acquire(session, bob) == 2
    with pytest.raises(Conflict):
        acquire(session, alice)


def test_a_batch_moves_the_order_to_3_and_ends_the_lock(session, scanner, callers):
    alice, carol = callers["alice"], callers["carol"]
    add_order(session, alice, order("D1", [order_item(1, "P1", 10)]))
    acquire(session, alice)
    scanner.post(batch(1, [item("P1", 4)], document_number="D1"))
    assert state(session, alice) == 3
    assert delivered(session, alice) == [4]
    # the lock ended: another caller may acquire at once, and 3 goes back to 2
    assert acquire(session, carol) == 2
    with pytest.raises(Conflict):
        acquire(session, alice)


def test_a_batch_without_acquiring_moves_1_to_3(session, scanner):
    add_order(session, scanner.caller, order("D1", [order_item(1, "P1", 10)]))
    scanner.post(batch(1, [item("P1", 4)], document_number="D1"))
    assert state(session, scanner.caller) == 3


def test_every_line_delivered_closes_the_order(session, scanner):
    alice = scanner.caller
    add_order(session, alice, order("D1", [order_item(1, "P1", 10, direction="I"),
                                     order_item(2, "P2", 2, direction="O")], directions=("I", "O")))
    scanner.post(batch(1, [item("P1", 10), item("P2", 5)]))  # stock to ship
    scanner.post(batch(3, [item("P1", 10)], document_number="D1"))
    assert state(session, alice) == 3  # the goods-out line is still open
    scanner.post(batch(2, [item("P2", 2)], direction="O", document_number="D1"))
    assert state(session, alice) == 0
    assert delivered(session, alice) == [10, 2]


def test_a_closed_order_refuses_acquire_and_batches(session, scanner, callers):
    alice, bob = callers["alice"], callers["bob"]
    add_order(session, alice, order("D1", [order_item(1, "P1", 1)]))
    scanner.post(batch(1, [item("P1", 1)], document_number="D1"))
    assert state(session, alice) == 0
    for caller in (alice, bob):
        with pytest.raises(Conflict):
            acquire(session, caller)
    with pytest.raises(Conflict):
        scanner.post(batch(2, [item("P1", 1)], document_number="D1"))
    assert state(session, alice) == 0


def test_a_counting_order_moves_through_the_states(session, scanner):
    alice = scanner.caller
    add_order(session, alice, order("D1", [order_item(1, "P1", 10)], types=("V",)))
    assert acquire(session, alice) == 2
    scanner.post(batch(1, [item("P1", 7)], type="V", document_number="D1"))
    assert state(session, alice) == 3
    assert acquire(session, alice) == 2
    scanner.post(batch(2, [item("P1", 7)], type="V", document_number="D1"))
    assert state(session, alice) == 0
    assert delivered(session, alice) == [14]


def test_a_refused_batch_leaves_the_order_as_it_was(session, scanner, callers):
    alice, bob = callers["alice"], callers["bob"]
    add_order(session, alice, order("D1", [order_item(1, "P1", 10)]))
    acquire(session, alice)
    with pytest.raises(Invalid):
        scanner.post(batch(1, [item("P1", 4), item("P1", 7)], document_number="D1"))
    assert state(session, alice) == 2
    assert delivered(session, alice) == [0]
    with pytest.raises(Conflict):  # still held by alice
        acquire(session, bob)


def test_id_customer_of_the_warehouse_document_comes_from_the_order(session, scanner, customer):
    add_order(session, scanner.caller, order("D1", id_customer=customer))
    scanner.post(batch(1, [item("P1", 1)], document_number="D1"))
    scanner.post(batch(2, [item("P1", 1)]))
    session.rollback()
    docs = records.filter_documents(session, scanner.caller, {}, headers_only=True)
    assert [(d["batch_number"], d["id_customer"]) for d in docs] == [(1, 42), (2, 0)]


# --- closing and releasing by hand (DESIGN §18) ---------------------------------------------

OFFICE = Actor("jana", "192.0.2.10")


def test_closing_an_order_ends_its_lock_refuses_batches_and_is_in_the_trail(session, callers, scanner):
    alice = callers["alice"]
    add_order(session, alice, order("D1"))
    acquire(session, alice)
    orders.close_order(session, alice, OFFICE, "D1", "supplier cancelled")
    closed = the_order(session, alice)
    assert (closed.state, closed.locked_by, closed.locked_at) == (0, None, None)
    with pytest.raises(Conflict):
        scanner.book("R", "I", [item("P1", 1)], document_number="D1")
    with pytest.raises(Conflict):
        acquire(session, alice)
    [entry] = audit.list_entries(session, kind="order.close")
    assert (entry["who"], entry["record"]) == ("jana", "D1")
    assert entry["changes"] == {"state": [2, 0], "reason": ["", "supplier cancelled"]}


def test_closing_a_closed_order_conflicts_and_changes_nothing(session, callers):
    alice = callers["alice"]
    add_order(session, alice, order("D1"))
    orders.close_order(session, alice, OFFICE, "D1", "first")
    with pytest.raises(Conflict, match="closed already"):
        orders.close_order(session, alice, OFFICE, "D1", "again")
    assert len(audit.list_entries(session, kind="order.close")) == 1


def test_an_order_out_of_the_callers_warehouses_is_not_found_for_close_or_release(session, callers):
    add_order(session, callers["alice"], order("D2", id_warehouse=2))
    with pytest.raises(NotFound):
        orders.close_order(session, callers["carol"], OFFICE, "D2", "why")
    with pytest.raises(NotFound):
        orders.release_order(session, callers["carol"], OFFICE, "D2")
    assert state(session, callers["alice"], "D2") == 1


def test_release_with_nothing_delivered_goes_back_to_imported(session, callers):
    alice, bob = callers["alice"], callers["bob"]
    add_order(session, alice, order("D1"))
    acquire(session, alice)
    orders.release_order(session, replace(bob, role="admin"), OFFICE, "D1")
    released = the_order(session, alice)
    assert (released.state, released.locked_by, released.locked_at) == (1, None, None)
    assert acquire(session, bob) == 2  # at once, not after the timeout
    [entry] = audit.list_entries(session, kind="order.release")
    assert entry["changes"] == {"state": [2, 1], "locked_by": ["alice", ""]}


def test_release_after_a_delivery_goes_back_to_batch_exists(session, callers, scanner):
    alice = callers["alice"]
    add_order(session, alice, order("D1"))
    scanner.book("R", "I", [item("P1", 4)], document_number="D1")
    assert acquire(session, alice) == 2
    orders.release_order(session, alice, OFFICE, "D1")
    assert state(session, alice) == 3
    assert delivered(session, alice) == [4]


@pytest.mark.parametrize("before", ["imported", "batch exists", "closed"])
def test_release_of_an_order_nobody_holds_conflicts_and_changes_nothing(session, callers, scanner, before):
    alice = callers["alice"]
    add_order(session, alice, order("D1"))
    if before == "batch exists":
        scanner.book("R", "I", [item("P1", 4)], document_number="D1")
    if before == "closed":
        orders.close_order(session, alice, OFFICE, "D1", "done")
    was = state(session, alice)
    with pytest.raises(Conflict, match="not held"):
        orders.release_order(session, alice, OFFICE, "D1")
    assert state(session, alice) == was
    assert audit.list_entries(session, kind="order.release") == []


def test_the_office_list_is_open_orders_newest_first_with_filters(session, callers, customer):
    alice = callers["alice"]
    add_order(session, alice, order("B-OLD", description="Dairy"))
    add_order(session, alice, order("A-NEW", id_customer=customer, description="Cheese run"))
    add_order(session, alice, order("C-W2", id_warehouse=2))
    add_order(session, alice, order("D-SHUT"))
    orders.close_order(session, alice, OFFICE, "D-SHUT", "gone")

    def numbers(**kw):
        return [o.document_number for o in orders.search_orders(session, alice, **kw)]
    assert numbers() == ["C-W2", "A-NEW", "B-OLD"]
    assert numbers(states=[0]) == ["D-SHUT"]
    assert numbers(id_warehouse=2) == ["C-W2"]
    assert numbers(id_customer=customer) == ["A-NEW"]
    assert numbers(text="cheese") == ["A-NEW"]
    assert numbers(text="b-o") == ["B-OLD"]
    assert numbers(text="%") == []
    [first] = orders.search_orders(session, alice, limit=1)
    assert numbers(after=first.newest_line, limit=1) == ["A-NEW"]  # the next page, by keyset
    assert orders.count_searched_orders(session, alice) == 3
    assert orders.count_searched_orders(session, alice, text="cheese") == 1
    assert [o.document_number for o in orders.search_orders(session, callers["carol"])] == ["A-NEW", "B-OLD"]


def test_a_scanner_puts_back_the_order_it_holds_and_no_other(session, callers):
    alice, bob = callers["alice"], callers["bob"]
    add_order(session, alice, order("D1"))
    acquire(session, alice)
    with pytest.raises(Forbidden, match="only an admin"):
        orders.release_order(session, bob, OFFICE, "D1")
    assert state(session, alice) == 2
    orders.release_order(session, alice, OFFICE, "D1")
    assert state(session, alice) == 1


def test_an_order_held_by_another_key_names_the_holder(session, callers):
    add_order(session, callers["alice"], order("D1"))
    acquire(session, callers["alice"])
    with pytest.raises(Conflict, match="another key .'alice', since "):
        acquire(session, callers["bob"])


def test_the_closed_event_cuts_who_closed_at_100_characters_and_says_person_or_key():
    """A batch keeps who posted it in 100 characters; the event says no more, and tells a key
    from a person of the same name."""
    order = OrderDocument(document_number="SO-1", id_warehouse=2)
    name, data = orders.closed_event(order, "a" * 150, "person", reason="gone")
    assert name == "order.closed"
    assert data == {"document_number": "SO-1", "id_warehouse": 2, "closed_by": "a" * 100,
                    "closed_by_kind": "person", "reason": "gone", "batch_number": 0}
