"""The stock rules on their own: order states, posting batches, balances, numbers (no HTTP)."""
import copy
from datetime import date, datetime, timedelta, timezone

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.exc import StatementError

from helpers import batch, item, order, order_item, product
from models import Balance, Batch, OrderDocument, WarehouseDocument
from schemas import batch_create_schema, order_create_schema, product_schema
from stock import catalog
from stock.balances import change_balances, new_document, next_number
from stock.errors import Conflict, Forbidden, InsufficientStock, Invalid, NotFound
from stock.orders import (BATCH_EXISTS, CLOSED, IMPORTED, PROCESSING, acquire_order, create_order, get_order,
                          list_orders)
from stock.policy import Policy
from stock.posting import batch_digest, post_batch
from storage.db import writing

STRICT = Policy()


@pytest.fixture
def alice(callers):
    return callers["alice"]


@pytest.fixture(autouse=True)
def products(session):
    for body in (product("P1", packaging=[{"unit": "box", "amount_base_units": 6}]),
                 product("P2"), product("LOT", lot_level=1)):
        catalog.create_product(session, product_schema.load(body))


def parsed_batch(number, items, **settings):
    return batch_create_schema.load(batch(number, items, **settings))


def post(session, caller, number, items, policy=STRICT, **settings):
    return post_batch(session, caller, parsed_batch(number, items, **settings), policy)


def add_order(session, caller, body):
    create_order(session, caller, order_create_schema.load(body))


def balance(session, code, lot="", warehouse=1):
    session.rollback()
    return session.scalar(select(Balance.amount_milli).where(
        Balance.id_warehouse == warehouse, Balance.product_code == code, Balance.lot == lot))


def count(session, model):
    session.rollback()
    return session.scalar(select(func.count()).select_from(model))


def order_state(session, number="D1"):
    session.rollback()
    found = session.get(OrderDocument, number)
    return found.state, [line.amount_delivered_milli for line in found.items]


# --- order documents ------------------------------------------------------------------------

def test_an_order_starts_imported(session, alice):
    add_order(session, alice, order("D1"))
    assert order_state(session) == (IMPORTED, [0])
    with pytest.raises(Conflict):
        add_order(session, alice, order("D1"))


def test_a_limited_caller_sees_only_its_warehouses(session, callers):
    add_order(session, callers["alice"], order("D1"))
    add_order(session, callers["alice"], order("D2", id_warehouse=2))
    carol = callers["carol"]
    assert [o.document_number for o in list_orders(session, carol, None)] == ["D1"]
    with pytest.raises(NotFound):
        get_order(session, carol, "D2")
    with pytest.raises(Forbidden):
        add_order(session, carol, order("D3", id_warehouse=2))


def test_acquire_locks_for_the_caller(session, callers):
    alice, bob = callers["alice"], callers["bob"]
    add_order(session, alice, order("D1"))
    acquired = acquire_order(session, alice, "D1", STRICT)
    assert (acquired.state, acquired.locked_by) == (PROCESSING, alice.key_id)
    acquire_order(session, alice, "D1", STRICT)  # the holder renews
    with pytest.raises(Conflict):
        acquire_order(session, bob, "D1", STRICT)
    taken = acquire_order(session, bob, "D1", Policy(acquire_timeout=timedelta(0)))
    assert (taken.state, taken.locked_by) == (PROCESSING, bob.key_id)
    with pytest.raises(Conflict):
        acquire_order(session, alice, "D1", STRICT)


def test_the_timeout_counts_from_the_last_acquire(session, callers):
    alice, bob = callers["alice"], callers["bob"]
    add_order(session, alice, order("D1"))
    acquire_order(session, alice, "D1", STRICT)
    with writing(session):
        session.get(OrderDocument, "D1").locked_at = datetime.now(timezone.utc) - timedelta(hours=1)
    hour = Policy(acquire_timeout=timedelta(minutes=30))
    acquire_order(session, alice, "D1", hour)  # renews the lock
    with pytest.raises(Conflict):
        acquire_order(session, bob, "D1", hour)


