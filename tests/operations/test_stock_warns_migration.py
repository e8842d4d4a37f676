"""The migration of section 20 (e25a1e770001): the best-before of lots already received is filled in."""
import datetime

import pytest
from alembic import command
from sqlalchemy import text

from operations.upgrades import alembic_config, upgrade_database
from storage.db import db

BEFORE = "d23a0c0ffee1"  # the migration before e25a1e770001


@pytest.mark.unbalanced  # lines written straight into the tables, without their balances
def test_the_upgrade_fills_the_best_before_from_the_goods_in_lines(app):
    with app.app_context():
        command.downgrade(alembic_config(), BEFORE)
        day = datetime.date(2026, 1, 5)
        with db.engine.begin() as connection:
            connection.execute(text("INSERT INTO products (product_code, name, active, base_unit, base_unit_barcode, "
                                    "category, lot_level, weight_brutto_milli, weight_netto_milli, weight_unit) "
                                    "VALUES ('LOT', 'Lots', 1, 'pc', '', 0, 1, 0, 0, 'kg')"))
            for number, direction in ((1, "I"), (2, "I"), (3, "O")):
                connection.execute(text(
                    "INSERT INTO warehouse_documents (id, doc_number, id_warehouse, direction, date, doc_created_date, "
                    "id_customer, batch_number, ufid) VALUES (:n, :n, 1, :d, :day, :day, 0, -1, :ufid)"),
                    {"n": number, "d": direction, "day": day, "ufid": f"{direction}-2026-{number:06d}"})
            lines = [(1, 1, "I", "A", "2027-03-01"), (1, 2, "I", "A", ""), (2, 1, "I", "A", "2027-02-01"),
                     (2, 2, "I", "B", ""), (3, 1, "O", "C", "2020-01-01")]
            for doc, item_number, direction, lot, date_exp in lines:
                connection.execute(text(
                    "INSERT INTO warehouse_document_items (document_id, item_number, id_warehouse, direction, date, "
                    "product_code, name, lot, date_exp, amount_base_milli, doc_created_date, timestamp_from_client) "
                    "VALUES (:doc, :item, 1, :d, :day, 'LOT', 'Lots', :lot, :exp, 1000, :day, '')"),
                    {"doc": doc, "item": item_number, "d": direction, "day": day, "lot": lot, "exp": date_exp})
    assert upgrade_database(app, who="tests") == BEFORE
    with app.app_context():
        with db.engine.connect() as connection:
            rows = connection.execute(text("SELECT product_code, lot, date_exp, expiring_notified FROM best_before "
                                           "ORDER BY lot")).all()
    assert [tuple(row) for row in rows] == [("LOT", "A", "2027-02-01", "")]
