"""A lot's first best-before reaches its stock in every warehouse, however the bookings meet
(stock/balances.py `_wait_for_first_best_before`).

Two warehouses receive the same new lot at the same moment, one with its date and one without.
On PostgreSQL the bookings of two warehouses run side by side: the dateless one read the lot's
date before the other committed it, and the other copied its date into the balances before the
dateless one's balance was there to see. That warehouse's stock then kept no best-before until
its next booking of the lot, and the alerts never listed it past its date. Here the dated
booking is held just before its commit until the dateless one has begun.
"""
import threading
import time

from sqlalchemy import select

from conftest import Scanner
from helpers import item
from models import Balance
from stock import balances, posting
from storage.db import db

HELD = 1.0  # seconds the dated booking waits before its commit, once the other has begun


def test_a_new_lots_date_reaches_the_warehouse_that_received_it_without_one(app, api, session, catalog_products,
                                                                           callers, monkeypatch):
    dated_is_waiting, dateless_began = threading.Event(), threading.Event()
    numbering = balances.number_documents

    def hold_the_dated_booking(session):
        if threading.current_thread().name == "dated":
            dated_is_waiting.set()
            assert dateless_began.wait(10)
            time.sleep(HELD)  # the other booking reads, writes and (unfixed) commits meanwhile
        numbering(session)

    monkeypatch.setattr(balances, "number_documents", hold_the_dated_booking)
    errors = []

    def book(number, warehouse, date_exp):
        try:
            if threading.current_thread().name == "dateless":
                assert dated_is_waiting.wait(10)
                dateless_began.set()
            with app.app_context():
                scanner = Scanner(session=db.session, caller=callers["alice"])
                scanner.book("R", "I", [item("LOT", 5, lot="NEW", **date_exp)], warehouse=warehouse, number=number)
                db.session.remove()
        except BaseException as error:  # noqa: BLE001 - handed to the test below
            errors.append(error)

    threads = [threading.Thread(target=book, name="dated", args=(1, 1, {"date_exp": "2026-01-31"})),
               threading.Thread(target=book, name="dateless", args=(2, 2, {}))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors and not any(thread.is_alive() for thread in threads), errors
    session.rollback()
    kept = dict(session.execute(select(Balance.id_warehouse, Balance.best_before)
                                .where(Balance.product_code == "LOT", Balance.lot == "NEW")).all())
    assert kept == {1: "2026-01-31", 2: "2026-01-31"}
    alerts = api.get("/v1/alerts/?product_code=LOT").json["item"]
    assert sorted((lot["id_warehouse"], lot["lot"], lot["date_exp"]) for lot in alerts["expiring"]) == \
        [(1, "NEW", "2026-01-31"), (2, "NEW", "2026-01-31")]
