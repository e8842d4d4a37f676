"""One realistic example per operation for the API document: a dairy depot's day.

tests/api/test_openapi.py holds every example to the document's own schemas.
"""

MILK = {"product_code": "MILK-1L", "name": "Milk 1 l", "active": 1, "base_unit": "pc",
        "base_unit_barcode": "4006381333924", "category": 0, "lot_level": 0,
        "packaging": [{"unit": "crate", "amount_base_units": 12, "barcode": "4006381333931"}],
        "weight_brutto": 1.08, "weight_netto": 1.03, "weight_unit": "kg", "decimal_places": 0}

ORDER_SETTINGS = {"allowed_types": ["R"], "allowed_directions": ["I"]}
ORDER = {"document_number": "PO-1001", "description": "Dairy delivery", "id_warehouse": 1,
         "id_customer": 0, "state": 1, "expiration_limit": 5, "expiration_limit_date": "2026-11-26",
         "batch_settings": ORDER_SETTINGS}
ORDER_LINE = {"document_number": "PO-1001", "product_code": "MILK-1L", "lot": "",
              "amount_ordered": 240, "amount_delivered": 0, "direction": "I", "wplace": ["A-01"],
              "meta": {"note": "cold chain"}}

BATCH_SETTINGS = {"batch_number": 5001, "app_version": "3.2", "date": "2026-11-21",
                  "created_date": "2026-11-21", "direction": "I", "id_warehouse": 1, "name": "gate 2",
                  "truck": 7, "type": "R", "document_number": "PO-1001"}
BATCH_ITEM = {"id_batch_item": 1, "user_visible_batch_item_id": 1, "batch_number": 5001,
              "doc_number": 1, "doc_item_number": 1, "amount_base_unit": 240, "barcode": "",
              "date_exp": "2026-12-15", "lot": "", "name": "", "palette": 0, "product_code": "MILK-1L",
              "status": 0, "timestamp_client": "2026-11-21T08:15:02.120+0100", "wplace": ""}
BATCH = {"batch_settings": BATCH_SETTINGS, "batch_items": [BATCH_ITEM],
         "batch_extras": [{"key": "driver", "value": "J. Novak"}]}

DOC_ITEM = {"doc_number": 1, "item_number": 1, "user_visible_item_number": 1,
            "product_code": "MILK-1L", "name": "Milk 1 l", "lot": "", "date_exp": "2026-12-15",
            "amount_base_unit": 240, "doc_created_date": "2026-11-21",
            "timestamp_from_client": "2026-11-21T08:15:02.120+0100"}
DOC = {"doc_number": 1, "id_warehouse": 1, "direction": "I", "date": "2026-11-21",
       "doc_created_date": "2026-11-21", "id_customer": 0, "batch_number": 5001,
       "ufid": "I-2026-000001", "wh_doc_items": [DOC_ITEM]}
DAY_FILTER = {"id_warehouses": [1], "level": -1, "doc_direction": "I",
              "date_from": "2026-11-01", "date_to": "2026-11-30"}

KEY = {"name": "scanner-gate-2", "role": "scan", "warehouses": [1], "created": "2026-11-25T09:30:00Z",
       "expires": "2027-11-25T09:30:00Z", "last_used": "2026-11-25T10:02:00Z", "last_used_from": "192.168.1.31",
       "revoked": ""}

REORDER_LEVEL = {"id_warehouse": 1, "product_code": "MILK-1L", "min_amount": 120, "target_amount": 480}
HOOK_EVENTS = ["batch.booked", "stock.low"]
HOOK_URL = "https://erp.example.com/hooks/warehouse"

LOCATION = {"id_warehouse": 2, "code": "C-01-2", "name": "Cold shelf 1, level 2", "sequence": 120, "hold": 0,
            "receiving": 0, "active": 1}
