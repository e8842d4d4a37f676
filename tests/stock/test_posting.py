"""stock/posting.py on a session, the rule layer of operation 10 (add a batch): conversions,
lots, stock going short, retries, orders filled, counts.

Each batch is a request body as a scanner sends it, parsed by the route's own schema and
booked by post_batch (conftest.Scanner.post). A refusal is the stock.errors exception the
route turns into the JSON error body: its class gives the status, `code` the error code and
`fields` the fields (item indexes are ints here; JSON makes them strings). What only HTTP
shows (status codes, the error body, the key's role, parsing) is in test_batches.py.
"""
from datetime import date, timedelta

import pytest
from sqlalchemy import select, update

from helpers import add_order, batch, item, order, order_item, product, the_order
from models import Balance, Batch
from schemas import batch_create_schema, product_schema
from stock import balances, catalog, orders, posting, records, stocktaking
from stock.errors import Conflict, Forbidden, InsufficientStock, Invalid, NotFound
from stock.policy import Policy
from stock.quantities import from_milli
from storage.db import writing


pytestmark = pytest.mark.usefixtures("catalog_products")


def balance(session, code, lot="", warehouse=1):
    """Book stock in thousandths, read afresh (None: no balance row)."""
    session.rollback()
    return session.scalar(select(Balance.amount_milli).where(
        Balance.id_warehouse == warehouse, Balance.product_code == code, Balance.lot == lot))


def stored(session, caller, number):
    """Batch `number` as stored: its settings' columns, its items and its extras, as plain values."""
    session.rollback()
    found = records.get_batch(session, caller, number)
    settings = {column.key: getattr(found["batch_settings"], column.key) for column in Batch.__table__.c}
    return {**found, "batch_settings": settings}


def base_amounts(session, caller, number):
    """The base-unit amounts of the items of batch `number`, as the service answers them."""
    return [from_milli(i["amount_base_milli"]) for i in stored(session, caller, number)["batch_items"]]


def all_docs(session, caller):
    session.rollback()
    return records.filter_documents(session, caller, {}, headers_only=True)


def delivered(session, caller, number="D1"):
    return [from_milli(line.amount_delivered_milli) for line in the_order(session, caller, number).items]


def absent(session, caller, number):
    """Batch `number` was never stored."""
    session.rollback()
    with pytest.raises(NotFound):
        records.get_batch(session, caller, number)
    return True


# --- conversions and refused items -------------------------------------------------------------

@pytest.mark.parametrize("line, base", [
    (item("P1", 2, "box"), 12),
    (item("P1", 2, "box", amount_base_unit="12.000"), 12),
    (item("P1", "0.008", "dose"), 0.001),
    (item("P1", 3, "dose", amount_base_unit="0.375"), 0.375),
    (item("LOT", 1, lot="A"), 1),
])
def test_units_convert_to_base_units(session, scanner, line, base):
    scanner.post(batch(1, [line]))
    assert base_amounts(session, scanner.caller, 1) == [base]


# The items the rules refuse (those the schema refuses are in test_batches.py).
BAD_ITEMS = [
    ("unknown product", item("NOPE", 1), "product_code"),
    ("inactive product", item("OFF", 1), "product_code"),
    ("unit not base nor packaging", item("P1", 1, "kg"), "unit"),
    ("unit of another product", item("P2", 1, "box"), "unit"),
    ("amount_base_unit mismatch", item("P1", 2, "box", amount_base_unit=6), "amount_base_unit"),
    ("conversion beyond 3 places", item("P1", "0.001", "dose"), "amount"),
    ("lot required", item("LOT", 1), "lot"),
    ("lot required, empty", item("LOT", 1, lot=""), "lot"),
    ("lot forbidden", item("P1", 1, lot="A"), "lot"),
    ("amount zero", item("P1", 0), "amount"),
    ("amount negative", item("P1", -1), "amount"),
]


