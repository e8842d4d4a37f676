"""The administrator's commands: keys create/list/revoke, customers import, products import."""
import json
import os
import subprocess
import sys
from decimal import Decimal

import pytest

from app import create_app
from conftest import Api
from helpers import product
from identity import api_keys
from models import Balance
from operations import cli
from operations.upgrades import upgrade_database
from storage.db import db, writing

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CUSTOMER_HEADER = "id_customer,name,registration_number,tax_id,vat_number,street,city,zip,country\n"


def run(runner, *args):
    return runner.invoke(args=list(args))


def write(tmp_path, name, text, bom=False):
    path = tmp_path / name
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return str(path)


def jsonl(*products):
    return "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in products)


def customers(api):
    return api.get("/v1/customers/").json["list"]


def products(api):
    return api.get("/v1/products/").json["list"]


# --- keys -----------------------------------------------------------------------------------

def test_keys_create_prints_the_key_alone_on_the_last_line(runner, client):
    result = run(runner, "keys", "create", "--name", "office", "--role", "admin")
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith("\n")
    key = result.stdout.splitlines()[-1]
    assert key.strip() == key and " " not in key and len(key) >= 40
    assert Api(client, key).post("/v1/products/", product("P1")).status_code == 201


@pytest.mark.parametrize("role, can_add_product", [("read", False), ("scan", False), ("admin", True)])
def test_keys_create_gives_the_role_asked_for(runner, client, role, can_add_product):
    result = run(runner, "keys", "create", "--name", "k", "--role", role)
    api = Api(client, result.stdout.splitlines()[-1])
    assert api.get("/v1/products/").status_code == 200
    assert api.post("/v1/products/", product("P1")).status_code == (201 if can_add_product else 403)


def test_keys_create_with_warehouses(runner, session):
    result = run(runner, "keys", "create", "--name", "w", "--role", "scan", "--warehouses", "2, 1")
    assert result.exit_code == 0, result.output
    assert api_keys.authenticate(session, result.stdout.splitlines()[-1]).warehouses == frozenset({1, 2})


@pytest.mark.parametrize("args", [
    ["--name", "x", "--role", "owner"],
    ["--name", "x"],
    ["--role", "read"],
    ["--name", "", "--role", "read"],
    ["--name", "x", "--role", "read", "--warehouses", "one"],
])
def test_keys_create_refuses_bad_options(runner, args):
    result = run(runner, "keys", "create", *args)
    assert result.exit_code != 0
    assert run(runner, "keys", "list").stdout == ""


def test_keys_create_refuses_a_taken_name(runner):
    first = run(runner, "keys", "create", "--name", "x", "--role", "read")
    assert first.exit_code == 0
    second = run(runner, "keys", "create", "--name", "x", "--role", "admin")
    assert second.exit_code != 0
    assert "exists" in second.output
    assert second.stdout == ""


def test_keys_list_shows_names_roles_warehouses_and_state_but_never_the_key(runner):
    made = [run(runner, "keys", "create", "--name", name, "--role", role, *extra).stdout.splitlines()[-1]
            for name, role, extra in [("b-scan", "scan", ["--warehouses", "1,3"]), ("a-read", "read", [])]]
    run(runner, "keys", "revoke", "a-read")
    result = run(runner, "keys", "list")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert [line.split("\t")[:3] for line in lines] == [["a-read", "read", "all"], ["b-scan", "scan", "1,3"]]
    assert lines[0].split("\t")[3].startswith("revoked")
    assert lines[1].split("\t")[3] == "active"
    for key in made:
        assert key not in result.output


def test_keys_revoke_takes_effect_at_the_next_request(runner, client):
    key = run(runner, "keys", "create", "--name", "gone", "--role", "read").stdout.splitlines()[-1]
    api = Api(client, key)
    assert api.get("/v1/products/").status_code == 200
    result = run(runner, "keys", "revoke", "gone")
    assert result.exit_code == 0, result.output
    assert api.get("/v1/products/").status_code == 401


def test_keys_revoke_of_an_unknown_name_fails(runner):
    result = run(runner, "keys", "revoke", "nobody")
    assert result.exit_code != 0
    assert "nobody" in result.output


# --- customers import -----------------------------------------------------------------------

def test_customers_import_loads_every_row(runner, api, tmp_path):
    path = write(tmp_path, "c.csv", CUSTOMER_HEADER
                 + '2,"Novák, s.r.o.",12345678,CZ12345678,CZ12345678,Dlouhá 1,Praha,110 00,CZ\n'
                 + "1,Müller GmbH,,,,,Wien,,AT\n")
    result = run(runner, "customers", "import", path)
    assert result.exit_code == 0, result.output
    assert "2 customer(s)" in result.stdout
    assert customers(api) == [
        {"id_customer": 1, "name": "Müller GmbH", "registration_number": "", "tax_id": "", "vat_number": "",
         "address": {"city": "Wien", "country": "AT", "street": "", "zip": ""}},
        {"id_customer": 2, "name": "Novák, s.r.o.", "registration_number": "12345678", "tax_id": "CZ12345678",
         "vat_number": "CZ12345678", "address": {"city": "Praha", "country": "CZ", "street": "Dlouhá 1", "zip": "110 00"}},
    ]


