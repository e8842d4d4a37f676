"""Errors name what a person in the depot knows (issue 38): a product by its name, a lot by its
code or as "without a lot", a warehouse by its name, in the `message` and in the fields' texts
alike; the fields' paths, which the scanner's software reads, stay as they were."""
from datetime import date, timedelta

from conftest import Scanner
from helpers import batch, created, item, order, order_item, product


def refused(response, status):
    assert response.status_code == status, response.get_data(as_text=True)
    return response.json["error"]


def test_goods_out_beyond_the_stock_names_the_product_the_lot_and_the_warehouse(api):
    created(api.post("/v1/products/", product("BUTTER", name="Butter 250 g")))
    created(api.post("/v1/products/", product("CHEESE", name="Edam cheese", lot_level=1)))
    created(api.post("/v1/warehouses/", {"id_warehouse": 12, "name": "Cold store"}))
    scanner = Scanner(api)
    scanner.book("R", "I", [item("BUTTER", 3), item("CHEESE", 2, lot="L7")], warehouse=12)
    response, _ = scanner.send("R", "O", [item("BUTTER", 5), item("CHEESE", 4, lot="L7")], warehouse=12)
    error = refused(response, 409)
    butter = "Not enough stock of Butter 250 g, without a lot, in Cold store: 3 in stock, short by 2."
    cheese = "Not enough stock of Edam cheese, lot L7, in Cold store: 2 in stock, short by 2."
    assert error["message"] == f"2 product/lot(s) short. {butter}"
    assert error["fields"] == {"data": {"batch_items": {"0": {"amount": [butter]}, "1": {"amount": [cheese]}}}}


def test_an_inactive_product_and_a_whole_piece_rule_name_the_product(api):
    created(api.post("/v1/products/", product("OLD", name="Old cream")))
    created(api.post("/v1/products/", product("EGG", name="Eggs", decimal_places=0)))
    assert api.post("/v1/products/OLD", {"active": 0}).status_code == 200
    error = refused(api.post("/v1/batches/", batch(1, [item("OLD", 1), item("EGG", "0.5")])), 422)
    assert error["fields"]["data"]["batch_items"] == {
        "0": {"product_code": ["Old cream (OLD) is not active."]},
        "1": {"amount": ["In base units this has more than 0 decimal place(s), as Eggs is counted."]}}


def test_a_batch_for_an_order_of_another_warehouse_names_the_orders_warehouse(api):
    created(api.post("/v1/products/", product("P1")))
    created(api.post("/v1/warehouses/", {"id_warehouse": 12, "name": "Cold store"}))
    created(api.post("/v1/documents/", order("SO-1", [order_item(1, "P1", 5)], id_warehouse=12)))
    error = refused(api.post("/v1/batches/", batch(1, [item("P1", 1)], document_number="SO-1")), 422)
    assert error["fields"]["data"]["batch_settings"]["id_warehouse"] == ["The order document is for Cold store."]


def test_a_warehouse_no_longer_active_is_named_with_its_number(api):
    created(api.post("/v1/products/", product("P1")))
    created(api.post("/v1/warehouses/", {"id_warehouse": 12, "name": "Cold store"}))
    assert api.post("/v1/warehouses/12", {"active": 0}).status_code == 200
    error = refused(api.post("/v1/batches/", batch(1, [item("P1", 1)], id_warehouse="12")), 422)
    assert error["fields"]["data"]["batch_settings"]["id_warehouse"] == ["Cold store (warehouse 12) is not active."]


def test_a_stocktaking_that_is_not_there_is_named_by_its_warehouse(api):
    created(api.post("/v1/warehouses/", {"id_warehouse": 12, "name": "Cold store"}))
    error = refused(api.delete("/v1/stocktakings/?id_warehouse=12&date=2026-11-20"), 404)
    assert error["message"] == "No stocktaking of Cold store on 2026-11-20."


def test_a_barcode_taken_names_the_product_that_has_it(api):
    created(api.post("/v1/products/", product("MILK", name="Milk 1 l", base_unit_barcode="8590000000011")))
    error = refused(api.post("/v1/products/", product("MILK-2", base_unit_barcode="8590000000011")), 409)
    assert error["message"] == "A barcode is already used by Milk 1 l (MILK)."


def test_a_day_in_a_refusal_stays_iso_in_the_api(api):
    """A rule passes its days as dates, for a page to write them in its language; the API's English
    writes them ISO, as it always did (DESIGN 29)."""
    created(api.post("/v1/products/", product("CHEESE", name="Edam cheese", lot_level=1)))
    today = date.today()
    error = refused(api.post("/v1/batches/", batch(1, [item("CHEESE", 1, lot="L1")], date="2099-01-01")), 422)
    assert error["fields"]["data"]["batch_settings"]["date"] == [
        f"2099-01-01 is more than 7 day(s) after today ({today.isoformat()})."]
    created(api.post("/v1/batches/", batch(2, [item("CHEESE", 5, lot="L1", date_exp="2027-01-31")])))
    created(api.post("/v1/documents/", order("SO-1", [order_item(1, "CHEESE", 2)], directions=("O",),
                                             expiration_limit=400)))
    error = refused(api.post("/v1/batches/", batch(3, [item("CHEESE", 2, lot="L1", date_exp="2027-01-31")],
                                                   direction="O", document_number="SO-1")), 422)
    keep_until = (today + timedelta(days=400)).isoformat()
    assert error["fields"]["data"]["batch_items"] == {"0": {"date_exp": [f"The order needs goods that keep until {keep_until}."]}}
