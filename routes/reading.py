"""The request's reads: one pooled connection per request, and what is kept in memory between them."""
from flask import current_app, g

from storage.db import Reader, db


def reader():
    """The request's db.Reader (one pooled connection for its short reads), made when first needed."""
    if "reader" not in g:
        g.reader = Reader(db.engine)
    return g.reader


def close_reader(_error=None):
    reader = g.pop("reader", None)
    if reader is not None:
        reader.close()


def cached(key, load):
    """What load() reads from the database, kept in memory until the database changes (cache.py).

    The value is shared between requests and threads: answer it, never change it.
    """
    return current_app.extensions["warehouse_cache"].get(key, load)
