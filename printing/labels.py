"""What a label carries: product code, name, barcode, lot and best-before, as a plain dict.

A label is {product_code, name, unit, barcode, lot, date_exp}; label_pdf.py and zpl.py draw it.
The barcode is the base unit's, or a packaging unit's when the label is for that unit (a box of
12 carries the box's barcode, so that a scan books a box). An empty barcode prints no symbol:
the label then shows code and name only.
"""
from sqlalchemy import select

from stock.caller import Caller
from models import BatchItem, Packaging, Product
from printing.barcodes import CODE128
from stock import locations, records
from stock.errors import Invalid, NotFound, say

LOCATION_LABELS_MAX = 2000  # of one warehouse at once: four rolls
COPIES_MAX = 500  # one roll of labels; a bigger number is more likely a typo than a need
PACKAGE_LABELS_MAX = 2000  # of one document, per package: four rolls


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


def goods_in_labels(session, caller: Caller, doc_number: int, per_package: bool = False) -> list[dict]:
    """The labels of a goods-in document, with each line's lot and best-before date: one per line,
    with the base unit's barcode (lines are in base units); or, `per_package`, one per package
    as the line was received (package_labels).

    A document the key may not see, or a goods-out one (nothing arrives to be labelled), is NotFound.
    """
    document = records.get_document(session, caller, doc_number)
    if document["direction"] != "I":
        raise NotFound(f"Document {document['ufid']} is goods-out: labels are printed for goods-in documents.")
    lines = document["wh_doc_items"]
    codes = {line["product_code"] for line in lines}
    barcodes = dict(session.execute(
        select(Product.product_code, Product.base_unit_barcode).where(Product.product_code.in_(codes))).all())
    labels = [{"product_code": line["product_code"], "name": line["name"], "unit": line["unit"],
               "barcode": barcodes.get(line["product_code"], ""), "lot": line["lot"],
               "date_exp": line["date_exp"]} for line in lines]
    if not per_package:
        return labels
    # The unit and amount each line was scanned in (a count's adjustment has no batch: its base unit).
    received = {number: (unit, amount) for number, unit, amount in session.execute(
        select(BatchItem.doc_item_number, BatchItem.unit, BatchItem.amount_milli)
        .where(BatchItem.batch_number == document["batch_number"], BatchItem.doc_item_number > 0))}
    packages = {(code, unit): (unit, factor, barcode) for code, unit, factor, barcode in session.execute(
        select(Packaging.product_code, Packaging.unit, Packaging.amount_base_units_milli, Packaging.barcode)
        .where(Packaging.product_code.in_(codes)))}
    found = []
    for line, label in zip(lines, labels):
        unit, amount = received.get(line["item_number"], (line["unit"], line["amount_base_milli"]))
        found += package_labels(label, line["amount_base_milli"], packages.get((line["product_code"], unit)), amount)
        if len(found) > PACKAGE_LABELS_MAX:
            raise Invalid(f"Document {doc_number} would need more than {PACKAGE_LABELS_MAX} labels per package: "
                          f"print one label per line instead.", {"per": ["Too many labels: print per line."]})
    return found


def package_labels(label: dict, base_milli: int, package: tuple[str, int, str] | None,
                   amount_milli: int) -> list[dict]:
    """One label per package a line was received in.

    A line scanned in a packaging unit (16 crates of 12) gets one label of that unit's barcode
    per whole package (16), and what is left beyond them (half a crate: 6 pc) one label of the
    base unit's barcode per base unit, as loose pieces are scanned one by one. A line scanned in
    the base unit gets one label per base unit; a weighed amount (2.5 kg), whole or left over,
    one label for all of it. `package`: (unit, base units in it in thousandths, barcode) of the
    packaging unit the line was scanned in, None for the base unit; `amount_milli` in that unit.
    """
    whole, loose, found = 0, base_milli, []
    if package is not None:
        unit, factor, barcode = package
        whole = amount_milli // 1000
        loose = base_milli - whole * factor
        found = [{**label, "unit": unit, "barcode": barcode}] * whole
    if loose > 0:
        found += [label] * (loose // 1000 if loose % 1000 == 0 else 1)
    return found


def location_labels(session, caller: Caller, id_warehouse: int, codes: list[str]) -> list[dict]:
    """The labels of a warehouse's locations, in walking order: the code large, the location's
    name (else the warehouse's), and the code as Code 128 (never EAN-13: a scanner must type
    back the code as it is, which a shelf's Code 128 does whatever its digits).

    Codes are matched in any case; one the warehouse does not have: Invalid naming `code`."""
    known = {locations.code_key(found["code"]): found for found in locations.list_locations(session, caller, id_warehouse)}
    if not codes:
        raise Invalid(say("Choose the locations to print labels for."), {"code": [say("Tick at least one location.")]})
    if len(codes) > LOCATION_LABELS_MAX:
        raise Invalid(say("At most %(count)s labels at once.", count=LOCATION_LABELS_MAX), {"code": [say("Too many locations chosen.")]})
    unknown = [code for code in codes if locations.code_key(code) not in known]
    if unknown:
        raise Invalid(say("No location %(code)r in warehouse %(number)s.", code=unknown[0], number=id_warehouse),
                      {"code": [say("Unknown location(s): %(codes)s.", codes=", ".join(unknown[:10]))]})
    chosen = {locations.code_key(code) for code in codes}
    return [{"product_code": found["code"], "name": found["name"], "unit": "", "barcode": found["code"],
             "lot": "", "date_exp": "", "symbology": CODE128}
            for key, found in known.items() if key in chosen]
