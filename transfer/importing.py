"""One import: read the file, match its header to the kind's columns (through a mapping of
the office's own column names, where one is given), try every row in one write transaction,
and report. Nothing is kept when any row is refused or on a dry run.

The kinds are registered below (KINDS): a kind is one module with a `KIND` object (see
products.py for the shape): its columns, `apply(context, rows)` and `export(session, caller)`.
Each error of a row names the row's record (its code, number...) and echoes the cell refused,
so that a person finds it in a file of thousands of rows.
"""
from dataclasses import dataclass, field

from stock import audit
from stock.errors import ServiceError, say
from storage.db import writing
from transfer import (csv_format, customers, encodings, locations, ods_format, orders, packaging, products,
                      reorder_levels, xlsx_format)
from transfer.columns import NOT_GIVEN, CellError, as_text, convert
from transfer.mapping import IGNORED, normal
from transfer.table import FileRefused, column_letter

KINDS = {kind.name: kind for kind in (products.KIND, packaging.KIND, customers.KIND, orders.KIND,
                                       reorder_levels.KIND, locations.KIND)}
MAX_FILE_BYTES = 50 * 1024 * 1024
PREVIEW_ROWS = 5  # the first rows, and as many more with accented names, for the encoding's check
SAMPLES = 3  # values shown of each column where the page asks what a column holds


@dataclass
class Reading:
    """How a file was read, for the person checking it: its format and a CSV's encoding, the
    columns a mapping decided, and a preview of its records' names."""

    format: str
    encoding: str | None
    encoding_detected: bool
    mapped: list = field(default_factory=list)  # (header as written, column or IGNORED)
    preview: list = field(default_factory=list)  # {row, record, label}


@dataclass
class Report:
    """What an import did or would do: counts, each record's outcome, and every error."""

    created: int = 0
    updated: int = 0
    unchanged: int = 0
    # {row, column, message}, and for an error in a row its `record` and the `value` refused
    errors: list = field(default_factory=list)
    outcomes: list = field(default_factory=list)  # (row, record, "created"|"updated"|"unchanged")
    reading: Reading | None = None

    def sorted_errors(self) -> list:
        return sorted(self.errors, key=lambda e: (e["row"], e["column"]))

    def answer(self) -> dict:
        """The report as the API has always answered it: each error's row, column and message."""
        return {"created": self.created, "updated": self.updated, "unchanged": self.unchanged,
                "errors": [{"row": e["row"], "column": e["column"], "message": e["message"]}
                           for e in self.sorted_errors()]}


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
                self.error(row, prefix.rstrip("_"), message)
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


def read_table(file, filename: str, kind: str, encoding: str | None = None, language: str | None = None):
    """The file as a Table, by what it holds (an .xlsx or .ods is a zip archive), not by its name.

    `encoding` is a CSV's (transfer/encodings.py); None finds it, the depot's `language` settling
    a code page the bytes leave open.
    """
    head = file.read(8)
    file.seek(0)
    if not head:
        raise FileRefused(say("The file is empty."))
    if head.startswith(xlsx_format.MAGIC):
        found = ods_format.kind_of_zip(file)
        if found == "ods":
            return ods_format.read(file, kind)
        if found == "odf":
            raise FileRefused(say("An OpenDocument that is not a spreadsheet: save the list as .ods, .xlsx or CSV."))
        return xlsx_format.read(file, kind)
    if head.startswith(b"\xd0\xcf\x11\xe0"):
        raise FileRefused(say("An old Excel .xls workbook: save it as .xlsx or CSV first."))
    if filename.lower().endswith(".xlsx"):
        raise FileRefused(say("Not a readable XLSX workbook."))
    if filename.lower().endswith(".ods"):
        raise FileRefused(say("Not a readable ODS spreadsheet."))
    return csv_format.read(file.read(), encoding, language)


def run(session, kind_name: str, file, filename: str = "", actor: audit.Actor | None = None,
        caller=None, dry_run: bool = False, progress=None, on_rows=None, encoding: str | None = None,
        mapping: dict | None = None, language: str | None = None) -> Report:
    """Import `file` (a binary file object) as records of one kind; the report says what happened.

    `encoding`: a CSV's, None to find it. `mapping`: {header as in the file: column of the kind,
    or "" to ignore it}; without one an unknown column is an error.
    `progress(n)` is called as rows are done; `on_rows(count)` once the rows are known.
    """
    try:
        table = read_table(file, filename, kind_name, encoding, language)
    except FileRefused as refused:
        report = Report()
        report.errors.append({"row": refused.row, "column": refused.column, "message": refused.message})
        return report
    return run_table(session, kind_name, table, filename, actor, caller, dry_run, progress, on_rows, mapping)


def run_table(session, kind_name: str, table, filename: str = "", actor: audit.Actor | None = None,
              caller=None, dry_run: bool = False, progress=None, on_rows=None, mapping: dict | None = None) -> Report:
    """The import of a file already read (read_table), as `run`."""
    kind = KINDS[kind_name]
    report = Report()
    columns, ignored, mapped = match_header(kind, table, report, mapping or {})
    report.reading = Reading(table.format, table.encoding, table.encoding_detected, mapped,
                             preview(kind, table, columns))
    if report.errors:
        return report
    if not table.rows:
        report.errors.append({"row": table.header_row, "column": "",
                              "message": say("The file has a header row but no rows below it.")})
        return report
    rows = read_rows(kind, table, columns, ignored, report)
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
    describe_errors(report, kind, table, columns)
    return report


