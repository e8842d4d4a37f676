"""Import and export: the depot's spreadsheets in and out (DESIGN section 19).

One module per file format (reading and writing CSV, XLSX; reading a camera's frame, for the browser
scanner) and one per kind of record
(products, packaging, customers, orders, reorder levels: which columns, how a row becomes a
change). A kind's module checks and applies its rows through the rules in stock/, in one
transaction, and reports every error with its row and column as a spreadsheet shows them.

May import: stock/, schemas/, storage/, models. Never routes/, pages/ or operations/: the API,
the pages and the `flask import` command all call in here.
"""