@pytest.mark.parametrize("case, bad, field", BAD_ITEMS, ids=[case for case, _, _ in BAD_ITEMS])
def test_bad_item_is_refused_naming_it_and_books_nothing(session, scanner, case, bad, field):
    with pytest.raises(Invalid) as refused:
        scanner.post(batch(1, [item("P1", 1), bad]))
    fields = refused.value.fields
    assert refused.value.code == "validation_error"
    assert list(fields["data"]["batch_items"]) == [1]
    assert field in fields["data"]["batch_items"][1], fields
    assert absent(session, scanner.caller, 1)
    assert all_docs(session, scanner.caller) == []
    assert balance(session, "P1") is None


def test_every_bad_item_is_named(scanner):
    with pytest.raises(Invalid) as refused:
        scanner.post(batch(1, [item("NOPE", 1), item("P1", 1), item("P1", 1, "kg")]))
    assert sorted(refused.value.fields["data"]["batch_items"]) == [0, 2]


def test_a_count_may_be_zero_but_not_negative(session, scanner):
    scanner.post(batch(1, [item("P1", 0)], type="V"))
    assert base_amounts(session, scanner.caller, 1) == [0]
    with pytest.raises(Invalid) as refused:
        scanner.post(batch(2, [item("P1", -1)], type="V"))
    assert "amount" in refused.value.fields["data"]["batch_items"][0]


def test_amount_too_large_after_conversion_is_refused(session, scanner):
    catalog.create_product(session, product_schema.load(product(
        "BIG", name="Big", packaging=[{"unit": "lorry", "amount_base_units": 999999999999}])))
    with pytest.raises(Invalid) as refused:
        scanner.post(batch(1, [item("BIG", 999999999999, "lorry")]))
    assert "amount" in refused.value.fields["data"]["batch_items"][0]
    assert balance(session, "BIG") is None


# --- safe retries -----------------------------------------------------------------------------

def test_retry_with_numbers_for_numeric_strings_is_the_same_batch(session, scanner):
    assert scanner.post(batch("7", [item("P1", "1.5", amount_base_unit="1.5")], id_warehouse="1",
                              truck=3)) is True
    assert scanner.post(batch(7, [item("P1", 1.5, amount_base_unit="1.500")], id_warehouse=1,
                              truck=3)) is False
    assert balance(session, "P1") == 1500
    assert len(all_docs(session, scanner.caller)) == 1


EARLIER_DIGEST = "23758ce25d1e02896fd7b97a5c766eb9a43ff48f30df5501b19bbe32747efc4b"


def test_a_retry_of_a_batch_fingerprinted_by_an_earlier_release_is_known(session, scanner):
    body = batch(1, [item("P1", 2, barcode="4006381333931"), item("P2", 1)], extras=[])
    assert scanner.post(body) is True
    # As the releases before the present fingerprint stored it (e888568 wrote this text for
    # this body); the upgrade keeps the column as it is.
    with writing(session, [1]):
        session.execute(update(Batch).where(Batch.batch_number == 1).values(
            content_digest=EARLIER_DIGEST))
    assert posting.digest_of_earlier_releases(batch_create_schema.load(body)) == EARLIER_DIGEST
    assert scanner.post(body) is False
    with pytest.raises(Conflict):
        scanner.post(batch(1, [item("P1", 3, barcode="4006381333931"), item("P2", 1)], extras=[]))
    assert balance(session, "P1") == 2000


def test_retry_ignores_a_sent_created_date(session, scanner):
    assert scanner.post(batch(1, [item("P1", 1)], created_date="2001-01-01")) is True
    assert scanner.post(batch(1, [item("P1", 1)], created_date="2002-02-02")) is False
    assert len(all_docs(session, scanner.caller)) == 1


@pytest.fixture
def midnight(monkeypatch):
    """The server's day turns from 23 to 24 November once the rules have read it."""
    class PastMidnight(date):
        readings = 0

        @classmethod
        def today(cls):
            cls.readings += 1
            return date(2026, 11, 23) if cls.readings == 1 else date(2026, 11, 24)

    for module in (posting, balances, stocktaking):
        monkeypatch.setattr(module, "date", PastMidnight)
    return date(2026, 11, 23)


