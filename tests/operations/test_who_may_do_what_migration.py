"""The migration of section 26 (f30a5e550001): every person and key is kept and signs in as before;
the audit trail learns who_kind and reach where they are sure; webhooks stay for every warehouse."""
from datetime import datetime

from alembic import command
from sqlalchemy import text
from werkzeug.security import generate_password_hash

from conftest import PASSWORD, Api, sign_in
from identity.api_keys import hash_key
from operations.upgrades import alembic_config, upgrade_database
from stock import audit
from storage.db import db

BEFORE = "e25a1e770001"  # the migration before f30a5e550001


def test_the_upgrade_keeps_people_and_keys_and_fills_in_the_trail(app, client, session):
    with app.app_context():
        command.downgrade(alembic_config(), BEFORE)
        now = datetime(2026, 11, 1, 9, 0)
        with db.engine.begin() as connection:
            connection.execute(text(
                "INSERT INTO users (name, role, warehouses, password_hash, created_at, password_changed_at, "
                "generation) VALUES ('anna', 'admin', '', :hash, :now, :now, 3), "
                "('gate', 'read', '2', :hash, :now, :now, 0)"),
                {"hash": generate_password_hash(PASSWORD, method="scrypt"), "now": now})
            connection.execute(text(
                "INSERT INTO api_keys (name, role, key_hash, warehouses, created_at, last_used_from) "
                "VALUES ('scanner-1', 'scan', :hash, '1', :now, ''), ('gate', 'scan', :other, '', :now, '')"),
                {"hash": hash_key("the scanner's key"), "other": hash_key("another key"), "now": now})
            connection.execute(text(
                "INSERT INTO webhooks (url, events, secret, created_at) "
                "VALUES ('http://127.0.0.1:9/hook', 'batch.booked', 'whsec_x', :now)"), {"now": now})
            for who, address, kind, record in [("root", "cli", "key.create", "scanner-1"),
                                               ("anna", "192.0.2.1", "product.update", "MILK"),
                                               ("scanner-1", "192.0.2.2", "customer.update", "7"),
                                               ("gate", "192.0.2.3", "order.close", "ORD-1"),
                                               ("anna", "192.0.2.1", "signin.failed", "anna"),
                                               ("", "192.0.2.4", "signin.failed", "")]:
                connection.execute(text(
                    "INSERT INTO audit_trail (at, who, address, kind, record, changes) "
                    "VALUES (:now, :who, :address, :kind, :record, '{}')"),
                    {"now": now, "who": who, "address": address, "kind": kind, "record": record})
    assert upgrade_database(app, who="tests") == BEFORE
    assert sign_in(client, "anna").status_code == 302
    assert client.get("/admin/people").status_code == 200
    assert Api(client, "the scanner's key").get("/v1/products/").status_code == 200
    found = {(entry["who"], entry["kind"]): entry["who_kind"] for entry in audit.list_entries(session)}
    assert found == {("root", "key.create"): "cli", ("anna", "product.update"): "person",
                     ("scanner-1", "customer.update"): "key", ("gate", "order.close"): "",  # a person and a key
                     ("anna", "signin.failed"): "person", ("", "signin.failed"): ""}
    with app.app_context(), db.engine.connect() as connection:
        reaches = dict(connection.execute(text("SELECT kind, warehouses FROM audit_trail "
                                               "WHERE kind != 'signin.failed'")).all())
        assert connection.scalar(text("SELECT warehouses FROM webhooks")) == ""
    assert reaches == {"key.create": "*", "product.update": "", "customer.update": "", "order.close": "*"}
