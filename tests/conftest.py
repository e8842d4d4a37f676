"""Fixtures: each test on a database as new, on SQLite or on PostgreSQL.

`make test` runs the suite twice; WAREHOUSE_TEST_BACKEND=postgresql selects the
server named by WAREHOUSE_TEST_DATABASE_URL. Each pytest run works in a schema
of its own there, so that two runs on one server never see each other's rows.

pytest.ini runs the suite on every core (pytest-xdist; `-n 0` in one process, as for
--pdb). Each worker is a run of its own: its own schema, SQLite folder, app and ports.

A run has one database (`database_config`): on SQLite a copy of a template at the
newest migration, copied anew for each test; on PostgreSQL a schema emptied for each
test. The `app` on it is built once and renewed for each test (SharedApp), so that no
test sees what the one before it made, kept or changed (tests/storage/test_isolation.py).
Tests that need other settings make their own with `make_app`.

The tests come in layers, in folders that mirror the rooms of the code (tests/api, stock,
identity, pages, scanner, transfer, printing, operations, background, storage, house), and each
file is named after what it tests:
- rules: tests/stock/test_<module>.py tests stock/<module>.py on a session (the `session`,
  `callers`, `catalog_products` and `scanner` fixtures), no HTTP: test_posting.py,
  test_orders.py, test_stocktaking.py (test_stock.py: the stock package as a whole).
  Most booking cases live here.
- HTTP: tests/api/test_<resource>.py tests one resource of the service through the test
  client (`api`, `api_as`): test_batches.py for /v1/batches, test_documents.py for
  /v1/documents, test_stocktakings.py for /v1/stocktakings...: per operation its success
  and its errors as answered (status, error body, fields), and what only HTTP has.
  Other files are named after the part of the service they test (test_cli.py,
  test_migrations.py, test_serving.py...).
- live: tests that start another process (a live server, a flask command, a browser,
  schemathesis, an old release) carry the `live` marker; `pytest -m "not live"` runs the
  fast layers alone, `make test` everything.
One builder of batches serves both the rule and the HTTP layer: Scanner, below.
"""
import copy
import gc
import os
import pathlib
import re
import shutil
import sys
import tempfile
import uuid

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from identity import api_keys, people  # noqa: E402
from stock.caller import Caller  # noqa: E402
import models  # noqa: E402,F401  (db.metadata: the tables, in the order they refer to each other)
from app import create_app  # noqa: E402
from helpers import add_products, batch, created, known_product_bodies  # noqa: E402
from operations.upgrades import upgrade_database  # noqa: E402
from schemas import batch_create_schema, product_schema  # noqa: E402
from stock import catalog, posting  # noqa: E402
from stock.audit import Actor  # noqa: E402
from stock.policy import Policy  # noqa: E402
from storage import cache  # noqa: E402
from storage.db import db, sqlite_file  # noqa: E402

class WholeAnswerClient(FlaskClient):
    """The test client, reading each answer whole and closing it at once, as a server does
    however an answer ends (waitress closes every one): an answer written as it is read holds
    the request's session and its cursor until it is closed, and one left to the garbage
    collector closed its cursor after the connection had gone back to the pool. A test that
    reads an answer in part asks for buffered=False and closes it itself."""

    def open(self, *args, buffered=True, **kwargs):
        return super().open(*args, buffered=buffered, **kwargs)


Flask.test_client_class = WholeAnswerClient

BACKEND = os.environ.get("WAREHOUSE_TEST_BACKEND", "sqlite")
PG_URL = os.environ.get("WAREHOUSE_TEST_DATABASE_URL", "")
SHARED_SERVER_BUSY_TIMEOUT = 600.0  # seconds
# Every test's database holds these warehouses (DESIGN 17: a batch, order or key may name only
# a warehouse that exists): 1 as a new database has it, and the others the tests book into.
TEST_WAREHOUSES = [(1, "Main")] + [(number, f"Warehouse {number}") for number in range(2, 10)]


def add_test_warehouses(connection) -> None:
    """TEST_WAREHOUSES, those missing, on a connection in a transaction."""
    have = set(connection.execute(text("SELECT id_warehouse FROM warehouses")).scalars())
    for number, name in TEST_WAREHOUSES:
        if number not in have:
            connection.execute(text("INSERT INTO warehouses (id_warehouse, name, address, active) "
                                    "VALUES (:n, :name, '', 1)"), {"n": number, "name": name})


