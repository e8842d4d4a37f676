"""Printing from the office: product and goods-in labels (PDF, ZPL), delivery notes, count sheets.

What goes on the paper is printing/'s business; these views parse the address, call it, and
answer the bytes or render the page. An unknown product or document, or one of a warehouse the
key may not see, is the HTML 404 page, as on every other page.
"""
from datetime import date

from flask import current_app, g, render_template, request
from flask_babel import gettext

from language.choice import current
from language.formats import day_text
from pages import bp
from pages.common import file_answer, paper_language, safe_file_name
from pages.params import document_labels_query, label_query, load_args
from pages.signin import signed_in
from printing import labels, paper, zpl
from stock import catalog
from stock.errors import Invalid, say
from storage.db import db

COUNT_SHEET_BLANK_ROWS = 10  # for what is found on the shelf but not in the book


def _product_label(product_code: str) -> tuple[dict, dict]:
    query = load_args(label_query, request.args)
    product = catalog.get_product(db.session, product_code)
    date_exp = query["date_exp"].isoformat() if query["date_exp"] else ""
    return labels.product_label(product, query["unit"], query["lot"], date_exp), query


def label_words():
    """The labels' words ("Lot", "Best before") and their dates in the paper's language."""
    with paper_language():
        language = current()
        lot, best = gettext("Lot %(lot)s"), gettext("Best before %(day)s")

    def words(message: str, **values) -> str:
        if "day" in values:
            values["day"] = day_text(date.fromisoformat(values["day"]), language)
        return {"Lot %(lot)s": lot, "Best before %(day)s": best}.get(message, message) % values
    return words
@bp.get("/products/<code:product_code>/label.pdf")
@signed_in
def product_label_pdf(product_code):
    """A product's label as PDF: `copies` pages of the label size, or sheets of them on A4."""
    # label_pdf brings reportlab (about 7 MiB with what it loads): imported by the first PDF
    # asked for, not by every service that never prints one.
    from printing import label_pdf
    label, query = _product_label(product_code)
    body = label_pdf.labels_pdf([label] * query["copies"], current_app.config["LABEL_SIZE"],
                                sheet=query["sheet"] == "a4", title=f"Label {label['product_code']}",
                                words=label_words())
    return file_answer(body, "application/pdf", f"label-{safe_file_name(product_code)}.pdf")


@bp.get("/products/<code:product_code>/label.zpl")
@signed_in
def product_label_zpl(product_code):
    """A product's label as ZPL for a 203 dpi Zebra printer, `copies` printed by the printer."""
    label, query = _product_label(product_code)
    body = zpl.label_zpl(label, current_app.config["LABEL_SIZE"], query["copies"], label_words())
    return file_answer(body, "application/zpl", f"label-{safe_file_name(product_code)}.zpl")


@bp.get("/documents/<number:doc_number>/labels.pdf")
@signed_in
def goods_in_labels_pdf(doc_number):
    """A goods-in document's labels with each line's lot and best-before: one a line, or
    (`per=package`) one a package as the line was received."""
    from printing import label_pdf  # on the first PDF: see product_label_pdf
    query = load_args(document_labels_query, request.args)
    body = label_pdf.labels_pdf(labels.goods_in_labels(db.session, g.caller, doc_number, query["per"] == "package"),
                                current_app.config["LABEL_SIZE"], sheet=query["sheet"] == "a4",
                                title=f"Labels of document {doc_number}", words=label_words())
    return file_answer(body, "application/pdf", f"labels-{doc_number}.pdf")


@bp.get("/documents/<number:doc_number>/labels.zpl")
@signed_in
def goods_in_labels_zpl(doc_number):
    """The labels of a goods-in document as ZPL, one format each (copies of one printed by the printer)."""
    query = load_args(document_labels_query, request.args)
    if query["sheet"] is not None:
        raise Invalid(say("A Zebra prints labels from its roll, not on A4 sheets."), {"sheet": [say("Only for the PDF.")]})
    body = zpl.labels_zpl(labels.goods_in_labels(db.session, g.caller, doc_number, query["per"] == "package"),
                          current_app.config["LABEL_SIZE"], label_words())
    return file_answer(body, "application/zpl", f"labels-{doc_number}.zpl")


@bp.get("/documents/<number:doc_number>/delivery-note")
@signed_in
def delivery_note(doc_number):
    """The delivery note of a goods-out document, to print and have signed."""
    with paper_language():
        return render_template("delivery_note.html", **paper.delivery_note(db.session, g.caller, doc_number))


@bp.get("/warehouses/<number:id_warehouse>/count-sheet")
@signed_in
def count_sheet(id_warehouse):
    """The count sheet of a warehouse: its products and lots in book stock, a blank to write in."""
    with paper_language():
        return render_template("count_sheet.html", extra_rows=COUNT_SHEET_BLANK_ROWS,
                               **paper.count_sheet(db.session, g.caller, id_warehouse))