def test_order_lock_times_are_aware_and_stored_as_utc(session, callers):
    alice = callers["alice"]
    add_order(session, alice, order("D1"))
    before = datetime.now(timezone.utc)
    taken = acquire_order(session, alice, "D1", STRICT)
    assert taken.locked_at.tzinfo is not None
    assert before - timedelta(seconds=1) <= taken.locked_at <= datetime.now(timezone.utc)
    stored = session.execute(text("SELECT locked_at FROM order_documents")).scalar_one()
    if isinstance(stored, str):  # SQLite hands back the text it keeps
        stored = datetime.fromisoformat(stored)
    # The column keeps the UTC wall time, whatever the server's zone.
    assert abs(stored - taken.locked_at.replace(tzinfo=None)) < timedelta(seconds=1)
    with pytest.raises(StatementError, match="aware"):
        with writing(session):
            session.get(OrderDocument, "D1").locked_at = datetime.now()  # naive: refused


def test_a_batch_moves_the_order_and_ends_the_lock(session, callers):
    alice, bob = callers["alice"], callers["bob"]
    add_order(session, alice, order("D1", [order_item(1, "P1", 10)]))
    acquire_order(session, alice, "D1", STRICT)
    with pytest.raises(Conflict):
        post(session, bob, 1, [item("P1", 1)], document_number="D1")
    assert post(session, alice, 1, [item("P1", 4)], document_number="D1") is True
    assert order_state(session) == (BATCH_EXISTS, [4000])
    assert session.get(OrderDocument, "D1").locked_by is None
    post(session, bob, 2, [item("P1", 6)], document_number="D1")
    assert order_state(session) == (CLOSED, [10000])
    with pytest.raises(Conflict):
        acquire_order(session, alice, "D1", STRICT)


def test_fill_order_lot_lines_first_then_lines_without_lot(session, alice):
    add_order(session, alice, order("D1", [order_item(1, "LOT", 2), order_item(2, "LOT", 2, lot="X"),
                                           order_item(3, "LOT", 2)]))
    post(session, alice, 1, [item("LOT", 3, lot="X")], document_number="D1")
    assert order_state(session) == (BATCH_EXISTS, [1000, 2000, 0])
    post(session, alice, 2, [item("LOT", 2, lot="Y")], document_number="D1")
    assert order_state(session) == (BATCH_EXISTS, [2000, 2000, 1000])
    with pytest.raises(Invalid) as refused:
        post(session, alice, 3, [item("LOT", 2, lot="X")], document_number="D1")
    assert "amount" in refused.value.fields["data"]["batch_items"][0]
    assert order_state(session) == (BATCH_EXISTS, [2000, 2000, 1000])


def test_an_order_import_leaves_the_request_as_it_came(session, alice):
    fields = order_create_schema.load(order("D1", [order_item(1, "P1", 10)], directions=("O",)))
    sent = copy.deepcopy(fields)
    create_order(session, alice, fields)
    assert fields == sent
    session.rollback()
    # The line named no direction: it took the only one the document allows.
    assert [line.direction for line in session.get(OrderDocument, "D1").items] == ["O"]


# --- posting batches --------------------------------------------------------------------------

def test_posting_leaves_the_parsed_batch_as_it_came(session, alice):
    parsed = parsed_batch(1, [item("P1", 2, unit="box"), item("P2", 3)])
    sent = copy.deepcopy(parsed)
    assert post_batch(session, alice, parsed, STRICT) is True
    assert parsed == sent
    assert balance(session, "P1") == 12000
    # Posted again as it is, it is a retry: nothing in it moved its digest.
    assert post_batch(session, alice, parsed, STRICT) is False
    assert balance(session, "P1") == 12000


def test_a_retry_books_nothing_and_other_content_conflicts(session, alice):
    assert post(session, alice, "5", [item("P1", "1.5")], id_warehouse="1") is True
    assert post(session, alice, 5, [item("P1", 1.5)], id_warehouse=1) is False
    with pytest.raises(Conflict):
        post(session, alice, 5, [item("P1", 2)])
    assert balance(session, "P1") == 1500
    assert count(session, WarehouseDocument) == 1