def pytest_report_header(config):
    return f"warehouse tests on {BACKEND}" + (f" ({PG_URL})" if BACKEND == "postgresql" else "")


@pytest.fixture(scope="session")
def pg_schema():
    if BACKEND != "postgresql":
        yield None
        return
    if not PG_URL:
        pytest.exit("WAREHOUSE_TEST_BACKEND=postgresql needs WAREHOUSE_TEST_DATABASE_URL", 2)
    schema = f"warehouse_test_{uuid.uuid4().hex[:12]}"
    engine = create_engine(PG_URL)
    with engine.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    yield schema
    with engine.begin() as conn:
        conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    engine.dispose()


@pytest.fixture(scope="session")
def sqlite_folder(tmp_path_factory):
    """Where the tests' SQLite files live: in memory (/dev/shm) where there is one.

    The service commits with synchronous=FULL, so each commit on a disk waits for an fsync
    (several per test); in memory the same SQL runs with the same settings, minus the wait.
    Nothing in the fast layers needs the file to outlive the machine; the files of tests
    that kill processes outlive those processes alike in memory and on disk.
    """
    if BACKEND != "sqlite":
        yield None
        return
    if not os.path.isdir("/dev/shm") or not os.access("/dev/shm", os.W_OK):
        yield tmp_path_factory.mktemp("databases")
        return
    folder = tempfile.mkdtemp(prefix="warehouse-tests-", dir="/dev/shm")
    yield pathlib.Path(folder)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def run_database(pg_schema, sqlite_folder):
    """Config of the run's one database, which database_config gives each test as new.

    One place for the whole run, as the PostgreSQL schema always was: the `app` that
    serves it is built once, and a test's apps, servers and commands all meet there.
    """
    if pg_schema is None:
        folder = sqlite_folder / "run"
        folder.mkdir()
        return {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'warehouse.db'}"}
    return {
        "SQLALCHEMY_DATABASE_URI": PG_URL,
        "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"options": f"-csearch_path={pg_schema}"}},
        # Writers' locks are per schema (storage.db.LOCK_SPACE), so runs never wait for each
        # other; within a run a writer may wait longer than a depot's 30 s on a loaded machine,
        # and must not fail for it (the tests of the timeout set their own).
        "BUSY_TIMEOUT": SHARED_SERVER_BUSY_TIMEOUT,
    }


@pytest.fixture(scope="session")
def emptying_engine(pg_schema):
    """On PostgreSQL, the connection that empties the run's schema before each test."""
    if pg_schema is None:
        yield None
        return
    engine = create_engine(PG_URL, connect_args={"options": f"-csearch_path={pg_schema}"})
    yield engine
    engine.dispose()


@pytest.fixture(scope="session")
def pg_built(run_database, pg_schema):
    """On PostgreSQL, the run's schema at the newest migration before the first test empties it."""
    if pg_schema is not None:
        built = create_app({"TESTING": True, **copy.deepcopy(run_database)})
        upgrade_database(built, who="tests")
        close_app(built)


@pytest.fixture
def database_config(run_database, sqlite_template, emptying_engine, pg_schema, pg_built):
    """Config of this test's database: the run's one database, as new (also used by server tests).

    Every app, server or command of the test before has let go of it by now (their
    fixtures dispose of engines and stop processes when their test ends).
    """
    if sqlite_template is not None:
        path = pathlib.Path(run_database["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///"))
        # Whatever the test before left beside the file goes too: its WAL, its change mark
        # (storage/cache.py), backups, copies made before upgrades.
        shutil.rmtree(path.parent)
        path.parent.mkdir()
        shutil.copyfile(sqlite_template, path)
    else:
        empty_schema(emptying_engine, pg_schema)
    return copy.deepcopy(run_database)


