"""Printing: barcode labels (PDF and ZPL) and paper for the day's work (DESIGN section 21).

Labels for products and goods-in documents, delivery notes, count sheets and pick lists are
drawn here from what the read functions of stock/ return; nothing here reads a request.

  barcodes.py    which symbology prints a barcode (EAN-13 or Code 128)
  labels.py      what a label carries, for a product or each line of a goods-in document
  layout.py      where things stand on a label, in millimetres; labels on A4 sheets
  label_pdf.py   labels as PDF (reportlab)
  zpl.py         labels as ZPL for 203 dpi Zebra printers
  paper.py       what a delivery note and a count sheet show

May import: stock/, storage/, models. Never routes/, pages/ or operations/.
"""
