"""The printed pages of the day's work: what a delivery note and a count sheet show.

Each function gathers a plain dict from the read functions of stock/; the office pages render it
as HTML for the browser to print (pages/templates/delivery_note.html, count_sheet.html).
"""
from identity.caller import Caller
from models import Customer
from stock import reports, records
from stock.errors import NotFound


def delivery_note(session, caller: Caller, doc_number: int) -> dict:
    """A goods-out document with its customer and lines (lot, best-before, amount in base units).

    A document the key may not see is NotFound, as is a goods-in one (nothing is delivered).
    """
    document = records.get_document(session, caller, doc_number)
    if document["direction"] != "O":
        raise NotFound(f"Document {document['ufid']} is goods-in: a delivery note is for goods-out documents.")
    if document["batch_number"] < 0:  # a count's adjustment (stock/stocktaking.py) left for nobody
        raise NotFound(f"Document {document['ufid']} is a stocktaking's adjustment: nothing was delivered.")
    customer = session.get(Customer, document["id_customer"]) if document["id_customer"] else None
    return {"document": document, "customer": customer, "lines": document["wh_doc_items"]}


def count_sheet(session, caller: Caller, id_warehouse: int) -> dict:
    """Every product and lot in book stock of a warehouse, by product code then lot, for counting.

    A warehouse the key may not see is NotFound, as if it did not exist. The book amounts come
    along; the page decides whether to print them (a blind count does not).
    """
    if not caller.sees(id_warehouse):
        raise NotFound(f"No warehouse {id_warehouse}.")
    rows = reports.inventory(session, caller, {"level": -1, "id_warehouses": [id_warehouse]})
    return {"id_warehouse": id_warehouse, "rows": rows}
