"""Warehouses by name on every page and in every file (DESIGN 17), through the test client: the
stock, documents, orders, stocktakings and alerts downloads carry a warehouse_name column beside
id_warehouse; alerts, the product page and the order page name the warehouse; the order and
reorder-level files import back with the name, which is checked against the number.
"""
import csv
import io
import re

import pytest
from openpyxl import load_workbook

from conftest import Scanner
from helpers import created, item, order, order_item, product
from transfer import importing

COLD = "Cold store"


@pytest.fixture
def depot(api):
    """Warehouse 2 named Cold store; yoghurt by lot received there, one shipped on an order; its
    reorder level above its stock; a count in warehouse 2."""
    assert api.post("/v1/warehouses/2", {"name": COLD}).status_code == 200
    created(api.post("/v1/products/", product("YOG", name="Yoghurt", lot_level=1)))
    scanner = Scanner(api)
    scanner.book("R", "I", [item("YOG", 10, lot="Y1", date_exp="2000-01-31")], warehouse=2)
    created(api.post("/v1/documents/", {**order("SO-2", items=[order_item(1, "YOG", 5)], directions=("O",)),
                                        "id_warehouse": 2}))
    scanner.book("R", "O", [item("YOG", 1, lot="Y1")], warehouse=2, document_number="SO-2")
    response = api.client.put("/v1/reorder_levels/", json={"data": [{"id_warehouse": 2, "product_code": "YOG",
                                                                    "min_amount": 20, "target_amount": 40}]},
                              headers={"TS-Apikey": api.key})
    assert response.status_code == 200, response.json
    scanner.book("V", "I", [item("YOG", 9, lot="Y1")], warehouse=2)
    return scanner


def table(response) -> list[dict]:
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    if response.mimetype == "text/csv":
        return list(csv.DictReader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))
    header, *rows = [[cell.value for cell in row] for row in load_workbook(io.BytesIO(response.data)).active.iter_rows()]
    return [dict(zip(header, row)) for row in rows]


@pytest.mark.parametrize("format", ["csv", "xlsx"])
@pytest.mark.parametrize("path", ["/?level=1", "/documents?date_from=2000-01-01", "/orders?state=3",
                                  "/stocktakings?", "/alerts?"])
def test_every_download_names_the_warehouse_beside_its_number(office, depot, path, format):
    rows = table(office.get(f"{path}&format={format}"))
    assert rows
    header = list(rows[0])
    assert header[header.index("id_warehouse") + 1] == "warehouse_name"
    assert {(str(row["id_warehouse"]), row["warehouse_name"]) for row in rows} == {("2", COLD)}


def test_the_pages_name_the_warehouse_where_they_showed_its_number(office, depot):
    alerts = office.get("/alerts").get_data(as_text=True)
    assert alerts.count(f'<td data-label="Warehouse">{COLD}</td>') == 2  # low stock, and the expired lot
    product = office.get("/products/YOG").get_data(as_text=True)
    assert re.search(rf"<tr><td>{COLD}</td><td><a [^>]+>Y1</a></td>", product)  # its stock
    assert product.count(f"<td>{COLD}</td>") >= 3  # and each movement
    assert f"<dt>Warehouse</dt><dd>{COLD}</dd>" in office.get("/orders/SO-2").get_data(as_text=True)
    assert f"<dd>{COLD}</dd>" in office.get("/orders/SO-2/pick-list").get_data(as_text=True)
    assert f"<h1>Count sheet: {COLD}</h1>" in office.get("/warehouses/2/count-sheet").get_data(as_text=True)


@pytest.mark.parametrize("kind", ["orders", "reorder_levels"])
def test_the_order_and_reorder_level_files_carry_the_name_and_import_back_unchanged(session, depot, kind):
    header, rows = importing.KINDS[kind].export(session)
    rows = list(rows)
    assert header[header.index("id_warehouse") + 1] == "warehouse_name"
    assert {(row[header.index("id_warehouse")], row[header.index("warehouse_name")]) for row in rows} == {(2, COLD)}
    text = ",".join(header) + "\n" + "".join(",".join(str(cell) for cell in row) + "\n" for row in rows)
    report = importing.run(session, kind, io.BytesIO(text.encode()), f"{kind}.csv")
    assert report.errors == [] and report.created == report.updated == 0 and report.unchanged >= 1


def test_a_name_that_is_not_the_numbers_is_an_error_of_its_cell_and_nothing_is_imported(session, depot):
    text = "id_warehouse,warehouse_name,product_code,min_amount,target_amount\n2,Main,YOG,5,10\n"
    report = importing.run(session, "reorder_levels", io.BytesIO(text.encode()), "levels.csv")
    assert report.errors == [{"row": 2, "column": "warehouse_name",
                              "message": "Warehouse 2 is named 'Cold store', not 'Main': correct the name or the number.",
                              "record": "2 / YOG", "value": "Main"}]


def test_an_order_may_name_its_warehouse_by_name_alone(session, depot):
    text = ("document_number,warehouse_name,item_number,product_code,amount_ordered,direction\n"
            f"SO-3,{COLD},1,YOG,2,O\nSO-4,Attic,1,YOG,2,O\n")
    report = importing.run(session, "orders", io.BytesIO(text.encode()), "orders.csv", dry_run=True)
    assert report.errors == [{"row": 3, "column": "warehouse_name", "message":
                              "No warehouse is named 'Attic': use a name from /admin/warehouses, or give id_warehouse.",
                              "record": "SO-4 / 1", "value": "Attic"}]
    text = text.splitlines()[0] + "\n" + text.splitlines()[1] + "\n"
    report = importing.run(session, "orders", io.BytesIO(text.encode()), "orders.csv")
    assert report.errors == [] and report.created == 1
    header, rows = importing.KINDS["orders"].export(session)
    assert [row[1:3] for row in rows if row[0] == "SO-3"] == [[2, COLD]]