@pytest.mark.parametrize("type_", ["R", "V"])  # goods in; a count, whose differences book documents
def test_a_booking_under_way_at_midnight_dates_its_batch_documents_and_lines_alike(
        session, scanner, midnight, type_):
    assert scanner.post(batch(1, [item("P1", 2), item("P2", 1)], type=type_)) is True
    settings = stored(session, scanner.caller, 1)["batch_settings"]
    document = records.get_document(session, scanner.caller, 1)
    assert settings["date"] == settings["created_date"] == midnight
    assert document["date"] == document["doc_created_date"] == midnight
    assert [line["doc_created_date"] for line in document["wh_doc_items"]] == [midnight] * 2


@pytest.mark.parametrize("change", [
    lambda b: b["batch_items"][0].update(amount=3),
    lambda b: b["batch_items"].append(item("P1", 1)),
    lambda b: b["batch_settings"].update(direction="O"),
    lambda b: b["batch_settings"].update(id_warehouse="2"),
    lambda b: b["batch_settings"].update(date="2020-01-01"),
    lambda b: b["batch_settings"].update(name=""),  # a field left out stays left out
    lambda b: b["batch_items"][0].update(wplace=""),
    lambda b: b.update(batch_extras=[{"key": "k", "value": "v"}]),
    lambda b: b.update(batch_extras=[]),  # left out is not the same as empty
])
def test_same_number_with_other_content_conflicts_and_changes_nothing(session, scanner, change):
    scanner.post(batch(1, [item("P1", 2)]))
    before = stored(session, scanner.caller, 1)
    retry = batch(1, [item("P1", 2)])
    change(retry)
    with pytest.raises(Conflict) as refused:
        scanner.post(retry)
    assert refused.value.code == "conflict"
    assert stored(session, scanner.caller, 1) == before
    assert balance(session, "P1") == 2000
    assert balance(session, "P1", warehouse=2) is None
    assert len(all_docs(session, scanner.caller)) == 1


def test_warehouse_of_the_key_answers_before_a_batch_number_taken(scanner, callers):
    scanner.post(batch(1, [item("P1", 1)], id_warehouse="2"))
    with pytest.raises(Forbidden):
        scanner.post(batch(1, [item("P1", 1)], id_warehouse="2"), caller=callers["carol"])


def test_retry_with_other_content_conflicts_before_its_bad_product(scanner):
    scanner.post(batch(1, [item("P1", 1)]))
    with pytest.raises(Conflict):
        scanner.post(batch(1, [item("NOPE", 1)]))


def test_retry_with_other_content_conflicts_before_stock(scanner):
    scanner.post(batch(1, [item("P1", 1)]))
    with pytest.raises(Conflict) as refused:
        scanner.post(batch(1, [item("P1", 5)], direction="O"))
    assert not isinstance(refused.value, InsufficientStock)


def test_identical_retry_books_nothing_after_its_order_closed(session, scanner):
    add_order(session, scanner.caller, order("D1", [order_item(1, "P1", 2)]))
    body = batch(1, [item("P1", 2)], document_number="D1")
    assert scanner.post(body) is True
    assert the_order(session, scanner.caller).state == 0
    assert scanner.post(body) is False
    assert delivered(session, scanner.caller) == [2]


def test_a_failed_batch_number_may_be_used_again(session, scanner):
    with pytest.raises(Invalid):
        scanner.post(batch(1, [item("NOPE", 1)]))
    assert scanner.post(batch(1, [item("P1", 1)])) is True
    assert balance(session, "P1") == 1000


# --- stock ------------------------------------------------------------------------------------

def test_goods_out_lowers_the_stock(session, scanner):
    scanner.post(batch(1, [item("P1", 5)]))
    scanner.post(batch(2, [item("P1", 2), item("P1", 3)], direction="O"))
    assert balance(session, "P1") == 0