def test_customers_import_skips_a_byte_order_mark(runner, api, tmp_path):
    path = write(tmp_path, "c.csv", CUSTOMER_HEADER + "1,Žluťoučký kůň,,,,,,,\n", bom=True)
    assert run(runner, "customers", "import", path).exit_code == 0
    assert [c["name"] for c in customers(api)] == ["Žluťoučký kůň"]


def test_customers_import_updates_an_existing_id(runner, api, tmp_path):
    run(runner, "customers", "import", write(tmp_path, "a.csv", CUSTOMER_HEADER + "1,Old,,,,Old street,,,\n2,Two,,,,,,,\n"))
    result = run(runner, "customers", "import", write(tmp_path, "b.csv", CUSTOMER_HEADER + "1,New,,,,New street,,,\n"))
    assert result.exit_code == 0, result.output
    assert [(c["id_customer"], c["name"], c["address"]["street"]) for c in customers(api)] == \
        [(1, "New", "New street"), (2, "Two", "")]


def test_customers_import_is_all_or_nothing_and_names_every_bad_line(runner, api, tmp_path):
    run(runner, "customers", "import", write(tmp_path, "a.csv", CUSTOMER_HEADER + "1,Kept,,,,,,,\n"))
    path = write(tmp_path, "b.csv", CUSTOMER_HEADER
                 + "1,Changed,,,,,,,\n"         # line 2: good
                 + "x,Bad id,,,,,,,\n"          # line 3
                 + "3,Fine,,,,,,,\n"            # line 4: good
                 + "4,,,,,,,,\n"                # line 5: no name
                 + "5,Too many,,,,,,,,extra\n"  # line 6
                 + "6,Too few\n"                # line 7
                 + "3,Repeated,,,,,,,\n"        # line 8
                 + "0,Zero id,,,,,,,\n"         # line 9
                 + "7,Nul,,,,,Pra\x00ha,,\n")   # line 10: a control character
    result = run(runner, "customers", "import", path)
    assert result.exit_code != 0
    for line in (3, 5, 6, 7, 8, 9, 10):
        assert f"line {line}:" in result.stderr
    for line in (2, 4):
        assert f"line {line}:" not in result.stderr
    assert "nothing was imported" in result.stderr
    assert [(c["id_customer"], c["name"]) for c in customers(api)] == [(1, "Kept")]


@pytest.mark.parametrize("header", [
    "id,name\n", "name,id_customer,registration_number,tax_id,vat_number,street,city,zip,country\n", "",
])
def test_customers_import_needs_the_header_row(runner, api, tmp_path, header):
    result = run(runner, "customers", "import", write(tmp_path, "c.csv", header + "1,A,,,,,,,\n"))
    assert result.exit_code != 0
    assert "header" in result.output
    assert customers(api) == []


def test_customers_import_refuses_a_file_that_is_not_utf8(runner, api, tmp_path):
    path = tmp_path / "c.csv"
    path.write_bytes((CUSTOMER_HEADER + "1,Müller,,,,,,,\n").encode("latin-1"))
    result = run(runner, "customers", "import", str(path))
    assert result.exit_code != 0
    assert "UTF-8" in result.output
    assert customers(api) == []


def test_customers_import_of_a_missing_file_fails(runner, tmp_path):
    assert run(runner, "customers", "import", str(tmp_path / "nope.csv")).exit_code != 0


# --- products import ------------------------------------------------------------------------

def test_products_import_creates_products(runner, api, tmp_path):
    path = write(tmp_path, "p.jsonl", jsonl(
        product("B-2", packaging=[{"unit": "box", "amount_base_units": "2.5", "barcode": "111"}], weight_brutto=1.5),
        product("A/1", name="Čokoláda", lot_level=1),
    ))
    result = run(runner, "products", "import", path)
    assert result.exit_code == 0, result.output
    assert "2 product(s)" in result.stdout
    listed = products(api)
    assert [p["product_code"] for p in listed] == ["A/1", "B-2"]
    assert (listed[0]["name"], listed[0]["lot_level"], listed[0]["packaging"]) == ("Čokoláda", 1, [])
    assert listed[1]["packaging"] == [{"unit": "box", "amount_base_units": Decimal("2.5"), "barcode": "111"}]
    assert listed[1]["weight_brutto"] == Decimal("1.5")


def test_products_import_skips_a_byte_order_mark_and_blank_lines(runner, api, tmp_path):
    path = write(tmp_path, "p.jsonl", jsonl(product("Ž1")) + "\n  \n" + jsonl(product("Ž2")), bom=True)
    result = run(runner, "products", "import", path)
    assert result.exit_code == 0, result.output
    assert [p["product_code"] for p in products(api)] == ["Ž1", "Ž2"]


