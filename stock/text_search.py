"""Searching text alike on both databases: what a page's search box matches (ASCII letters in any case)."""
from sqlalchemy import func


def folded_column(session, column):
    """The column in lower case, folding ASCII letters only on both databases.

    PostgreSQL's lower() follows the collation (and would fold "Ä" where SQLite
    does not); under "C" it folds ASCII alone, as SQLite's lower() does.
    """
    postgresql = session.get_bind().dialect.name == "postgresql"
    return func.lower(column.collate("C")) if postgresql else func.lower(column)


def ascii_lower(text: str) -> str:
    """The searched text folded as `folded_column` folds the column: ASCII letters only."""
    return "".join(ch.lower() if ch.isascii() else ch for ch in text)
