"""The warehouse's rules, as plain functions on a SQLAlchemy session; nothing here knows HTTP.

What lives here, by section: orders.py (order documents and their filling),
posting.py (batches scanners report), balances.py (book stock, warehouse
documents and their numbering), stocktaking.py (counts and their adjustment
documents), catalog.py (products, packagings, customers), policy.py (the
depot's settings the rules obey), audit.py (the audit trail: who changed
what that is not a booking); stock that warns (DESIGN section 20): reorder.py (reorder
levels), alerts.py (low stock, expiring lots, and their events), picking.py (pick lists),
outbox.py (events written with their cause), webhooks.py (who is told); the read side: records.py (batches and
warehouse documents by number and filter), reports.py (inventory, movements,
stocktakings, overviews, the balance check), packages.py (stock counted in packaging
units); and what every layer shares:
quantities.py (amounts in thousandths) and errors.py (the named errors).

Every rule is given a stock.caller.Caller (a key or a person: its role and warehouses);
keys, people and their sessions are identity/'s, a floor above.

May import: models, storage/ (db.writing for every write), and each other,
downwards: posting uses orders, balances and stocktaking; stocktaking uses
balances. Never Flask, routes/, pages/, operations/ or schemas.
"""
