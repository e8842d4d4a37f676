"""Printing: barcode labels (PDF and ZPL) and paper for the day's work (DESIGN section 21).

Labels for products and goods-in documents, delivery notes, count sheets and pick lists are
drawn here from what the read functions of stock/ return; nothing here reads a request.

May import: stock/, storage/, models. Never routes/, pages/ or operations/.
"""