def test_goods_out_of_nothing_is_short(session, scanner):
    with pytest.raises(InsufficientStock) as refused:
        scanner.post(batch(1, [item("P2", "0.001")], direction="O"))
    assert list(refused.value.fields["data"]["batch_items"]) == [0]
    assert balance(session, "P2") is None


@pytest.mark.parametrize("stock_settings, out", [
    ({"id_warehouse": "2"}, item("P1", 1)),  # stock of another warehouse does not count
    ({}, item("LOT", 1, lot="B")),           # nor stock of another lot
])
def test_stock_is_kept_per_warehouse_and_lot(scanner, stock_settings, out):
    scanner.post(batch(1, [item("P1", 5), item("LOT", 5, lot="A")], **stock_settings))
    with pytest.raises(InsufficientStock):
        scanner.post(batch(2, [out], direction="O"))


def test_stock_is_counted_in_base_units(session, scanner):
    scanner.post(batch(1, [item("P1", 1, "box")]))
    with pytest.raises(InsufficientStock):
        scanner.post(batch(2, [item("P1", 2, "box")], direction="O"))
    scanner.post(batch(3, [item("P1", 4, "dose"), item("P1", "5.5")], direction="O"))
    assert balance(session, "P1") == 0


def test_negative_stock_may_be_allowed(session, scanner):
    scanner.post(batch(1, [item("P1", 3), item("P1", "0.5")], direction="O"),
                 policy=Policy(allow_negative_stock=True))
    assert balance(session, "P1") == -3500


def test_short_items_name_their_amount(scanner):
    scanner.post(batch(1, [item("P1", 1)]))
    with pytest.raises(InsufficientStock) as refused:
        scanner.post(batch(2, [item("P1", 2)], direction="O"))
    assert list(refused.value.fields["data"]["batch_items"][0]) == ["amount"]


# --- atomicity and document numbers --------------------------------------------------------

def test_a_refused_batch_leaves_no_trace_and_consumes_no_number(session, scanner):
    alice = scanner.caller
    add_order(session, alice, order("D1", [order_item(1, "P1", 10)], directions=("O",)))
    scanner.post(batch(1, [item("P1", 5)]))
    # refused at the last step (stock), after the order was filled and the lines checked
    with pytest.raises(Conflict):
        scanner.post(batch(2, [item("P1", 3), item("P1", 3)], direction="O", document_number="D1"))
    # refused at the first rule (product)
    with pytest.raises(Invalid):
        scanner.post(batch(3, [item("P1", 1), item("NOPE", 1)], direction="O"))
    for number in (2, 3):
        assert absent(session, alice, number)
    assert [d["batch_number"] for d in all_docs(session, alice)] == [1]
    assert balance(session, "P1") == 5000
    assert delivered(session, alice) == [0] and the_order(session, alice).state == 1

    scanner.post(batch(4, [item("P1", 1)], direction="O", document_number="D1"))
    scanner.post(batch(5, [item("P1", 1)]))
    docs = all_docs(session, alice)
    year = date.today().year
    assert [(d["doc_number"], d["ufid"], d["batch_number"]) for d in docs] == [
        (1, f"I-{year}-000001", 1), (2, f"O-{year}-000001", 4), (3, f"I-{year}-000002", 5)]
    assert delivered(session, alice) == [1]


# --- batches against their order document ----------------------------------------------------

@pytest.mark.parametrize("settings, field", [
    ({"document_number": "NOPE"}, "document_number"),
    ({"document_number": "D1", "id_warehouse": "2"}, "id_warehouse"),
    ({"document_number": "D1", "type": "V"}, "type"),
    ({"document_number": "D1", "direction": "O"}, "direction"),
])
def test_batch_that_does_not_fit_its_order_is_refused(session, scanner, settings, field):
    add_order(session, scanner.caller, order("D1"))
    with pytest.raises(Invalid) as refused:
        scanner.post(batch(1, [item("P1", 1)], **settings))
    assert field in refused.value.fields["data"]["batch_settings"], refused.value.fields
    assert delivered(session, scanner.caller) == [0]


