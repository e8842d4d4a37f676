"""`flask --app app import KIND FILE [--dry-run] [--encoding E] [--map COLUMN=FIELD]...`: the same report as
the API, on the terminal."""
import json

import sheets

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
    assert "row 3 (x), column id_customer = 'x': Must be a whole number." in result.stderr
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


def test_the_office_columns_mapped_and_a_windows_1250_file(runner, app, tmp_path):
    foreign = tmp_path / "ceník.csv"
    foreign.write_bytes(sheets.csv_bytes(sheets.FOREIGN))
    refused = flask(runner, "import", "products", str(foreign))
    assert refused.exit_code == 1 and "row 1, column Code: Unknown column;" in refused.stderr
    maps = [f"--map={header}={column}" for header, column in sheets.FOREIGN_MAPPING.items()]
    done = flask(runner, "import", "products", str(foreign), *maps)
    assert done.exit_code == 0, done.output
    assert "Imported: 2 created, 0 updated, 0 unchanged." in done.stdout
    bad = flask(runner, "import", "products", str(foreign), "--map", "Code")
    assert bad.exit_code == 1 and "write it as COLUMN=FIELD" in bad.stderr

    slovenian = tmp_path / "izdelki.csv"
    slovenian.write_bytes(sheets.csv_bytes(sheets.SLOVENIAN, "cp1250"))
    assert flask(runner, "import", "products", str(slovenian)).exit_code == 0
    told = flask(runner, "import", "products", str(slovenian), "--encoding", "windows-1252", "--dry-run")
    assert "Would be: 0 created, 3 updated, 2 unchanged." in told.stdout
    assert flask(runner, "import", "products", str(slovenian), "--encoding", "latin-2").exit_code == 2
    with app.app_context():
        names = {p["product_code"]: p["name"] for p in catalog.list_products(db.session)}
    assert names["COK-100"] == "Čokolada mlečna 100 g" and names["TEA-GREEN"] == "Green tea 20 bags"


def test_a_300_row_ods_with_mistakes_names_each_row_record_and_value(runner, app, tmp_path):
    rows, mistakes = sheets.products_with_errors(300)
    path = tmp_path / "products.ods"
    path.write_bytes(sheets.ods({"Products": rows}))
    result = flask(runner, "import", "products", str(path))
    assert result.exit_code == 1
    lines = [line for line in result.stderr.splitlines() if line.startswith("row ")]
    assert lines == [f"row {row} ({record}), column {column} = {value!r}: {message}"
                     for row, record, column, value, message in mistakes]
    with app.app_context():
        assert catalog.list_products(db.session) == []