def test_digest_sees_parsed_content(session):
    one = parsed_batch("5", [item("P1", "1.50")], id_warehouse="1")
    other = parsed_batch(5, [item("P1", 1.5)], id_warehouse=1)
    assert batch_digest(one) == batch_digest(other)
    left_out = parsed_batch(5, [item("P1", 1)])
    given = parsed_batch(5, [item("P1", 1, lot="")])
    assert batch_digest(left_out) != batch_digest(given)
    # The order a scanner writes the fields in is no content; the order of the items is.
    first, second = item("P1", 1, lot="", wplace="A"), item("P2", 2, barcode="9")
    reordered = dict(reversed(list(first.items())))
    assert batch_digest(parsed_batch(5, [first, second])) == batch_digest(parsed_batch(5, [reordered, second]))
    assert batch_digest(parsed_batch(5, [first, second])) != batch_digest(parsed_batch(5, [second, first]))


def test_a_limited_caller_may_not_post_elsewhere(session, callers):
    with pytest.raises(Forbidden):
        post(session, callers["carol"], 1, [item("P1", 1)], id_warehouse="2")
    assert count(session, Batch) == 0


def test_a_refused_batch_writes_nothing(session, alice):
    with pytest.raises(Invalid) as refused:
        post(session, alice, 1, [item("P1", 1), item("P1", 1, "crate"), item("LOT", 1)])
    assert set(refused.value.fields["data"]["batch_items"]) == {1, 2}
    assert count(session, Batch) == count(session, WarehouseDocument) == count(session, Balance) == 0
    post(session, alice, 2, [item("P1", 1)])
    session.rollback()
    assert session.get(WarehouseDocument, 1).ufid == f"I-{date.today().year}-000001"


def test_goods_out_sums_the_lines_of_a_batch(session, alice):
    post(session, alice, 1, [item("P1", 5), item("P2", 5)])
    with pytest.raises(InsufficientStock) as short:
        post(session, alice, 2, [item("P1", 3), item("P2", 5), item("P1", 3)], direction="O")
    assert short.value.status == 409
    assert set(short.value.fields["data"]["batch_items"]) == {0, 2}
    assert balance(session, "P1") == 5000
    post(session, alice, 3, [item("P1", 6), item("P2", 6)], Policy(allow_negative_stock=True),
         direction="O")
    assert (balance(session, "P1"), balance(session, "P2")) == (-1000, -1000)


def test_a_count_books_no_movement_document(session, alice):
    post(session, alice, 1, [item("P1", 4)], type="V")
    session.rollback()
    assert session.get(Batch, 1).type == "V"
    assert balance(session, "P1") == 4000
    assert session.scalars(select(WarehouseDocument.batch_number)).all() == [-1]


# --- numbers and balances ---------------------------------------------------------------------

def test_next_number_counts_each_sequence_on_its_own(session):
    with writing(session):
        assert [next_number(session, "a") for _ in range(3)] == [1, 2, 3]
        assert next_number(session, "b") == 1
    with writing(session):
        assert next_number(session, "a") == 4


def test_new_document_numbers_and_ufids(session):
    with writing(session):
        made = [new_document(session, 1, "I", date(2024, 5, 1), date(2026, 1, 2)),
                new_document(session, 1, "O", date(2024, 5, 1), date(2026, 1, 2)),
                new_document(session, 1, "I", date(2025, 1, 1), date(2026, 1, 2)),
                new_document(session, 1, "I", date(2024, 12, 31), date(2026, 1, 2))]
    assert made == [1, 2, 3, 4]
    assert [session.get(WarehouseDocument, n).ufid for n in made] == [
        "I-2024-000001", "O-2024-000001", "I-2025-000001", "I-2024-000002"]
    assert {session.get(WarehouseDocument, n).doc_created_date for n in made} == {date(2026, 1, 2)}
    assert session.get(WarehouseDocument, 1).batch_number == -1


@pytest.mark.unbalanced
def test_change_balances_refuses_to_go_below_zero(session):
    with writing(session):
        change_balances(session, 1, {("P1", ""): 1000, ("LOT", "A"): 500}, STRICT)
    with pytest.raises(InsufficientStock):
        with writing(session):
            change_balances(session, 1, {("P1", ""): -400, ("LOT", "A"): -501}, STRICT)
    assert (balance(session, "P1"), balance(session, "LOT", "A")) == (1000, 500)
    with writing(session):
        change_balances(session, 1, {("P1", ""): -1000, ("LOT", "A"): 0}, STRICT)
    assert (balance(session, "P1"), balance(session, "LOT", "A")) == (0, 500)