def empty_schema(engine, schema: str) -> None:
    """No row left in the schema's tables, and their ids from 1 again, as after TRUNCATE ...
    RESTART IDENTITY; which took 40-90 ms a test (new files for every table), where deleting
    the few rows a test leaves takes about one."""
    with engine.begin() as conn:
        found = conn.execute(text(
            "SELECT 'table', tablename FROM pg_tables WHERE schemaname = :s AND tablename != 'alembic_version' "
            "UNION ALL SELECT 'sequence', sequencename FROM pg_sequences WHERE schemaname = :s"),
            {"s": schema}).all()
        tables = {name for kind, name in found if kind == "table"}
        if not tables:  # not built yet: the first app or server upgrades it
            return
        quote = conn.dialect.identifier_preparer.quote
        # Rows that refer to others first.
        order = [table.name for table in reversed(db.metadata.sorted_tables) if table.name in tables]
        if set(order) != tables:  # a table the models do not know: what refers to what is unknown
            conn.exec_driver_sql(f"TRUNCATE {', '.join(map(quote, tables))} RESTART IDENTITY CASCADE")
            add_test_warehouses(conn)
            return
        sequences = [name for kind, name in found if kind == "sequence"]
        conn.exec_driver_sql("; ".join([f"DELETE FROM {quote(name)}" for name in order] +
                                       [f"SELECT setval('{quote(name)}', 1, false)" for name in sequences]))
        add_test_warehouses(conn)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory):
    """A SQLite file at the newest migration, built once: running the migrations for every
    test would cost more than most tests. None on PostgreSQL, whose schema is upgraded
    once, by the first app or server, and emptied for each test."""
    if BACKEND != "sqlite":
        return None
    path = tmp_path_factory.mktemp("template") / "warehouse.db"
    template = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    upgrade_database(template, who="tests")
    with template.app_context(), db.engine.begin() as connection:
        add_test_warehouses(connection)
    close_app(template)
    return path


def close_app(app) -> None:
    """Every connection of the app closed; on SQLite the last one to close folds the WAL into
    the file, which may then be copied alone."""
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


class SharedApp:
    """The service's app on the run's database, built once: create_app costs more than most
    tests (werkzeug compiles every URL rule anew). renew() gives each test the app as
    create_app made it: its config, its extensions, and no keys or products kept in memory."""

    def __init__(self, config: dict, upgrade: bool):
        self.app = create_app({"TESTING": True, **config})
        if upgrade:
            upgrade_database(self.app, who="tests")
        self.config = copy.deepcopy(dict(self.app.config))
        self.extensions = set(self.app.extensions)

    def renew(self):
        app = self.app
        # A test may change settings, and the pages' session secret is kept in the config.
        app.config.clear()
        app.config.update(copy.deepcopy(self.config))
        for name in set(app.extensions) - self.extensions:
            del app.extensions[name]
        with app.app_context():
            # The keys and products kept came from the database the test before had. Its
            # change mark goes too: one that followed the new file would hold the old one open.
            cache.marks.pop(db.engine, None)
            app.extensions["warehouse_cache"] = cache.for_engine(db.engine, sqlite_file(db.engine.url))
        return app


@pytest.fixture(scope="session")
def shared_app(run_database, sqlite_template):
    # On SQLite each test's copy of the template is at the newest migration already.
    shared = SharedApp(run_database, upgrade=sqlite_template is None)
    yield shared
    close_app(shared.app)


@pytest.fixture
def app(database_config, shared_app):
    """The service's app on this test's database, at the newest migration."""
    app = shared_app.renew()
    yield app
    with app.app_context():
        db.session.remove()
        # SQLite: before the next test replaces the file, no pooled connection may outlive
        # this one. PostgreSQL keeps them, as a served process does between requests (each
        # rolled back as it returns): connecting again cost a fifth of the fast layers' time.
        if db.engine.dialect.name == "sqlite":
            db.engine.dispose()


@pytest.fixture
def make_app(database_config):
    """Apps a test makes itself, each closed after it: `make_app(MAX_CONTENT_LENGTH=200)` is
    the test's database at the newest migration with other settings;
    `make_app(database=config, upgrade=False)` opens another database and leaves it as it is."""
    made = []

    def make(database: dict | None = None, upgrade: bool = True, **config):
        app = create_app({"TESTING": True, **(database or database_config), **config})
        made.append(app)
        if upgrade:
            upgrade_database(app, who="tests")
        return app

    yield make
    for app in made:
        close_app(app)


@pytest.fixture
def session(app):
    """The database session, for tests of the plain modules (no HTTP)."""
    with app.app_context():
        yield db.session


