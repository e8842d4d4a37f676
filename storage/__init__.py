"""The database and what is kept beside it.

db.py: the Flask-SQLAlchemy object, the one way to write (db.writing: the
writers' lock, one transaction, the change mark), short reads (Reader), and
the SQLite/PostgreSQL set-up and fault translation. cache.py: keys and
products kept in memory, forgotten when any process writes (the change mark
file beside a SQLite database). outage.py: the database not answering, logged once
when it starts and once when it ends.

errors.py: the named errors storage faults become (the database gone, the disk full),
on storage's own floor.

May import: nothing of the project above it (not stock/, not even stock/errors.py, which
re-exports storage's errors); nothing of the rules, routes, pages or operations.
"""