def test_order_of_another_warehouse_is_unknown_to_a_limited_key(session, scanner, callers):
    add_order(session, scanner.caller, order("D2", id_warehouse=2))
    with pytest.raises(Invalid) as refused:
        scanner.post(batch(1, [item("P1", 1)], document_number="D2"), caller=callers["carol"])
    assert "document_number" in refused.value.fields["data"]["batch_settings"]


@pytest.mark.parametrize("lines, sent", [
    ([order_item(1, "P1", 10, direction="I")], item("P2", 1)),                    # product
    ([order_item(1, "LOT", 10, lot="A", direction="I")], item("LOT", 1, lot="B")),  # lot
    ([order_item(1, "P1", 10, direction="O"), order_item(2, "P2", 10, direction="I")],
     item("P1", 1)),                                                              # direction
])
def test_items_not_on_the_order_are_refused(session, scanner, lines, sent):
    add_order(session, scanner.caller, order("D1", lines, directions=("I", "O")))
    with pytest.raises(Invalid) as refused:
        scanner.post(batch(1, [sent], document_number="D1"))
    assert "product_code" in refused.value.fields["data"]["batch_items"][0]
    assert the_order(session, scanner.caller).state == 1


def test_more_than_ordered_is_refused(session, scanner):
    alice = scanner.caller
    add_order(session, alice, order("D1", [order_item(1, "P1", 10)]))
    with pytest.raises(Invalid) as refused:
        scanner.post(batch(1, [item("P1", 6), item("P1", 5)], document_number="D1"))
    fields = refused.value.fields
    assert list(fields["data"]["batch_items"]) == [1]
    assert "amount" in fields["data"]["batch_items"][1]
    assert balance(session, "P1") is None
    assert delivered(session, alice) == [0]
    scanner.post(batch(2, [item("P1", 6), item("P1", 4)], document_number="D1"))
    assert delivered(session, alice) == [10]
    with pytest.raises(Conflict):  # closed
        scanner.post(batch(3, [item("P1", "0.001")], document_number="D1"))


def test_lines_fill_those_naming_the_lot_first_then_those_without_by_item_number(session, scanner):
    alice = scanner.caller
    add_order(session, alice, order("D1", [
        order_item(4, "LOT", 2, lot="B"),
        order_item(1, "LOT", 5),
        order_item(3, "LOT", 4),
        order_item(2, "LOT", 3, lot="A"),
    ]))
    scanner.post(batch(1, [item("LOT", 6, lot="A")], document_number="D1"))
    # lines by item_number: 1 (no lot) 2 (A) 3 (no lot) 4 (B)
    assert delivered(session, alice) == [3, 3, 0, 0]
    scanner.post(batch(2, [item("LOT", 5, lot="B")], document_number="D1"))
    assert delivered(session, alice) == [5, 3, 1, 2]
    assert the_order(session, alice).state == 3
    with pytest.raises(Invalid):
        scanner.post(batch(3, [item("LOT", 4, lot="C")], document_number="D1"))
    scanner.post(batch(4, [item("LOT", 3, lot="C")], document_number="D1"))
    assert delivered(session, alice) == [5, 3, 4, 2]
    assert the_order(session, alice).state == 0


def test_an_order_line_counts_in_base_units(session, scanner):
    add_order(session, scanner.caller, order("D1", [order_item(1, "P1", 12)]))
    scanner.post(batch(1, [item("P1", 1, "box"), item("P1", 48, "dose")], document_number="D1"))
    assert delivered(session, scanner.caller) == [12]


@pytest.mark.parametrize("date_exp, booked", [
    (None, False), ("", False), (-1, False), (9, False), (10, True), (11, True),
])
def test_expiration_limit(session, scanner, date_exp, booked):
    add_order(session, scanner.caller, order("D1", expiration_limit=10))
    assert the_order(session, scanner.caller).expiration_limit_date == date.today() + timedelta(days=10)
    sent = item("P1", 1)
    if date_exp is not None:
        sent["date_exp"] = date_exp if date_exp == "" else (date.today() + timedelta(days=date_exp)).isoformat()
    if booked:
        assert scanner.post(batch(1, [sent], document_number="D1")) is True
    else:
        with pytest.raises(Invalid) as refused:
            scanner.post(batch(1, [sent], document_number="D1"))
        assert "date_exp" in refused.value.fields["data"]["batch_items"][0]