def test_products_import_updates_an_existing_code(runner, api, tmp_path):
    assert api.post("/v1/products/", product("P1", name="Old", packaging=[{"unit": "box", "amount_base_units": 6}])).status_code == 201
    path = write(tmp_path, "p.jsonl", jsonl(product("P1", name="New", packaging=[{"unit": "crate", "amount_base_units": 12}])))
    result = run(runner, "products", "import", path)
    assert result.exit_code == 0, result.output
    [imported] = products(api)
    assert imported["name"] == "New"
    assert imported["packaging"] == [{"unit": "crate", "amount_base_units": 12, "barcode": ""}]


def test_products_import_is_all_or_nothing_and_names_every_bad_line(runner, api, tmp_path):
    assert api.post("/v1/products/", product("TAKEN", base_unit_barcode="999", name="Kept")).status_code == 201
    path = write(tmp_path, "p.jsonl", "\n".join([
        json.dumps(product("OK1")),                                              # line 1: good
        json.dumps(product("BAD", active="1")),                                  # line 2: wrong type
        "{not json",                                                             # line 3
        json.dumps(product("TAKEN", name="Changed", base_unit_barcode="999")),   # line 4: good (an update)
        json.dumps(product("CLASH", base_unit_barcode="999")),                   # line 5: barcode of TAKEN
        "[1, 2]",                                                                # line 6: not an object
        json.dumps(product("OK1", name="again")),                                # line 7: repeats line 1
        json.dumps(product("PK", packaging=[{"unit": "pc", "amount_base_units": 1}])),  # line 8: unit = base unit
        json.dumps(product("OK2", colour="red")),                                # line 9: unknown field
    ]) + "\n")
    result = run(runner, "products", "import", path)
    assert result.exit_code != 0
    for line in (2, 3, 5, 6, 7, 8, 9):
        assert f"line {line}:" in result.stderr
    for line in (1, 4):
        assert f"line {line}:" not in result.stderr
    assert "nothing was imported" in result.stderr
    assert [(p["product_code"], p["name"]) for p in products(api)] == [("TAKEN", "Kept")]


@pytest.mark.unbalanced  # stock made by writing a balance directly
def test_products_import_names_a_line_refused_by_a_rule_against_the_database(runner, api, session, tmp_path):
    assert api.post("/v1/products/", product("P1")).status_code == 201
    with writing(session):
        session.add(Balance(id_warehouse=1, product_code="P1", lot="", amount_milli=1000))
    path = write(tmp_path, "p.jsonl", jsonl(product("P0"), product("P1", base_unit="kg")))
    result = run(runner, "products", "import", path)
    assert result.exit_code != 0
    assert "line 2:" in result.stderr and "line 1:" not in result.stderr
    assert [p["product_code"] for p in products(api)] == ["P1"]


def test_products_import_keeps_line_numbers_across_unicode_line_breaks(runner, api, tmp_path):
    path = write(tmp_path, "p.jsonl", jsonl(product("P1", name="one\u2028two"), product("P2", active="1")))
    result = run(runner, "products", "import", path)
    assert "line 2:" in result.stderr and "line 3:" not in result.stderr


def test_products_import_refuses_a_file_that_is_not_utf8(runner, api, tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_bytes(json.dumps(product("Pä"), ensure_ascii=False).encode("latin-1"))
    result = run(runner, "products", "import", str(path))
    assert result.exit_code != 0
    assert "UTF-8" in result.output
    assert products(api) == []


# --- a missing database file ------------------------------------------------------------------

def flask_command(workdir, *args):
    """`flask --app app ARGS` run as a user would, from another directory, on the default database."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    return subprocess.run([os.path.join(os.path.dirname(sys.executable), "flask"), "--app",
                           os.path.join(REPO, "app.py"), *args], cwd=workdir, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args", [("keys", "list"), ("check",), ("keys", "create", "--name", "x", "--role", "read"),
                                  ("products", "import", "none.jsonl"), ("routes",)])
@pytest.mark.live
def test_a_command_refuses_a_database_file_that_does_not_exist_and_names_it(tmp_path, args):
    done = flask_command(tmp_path, *args)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"No database at {tmp_path / 'warehouse.db'}." in done.stderr
    assert os.listdir(tmp_path) == []  # nothing made


@pytest.mark.live
def test_a_command_uses_a_database_file_that_exists(tmp_path):
    made_app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'warehouse.db'}"})
    upgrade_database(made_app, who="tests")
    with made_app.app_context():
        db.engine.dispose()
    made = flask_command(tmp_path, "keys", "create", "--name", "office", "--role", "read")
    assert made.returncode == 0, made.stderr
    # Closed at the command's end: the .db file alone holds the key, as after a stop of the service.
    assert not os.path.exists(tmp_path / "warehouse.db-wal")
    assert flask_command(tmp_path, "keys", "list").stdout.startswith("office\tread")


@pytest.mark.live
def test_the_list_of_commands_shows_without_a_database(tmp_path):
    done = flask_command(tmp_path, "--help")
    assert done.returncode == 0 and "keys" in done.stdout
    assert os.listdir(tmp_path) == []


def test_only_the_commands_that_make_a_database_may_start_without_one():
    assert cli.creates(("db", "upgrade")) and cli.creates(("demo",))
    assert not any(cli.creates(words) for words in [("db", "current"), ("keys", "list"), ("check",), ()])