def pytest_configure(config):
    # Every test builds an app, thousands of short-lived objects, so the collector runs often;
    # its full passes walked every object of the modules imported (Flask, SQLAlchemy,
    # alembic...) each time. Those live as long as the run: frozen, they are skipped, and
    # a higher first threshold makes passes rarer (about a fifth of the fast layers' time).
    gc.freeze()
    gc.set_threshold(50_000, 50, 1000)
    config.addinivalue_line(
        "markers", "unbalanced: the test writes balances without documents on purpose; "
                   "the balance check after it is skipped")
    config.addinivalue_line(
        "markers", "live: the test starts another process (the served service, a flask command, "
                   "a browser, schemathesis, an old release); `pytest -m 'not live'` leaves these out")


def pytest_collection_modifyitems(items):
    # Every test with a live server is live; the others that start a process say so themselves.
    for item in items:
        if "live_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.live)
    # The long tests first (a stable sort): with several workers, the short ones fill in at
    # the end instead of one worker finishing schemathesis while the others wait.
    items.sort(key=lambda item: item.get_closest_marker("live") is None)


@pytest.fixture(autouse=True)
def balances_match_documents(request):
    """After every test with an app: each balance must equal the sum of its documents, and the
    sum of its stock per location."""
    if "app" not in request.fixturenames or request.node.get_closest_marker("unbalanced"):
        yield
        return
    # Asked for here, so that the app is torn down only after the check ran.
    app = request.getfixturevalue("app")
    yield
    from stock import reports

    from stock import placement

    with app.app_context():
        differences = reports.balance_differences(db.session)
        # Stock per location (DESIGN 27): every test proves its rows add up to the balances.
        unplaced = placement.location_differences(db.session)
        db.session.remove()
    if differences:
        pytest.fail(f"balances differ from the warehouse documents: {differences}", pytrace=False)
    if unplaced:
        pytest.fail(f"location stock differs from the balances: {unplaced}", pytrace=False)


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


class Api:
    """The test client with a key: api.get(path), api.post(path, data), api.as_("read")..."""

    def __init__(self, client, key):
        self.client, self.key = client, key

    def _call(self, method, path, data=None, body=None, headers=None):
        if body is None:
            body = {"data": data} if data is not None else {}
        all_headers = {"TS-Apikey": self.key} if self.key else {}
        all_headers.update(headers or {})
        return self.client.open(path, method=method, json=body, headers=all_headers)

    def get(self, path, **kw):
        return self._call("GET", path, **kw)

    def post(self, path, data=None, **kw):
        return self._call("POST", path, data, **kw)

    def delete(self, path, **kw):
        return self._call("DELETE", path, **kw)


class Scanner:
    """The one builder of batches the test files share: it numbers each batch it builds
    (1, 2, 3...) and either posts it over HTTP as a scanner does (`Scanner(api)`, the HTTP
    layer) or books it on a session straight through the rules (`Scanner(session=...,
    caller=...)`, the rule layer; the `scanner` fixture).

    On a session the body is parsed by schemas.batch_create_schema, as the route parses
    it, and booked by stock.posting.post_batch: a refusal raises the stock.errors exception
    whose status, code and `fields` the route turns into the JSON error body. Test files
    add, in a subclass, the short forms of their items and the reads they check.
    """

    def __init__(self, api=None, session=None, caller=None, policy=None):
        self.api, self.session, self.caller = api, session, caller
        self.policy = policy or Policy()
        self.number = 0

    def body(self, type_, direction, items, warehouse=1, number=None, extras=None, **settings):
        """The request body of a batch of item dicts, numbered next unless `number` is given."""
        if number is None:
            self.number += 1
            number = self.number
        return batch(number, list(items), extras, id_warehouse=str(warehouse), direction=direction,
                     type=type_, **settings)

    def send(self, type_, direction, items, api=None, **kw):
        """Post a batch over HTTP; answer the response and the body sent."""
        body = self.body(type_, direction, items, **kw)
        return (api or self.api).post("/v1/batches/", body), body

    def post(self, body, caller=None, policy=None) -> bool:
        """Book a request body on the session through the rules, as the route does; False when
        it was a retry that booked nothing. Raises what the rules raise."""
        return posting.post_batch(self.session, caller or self.caller, batch_create_schema.load(body),
                                  policy or self.policy)

    def book(self, type_, direction, items, **kw):
        """Book a batch that must be booked (201 over HTTP); answer the body sent."""
        if self.session is not None:
            body = self.body(type_, direction, items, **kw)
            assert self.post(body) is True
            return body
        response, body = self.send(type_, direction, items, **kw)
        created(response)
        return body

    # Short forms of the stocktaking tests: items (code, amount[, lot]) in pieces, on the
    # business day `day` (the class's `day` when not given).
    day = None

    def in_pieces(self, type_, direction, items, day=None, **kw):
        day = day or self.day
        return self.book(type_, direction, [{"product_code": code, "amount": amount, "unit": "pc", "lot": lot}
                                            for code, amount, lot in (item + ("",) * (3 - len(item))
                                                                      for item in items)],
                         extras=[], **({"date": day} if day else {}), **kw)

    def receive(self, *items, **kw):
        return self.in_pieces("R", "I", items, **kw)

    def ship(self, *items, **kw):
        return self.in_pieces("R", "O", items, **kw)

    def count(self, *items, **kw):
        return self.in_pieces("V", "I", items, **kw)