MOVE = {"move_id": "3f1c9a52-6a0e-4f7e-9d1b-2b8f0c6e7a11", "from": {"id_warehouse": 1, "location": "A-01-1"},
        "to": {"id_warehouse": 2, "location": "C-01-2"}, "items": [{"product_code": "YOG-150", "lot": "L2611",
                                                                   "amount": 160}],
        "note": "pallet to the cold store"}
EXAMPLES = {
    "pick_order": {"path": {"document_number": "SO-2044"}, "answer": {"list": [
        {"product_code": "YOG-150", "lot": "L2611", "date_exp": "2026-12-04", "location": "C-01-2", "amount": 24},
        {"product_code": "YOG-150", "lot": "L2612", "date_exp": "2026-12-09", "location": "C-02-1", "amount": 12}]}},
    "add_move": {"body": MOVE, "answer": {}},
    "list_moves": {"answer": {"list": [{**MOVE, "created": "2026-11-28T07:12:40Z", "posted_by": "scanner-gate-2",
                                        "out_doc": 118, "in_doc": 119}]}},
    "list_locations": {"answer": {"list": [LOCATION, {**LOCATION, "code": "Q-1", "name": "Quarantine",
                                                      "sequence": 900, "hold": 1}]}},
    "add_location": {"body": {"id_warehouse": 2, "code": "C-01-2", "name": "Cold shelf 1, level 2",
                              "sequence": 120}, "answer": {}},
    "update_location": {"path": {"id_warehouse": 2, "code": "C-01-2"}, "body": {"hold": 1}, "answer": {}},
    "location_stock": {"answer": {"list": [
        {"id_warehouse": 2, "location": "", "product_code": "YOG-150", "lot": "L2612", "date_exp": "2026-12-09",
         "amount": 12},
        {"id_warehouse": 2, "location": "C-01-2", "product_code": "YOG-150", "lot": "L2611",
         "date_exp": "2026-12-04", "amount": 160}]}},
    "list_products": {"answer": {"list": [MILK]}},
    "view_product": {"path": {"product_code": "MILK-1L"}, "answer": {"item": MILK}},
    "add_product": {"body": {"product_code": "MILK-1L", "name": "Milk 1 l", "base_unit": "pc",
                             "base_unit_barcode": "4006381333924", "weight_netto": "1.03",
                             "decimal_places": 0,
                             "packaging": [{"unit": "crate", "amount_base_units": 12,
                                            "barcode": "4006381333931"}]},
                    "answer": {}},
    "update_product": {"path": {"product_code": "MILK-1L"},
                       "body": {"name": "Milk 1 l, fresh"}, "answer": {}},
    "list_warehouses": {"answer": {"list": [
        {"id_warehouse": 1, "name": "Main", "address": "Hafenstr. 4, Leipzig", "active": 1},
        {"id_warehouse": 2, "name": "Cold store", "address": "Hafenstr. 4, Leipzig", "active": 1}]}},
    "add_warehouse": {"body": {"id_warehouse": 2, "name": "Cold store", "address": "Hafenstr. 4, Leipzig"},
                      "answer": {}},
    "update_warehouse": {"path": {"id_warehouse": 2}, "body": {"active": 0}, "answer": {}},
    "list_customers": {"answer": {"list": [{
        "id_customer": 17, "name": "Fresh Foods Ltd", "registration_number": "HRB 4711",
        "tax_id": "143/123/45678", "vat_number": "DE123456789",
        "address": {"city": "Leipzig", "country": "DE", "street": "Marktweg 3", "zip": "04109"}}]}},
    "add_customer": {"body": {
        "id_customer": 17, "name": "Fresh Foods Ltd", "registration_number": "HRB 4711",
        "tax_id": "143/123/45678", "vat_number": "DE123456789",
        "address": {"city": "Leipzig", "country": "DE", "street": "Marktweg 3", "zip": "04109"}},
        "answer": {}},
    "update_customer": {"path": {"id_customer": 17},
                        "body": {"address": {"street": "Marktweg 5", "city": "Leipzig", "zip": "04109",
                                             "country": "DE"}},
                        "answer": {}},
    "find_barcode": {"path": {"barcode": "4006381333931"}, "answer": {"item": {
        "product_code": "MILK-1L", "name": "Milk 1 l", "unit": "crate", "amount_base_units": 12,
        "active": 1}}},
    "close_order": {"path": {"document_number": "PO-1001"},
                    "body": {"reason": "The supplier cancelled the rest."}, "answer": {}},
    "release_order": {"path": {"document_number": "PO-1001"}, "answer": {}},
    "read_barcode": {"answer": {"item": {"text": "4006381333931", "format": "EAN-13"}}},
    "trace_lot": {"answer": {"item": {
        "product_code": "YOG-150", "lot": "L260928", "date_exp": "2026-12-04",
        "received": [{"date": "2026-11-02", "id_warehouse": 2, "amount": 480, "doc_number": 812,
                      "ufid": "I-2026-000410", "document_number": "PO-1001", "batch_number": 5001,
                      "date_exp": "2026-12-04"}],
        "delivered": [{"date": "2026-11-05", "id_warehouse": 2, "amount": 48, "doc_number": 830,
                       "ufid": "O-2026-000377", "document_number": "SO-2044", "batch_number": 5017,
                       "customer": {"id_customer": 17, "name": "Fresh Foods Ltd", "city": "Leipzig"}}],
        "moved": [],
        "counted": [{"date": "2026-11-18", "id_warehouse": 2, "amount": -2, "doc_number": 901,
                     "ufid": "O-2026-000402"}],
        "written_off": [{"date": "2026-11-20", "id_warehouse": 2, "amount": 6, "doc_number": 915,
                         "ufid": "O-2026-000410", "write_off_id": "3f1c9a52-7d5e-4b8e-9f0a-2c6d1e8b4a71",
                         "reason": "damaged"}],
        "returned": [{"date": "2026-11-07", "id_warehouse": 2, "amount": 12, "doc_number": 841,
                      "ufid": "I-2026-000420", "return_id": "9b2e4f10-3c6a-4d7b-8e1f-5a0c2d9e7b36",
                      "reason": "crate broken", "document_number": "SO-2044",
                      "customer": {"id_customer": 17, "name": "Fresh Foods Ltd", "city": "Leipzig"}}],
        "in_stock": [{"id_warehouse": 2, "location": "", "amount": 436}]}}},
    "add_write_off": {"body": {"write_off_id": "3f1c9a52-7d5e-4b8e-9f0a-2c6d1e8b4a71", "id_warehouse": 2,
                               "reason": "damaged", "note": "dropped by the forklift",
                               "items": [{"product_code": "YOG-150", "lot": "L260928", "amount": 6}]},
                      "answer": {}},
    "list_write_offs": {"answer": {"list": [{
        "write_off_id": "3f1c9a52-7d5e-4b8e-9f0a-2c6d1e8b4a71", "id_warehouse": 2, "reason": "damaged",
        "note": "dropped by the forklift", "date": "2026-11-20", "doc_number": 915, "booked_by": "scanner-gate-2",
        "items": [{"product_code": "YOG-150", "name": "Yoghurt 150 g", "lot": "L260928",
                   "date_exp": "2026-12-04", "amount": 6}]}]}},
    "add_return": {"body": {"return_id": "9b2e4f10-3c6a-4d7b-8e1f-5a0c2d9e7b36", "document_number": "SO-2044",
                            "reason": "crate broken",
                            "items": [{"product_code": "YOG-150", "lot": "L260928", "amount": 12}]},
                   "answer": {}},
    "reserve_batch_numbers": {"body": {"count": 100}, "answer": {"item": {"first": 5101, "last": 5200}}},
    "list_open_orders": {"answer": {"list": [{
        "document_number": "SO-2044", "description": "Fresh Foods, Tuesday", "id_warehouse": 1,
        "id_customer": 17, "customer_name": "Fresh Foods Ltd", "state": 3, "allowed_directions": ["O"],
        "expiration_limit_date": "2026-12-01", "held_by": "scanner-gate-2",
        "items": [{"item_number": 1, "product_code": "YOG-150", "lot": "", "direction": "O",
                   "amount_ordered": 48, "amount_delivered": 12, "amount_open": 36,
                   "picks": [{"lot": "L2611", "date_exp": "2026-12-04", "amount": 24},
                             {"lot": "L2612", "date_exp": "2026-12-09", "amount": 12}],
                   "short": 0}]}]}},
    "list_orders": {"answer": {"list": [{**ORDER, "items": [
        {"document_item_id": 1, "user_visible_document_item_id": 1, **ORDER_LINE}]}]}},
    "acquire_order": {"path": {"document_number": "PO-1001"}, "answer": {"item": {
        **ORDER, "state": 2, "items": [{"document_item_id": 1, **ORDER_LINE}]}}},
    "view_order": {"path": {"document_number": "PO-1001"}, "answer": {"item": {
        **ORDER, "items": [{"item_number": 1, **ORDER_LINE}]}}},
    "add_order": {"body": {"document_number": "PO-1001", "description": "Dairy delivery",
                           "id_warehouse": 1, "id_customer": 0, "expiration_limit": 5,
                           "batch_settings": ORDER_SETTINGS,
                           "items": [{"item_number": 1, "product_code": "MILK-1L", "lot": "",
                                      "amount_ordered": 240, "wplace": ["A-01"],
                                      "meta": {"note": "cold chain"}}]},
                  "answer": {}},
    "view_batch": {"path": {"batch_number": 5001}, "answer": {"item": BATCH}},
    "add_batch": {"body": {
        "batch_settings": {"batch_number": "5001", "id_warehouse": "1", "direction": "I", "type": "R",
                           "date": "2026-11-21", "app_version": "3.2", "name": "gate 2", "truck": 7,
                           "document_number": "PO-1001"},
        "batch_items": [{"product_code": "MILK-1L", "amount": "20", "unit": "crate", "lot": "",
                         "date_exp": "2026-12-15", "timestamp_client": "2026-11-21T08:15:02.120+0100"}],
        "batch_extras": [{"key": "driver", "value": "J. Novak"}]},
        "answer": {}},
    "filter_batches": {"body": {**DAY_FILTER, "document_number": "PO-1001"}, "answer": {"list": [BATCH]}},
    "view_document": {"path": {"doc_number": 1}, "answer": {"item": DOC}},
    "filter_documents": {"body": DAY_FILTER, "answer": {"list": [{**DOC, "wh_doc_items": [
        {**DOC_ITEM, "direction": "I", "lot_level": 0}]}]}},
    "list_stocktakings": {"answer": {"list": [{
        "id_warehouse": 1, "date": "2026-11-30", "status": 1, "in_doc": 0, "out_doc": 2,
        "in_ufid": "", "out_ufid": "O-2026-000001",
        "stocktaking_items": [{"id_warehouse": 1, "date": "2026-11-30", "product_code": "MILK-1L",
                               "lot": "", "date_exp": "", "name": "Milk 1 l", "amount_real": 228,
                               "amount_snap": 240, "amount_diff": -12}]}]}},
    "delete_stocktaking": {"answer": {}},
    "filter_inventory": {"body": {"id_warehouses": [1], "product_code": "MILK-1L", "level": 0},
                         "answer": {"list": [{"id_warehouse": 1, "product_code": "MILK-1L",
                                              "product_name": "Milk 1 l", "name": "Milk 1 l", "lot": "",
                                              "level": 0, "amount": 240, "unit": "pc"}]}},
    "filter_movements": {"body": DAY_FILTER, "answer": {"list": [{
        "doc_number": 1, "item_number": 1, "user_visible_item_number": 1, "ufid": "I-2026-000001",
        "id_customer": 0, "customer_name": "", "product_code": "MILK-1L", "name": "Milk 1 l", "lot": "",
        "date_exp": "2026-12-15", "doc_created_date": "2026-11-21",
        "timestamp_from_client": "2026-11-21T08:15:02.120+0100", "amount_base_unit": 240,
        "unit": "pc"}]}},
    "docs_and_stocktaking": {"answer": {"list": [{
        "id_warehouse": 1, "ufid_in": "I-2026-000001", "in_date": "2026-11-21",
        "ufid_out": "O-2026-000001", "out_date": "2026-11-30", "stocktaking_date": "2026-11-30"}]}},
    "monthly_movement": {"answer": {"list": [{"year": 2026, "month": 11, "direction": "I", "count": 1},
                                             {"year": 2026, "month": 11, "direction": "O", "count": 1}]}},
    "list_keys": {"answer": {"list": [KEY]}},
    "add_key": {"body": {"name": "scanner-gate-2", "role": "scan", "warehouses": [1], "expires_in_days": 365},
                "answer": {"item": {"name": "scanner-gate-2", "role": "scan", "warehouses": [1],
                                    "expires": "2027-11-25T09:30:00Z",
                                    "key": "q3Vd0bq7m1kP0YcJx2o9rS8tW4uE6zA5nF1hG7iL3jM"}}},
    "revoke_key": {"path": {"name": "scanner-gate-2"}, "answer": {}},
    "list_audit": {"answer": {"list": [
        {"id": 42, "at": "2026-11-25T09:30:00Z", "who": "anna", "who_kind": "person", "from": "192.168.1.20",
         "kind": "key.create",
         "record": "scanner-gate-2", "changes": {"role": [None, "scan"], "warehouses": [None, [1]],
                                                 "expires": [None, "2027-11-25T09:30:00Z"]}}]}},
    "import_file": {"path": {"kind": "products"},
                    "answer": {"item": {"created": 12, "updated": 3, "unchanged": 240, "errors": []}}},
    "export_file": {"path": {"kind": "products"},
                    "answer": "\ufeffproduct_code,name,active,base_unit,base_unit_barcode,category,lot_level,"
                              "weight_brutto,weight_netto,weight_unit\r\n"
                              "MILK-1L,Milk 1 l,1,pc,4006381333924,0,0,1.08,1.03,kg\r\n"},
    "list_reorder_levels": {"answer": {"list": [REORDER_LEVEL]}},
    "set_reorder_levels": {"body": [REORDER_LEVEL, {"id_warehouse": 2, "product_code": "MILK-1L",
                                                    "min_amount": 0, "target_amount": 0}],
                           "answer": {}},
    "list_alerts": {"answer": {"item": {
        "low_stock": [{"id_warehouse": 1, "product_code": "MILK-1L", "name": "Milk 1 l", "amount": 84,
                       "min_amount": 120, "target_amount": 480, "suggested_order": 396}],
        "expiring": [{"id_warehouse": 1, "product_code": "MILK-1L", "lot": "L2611", "date_exp": "2026-11-28",
                      "amount": 36, "days_left": 3}],
        "totals": {"low_stock": 1, "expiring": 1, "expired": 0}}}},
    "add_webhook": {"body": {"url": HOOK_URL, "events": HOOK_EVENTS},
                    "answer": {"item": {"id": 1, "url": HOOK_URL, "events": HOOK_EVENTS, "warehouses": [],
                                        "secret": "whsec_3f9c2a7d41b8e6052c9d1a7e4b3f8c6d2e1a0b9c8d7e6f5a"}}},
    "list_webhooks": {"answer": {"list": [{"id": 1, "url": HOOK_URL, "events": HOOK_EVENTS, "warehouses": [],
                                           "created": "2026-11-25T09:30:00Z",
                                           "last_delivery": "2026-11-25T10:02:00Z", "last_status": 200,
                                           "pending": 0}]}},
    "delete_webhook": {"path": {"webhook_id": 1}, "answer": {}},
}
