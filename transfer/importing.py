"""One import: read the file, match its header to the kind's columns, try every row in one
write transaction, and report. Nothing is kept when any row is refused or on a dry run.

The kinds are registered below (KINDS): a kind is one module with a `KIND` object (see
products.py for the shape): its columns, `apply(context, rows)` and `export(session, caller)`.
"""
from dataclasses import dataclass, field

from stock import audit
from stock.errors import ServiceError
from storage.db import writing
from transfer import csv_format, customers, orders, packaging, products, reorder_levels, xlsx_format
from transfer.columns import NOT_GIVEN, CellError, convert
from transfer.table import FileRefused, column_letter

KINDS = {kind.name: kind for kind in (products.KIND, packaging.KIND, customers.KIND, orders.KIND,
                                       reorder_levels.KIND)}
MAX_FILE_BYTES = 50 * 1024 * 1024


@dataclass
class Report:
    """What an import did or would do: counts, each record's outcome, and every error."""

    created: int = 0
    updated: int = 0
    unchanged: int = 0
    errors: list = field(default_factory=list)  # {row, column, message}, by row
    outcomes: list = field(default_factory=list)  # (row, record, "created"|"updated"|"unchanged")

    def answer(self) -> dict:
        return {"created": self.created, "updated": self.updated, "unchanged": self.unchanged,
                "errors": sorted(self.errors, key=lambda e: (e["row"], e["column"]))}


class Context:
    """What a kind's `apply` is given: the session, the caller, the header, and the report."""

    def __init__(self, session, caller, columns: dict, report: Report, progress, actor: audit.Actor):
        self.session, self.caller, self.report, self.actor = session, caller, report, actor
        self.columns = columns  # field name -> header as written in the file
        self._progress = progress

    def given(self, name: str) -> bool:
        return name in self.columns

    def column(self, name: str) -> str:
        return self.columns.get(name, name)

    def error(self, row: int, name: str, message: str) -> None:
        """An error in a row, at the column of field `name` ("" for the row as a whole)."""
        self.report.errors.append({"row": row, "column": self.column(name) if name else "",
                                   "message": message})

    def schema_errors(self, row: int, messages, prefix: str = "") -> None:
        """marshmallow's messages ({field: [text]} or nested) as errors of the row."""
        if isinstance(messages, list):
            for message in messages:
                self.error(row, prefix.rstrip("_"), str(message))
            return
        for name, inner in messages.items():
            if name == "_schema":
                self.schema_errors(row, inner, prefix)
            else:
                self.schema_errors(row, inner, f"{prefix}{name}_")

    def refused(self, row: int, error: ServiceError) -> None:
        """A rule's refusal: at the column its fields name, else for the row."""
        fields = (error.fields or {}).get("data", error.fields or {})
        if isinstance(fields, dict) and fields:
            name, messages = next(iter(fields.items()))
            if isinstance(messages, list) and name in self.columns:
                self.error(row, name, messages[0] if messages else error.message)
                return
        self.error(row, "", error.message)

    def outcome(self, row: int, record: str, what: str) -> None:
        setattr(self.report, what, getattr(self.report, what) + 1)
        self.report.outcomes.append((row, record, what))

    def progress(self, done: int = 1) -> None:
        if self._progress is not None:
            self._progress(done)


class _RolledBack(Exception):
    """Ends the write transaction without keeping it (a dry run, or refused rows)."""


def read_table(file, filename: str, kind: str):
    """The file as a Table, by what it holds (an .xlsx is a zip archive), not by its name."""
    head = file.read(8)
    file.seek(0)
    if not head:
        raise FileRefused("The file is empty.")
    if head.startswith(xlsx_format.MAGIC):
        return xlsx_format.read(file, kind)
    if head.startswith(b"\xd0\xcf\x11\xe0"):
        raise FileRefused("An old Excel .xls workbook: save it as .xlsx or CSV first.")
    if filename.lower().endswith(".xlsx"):
        raise FileRefused("Not a readable XLSX workbook.")
    return csv_format.read(file.read())


def run(session, kind_name: str, file, filename: str = "", actor: audit.Actor | None = None,
        caller=None, dry_run: bool = False, progress=None, on_rows=None) -> Report:
    """Import `file` (a binary file object) as records of one kind; the report says what happened.

    `progress(n)` is called as rows are done; `on_rows(count)` once the rows are known.
    """
    kind = KINDS[kind_name]
    report = Report()
    try:
        table = read_table(file, filename, kind.name)
    except FileRefused as refused:
        report.errors.append({"row": refused.row, "column": refused.column, "message": refused.message})
        return report
    columns = match_header(kind, table, report)
    if report.errors:
        return report
    if not table.rows:
        report.errors.append({"row": table.header_row, "column": "",
                              "message": "The file has a header row but no rows below it."})
        return report
    rows = read_rows(kind, table, columns, report)
    if on_rows is not None:
        on_rows(len(table.rows))
    actor = actor or audit.cli_actor()
    context = Context(session, caller, {name: table.header[index] for name, index in columns.items()},
                      report, progress, actor)
    try:
        with writing(session):
            kind.apply(context, rows)
            if report.errors or dry_run:
                raise _RolledBack
            # The warehouses the rows name (orders, reorder levels); none for what every warehouse shares.
            audit.record(session, actor, f"import.{kind.name}", filename, {
                "created": [None, report.created], "updated": [None, report.updated],
                "unchanged": [None, report.unchanged]},
                reach=frozenset(fields["id_warehouse"] for _, fields in rows if "id_warehouse" in fields))
    except _RolledBack:
        pass
    return report


def match_header(kind, table, report: Report) -> dict:
    """{field name: index of its column}; unknown, repeated and missing columns are errors."""
    columns, seen = {}, {}
    for index, text in enumerate(table.header):
        name = text.strip().lower()
        if not name:
            continue
        if name in seen:
            report.errors.append({"row": table.header_row, "column": text, "message":
                                  f"The column appears twice (columns {column_letter(seen[name])} "
                                  f"and {column_letter(index)})."})
            continue
        seen[name] = index
        if kind.column(name) is None:
            report.errors.append({"row": table.header_row, "column": text, "message":
                                  f"Unknown column; {kind.name} has the columns "
                                  f"{', '.join(kind.column_names())}."})
            continue
        columns[name] = index
    for column in kind.columns:
        if column.required and column.name not in columns:
            report.errors.append({"row": table.header_row, "column": column.name,
                                  "message": "This column is required."})
    return columns


def read_rows(kind, table, columns: dict, report: Report) -> list:
    """(row number, {field: value}) for each row; a cell that is no value of its column is an error."""
    rows = []
    named = set(columns.values())
    for number, values in table.rows:
        fields, bad = {}, False
        for name, index in columns.items():
            value = values[index] if index < len(values) else None
            try:
                value = convert(kind.column(name), value, table.decimal_comma)
            except CellError as error:
                report.errors.append({"row": number, "column": table.header[index], "message": str(error)})
                bad = True
                continue
            if value is not NOT_GIVEN:
                fields[name] = value
        for index, value in enumerate(values):
            if index not in named and value not in (None, "") and not str(value).isspace():
                report.errors.append({"row": number, "column": column_letter(index),
                                      "message": "A value in a column without a header name."})
                bad = True
        if not bad:
            rows.append((number, fields))
    return rows