def test_without_expiration_limit_any_date_exp_passes(session, scanner):
    add_order(session, scanner.caller, order("D1"))
    assert scanner.post(batch(1, [item("P1", 1, date_exp="2000-01-01"), item("P1", 1)],
                              document_number="D1")) is True


def test_order_held_by_another_key_conflicts(session, scanner, callers):
    alice, bob = callers["alice"], callers["bob"]
    add_order(session, alice, order("D1"))
    orders.acquire_order(session, bob, "D1", scanner.policy)
    with pytest.raises(Conflict):
        scanner.post(batch(1, [item("P1", 1)], document_number="D1"))
    assert absent(session, alice, 1)
    assert scanner.post(batch(1, [item("P1", 1)], document_number="D1"), caller=bob) is True
    assert the_order(session, alice).state == 3


def test_lock_older_than_the_timeout_holds_nobody_back(session, scanner, callers):
    add_order(session, scanner.caller, order("D1"))
    orders.acquire_order(session, callers["bob"], "D1", scanner.policy)
    assert scanner.post(batch(1, [item("P1", 1)], document_number="D1"),
                        policy=Policy(acquire_timeout=timedelta(0))) is True
    assert the_order(session, scanner.caller).state == 3


def test_precedence_unknown_product_before_closed_order(session, scanner):
    add_order(session, scanner.caller, order("D1", [order_item(1, "P1", 1)]))
    scanner.post(batch(1, [item("P1", 1)], document_number="D1"))
    with pytest.raises(Invalid):
        scanner.post(batch(2, [item("NOPE", 1)], document_number="D1"))
    # closed (409 state) answers before an item that is not on the order (422 order rules)
    with pytest.raises(Conflict):
        scanner.post(batch(3, [item("P2", 1)], document_number="D1"))


def test_precedence_order_rules_before_stock(session, scanner):
    add_order(session, scanner.caller, order("D1", [order_item(1, "P1", 1)], directions=("O",)))
    with pytest.raises(Invalid):
        scanner.post(batch(1, [item("P1", 2)], document_number="D1", direction="O"))


def test_a_counting_order_takes_type_v_batches(session, scanner):
    alice = scanner.caller
    add_order(session, alice, order("D1", [order_item(1, "P1", 10), order_item(2, "P1", 5)], types=("V",)))
    # a count is not limited by the order: what is left goes to the first matching line
    scanner.post(batch(1, [item("P1", 12), item("P1", 0)], type="V", document_number="D1"))
    assert delivered(session, alice) == [10, 2]
    assert the_order(session, alice).state == 3
    items = stored(session, alice, 1)["batch_items"]
    assert [(i["doc_number"], i["doc_item_number"]) for i in items] == [(0, 0), (0, 0)]
    assert balance(session, "P1") == 12000
    scanner.post(batch(2, [item("P1", 5)], type="V", document_number="D1"))
    assert delivered(session, alice) == [12, 5]  # 3 fill line 2, the 2 left over go to line 1
    assert the_order(session, alice).state == 0


def test_a_counting_order_refuses_items_not_on_it_and_type_r(session, scanner):
    add_order(session, scanner.caller, order("D1", [order_item(1, "P1", 10)], types=("V",)))
    with pytest.raises(Invalid) as refused:
        scanner.post(batch(1, [item("P2", 1)], type="V", document_number="D1"))
    assert "product_code" in refused.value.fields["data"]["batch_items"][0]
    with pytest.raises(Invalid) as refused:
        scanner.post(batch(2, [item("P1", 1)], type="R", document_number="D1"))
    assert "type" in refused.value.fields["data"]["batch_settings"]
