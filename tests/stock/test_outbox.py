"""stock/outbox.py: events written in the transaction of what caused them, and the alerts' events."""
import json
from datetime import date, timedelta

import pytest
from sqlalchemy import select

from helpers import item
from models import OutboxEvent
from schemas.alerts import reorder_levels_schema
from stock import alerts, outbox, reorder
from stock.audit import Actor
from storage.db import writing

TODAY = date.today()


def events(session):
    session.rollback()
    return [(e.event, json.loads(e.data)) for e in session.scalars(select(OutboxEvent).order_by(OutboxEvent.id))]


def test_a_booking_writes_one_batch_booked_event(session, catalog_products, scanner):
    scanner.book("R", "I", [item("P1", 5), item("P2", 1)], warehouse=2)
    scanner.book("R", "O", [item("P1", 1)], warehouse=2)
    assert events(session) == [
        ("batch.booked", {"batch_number": 1, "id_warehouse": 2, "direction": "I", "type": "R",
                          "date": TODAY.isoformat(), "document_number": "", "doc_numbers": [1]}),
        ("batch.booked", {"batch_number": 2, "id_warehouse": 2, "direction": "O", "type": "R",
                          "date": TODAY.isoformat(), "document_number": "", "doc_numbers": [2]})]


def test_a_count_also_writes_stocktaking_booked(session, catalog_products, scanner):
    scanner.book("R", "I", [item("P1", 5)])
    scanner.count(("P1", 3))
    found = events(session)
    assert [name for name, _ in found] == ["batch.booked", "batch.booked", "stocktaking.booked"]
    assert found[2][1] == {"id_warehouse": 1, "date": TODAY.isoformat(), "batch_number": 2, "doc_numbers": [2]}


def test_a_second_count_of_the_day_names_the_documents_it_keeps(session, catalog_products, scanner):
    """The day's adjustment document was numbered by the first count's transaction: the second
    count's events still carry its number."""
    scanner.book("R", "I", [item("P1", 5)])
    scanner.count(("P1", 3))
    scanner.count(("P2", 0))
    found = events(session)
    assert [name for name, _ in found][-2:] == ["batch.booked", "stocktaking.booked"]
    assert found[-1][1]["doc_numbers"] == found[-2][1]["doc_numbers"] == [2]


def test_a_refused_booking_and_a_retry_write_none(session, catalog_products, scanner):
    body = scanner.book("R", "I", [item("P1", 5)])
    assert scanner.post(body) is False  # the retry
    with pytest.raises(Exception):
        scanner.book("R", "O", [item("P1", 50)])
    assert len(events(session)) == 1


def test_emit_refuses_an_unknown_event(session):
    with pytest.raises(ValueError):
        with writing(session, []):
            outbox.emit(session, "stock.gone", {})
    with writing(session, []):
        outbox.emit(session, "order.closed", {"document_number": "D1"})
    assert events(session) == [("order.closed", {"document_number": "D1"})]


def test_stock_low_once_per_fall_below_min(session, catalog_products, scanner):
    reorder.set_reorder_levels(session, Actor("t", "cli"), reorder_levels_schema.load(
        [{"id_warehouse": 1, "product_code": "P1", "min_amount": 5, "target_amount": 10}]))
    assert alerts.note_alerts(session, TODAY, 30) == 1  # no stock at all: low
    assert alerts.note_alerts(session, TODAY, 30) == 0
    scanner.receive(("P1", 6))
    assert alerts.note_alerts(session, TODAY, 30) == 0  # rose: nothing to tell
    scanner.ship(("P1", 2))
    assert alerts.note_alerts(session, TODAY, 30) == 1
    low = [data for name, data in events(session) if name == "stock.low"]
    assert low[-1] == {"id_warehouse": 1, "product_code": "P1", "name": "Product P1", "amount": 4,
                       "min_amount": 5, "target_amount": 10, "suggested_order": 6}
    assert len(low) == 2


def test_lot_expiring_once_per_lot_entering_the_window(session, catalog_products, scanner):
    soon = (TODAY + timedelta(days=5)).isoformat()
    scanner.book("R", "I", [item("LOT", 5, lot="A", date_exp=soon),
                            item("LOT", 5, lot="B", date_exp=(TODAY + timedelta(days=50)).isoformat())])
    scanner.book("R", "I", [item("LOT", 1, lot="A", date_exp=soon)], warehouse=2)
    assert alerts.note_alerts(session, TODAY, 30) == 2  # lot A in two warehouses
    assert alerts.note_alerts(session, TODAY, 30) == 0
    assert alerts.note_alerts(session, TODAY + timedelta(days=21), 30) == 1  # B enters the window
    expiring = [data for name, data in events(session) if name == "lot.expiring"]
    assert [(e["id_warehouse"], e["lot"], e["days_left"]) for e in expiring] == [(1, "A", 5), (2, "A", 5), (1, "B", 29)]


def test_an_earlier_best_before_is_told_again_and_old_lots_only_once(session, catalog_products, scanner):
    scanner.book("R", "I", [item("LOT", 5, lot="A", date_exp=(TODAY + timedelta(days=9)).isoformat()),
                            item("LOT", 5, lot="OLD", date_exp=(TODAY - timedelta(days=400)).isoformat())])
    assert alerts.note_alerts(session, TODAY, 30) == 2
    scanner.book("R", "I", [item("LOT", 1, lot="A", date_exp=(TODAY + timedelta(days=3)).isoformat())], warehouse=2)
    scanner.book("R", "I", [item("LOT", 1, lot="OLD")])  # more of a lot long past: told already
    assert alerts.note_alerts(session, TODAY, 30) == 2  # lot A's new date, in both warehouses
    assert alerts.note_alerts(session, TODAY, 30) == 0
    expiring = [data for name, data in events(session) if name == "lot.expiring"]
    assert [(e["id_warehouse"], e["lot"], e["days_left"]) for e in expiring] == [
        (1, "OLD", -400), (1, "A", 9), (1, "A", 3), (2, "A", 3)]