def unknown_headers(kind_name: str, table, mapping: dict) -> list[str]:
    """The file's headers that are no column of the kind and that the mapping does not name."""
    kind, named = KINDS[kind_name], {normal(header) for header in mapping}
    return [text for text in table.header if normal(text) and normal(text) not in named
            and kind.column(normal(text)) is None and normal(text) not in kind.informational]


def match_header(kind, table, report: Report, mapping: dict) -> tuple[dict, set, list]:
    """({column: index of the file's column holding it}, indexes of columns ignored, the mapping's
    decisions as (header, column)); unknown, repeated and missing columns are errors."""
    mapping = {normal(header): column for header, column in mapping.items()}
    columns, seen, ignored, mapped = {}, {}, set(), []
    for index, text in enumerate(table.header):
        name = normal(text)
        if not name:
            continue
        if name in seen:
            report.errors.append({"row": table.header_row, "column": text, "message":
                                  say("The column appears twice (columns %(first)s and %(second)s).",
                                      first=column_letter(seen[name]), second=column_letter(index))})
            continue
        seen[name] = index
        target = mapping.get(name, name)
        if name in mapping and target != name:
            mapped.append((text, target))
        if target == IGNORED or target in kind.informational:
            ignored.add(index)
            continue
        if kind.column(target) is None:
            report.errors.append({"row": table.header_row, "column": text, "message":
                                  say("Mapped to %(target)r, which is no column of %(kind)s; %(kind)s has the "
                                      "columns %(columns)s. Map it to one of them, or ignore it.", target=target,
                                      kind=kind.name, columns=", ".join(kind.column_names()))
                                  if name in mapping else
                                  say("Unknown column; %(kind)s has the columns %(columns)s. Map it to one of them, "
                                      "or ignore it.", kind=kind.name, columns=", ".join(kind.column_names()))})
            continue
        if target in columns:
            first = table.header[columns[target]]
            report.errors.append({"row": table.header_row, "column": text, "message":
                                  say("Both %(first)r and %(second)r would be the column %(target)s.", first=first,
                                      second=text, target=target)})
            continue
        columns[target] = index
    for column in kind.columns:
        if column.required and column.name not in columns:
            report.errors.append({"row": table.header_row, "column": column.name,
                                  "message": say("This column is required.")})
    return columns, ignored, mapped


def read_rows(kind, table, columns: dict, ignored: set, report: Report) -> list:
    """(row number, {field: value}) for each row; a cell that is no value of its column is an error."""
    rows = []
    named = set(columns.values()) | ignored
    for number, values in table.rows:
        fields, bad = {}, False
        for name, index in columns.items():
            value = values[index] if index < len(values) else None
            try:
                value = convert(kind.column(name), value, table.decimal_comma)
            except CellError as error:
                report.errors.append({"row": number, "column": table.header[index], "message": error.args[0]})
                bad = True
                continue
            if value is not NOT_GIVEN:
                fields[name] = value
        for index, value in enumerate(values):
            if index not in named and value not in (None, "") and not str(value).isspace():
                report.errors.append({"row": number, "column": column_letter(index),
                                      "message": say("A value in a column without a header name.")})
                bad = True
        if not bad:
            rows.append((number, fields))
    return rows


def record_of(kind, columns: dict, values: list) -> str:
    """Which record a row is, as the file says: "MILK", "PO-7 / 2"."""
    parts = [as_text(values[columns[name]]).strip() for name in kind.record
             if name in columns and columns[name] < len(values)]
    return " / ".join(part for part in parts if part)


def describe_errors(report: Report, kind, table, columns: dict) -> None:
    """Give each error of a row the row's record and the cell's value as the file holds it."""
    if not report.errors:
        return
    cells = dict(table.rows)
    where = {}
    for index, text in enumerate(table.header):
        where.setdefault(text, index)
    for index in range(max((len(values) for values in cells.values()), default=0)):
        where.setdefault(column_letter(index), index)  # a value in a column without a header
    for error in report.errors:
        values = cells.get(error["row"])
        if values is None:
            continue
        error["record"] = record_of(kind, columns, values)
        index = where.get(error["column"])
        if error["column"] and index is not None:
            error["value"] = as_text(values[index] if index < len(values) else None)


def preview(kind, table, columns: dict) -> list[dict]:
    """The first rows' records and names, then rows whose names hold accented letters: what a
    wrong encoding shows wrong (`Èokolada`) before anything is written."""
    if kind.label not in columns:
        return []
    index = columns[kind.label]

    def line(number, values):
        label = as_text(values[index] if index < len(values) else None)
        return {"row": number, "record": record_of(kind, columns, values), "label": label}

    shown = [line(number, values) for number, values in table.rows[:PREVIEW_ROWS]]
    if any(encodings.has_accents(shown_line["label"]) for shown_line in shown):
        return shown
    for number, values in table.rows[PREVIEW_ROWS:]:
        if encodings.has_accents(as_text(values[index] if index < len(values) else None)):
            shown.append(line(number, values))
            if len(shown) == 2 * PREVIEW_ROWS:
                break
    return shown


def samples(table) -> list[list[str]]:
    """The first few different values of each of the file's columns, as text."""
    found = [[] for _ in table.header]
    for _, values in table.rows:
        for index, value in enumerate(values[:len(found)]):
            text = as_text(value).strip()
            if text and len(found[index]) < SAMPLES and text not in found[index]:
                found[index].append(text)
        if all(len(column) == SAMPLES for column in found):
            break
    return found
