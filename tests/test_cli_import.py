"""`flask --app app import KIND FILE [--dry-run]`: the same report as the API, on the terminal."""
import json

from sqlalchemy import select

from models import AuditEntry
from stock import catalog
from storage.db import db


def flask(runner, *args):
    return runner.invoke(args=list(args))


def test_import_then_the_same_file_again(runner, app, tmp_path):
    path = tmp_path / "products.csv"
    path.write_text("product_code;name;base_unit;weight_netto\nMILK;Milk;pc;1,5\nTEA;Tea;pc;0,25\n",
                    encoding="cp1252")
    dry = flask(runner, "import", "products", str(path), "--dry-run")
    assert dry.exit_code == 0, dry.output
    assert "Would be: 2 created, 0 updated, 0 unchanged." in dry.stdout
    assert "Dry run: nothing was changed." in dry.stdout
    with app.app_context():
        assert catalog.list_products(db.session) == []
    done = flask(runner, "import", "products", str(path))
    assert done.exit_code == 0, done.output
    assert "Imported: 2 created, 0 updated, 0 unchanged." in done.stdout
    again = flask(runner, "import", "products", str(path))
    assert "Imported: 0 created, 0 updated, 2 unchanged." in again.stdout
    with app.app_context():
        assert [p["weight_netto_milli"] for p in catalog.list_products(db.session)] == [1500, 250]
        entries = db.session.scalars(select(AuditEntry).order_by(AuditEntry.id)).all()
        assert [e.kind for e in entries] == ["import.products", "import.products"]
        assert entries[0].address == "cli"
        assert json.loads(entries[0].changes)["created"] == [None, 2]


def test_errors_are_listed_with_row_and_column_and_nothing_is_imported(runner, app, tmp_path):
    path = tmp_path / "customers.csv"
    path.write_text("id_customer,name\n1,Fresh Foods\nx,Bad\n", encoding="utf-8")
    result = flask(runner, "import", "customers", str(path))
    assert result.exit_code == 1
    assert "row 3, column id_customer: Must be a whole number." in result.stderr
    assert "1 error(s); nothing was imported." in result.stderr
    with app.app_context():
        assert catalog.list_customers(db.session) == []


def test_an_unknown_kind_is_refused(runner, tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("a\n1\n")
    result = flask(runner, "import", "warehouses", str(path))
    assert result.exit_code == 2 and "warehouses" in result.output


def test_the_old_import_commands_keep_working(runner, app, tmp_path):
    customers = tmp_path / "customers.csv"
    customers.write_text("id_customer,name,registration_number,tax_id,vat_number,street,city,zip,country\n"
                         "7,Fresh Foods,,,,,Leipzig,,DE\n")
    assert flask(runner, "customers", "import", str(customers)).exit_code == 0
    products = tmp_path / "products.jsonl"
    products.write_text('{"product_code": "MILK", "name": "Milk", "base_unit": "pc"}\n')
    assert flask(runner, "products", "import", str(products)).exit_code == 0
    with app.app_context():
        assert [c.name for c in catalog.list_customers(db.session)] == ["Fresh Foods"]
        assert [p["product_code"] for p in catalog.list_products(db.session)] == ["MILK"]
