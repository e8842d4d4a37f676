"""Migrations (DESIGN 11): the schema in migrations/, and every kind of database brought to it."""
import http.client
import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tarfile
import time
import uuid
from copy import deepcopy
from datetime import date, datetime

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text

from conftest import BACKEND, PG_URL, SHARED_SERVER_BUSY_TIMEOUT
from identity.api_keys import hash_key
from operations import upgrades
from operations.upgrades import UpgradeRefused, upgrade_database
from server import free_port, query, server_url
from storage.db import db

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The last commit of the release before migrations: its create_all made today's depots' databases.
RELEASE_BEFORE_MIGRATIONS = "c9e6ea5fe52002f2470458dda0bdbb7fb03ad175"


def head():
    return upgrades.scripts().get_current_head()


@pytest.fixture
def empty_database(tmp_path, pg_schema):
    """Config for a database with nothing in it: a new file, or a new PostgreSQL schema."""
    if pg_schema is None:
        yield {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'warehouse.db'}"}
        return
    schema = f"warehouse_old_{uuid.uuid4().hex[:12]}"
    engine = create_engine(PG_URL)
    with engine.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    yield {"SQLALCHEMY_DATABASE_URI": PG_URL,
           "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"options": f"-csearch_path={schema}"}},
           "BUSY_TIMEOUT": SHARED_SERVER_BUSY_TIMEOUT}
    with engine.begin() as conn:
        conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    engine.dispose()


@pytest.fixture(scope="session")
def old_code(tmp_path_factory):
    """The code of the release before migrations, from git."""
    where = tmp_path_factory.mktemp("release-before-migrations")
    archive = subprocess.run(["git", "-C", REPO, "archive", RELEASE_BEFORE_MIGRATIONS],
                             capture_output=True, timeout=60)
    assert archive.returncode == 0, f"this test needs the repository's history: {archive.stderr!r}"
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(where, filter="data")
    return where


