"""The database's copies: backups taken, checked, listed and found again; the depot's identity
they carry; the SQLite copy that backups, restores and upgrades all take.

  copies.py      a whole, consistent copy of a SQLite file (the online backup API)
  backups.py     where backups go, taking and checking one, the list of those kept
  postgresql.py  pg_dump and pg_restore, for a depot on PostgreSQL
  depot.py       the depot's identity (an id and a name) and reading it from a copy

Both `flask --app app backup` (operations/backups.py) and the page /admin/backups (pages/admin_backups.py)
take a backup through backups.py `make_backup`, so the two can never differ.

May import: stock/ (the balance check, the audit trail, the depot's setting names), storage/,
models. Never Flask, routes/, pages/ or operations/.
"""