@pytest.fixture
def callers(session):
    """Callers (stock.caller.Caller) of the rule layer: alice and bob may scan in every
    warehouse, carol only in warehouse 1; each is a key stored in the database."""
    made = {}
    for name, role, warehouses in (("alice", "scan", None), ("bob", "scan", None),
                                   ("carol", "scan", [1])):
        api_keys.create_key(session, name, role, warehouses)
        key = next(k for k in api_keys.list_keys(session) if k.name == name)
        made[name] = Caller(key.id, name, role, frozenset(warehouses) if warehouses else None)
    return made


@pytest.fixture
def catalog_products(session):
    """helpers.known_product_bodies() made through the rules (stock.catalog), for the rule layer."""
    for body in known_product_bodies():
        catalog.create_product(session, product_schema.load(body))


@pytest.fixture
def scanner(session, callers):
    """A Scanner on the session, posting as alice with the default policy."""
    return Scanner(session=session, caller=callers["alice"])


@pytest.fixture
def known_products(api):
    """The products of helpers.add_products, for test files whose every test books them."""
    add_products(api)


@pytest.fixture
def keys(app):
    """One key of each role for all warehouses, and a scanner key limited to warehouse 1."""
    with app.app_context():
        made = {role: api_keys.create_key(db.session, role, role) for role in api_keys.ROLES}
        made["scan_w1"] = api_keys.create_key(db.session, "scan_w1", "scan", [1])
        made["read_w1"] = api_keys.create_key(db.session, "read_w1", "read", [1])
        db.session.remove()
    return made


@pytest.fixture
def admin_w1(app, client):
    """An admin key limited to warehouse 1 (DESIGN 26), as an Api: what reaches further, it may
    neither make nor change, and its lists leave out."""
    with app.app_context():
        key = api_keys.create_key(db.session, "admin_w1", "admin", [1])
        db.session.remove()
    return Api(client, key)


# The password every person the tests make signs in with, unless a test gives another.
PASSWORD = "a long enough password"


@pytest.fixture
def person(app):
    """People who sign in to the pages: `person("read")` makes the person "read" of role read for
    every warehouse, `person("read_w1", [1])` one of role read limited to warehouse 1 (the role is
    the name up to "_", as with the `keys`); each answers its password. Made through the rules,
    with the real (slow) hash: a test makes only the people it signs in as."""

    def make(name: str, warehouses: list[int] | None = None, password: str = PASSWORD, role: str | None = None):
        with app.app_context():
            people.create_person(db.session, Actor("tests", "cli"), name, role or name.split("_")[0],
                                 password, warehouses)
            db.session.remove()
        return password

    return make


@pytest.fixture
def client(app):
    return app.test_client()


def token_of(page) -> str:
    """The form token of a page (its hidden field `token`)."""
    return re.search(r'name="token" value="([^"]+)"', page.get_data(as_text=True)).group(1)


def sign_in(client, name, password=PASSWORD, next_path=""):
    """Sign in through the form as a browser would: fetch it, post it back with its token."""
    token = token_of(client.get("/login"))
    return client.post("/login", data={"username": name, "password": password, "token": token,
                                       "next": next_path})


def signed_in(client, person, name: str, warehouses: list[int] | None = None):
    person(name, warehouses)
    response = sign_in(client, name)
    assert response.status_code == 302, response.get_data(as_text=True)
    return client