def run_old_release(old_code, database_config: dict, workdir) -> dict:
    """The old release books its day in the database; what its reads answered."""
    options = database_config.get("SQLALCHEMY_ENGINE_OPTIONS", {}).get("connect_args", {}).get("options")
    out = workdir / "old-answers.json"
    done = subprocess.run(
        [sys.executable, os.path.join(REPO, "tests", "old_release.py"), str(old_code),
         database_config["SQLALCHEMY_DATABASE_URI"], options[len("-csearch_path="):] if options else "-",
         str(out)],
        cwd=workdir, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    with open(out, encoding="utf-8") as file:
        return json.load(file)


@pytest.fixture(scope="session")
def old_sqlite_depot(old_code, tmp_path_factory):
    """On SQLite the old release books its day once per worker, in a file each test gets a copy
    of (its process has ended, so the file alone holds the day)."""
    if BACKEND != "sqlite":
        return None
    where = tmp_path_factory.mktemp("old-depot")
    path = where / "warehouse.db"
    return path, run_old_release(old_code, {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"}, where)


@pytest.fixture
def old_database(old_code, old_sqlite_depot, empty_database, tmp_path):
    """A database the release before migrations made and booked a day in; and what its reads said."""
    if old_sqlite_depot is None:
        return empty_database, run_old_release(old_code, empty_database, tmp_path)
    path, answers = old_sqlite_depot
    shutil.copyfile(path, empty_database["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///"))
    return empty_database, deepcopy(answers)


# Fields a later release added to an answer's shape (DESIGN 18: products carry decimal_places),
# with the value every record of the old release has after the upgrade.
ADDED_FIELDS = {"/v1/products/": {"decimal_places": 3}}


def answers_now(app, old):
    """What the old release's reads answer now, with the fields added since checked and left out."""
    client = app.test_client()
    now = []
    for method, path, data, _before in old["answers"]:
        body = {"data": data} if data is not None else {}
        response = client.open(path, method=method, json=body, headers={"TS-Apikey": old["key"]})
        text = response.get_data(as_text=True)
        added = next((fields for prefix, fields in ADDED_FIELDS.items() if path.startswith(prefix)), None)
        if added and response.status_code == 200:
            answer = json.loads(text)
            records = answer["list"] if "list" in answer else [answer["item"]]
            for record in records:
                for name, value in added.items():
                    assert record.pop(name) == value, (path, name)
            text = json.dumps(answer, separators=(",", ":"), ensure_ascii=False) + "\n"
        now.append([method, path, data, text])
    return now


def differences(app) -> list:
    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return compare_metadata(context, db.metadata)


def revision_of(database_config):
    return query(database_config, "SELECT version_num FROM alembic_version")


# --- the newest migration is the models ------------------------------------------------------

def test_models_and_the_newest_migration_agree(app, database_config):
    assert revision_of(database_config) == [(head(),)]
    assert differences(app) == []


def test_an_empty_database_is_built_by_the_migrations(make_app, empty_database):
    app = make_app(database=empty_database, upgrade=False)
    assert upgrade_database(app, who="tests") == "empty"
    assert revision_of(empty_database) == [(head(),)]
    assert upgrade_database(app, who="tests") is None  # already there: nothing to do


def test_a_new_database_has_warehouse_1_main(make_app, empty_database):
    app = make_app(database=empty_database, upgrade=True)
    with app.app_context():
        assert db.session.execute(text("SELECT id_warehouse, name, active FROM warehouses")).all() == [
            (1, "Main", 1)]


def test_the_upgrade_declares_every_warehouse_the_data_uses(make_app, empty_database):
    """A database of the previous release with batches in warehouses 1, 2 and 7 (DESIGN 17)."""
    app = make_app(database=empty_database, upgrade=False)
    previous = upgrades.scripts().get_revision("b21a0de90001").down_revision
    with app.app_context():
        command.upgrade(upgrades.alembic_config(), previous)
        with db.engine.begin() as connection:
            connection.execute(text("INSERT INTO api_keys (name, role, key_hash, warehouses, created_at) "
                                    "VALUES ('admin', 'admin', :h, '', :t)"),
                               {"h": hash_key("old-key"), "t": datetime.now()})
            connection.execute(text("INSERT INTO products (product_code, name, active, base_unit, "
                                    "base_unit_barcode, category, lot_level, weight_brutto_milli, "
                                    "weight_netto_milli, weight_unit) VALUES ('P1', 'P', 1, 'pc', '', 0, 0, 0, 0, 'kg')"))
            for number, warehouse in ((1, 1), (2, 2), (3, 7), (4, 2)):
                connection.execute(text(
                    "INSERT INTO batches (batch_number, id_warehouse, direction, type, date, created_date, "
                    "app_version, name, truck, document_number, content_digest) "
                    "VALUES (:n, :w, 'I', 'R', :d, :d, '', '', 0, '', 'x')"),
                    {"n": number, "w": warehouse, "d": date.today()})
        db.engine.dispose()
    upgrade_database(app, who="tests")
    listed = app.test_client().get("/v1/warehouses/", headers={"TS-Apikey": "old-key"})
    assert listed.status_code == 200, listed.json
    assert listed.json["list"] == [{"id_warehouse": n, "name": f"Warehouse {n}", "address": "", "active": 1}
                                   for n in (1, 2, 7)]
    products = app.test_client().get("/v1/products/P1", headers={"TS-Apikey": "old-key"})
    assert products.json["item"]["decimal_places"] == 3


def test_the_upgrade_gives_each_balance_its_lots_best_before(make_app, empty_database):
    """A database at f34b1e700001, with lots in stock in two warehouses, some past their best-before."""
    app = make_app(database=empty_database, upgrade=False)
    with app.app_context():
        command.upgrade(upgrades.alembic_config(), "f34b1e700001")
        with db.engine.begin() as connection:
            connection.execute(text("INSERT INTO api_keys (name, role, key_hash, warehouses, created_at) "
                                    "VALUES ('admin', 'admin', :h, '', :t)"),
                               {"h": hash_key("old-key"), "t": datetime.now()})
            connection.execute(text("INSERT INTO products (product_code, name, active, base_unit, "
                                    "base_unit_barcode, category, lot_level, weight_brutto_milli, "
                                    "weight_netto_milli, weight_unit, decimal_places) "
                                    "VALUES ('P1', 'P', 1, 'pc', '', 0, 1, 0, 0, 'kg', 3)"))
            connection.execute(text("INSERT INTO best_before (product_code, lot, date_exp, expiring_notified) "
                                    "VALUES ('P1', 'OLD', '2020-01-31', ''), ('P1', 'NEW', '2099-01-31', '')"))
            for warehouse, lot, amount in ((1, "OLD", 5000), (2, "OLD", 3000), (1, "NEW", 1000), (1, "", 2000),
                                           (2, "NEW", 0)):
                connection.execute(text("INSERT INTO balances (id_warehouse, product_code, lot, amount_milli) "
                                        "VALUES (:w, 'P1', :lot, :amount)"), {"w": warehouse, "lot": lot, "amount": amount})
        db.engine.dispose()
    upgrade_database(app, who="tests")
    with app.app_context():
        with db.engine.connect() as connection:
            carried = dict(((w, lot), day) for w, lot, day in connection.execute(
                text("SELECT id_warehouse, lot, best_before FROM balances")))
    assert carried == {(1, "OLD"): "2020-01-31", (2, "OLD"): "2020-01-31", (1, "NEW"): "2099-01-31",
                       (1, ""): "", (2, "NEW"): "2099-01-31"}
    found = app.test_client().get("/v1/alerts/", headers={"TS-Apikey": "old-key"}).json["item"]
    assert found["totals"] == {"low_stock": 0, "expiring": 0, "expired": 2}
    assert [(row["id_warehouse"], row["lot"]) for row in found["expiring"]] == [(1, "OLD"), (2, "OLD")]


def test_the_upgrade_to_locations_makes_all_stock_unplaced(make_app, empty_database):
    """A database at f35a1e700001 (1.4.1) with stock in two warehouses: after the upgrade every
    balance is unplaced stock of the same amount, nothing lost, and bookings go on from there."""
    app = make_app(database=empty_database, upgrade=False)
    with app.app_context():
        command.upgrade(upgrades.alembic_config(), "f35a1e700001")
        with db.engine.begin() as connection:
            connection.execute(text("INSERT INTO api_keys (name, role, key_hash, warehouses, created_at) "
                                    "VALUES ('admin', 'admin', :h, '', :t)"),
                               {"h": hash_key("old-key"), "t": datetime.now()})
            connection.execute(text("INSERT INTO warehouses (id_warehouse, name, address, active) "
                                    "VALUES (2, 'Cold store', '', 1)"))
            connection.execute(text("INSERT INTO products (product_code, name, active, base_unit, "
                                    "base_unit_barcode, category, lot_level, weight_brutto_milli, "
                                    "weight_netto_milli, weight_unit, decimal_places) "
                                    "VALUES ('P1', 'P', 1, 'pc', '', 0, 1, 0, 0, 'kg', 3)"))
            for warehouse, lot, amount in ((1, "A", 5000), (2, "A", 3250), (1, "B", 0), (2, "C", -1000)):
                connection.execute(text("INSERT INTO balances (id_warehouse, product_code, lot, amount_milli, "
                                        "best_before) VALUES (:w, 'P1', :lot, :amount, '')"),
                                   {"w": warehouse, "lot": lot, "amount": amount})
        db.engine.dispose()
    upgrade_database(app, who="tests")
    with app.app_context():
        with db.engine.connect() as connection:
            placed = sorted(connection.execute(text(
                "SELECT id_warehouse, lot, location, amount_milli FROM location_balances")).all())
            receiving = connection.execute(text("SELECT DISTINCT receiving_location FROM warehouses")).scalars().all()
    assert placed == [(1, "A", "", 5000), (2, "A", "", 3250), (2, "C", "", -1000)]
    assert receiving == [""]
    client = app.test_client()
    listed = client.get("/v1/locations/stock?id_warehouse=2", headers={"TS-Apikey": "old-key"}).json["list"]
    assert [(row["location"], row["lot"], row["amount"]) for row in listed] == [("", "A", 3.25), ("", "C", -1)]



def test_the_upgrade_gives_the_moves_made_so_far_their_lines(make_app, empty_database):
    """A database at f41a1a550001 with a lot received and moved twice (once on two lines of one
    move) and another lot moved: after the upgrade the lot's story tells both moves of it, each
    line of every move kept as a row."""
    app = make_app(database=empty_database, upgrade=False)
    with app.app_context():
        command.upgrade(upgrades.alembic_config(), "f41a1a550001")
        with db.engine.begin() as connection:
            connection.execute(text("INSERT INTO api_keys (name, role, key_hash, warehouses, created_at) "
                                    "VALUES ('admin', 'admin', :h, '', :t)"),
                               {"h": hash_key("old-key"), "t": datetime.now()})
            connection.execute(text("INSERT INTO products (product_code, name, active, base_unit, "
                                    "base_unit_barcode, category, lot_level, weight_brutto_milli, "
                                    "weight_netto_milli, weight_unit, decimal_places) "
                                    "VALUES ('P1', 'P', 1, 'pc', '', 0, 1, 0, 0, 'kg', 3)"))
            connection.execute(text("INSERT INTO warehouse_documents (id, doc_number, id_warehouse, direction, date, "
                                    "doc_created_date, id_customer, batch_number, ufid) "
                                    "VALUES (1, 1, 1, 'I', '2026-05-01', '2026-05-01', 0, 0, 'I-2026-000001')"))
            connection.execute(text("INSERT INTO warehouse_document_items (document_id, item_number, id_warehouse, "
                                    "direction, date, product_code, name, lot, date_exp, amount_base_milli, "
                                    "doc_created_date, timestamp_from_client) VALUES (1, 1, 1, 'I', '2026-05-01', "
                                    "'P1', 'P', 'A', '', 9000, '2026-05-01', '')"))
            for move_id, hour, lines in (
                    ("m1", 10, [("A", 2000), ("B", 1000), ("A", 500)]), ("m2", 11, [("B", 1000)]),
                    ("m3", 12, [("A", 1000)])):
                connection.execute(text(
                    "INSERT INTO moves (move_id, from_warehouse, from_location, to_warehouse, to_location, note, "
                    "created_at, posted_by, content_digest, out_document_id, in_document_id, items) VALUES "
                    "(:id, 1, '', 1, 'A-1', '', :at, 'old', '', 0, 0, :items)"),
                    {"id": move_id, "at": datetime(2026, 5, 2, hour), "items": json.dumps(
                        [{"product_code": "P1", "lot": lot, "amount_milli": amount} for lot, amount in lines])})
        db.engine.dispose()
    upgrade_database(app, who="tests")
    with app.app_context():
        with db.engine.connect() as connection:
            lines = sorted(connection.execute(text(
                "SELECT move_id, line, product_code, lot, amount_milli FROM move_items")).all())
    assert lines == [("m1", 1, "P1", "A", 2000), ("m1", 2, "P1", "B", 1000), ("m1", 3, "P1", "A", 500),
                     ("m2", 1, "P1", "B", 1000), ("m3", 1, "P1", "A", 1000)]
    story = app.test_client().get("/v1/lots/trace?product_code=P1&lot=A", headers={"TS-Apikey": "old-key"})
    assert story.status_code == 200, story.json
    assert [(event["move_id"], event["amount"]) for event in story.json["item"]["moved"]] == [("m1", 2.5), ("m3", 1)]

# --- the release before migrations -----------------------------------------------------------

@pytest.mark.live
def test_a_database_of_the_release_before_migrations_is_recognised_and_answers_as_before(
        old_database, make_app):
    database_config, old = old_database
    app = make_app(database=database_config, upgrade=False)
    upgrade_database(app, who="tests")
    assert revision_of(database_config) == [(head(),)]
    assert answers_now(app, old) == old["answers"]
    assert differences(app) == []
    # A scanner that sends a batch again after the upgrade gets 201 and books nothing, though
    # the old release stored the batch's fingerprint in its own form; other content is 409.
    client = app.test_client()
    for posted in old["batches"]:
        again = client.post("/v1/batches/", json={"data": posted}, headers={"TS-Apikey": old["key"]})
        assert again.status_code == 201, again.json
    changed = {**old["batches"][2], "batch_items": [{"product_code": "MILK", "amount": 204, "unit": "pc"}]}
    again = client.post("/v1/batches/", json={"data": changed}, headers={"TS-Apikey": old["key"]})
    assert again.status_code == 409, again.json
    assert answers_now(app, old) == old["answers"]


@pytest.mark.live
def test_after_the_upgrade_documents_number_on_and_old_references_hold(old_database, make_app):
    """d23a0c0ffee1 gave the old documents internal ids equal to their numbers: a new booking
    gets the next numbers (and an id of its own), and the stocktaking still finds its document."""
    database_config, old = old_database
    app = make_app(database=database_config, upgrade=False)
    upgrade_database(app, who="tests")
    client = app.test_client()
    headers = {"TS-Apikey": old["key"]}

    def post(number, direction, type_, day, items):
        body = {"data": {"batch_settings": {"batch_number": str(number), "id_warehouse": "1",
                                            "direction": direction, "type": type_, "date": day},
                         "batch_items": items}}
        response = client.post("/v1/batches/", json=body, headers=headers)
        assert response.status_code == 201, response.json

    # A second count of the stocktaking of 2026-10-03 rewrites its goods-out document.
    post(4, "I", "V", "2026-10-03", [{"product_code": "CHEESE", "amount": "18", "unit": "kg", "lot": "L-1"}])
    post(5, "I", "R", "2026-10-05", [{"product_code": "MILK", "amount": 10, "unit": "pc"}])
    documents = client.post("/v1/docs/filter", json={"data": {}}, headers=headers).json["list"]
    assert [(d["doc_number"], d["ufid"]) for d in documents] == [
        (1, "I-2026-000001"), (2, "O-2026-000001"), (3, "O-2026-000002"), (4, "I-2026-000002")]
    assert [(i["product_code"], str(i["amount_base_unit"])) for i in documents[2]["wh_doc_items"]] == [
        ("CHEESE", "0.25"), ("MILK", "5")]
    assert documents[3]["wh_doc_items"][0]["doc_number"] == 4
    taking = client.get("/v1/stocktakings/list", headers=headers).json["list"][0]
    assert (taking["out_doc"], taking["out_ufid"], taking["in_doc"]) == (3, "O-2026-000002", 0)
    batch = client.get("/v1/batches/5", headers=headers).json["item"]["batch_items"][0]
    assert (batch["doc_number"], batch["doc_item_number"]) == (4, 1)


THROWAWAY = '''"""A later release's change, for the test: a new table and a rebuilt products table."""
from alembic import op
import sqlalchemy as sa

revision = "0ddba11c0ffe"
down_revision = "{newest}"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table("throwaway_notes", sa.Column("name", sa.String(50), primary_key=True),
                    sa.Column("value", sa.Text(), nullable=False))
    # On SQLite, the copy-and-drop most ALTERs need, with packaging rows pointing at
    # the products table meanwhile.
    sqlite = op.get_bind().dialect.name == "sqlite"
    with op.batch_alter_table("products", recreate="always" if sqlite else "auto") as batch_op:
        batch_op.add_column(sa.Column("note", sa.Text(), nullable=True))


def downgrade():
    with op.batch_alter_table("products") as batch_op:
        batch_op.drop_column("note")
    op.drop_table("throwaway_notes")
'''


@pytest.fixture
def later_release(tmp_path, monkeypatch):
    """The migrations folder with one more migration after the first, as a later release has it."""
    folder = tmp_path / "migrations"
    shutil.copytree(upgrades.MIGRATIONS, folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "versions" / "0ddba11c0ffe_throwaway.py").write_text(
        THROWAWAY.format(newest=head()), encoding="utf-8")
    monkeypatch.setattr(upgrades, "MIGRATIONS", str(folder))
    return "0ddba11c0ffe"


@pytest.mark.live
def test_a_later_migration_runs_at_start_and_keeps_every_record(old_database, make_app, later_release):
    database_config, old = old_database
    app = make_app(database=database_config, upgrade=False)
    assert upgrade_database(app, who="tests") == upgrades.FIRST_REVISION
    assert revision_of(database_config) == [(later_release,)]
    with app.app_context():
        columns = {c["name"] for c in inspect(db.engine).get_columns("products")}
    assert "note" in columns
    assert answers_now(app, old) == old["answers"]
    assert query(database_config, "SELECT count(*) FROM packaging") == [(1,)]
    if BACKEND == "sqlite":
        assert query(database_config, "PRAGMA foreign_key_check") == []
        # The bookings' connections have their foreign keys back on.
        with app.app_context(), db.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1


@pytest.mark.live
@pytest.mark.skipif(BACKEND != "sqlite", reason="a file copy is SQLite's; PostgreSQL is copied by pg_dump")
def test_a_sqlite_file_with_data_is_copied_beside_itself_before_an_upgrade(
        old_database, make_app, later_release):
    database_config, _old = old_database
    path = database_config["SQLALCHEMY_DATABASE_URI"][len("sqlite:///"):]
    upgrade_database(make_app(database=database_config, upgrade=False), who="tests")
    copy = sqlite3.connect(f"{path}.before-{later_release}")
    try:
        assert copy.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert copy.execute("SELECT version_num FROM alembic_version").fetchall() == [(upgrades.FIRST_REVISION,)]
        assert copy.execute("SELECT count(*) FROM batches").fetchall() == [(3,)]
    finally:
        copy.close()


def test_a_database_with_some_tables_of_ours_is_refused_untouched(make_app, empty_database):
    app = make_app(database=empty_database, upgrade=False)
    with app.app_context(), db.engine.begin() as connection:
        connection.exec_driver_sql("CREATE TABLE products (product_code VARCHAR(200) PRIMARY KEY)")
    with pytest.raises(UpgradeRefused, match="not one this service made"):
        upgrade_database(app, who="tests")
    with app.app_context():
        assert inspect(db.engine).get_table_names() == ["products"]


# --- a newer release's database ---------------------------------------------------------------

@pytest.mark.live
def test_a_database_newer_than_the_code_is_refused(make_app, empty_database, tmp_path):
    database_config = empty_database  # not the suite's shared schema: this one is left "newer"
    app = make_app(database=database_config, upgrade=False)
    upgrade_database(app, who="tests")
    with app.app_context(), db.engine.begin() as connection:
        connection.exec_driver_sql("UPDATE alembic_version SET version_num = 'feedfacecafe'")
    with pytest.raises(UpgradeRefused, match="feedfacecafe, which this release does not know"):
        upgrade_database(app, who="tests")
    env = {k: v for k, v in os.environ.items() if not k.startswith("WAREHOUSE_") and k != "DATABASE_URL"}
    done = subprocess.run([sys.executable, os.path.join(REPO, "app.py"), "--host", "127.0.0.1",
                           "--port", "1", "--database-url", server_url(database_config)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "Refusing to start: the database stands at migration feedfacecafe" in done.stderr
    assert revision_of(database_config) == [("feedfacecafe",)]


# --- by hand ----------------------------------------------------------------------------------

def flask_command(database_config, cwd, *args):
    env = {k: v for k, v in os.environ.items() if not k.startswith("WAREHOUSE_") and k != "DATABASE_URL"}
    env["DATABASE_URL"] = server_url(database_config)
    if database_config.get("BUSY_TIMEOUT"):
        env["WAREHOUSE_BUSY_TIMEOUT"] = str(database_config["BUSY_TIMEOUT"])
    flask = os.path.join(os.path.dirname(sys.executable), "flask")
    return subprocess.run([flask, "--app", os.path.join(REPO, "app.py"), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.live
def test_db_upgrade_and_db_current_by_hand(empty_database, tmp_path):
    path = empty_database["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    before = flask_command(empty_database, tmp_path, "db", "current")
    if BACKEND == "sqlite":  # no file yet: only `db upgrade` may make it (cli.CREATING_COMMANDS)
        assert before.returncode == 1 and f"No database at {path}." in before.stderr
        assert not os.path.exists(path)
    else:
        assert before.returncode == 0 and head() not in before.stdout
    upgraded = flask_command(empty_database, tmp_path, "db", "upgrade")
    assert upgraded.returncode == 0, upgraded.stderr
    assert upgraded.stdout.splitlines()[-1] == f"The database was empty; now at {head()}."
    assert f"-> {head()}" in upgraded.stderr  # Alembic's progress is shown
    now = flask_command(empty_database, tmp_path, "db", "current")
    assert f"{head()} (head)" in now.stdout
    again = flask_command(empty_database, tmp_path, "db", "upgrade")
    assert again.stdout.splitlines()[-1] == f"The database is already at the newest migration, {head()}."


@pytest.mark.live
def test_db_upgrade_by_hand_recognises_the_release_before_migrations(old_database, make_app):
    database_config, _old = old_database
    result = make_app(database=database_config, upgrade=False).test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    assert revision_of(database_config) == [(head(),)]


@pytest.mark.live
def test_python_app_py_runs_a_later_migration_before_it_serves(old_database, tmp_path):
    """A later release, as a depot installs it: its code with one more migration, started
    by `python app.py` from another working directory."""
    database_config, old = old_database
    code = tmp_path / "later-release"
    shutil.copytree(REPO, code, ignore=shutil.ignore_patterns(
        ".venv", ".git", "tests", "bench", "__pycache__", "*.db", "*.db-*", "backups"))
    (code / "migrations" / "versions" / "0ddba11c0ffe_throwaway.py").write_text(
        THROWAWAY.format(newest=head()), encoding="utf-8")
    workdir = tmp_path / "elsewhere"
    workdir.mkdir()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("WAREHOUSE_") and k != "DATABASE_URL"}
    env.update(WAREHOUSE_BACKUP_HOURS="0", WAREHOUSE_API_KEY=old["key"])
    if database_config.get("BUSY_TIMEOUT"):  # conftest: PostgreSQL is shared
        env["WAREHOUSE_BUSY_TIMEOUT"] = str(database_config["BUSY_TIMEOUT"])
    with open(workdir / "server.log", "wb") as log:
        process = subprocess.Popen(
            [sys.executable, str(code / "app.py"), "--host", "127.0.0.1", "--port", str(port),
             "--database-url", server_url(database_config)],
            cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        deadline, healthy = time.monotonic() + 30, False
        while not healthy and time.monotonic() < deadline and process.poll() is None:
            # Closed however the try ends: a health check that timed out while the service was still
            # migrating left its socket open, and the warning of that failed the test.
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            try:
                connection.request("GET", "/health")
                healthy = connection.getresponse().status == 200
            except OSError:
                time.sleep(0.1)
            finally:
                connection.close()
        log_text = (workdir / "server.log").read_text(errors="replace")
        assert healthy, log_text[-3000:]
        assert revision_of(database_config) == [("0ddba11c0ffe",)]
        assert f"database upgraded from {upgrades.FIRST_REVISION} to 0ddba11c0ffe by python app.py" in log_text
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/v1/batches/1", headers={"TS-Apikey": old["key"]})
        before = next(answer for _m, path, _d, answer in old["answers"] if path == "/v1/batches/1")
        assert connection.getresponse().read().decode() == before
        connection.close()
    finally:
        process.terminate()
        process.wait(timeout=30)
