"""The /v1 blueprints, one per resource, and the API description.

What every view shares lives beside them, one concern to a module:
converters.py (URL converters), access.py (the key check, roles, the caller),
operation.py (what a view declares; its query; the depot's policy), parsing.py
(the body, NUL, loading through a schema), reading.py (the request's reader and
the in-memory cache). Views parse, call the stock rules, and dump; they may
import stock/, storage/, schemas and operations.logs, never pages/ or app.
"""


def register(app) -> None:
    from routes import (alerts, api_description, audit, barcodes, batch_numbers, batches, customers, health,
                        inventory, keys, locations, lots, moves, open_orders, orders, overview, products, returns,
                        stocktakings, transfer, warehouse_docs, warehouses, webhooks, write_offs)
    from routes.access import check_request
    from routes.converters import CodeConverter, NumberConverter
    from routes.reading import close_reader

    app.url_map.converters["code"] = CodeConverter
    app.url_map.converters["number"] = NumberConverter
    app.before_request(check_request)
    app.teardown_request(close_reader)
    for module in (health, products, barcodes, customers, warehouses, orders, open_orders, batches, batch_numbers,
                   warehouse_docs, stocktakings, inventory, overview, keys, audit, alerts, webhooks, transfer, locations,
                   moves, lots, write_offs, returns):
        app.register_blueprint(module.bp)
    api_description.register(app)
