"""GET /v1/open_orders/: the open orders a scanner takes with it for offline work (DESIGN 25): their
open lines, and for goods-out lines the lots to take, first expiring first."""
from helpers import add_products, batch, created, item, order, order_item


def receive_lots(api, number, lots):
    """A goods-in of LOT in warehouse 1: (lot, amount, best-before) each."""
    created(api.post("/v1/batches/", batch(number, [item("LOT", amount, lot=lot, date_exp=day)
                                                    for lot, amount, day in lots])))


def test_open_orders_carry_their_open_lines_and_the_lots_to_take(api, api_as):
    add_products(api)
    receive_lots(api, 1, [("L-LATE", 10, "2027-06-30"), ("L-SOON", 4, "2027-01-31")])
    created(api.post("/v1/documents/", order("SO-1", directions=("O",), id_customer=0, description="Tuesday",
                                             items=[order_item(1, "LOT", 6), order_item(2, "P1", 3)])))
    created(api.post("/v1/documents/", order("PO-1", items=[order_item(1, "P2", 5), order_item(2, "P1", 2)])))
    # Half of PO-1 arrives: its open line is what is left.
    created(api.post("/v1/batches/", batch(2, [item("P1", 2)], document_number="PO-1")))
    assert api_as("scan").get("/v1/documents/acquire/SO-1").status_code == 200
    r = api_as("read").get("/v1/open_orders/")
    assert r.status_code == 200, r.json
    [po, so] = r.json["list"]
    assert (po["document_number"], po["state"], po["held_by"], po["allowed_directions"]) == ("PO-1", 3, "", ["I"])
    assert po["items"] == [{"item_number": 1, "product_code": "P2", "lot": "", "direction": "I", "amount_ordered": 5,
                            "amount_delivered": 0, "amount_open": 5, "picks": [], "short": 0}]
    assert (so["state"], so["held_by"], so["description"], so["expiration_limit_date"]) == (2, "scan", "Tuesday", "")
    lot_line, p1_line = so["items"]
    # First expiring first; what the lots cannot cover is short.
    assert lot_line["picks"] == [{"lot": "L-SOON", "date_exp": "2027-01-31", "amount": 4},
                                 {"lot": "L-LATE", "date_exp": "2027-06-30", "amount": 2}]
    # P1 is not kept by lot: its one "lot" is the 2 that PO-1 brought in, and 1 is short.
    assert (lot_line["short"], p1_line["picks"], p1_line["short"]) == (0, [{"lot": "", "date_exp": "", "amount": 2}], 1)


def test_closed_delivered_counting_and_other_warehouses_orders_are_left_out(api, api_as):
    add_products(api)
    created(api.post("/v1/documents/", order("DONE", items=[order_item(1, "P1", 1)])))
    created(api.post("/v1/batches/", batch(1, [item("P1", 1)], document_number="DONE")))
    created(api.post("/v1/documents/", order("SHUT", items=[order_item(1, "P1", 1)])))
    assert api.post("/v1/documents/close/SHUT", {"reason": "cancelled"}).status_code == 200
    created(api.post("/v1/documents/", order("COUNT", types=("V",), items=[order_item(1, "P1", 1)])))
    created(api.post("/v1/documents/", order("W2", id_warehouse=2, items=[order_item(1, "P1", 1)])))
    assert [entry["document_number"] for entry in api.get("/v1/open_orders/").json["list"]] == ["W2"]
    assert api_as("read_w1").get("/v1/open_orders/").json == {"list": []}


def test_a_lock_past_its_timeout_holds_nobody(app, api, api_as):
    add_products(api)
    created(api.post("/v1/documents/", order("PO-1")))
    api_as("scan").get("/v1/documents/acquire/PO-1")
    app.config["ACQUIRE_TIMEOUT"] = 0
    assert api.get("/v1/open_orders/").json["list"][0]["held_by"] == ""


def test_an_expiration_limit_keeps_lots_that_expire_too_soon_out_of_the_picks(api):
    add_products(api)
    receive_lots(api, 1, [("L-OLD", 5, "2020-01-01"), ("L-NEW", 5, "2099-01-01")])
    created(api.post("/v1/documents/", order("SO-1", directions=("O",), expiration_limit=10,
                                             items=[order_item(1, "LOT", 3)])))
    [entry] = api.get("/v1/open_orders/").json["list"]
    assert [pick["lot"] for pick in entry["items"][0]["picks"]] == ["L-NEW"]
    assert entry["expiration_limit_date"] != ""