@pytest.fixture
def office(client, person):
    """The test client signed in as the person "read", of role read for every warehouse."""
    return signed_in(client, person, "read")


@pytest.fixture
def office_w1(client, person):
    """The test client signed in as a person of role read limited to warehouse 1."""
    return signed_in(client, person, "read_w1", [1])


@pytest.fixture
def admin(client, person):
    """The test client signed in as the person "admin", of role admin."""
    return signed_in(client, person, "admin")


@pytest.fixture
def api(client, keys):
    """An admin; `api_as(name)` gives the others."""
    return Api(client, keys["admin"])


@pytest.fixture
def api_as(client, keys):
    return lambda name: Api(client, keys.get(name, name))


@pytest.fixture
def live_server(database_config, tmp_path):
    """Start the real service (tests/server.py) on this test's database: `live_server()`.

    Every server started is stopped by its pid when the test ends.
    """
    from server import LiveServer

    started = []

    def start(**kwargs):
        server = LiveServer(database_config, tmp_path, **kwargs)
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()



def sideways(page) -> int:
    """How far a page scrolls sideways, in px, measured once the page has loaded. A click that
    sends a form returns when the answer's first bytes are in, and a layout read then may be of the
    page without its stylesheets (each page asks again whether they changed, and a busy server
    answers late): a table laid out as a table, wider than any phone."""
    page.wait_for_load_state("load")
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def laid_out(locator) -> dict:
    """Where an element is drawn (its bounding box), read once its page has loaded, for the reason
    sideways() gives: read earlier, it may be where the page without its stylesheets puts it."""
    locator.page.wait_for_load_state("load")
    return locator.bounding_box()


CHROMIUM = "/usr/bin/chromium"
BROWSER_TIMEOUT_MS = 15_000
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium driven by Playwright, one per worker for every browser test file: the
    sync API allows one Playwright at a time in a process."""
    from playwright.sync_api import expect, sync_playwright

    # As long as an action may take (the contexts' default timeout): on a loaded machine a page
    # that books and then redraws takes longer than expect's own 5 s, and its test must not fail for it.
    expect.set_options(timeout=BROWSER_TIMEOUT_MS)
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium package", pytrace=False)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def dairy(live_server):
    """The browser scanner's depot (tests/scanner_page.py): the live service with a small dairy's
    catalogue, and the API calls its office makes."""
    from scanner_page import dairy as stocked

    return stocked(live_server())


@pytest.fixture
def phone(browser, dairy):
    """A phone's browser (390x844, touch) that may reach the service only; no script error allowed."""
    from scanner_page import close_context, open_context

    context = open_context(browser, dairy)
    yield context
    close_context(context)


@pytest.fixture(params=["390px", "desktop"])
def device(request, browser, dairy):
    """The scanner's browser on a 390 px phone (touch), then on a 1280 px desktop: each test of it runs on both."""
    from scanner_page import DESKTOP, PHONE, close_context, open_context

    context = open_context(browser, dairy, PHONE if request.param == "390px" else DESKTOP)
    yield context
    close_context(context)


# --- the office pages: a small depot through the test client, the demo depot in chromium ------
# Imported here, below what they import of this module (Scanner, PASSWORD, sideways).

import sqlite3  # noqa: E402
from contextlib import closing  # noqa: E402

from sqlalchemy.engine import make_url  # noqa: E402

from browsing import TIMEOUT_MS, make_demo  # noqa: E402
from helpers import product  # noqa: E402
from office import Depot  # noqa: E402


@pytest.fixture
def depot(api):
    for body in (product("MILK-1L", name="Milk 1 l"), product("CHEESE", name="Edam cheese", base_unit="kg",
                                                              lot_level=1),
                 product("SOAP", name="Liquid soap")):
        created(api.post("/v1/products/", body))
    depot = Depot(api)
    depot.booked("I", [("MILK-1L", 40, "pc", ""), ("CHEESE", "2.5", "kg", "L1"), ("CHEESE", 3, "kg", "L2")],
               days_ago=20)
    depot.booked("I", [("MILK-1L", 10, "pc", ""), ("SOAP", 6, "pc", "")], days_ago=2)
    depot.booked("O", [("MILK-1L", 5, "pc", "")], days_ago=1)
    depot.booked("I", [("SOAP", 7, "pc", "")], days_ago=1, warehouse=2)
    return depot


