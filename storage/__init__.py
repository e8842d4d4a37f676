"""The database and what is kept beside it.

db.py: the Flask-SQLAlchemy object, the one way to write (db.writing: the
writers' lock, one transaction, the change mark), short reads (Reader), and
the SQLite/PostgreSQL set-up and fault translation. cache.py: keys and
products kept in memory, forgotten when any process writes (the change mark
file beside a SQLite database). outage.py: the database not answering, logged once
when it starts and once when it ends.

May import: stock.errors only (the named errors storage faults become);
nothing of the rules, routes, pages or operations.
"""
