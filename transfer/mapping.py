"""The office's own column names (`Code`, `Description`, `EAN`) mapped to a kind's columns.

A mapping is {header as written in the file: column of the kind, or "" to ignore that column}.
The import page asks for one when a file has headers the kind does not know, and remembers it
per kind (table import_columns, each change in the audit trail as `import.mapping`), so the
next file of that kind needs no question. The API and `flask import` are given one with the
file and never use the remembered one: what a script imports does not change because someone
used the page.
"""
from sqlalchemy import select

from models import ImportColumn
from stock import audit
from storage.db import writing

IGNORED = ""
HEADER_LENGTH = 200


def normal(header: str) -> str:
    """A header as matched: surrounding spaces and case do not count."""
    return str(header).strip().lower()


def remembered(session, kind: str) -> dict[str, str]:
    """{header (normal form): column or IGNORED} kept for the kind."""
    rows = session.scalars(select(ImportColumn).where(ImportColumn.kind == kind))
    return {row.header: row.field for row in rows}


def remember(session, actor: audit.Actor, kind: str, mapping: dict[str, str]) -> dict:
    """Keep a file's mapping for the kind's next files, in one write; the changes, also audited.

    A header mapped to the column of its own name needs no entry: one kept for it is dropped.
    """
    changes = {}
    with writing(session):
        kept = {row.header: row for row in session.scalars(select(ImportColumn).where(ImportColumn.kind == kind))}
        for header, column in mapping.items():
            key = normal(header)
            if not key or len(key) > HEADER_LENGTH:  # a longer one maps this file only
                continue
            row = kept.get(key)
            before = None if row is None else row.field
            after = None if column == key else column
            if before == after:
                continue
            changes[key] = [before, after]
            if after is None:
                session.delete(row)
            elif row is None:
                session.add(ImportColumn(kind=kind, header=key, field=after))
            else:
                row.field = after
        if changes:
            audit.record(session, actor, "import.mapping", kind, changes)
    return changes
