"""marshmallow schemas: one per request and response shape of interface.md, by resource.

Request schemas load into the names of the models (amounts into *_milli
integers); response schemas dump from rows or dicts with those names. Shapes
only: the rules that need the database or the day live in stock/. The modules
may import marshmallow, stock.quantities and stock.errors' `say` (a message a page shows in the
person's language, the API in English), nothing else of the project
(tests/house/test_layout.py); `from schemas import ...` is how the rest reads them.

- fields: the value types every shape is made of (quantities, days, names...).
- products, customers, warehouses, orders, batches, warehouse_docs, stocktakings, inventory,
  overview, keys, audit: the shapes of each resource, named as routes/ names them.
- batch_items: a batch's scanned items, checked by a table of plain parsers.
- transfer: an import's report and the queries of import and export (files, not JSON).
- scanning: what the browser scanner asks beyond the 20 operations (batch number blocks, a camera
  frame read, the open orders it takes offline).
- answers: the list/item/nothing wrappers of every answer, and the error body.

The API document (routes/api_description.py) is generated from these schemas.
A field class whose JSON form marshmallow cannot tell (numbers sent as strings,
dates as text) says it in `json_schema`; a field may add to it in its metadata.
"""
from schemas.fields import Quantity, check_timestamp, headers_query_schema
from schemas.products import (BarcodeSchema, ProductSchema, barcode_answer_schema, product_out,
                             product_schema, product_update_schema)
from schemas.customers import (CustomerInSchema, CustomerSchema, customer_in_schema, customer_row_schema,
                              customer_update_schema, customers_schema)
from schemas.orders import (OrderAcquireSchema, OrderOutSchema, OrderViewSchema, order_acquire_schema,
                            order_close_schema, order_create_schema, order_list_query_schema, order_view_schema, orders_list_schema)
from schemas.batch_items import BATCH_ITEM_FIELDS, BatchItemCreateSchema
from schemas.batches import (BatchOutSchema, batch_create_schema, batch_filter_schema, batch_schema,
                             batches_schema)
from schemas.warehouse_docs import (DocFilterOutSchema, DocOutSchema, doc_filter_schema, doc_view_schema,
                                    docs_filter_out_schema)
from schemas.stocktakings import StocktakingOutSchema, stocktaking_delete_query_schema, stocktakings_schema
from schemas.inventory import (InventoryRowSchema, MovementRowSchema, inventory_filter_schema, inventory_row_out,
                               inventory_rows_schema, movement_filter_schema, movement_row_out, movement_rows_schema)
from schemas.overview import (DocsAndStocktakingRowSchema, MonthlyMovementRowSchema,
                              docs_and_stocktaking_query_schema, docs_and_stocktaking_rows_schema, monthly_movement_query_schema,
                              monthly_movement_rows_schema)
from schemas.transfer import (ENCODINGS, ImportReportSchema, export_query_schema, import_file_schema,
                              import_form_schema, import_query_schema)
from schemas.answers import ErrorBodySchema, NothingSchema, listing, single
from schemas.keys import KeyMadeSchema, KeySchema, key_create_schema, key_made_schema, keys_schema
from schemas.audit import AuditEntrySchema, audit_entries_schema, audit_query_schema
from schemas.warehouses import (WarehouseSchema, warehouse_schema, warehouse_update_schema,
                                warehouses_schema)