@pytest.fixture(scope="session")
def demo_sqlite_depot(sqlite_template, tmp_path_factory):
    """On SQLite the demo is made once per worker, in a copy of the template: each test copies it.

    (The password of its office person, which each copy shares.)"""
    if sqlite_template is None:
        return None
    path = tmp_path_factory.mktemp("demo") / "warehouse.db"
    shutil.copyfile(sqlite_template, path)
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    password = make_demo(app)
    close_app(app)
    return path, password


@pytest.fixture(scope="session")
def demo_pg_depot(run_database, pg_schema, pg_built):
    """On PostgreSQL the demo is made once per worker too, in a schema of its own beside the run's:
    each test copies its rows (making it took 15-30 s a test, most of the browser tests' time).

    (The schema, and the password of its office person, which each copy shares.)"""
    if pg_schema is None:
        yield None
        return
    schema = f"{pg_schema}_demo"
    engine = create_engine(PG_URL, connect_args={"options": f"-csearch_path={schema}"})
    with engine.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    config = copy.deepcopy(run_database)
    config["SQLALCHEMY_ENGINE_OPTIONS"] = {"connect_args": {"options": f"-csearch_path={schema}"}}
    app = create_app({"TESTING": True, **config})
    upgrade_database(app, who="tests")
    empty_schema(engine, schema)  # as a test's database starts: the test warehouses, nothing else
    password = make_demo(app)
    close_app(app)
    yield schema, password
    with engine.begin() as conn:
        conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    engine.dispose()


def copy_schema_rows(engine, source: str, target: str) -> None:
    """Every row of the schema `source` into `target` (built by the same migrations, so alike column
    by column), whose rows go first, and its sequences where the source's stand: in one transaction."""
    with engine.begin() as conn:
        tables = set(conn.execute(text(
            "SELECT tablename FROM pg_tables WHERE schemaname = :s AND tablename != 'alembic_version'"),
            {"s": target}).scalars())
        quote = conn.dialect.identifier_preparer.quote
        order = [table.name for table in db.metadata.sorted_tables if table.name in tables]
        assert set(order) == tables, f"tables the models do not know: {tables - set(order)}"
        statements = [f"DELETE FROM {quote(target)}.{quote(name)}" for name in reversed(order)]
        statements += [f"INSERT INTO {quote(target)}.{quote(name)} SELECT * FROM {quote(source)}.{quote(name)}"
                       for name in order]
        for name, in conn.execute(text("SELECT sequencename FROM pg_sequences WHERE schemaname = :s"),
                                  {"s": source}):
            last, called = conn.execute(text(
                f"SELECT last_value, is_called FROM {quote(source)}.{quote(name)}")).one()
            statements.append(f"SELECT setval('{quote(target)}.{quote(name)}', {last}, {str(called).lower()})")
        conn.exec_driver_sql("; ".join(statements))


@pytest.fixture
def demo_depot(app, database_config, demo_sqlite_depot, demo_pg_depot, emptying_engine, pg_schema, live_server):
    """The demo depot on the test's database, the service serving it, and its office person's password."""
    if demo_pg_depot is not None:
        schema, password = demo_pg_depot
        copy_schema_rows(emptying_engine, schema, pg_schema)
        return live_server(), password
    path, password = demo_sqlite_depot
    # SQLite's own copy, page by page: safe where the test's app has the file open.
    with closing(sqlite3.connect(path)) as demo, \
            closing(sqlite3.connect(sqlite_file(make_url(database_config["SQLALCHEMY_DATABASE_URI"])))) as test:
        demo.backup(test)
    return live_server(), password


@pytest.fixture
def page(browser, demo_depot):
    """A fresh browser tab that may reach the service only; `page.elsewhere` lists any other request."""
    server, _ = demo_depot
    context = browser.new_context(viewport={"width": 1200, "height": 820}, accept_downloads=True)
    context.set_default_timeout(TIMEOUT_MS)
    base = f"http://127.0.0.1:{server.port}"
    elsewhere = []

    def only_the_service(route):
        if route.request.url.startswith(base + "/"):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    context.route("**/*", only_the_service)
    tab = context.new_page()
    tab.base, tab.elsewhere = base, elsewhere
    yield tab
    context.close()
