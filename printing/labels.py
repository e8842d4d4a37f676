"""What a label carries: product code, name, barcode, lot and best-before, as a plain dict.

A label is {product_code, name, unit, barcode, lot, date_exp}; label_pdf.py and zpl.py draw it.
The barcode is the base unit's, or a packaging unit's when the label is for that unit (a box of
12 carries the box's barcode, so that a scan books a box). An empty barcode prints no symbol:
the label then shows code and name only.
"""
from sqlalchemy import select

from identity.caller import Caller
from models import Product
from stock import records
from stock.errors import Invalid, NotFound

COPIES_MAX = 500  # one roll of labels; a bigger number is more likely a typo than a need


def product_label(product: dict, unit: str | None = None, lot: str = "", date_exp: str = "") -> dict:
    """The label of a product (as stock.catalog.get_product returns it), for its base unit or
    one of its packaging units; Invalid names `unit` when the product has no such unit."""
    barcode = product["base_unit_barcode"]
    if unit is None or unit == product["base_unit"]:
        unit = product["base_unit"]
    else:
        packaging = next((p for p in product["packaging"] if p["unit"] == unit), None)
        if packaging is None:
            units = [product["base_unit"], *(p["unit"] for p in product["packaging"])]
            raise Invalid(f"Product {product['product_code']!r} has no unit {unit!r}.",
                          {"unit": [f"Must be one of: {', '.join(units)}."]})
        barcode = packaging["barcode"]
    return {"product_code": product["product_code"], "name": product["name"], "unit": unit,
            "barcode": barcode, "lot": lot, "date_exp": date_exp}


def goods_in_labels(session, caller: Caller, doc_number: int) -> list[dict]:
    """One label per line of a goods-in document, with the line's lot and best-before date.

    Lines are in base units, so each label carries the base unit's barcode. A document the
    key may not see, or a goods-out one (nothing arrives to be labelled), is NotFound.
    """
    document = records.get_document(session, caller, doc_number)
    if document["direction"] != "I":
        raise NotFound(f"Document {document['ufid']} is goods-out: labels are printed for goods-in documents.")
    lines = document["wh_doc_items"]
    barcodes = dict(session.execute(
        select(Product.product_code, Product.base_unit_barcode)
        .where(Product.product_code.in_({line["product_code"] for line in lines}))).all())
    return [{"product_code": line["product_code"], "name": line["name"], "unit": line["unit"],
             "barcode": barcodes.get(line["product_code"], ""), "lot": line["lot"],
             "date_exp": line["date_exp"]} for line in lines]
