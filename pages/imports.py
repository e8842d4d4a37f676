"""The import page (/admin/import, role admin): upload a file, see how it was read and its dry
run, then apply it.

Each step posts the page's form with its `step`:
- check: a file uploaded. When it has columns the kind does not know and the mapping remembered
  for the kind does not name, the page asks what each holds (below); else the dry run: its
  errors first, each naming its row's record and the value refused and linked to the row; then
  how the file was read (a CSV's encoding, the first names as read, the columns mapped); then
  every row, one line each.
- columns: ask again what each column holds (to change the mapping used).
- map: the answer, remembered for the kind's next files (transfer/mapping.py), then the dry run.
- encoding: the CSV read again in the encoding chosen, then the dry run.
- apply: the file imported as its last dry run read it.

Between the steps the file waits in a private folder of the system's temporary directory,
named by a random token that only this session's cookie holds (each form posts it back and
it must match), with what the steps decided (kind, name, encoding, mapping) beside it in
`<token>.json`. A file is read from nowhere else, is deleted once applied or when the session
checks another, and any left over for more than an hour is deleted at the next upload. The
exports of each kind, in the import's columns, are downloaded from the same page.
"""
import json
import os
import re
import secrets
import tempfile
import time

from flask import Response, abort, g, render_template, request, session, stream_with_context
from flask_babel import gettext as _

from language.choice import depot_language
from pages import bp
from pages.common import download_format, page_actor
from pages.signin import check_form_post, signed_in
from storage.db import db
from transfer import encodings, exporting, importing, mapping as column_mapping
from transfer.table import FileRefused

FOLDER = os.path.join(tempfile.gettempdir(), "warehouse-imports")
TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")
KEPT_FILE = re.compile(r"[A-Za-z0-9_-]{32}(\.json)?")
KEEP_SECONDS = 3600
SHOWN_ROWS = 1000  # outcomes listed on the page; every error is listed whatever their number
CHOOSE = "?"  # the mapping step's "not chosen yet"
GONE = "The checked file is no longer here: upload it again."


def require_admin() -> None:
    if not g.caller.has_role("admin"):
        abort(403, "The import page needs the admin role.")


@bp.get("/admin/import")
@signed_in
def import_page():
    """The upload form, and the exports of each kind."""
    require_admin()
    return render_template("import.html", kinds=list(importing.KINDS), kind=request.args.get("kind", "products"))


@bp.post("/admin/import")
@signed_in
def import_post():
    """One step of an import: check an upload, map its columns, choose its encoding, apply it."""
    require_admin()
    request.max_content_length = importing.MAX_FILE_BYTES
    check_form_post()
    step = request.form.get("step", "check")
    if step == "check":
        return _check_upload()
    kept = _kept()
    if kept is None:
        return _page(error=GONE, status=409)
    if step == "columns":
        return _show(kept, ask_columns=True)
    if step == "map":
        return _map_columns(kept)
    if step == "encoding":
        if request.form.get("encoding") not in encodings.NAMES:
            return _show(kept, encoding_error=_("Choose one of the encodings listed."))
        kept["encoding"] = request.form["encoding"]
        _save(kept)
        return _show(kept)
    if step == "apply":
        return _apply(kept)
    return _page(error=_("Unknown step; upload the file again."), status=422)


@bp.get("/admin/export/<any(" + ", ".join(importing.KINDS) + "):kind>")
@signed_in
def export_page(kind):
    """A kind's records in the import's columns, as CSV or XLSX."""
    require_admin()
    format, separator, comma = download_format()
    header, rows = importing.KINDS[kind].export(db.session, g.caller)
    media, filename, pieces = exporting.export(kind, header, rows, format, separator, comma)
    return Response(stream_with_context(pieces), content_type=media,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def _check_upload():
    kind = request.form.get("kind", "")
    upload = request.files.get("file")
    if kind not in importing.KINDS:
        return _page(error=_("Choose what the file holds."), status=422)
    if upload is None or not upload.filename:
        return _page(kind=kind, error=_("Choose a file to upload."), status=422)
    _forget()
    os.makedirs(FOLDER, mode=0o700, exist_ok=True)
    _sweep()
    kept = {"token": secrets.token_urlsafe(24), "kind": kind, "name": os.path.basename(upload.filename),
            "encoding": None, "mapping": None}
    upload.save(_path(kept["token"]))
    _save(kept)
    session["import"] = {"token": kept["token"]}
    return _show(kept)


def _show(kept: dict, ask_columns: bool = False, column_errors: dict | None = None, choices: dict | None = None,
          encoding_error: str = ""):
    """The file read as the steps decided: its columns asked for, or its dry run."""
    try:
        table = _read(kept)
    except FileRefused as refused:
        report = importing.Report(errors=[{"row": refused.row, "column": refused.column, "message": refused.message}])
        if kept["encoding"] is not None:  # a CSV not in the encoding chosen: offer the others
            report.reading = importing.Reading("csv", kept["encoding"], False)
        return _page(kept=kept, report=report, status=422)
    mapping = kept["mapping"] if kept["mapping"] is not None else column_mapping.remembered(db.session, kept["kind"])
    unknown = importing.unknown_headers(kept["kind"], table, mapping)
    if unknown or ask_columns or column_errors:
        return _page(kept=kept, table=table, asking=_asking(kept["kind"], table, mapping, unknown, choices),
                     column_errors=column_errors or {}, encoding_error=encoding_error,
                     status=422 if column_errors else 200)
    named = {column_mapping.normal(header): column for header, column in mapping.items()}
    kept["mapping"] = {header: named[column_mapping.normal(header)] for header in table.header
                       if column_mapping.normal(header) in named}
    _save(kept)
    report = importing.run_table(db.session, kept["kind"], table, kept["name"], caller=g.caller, dry_run=True,
                                 mapping=kept["mapping"])
    return _page(kept=kept, report=report, encoding_error=encoding_error,
                 status=422 if report.errors or encoding_error else 200)


def _map_columns(kept: dict):
    """The columns chosen: checked, remembered for the kind, then the dry run."""
    try:
        table = _read(kept)
    except FileRefused:
        return _show(kept)
    kind = importing.KINDS[kept["kind"]]
    allowed = set(kind.choices(_groups(kind, table)))
    chosen, errors, holder = {}, {}, {}
    for index, header in enumerate(table.header):
        if not column_mapping.normal(header):
            continue
        column = request.form.get(f"column_{index}", CHOOSE)
        chosen[index] = column
        if column == CHOOSE:
            errors[index] = _("Choose what this column holds, or ignore it.")
        elif column != column_mapping.IGNORED and column not in allowed:
            errors[index] = _("Not a column of %(kind)s.", kind=kind.name)
        elif column != column_mapping.IGNORED and column in holder:
            errors[index] = _("%(header)s holds %(column)s already.", header=repr(table.header[holder[column]]),
                               column=column)
        elif column != column_mapping.IGNORED:
            holder[column] = index
    missing = [column.name for column in kind.columns if column.required and column.name not in holder]
    if missing and not errors:
        errors[""] = _("Choose the column that holds %(columns)s: %(kind)s needs it.", columns=", ".join(missing),
                         kind=kind.name)
    if errors:
        return _show(kept, column_errors=errors, choices=chosen)
    mapping = {table.header[index]: column for index, column in chosen.items()}
    column_mapping.remember(db.session, page_actor(), kept["kind"], mapping)
    kept["mapping"] = mapping
    _save(kept)
    return _show(kept)


def _apply(kept: dict):
    with open(_path(kept["token"]), "rb") as file:
        report = importing.run(db.session, kept["kind"], file, kept["name"], actor=page_actor(), caller=g.caller,
                               encoding=kept["encoding"], mapping=kept["mapping"] or {}, language=depot_language())
    if not report.errors:
        _forget()
    return _page(kept=kept, report=report, applied=not report.errors, status=422 if report.errors else 200)


def _read(kept: dict):
    with open(_path(kept["token"]), "rb") as file:
        return importing.read_table(file, kept["name"], kept["kind"], kept["encoding"], depot_language())


def _groups(kind, table) -> int:
    """How many numbered groups (products' packaging) the mapping step offers: three more than the file has."""
    if kind.numbered is None:
        return 0
    found = [int(match[1]) for match in (kind.numbered[0].fullmatch(column_mapping.normal(h)) for h in table.header)
             if match]
    return max(found, default=0) + 3


def _asking(kind_name: str, table, mapping: dict, unknown: list, choices: dict | None) -> list[dict]:
    """Each of the file's named columns with its first values and what it holds so far."""
    kind = importing.KINDS[kind_name]
    named = {column_mapping.normal(header): column for header, column in mapping.items()}
    samples = importing.samples(table)
    offered = kind.choices(_groups(kind, table))
    lines = []
    for index, header in enumerate(table.header):
        name = column_mapping.normal(header)
        if not name:
            continue
        if choices is not None and index in choices:
            holds = choices[index]
        elif name in named:
            holds = named[name]
        else:
            holds = name if kind.column(name) is not None else CHOOSE
        lines.append({"index": index, "header": header, "samples": samples[index], "holds": holds,
                      "unknown": header in unknown, "offered": offered})
    return lines


def _page(kept: dict | None = None, kind: str = "products", report=None, table=None, asking=None,
          column_errors=None, applied: bool = False, error: str = "", encoding_error: str = "", status: int = 200):
    kept = kept or {}
    lines = _lines(report) if report is not None else []
    reading = report.reading if report is not None else None
    if reading is None and table is not None:
        reading = importing.Reading(table.format, table.encoding, table.encoding_detected)
    shown = lines[:SHOWN_ROWS] + [line for line in lines[SHOWN_ROWS:] if line["errors"]]
    return render_template(
        "import.html", kinds=list(importing.KINDS), kind=kept.get("kind", kind), name=kept.get("name", ""),
        report=report, errors=report.sorted_errors() if report is not None else [], reading=reading,
        encodings=encodings.NAMES, asking=asking, column_errors=column_errors or {}, lines=shown,
        more=len(lines) - len(shown), token=kept.get("token") if not applied else None, applied=applied,
        error=error, encoding_error=encoding_error), status


def _lines(report) -> list[dict]:
    """One line per row of the file that the report speaks of: its record, outcome and errors."""
    by_row: dict[int, dict] = {}
    for row, record, outcome in report.outcomes:
        by_row.setdefault(row, {"row": row, "record": "", "outcome": "", "errors": []}).update(
            record=record, outcome=outcome)
    for error in report.sorted_errors():
        line = by_row.setdefault(error["row"], {"row": error["row"], "record": "", "outcome": "", "errors": []})
        line["errors"].append(error)
        line["record"] = line["record"] or error.get("record", "")
    return [by_row[row] for row in sorted(by_row)]


def _path(token: str) -> str:
    return os.path.join(FOLDER, token)


def _kept() -> dict | None:
    """What this session checked last, when the form names it and it is still here; else None."""
    token = (session.get("import") or {}).get("token", "")
    if not TOKEN.fullmatch(token or "") or request.form.get("file_token") != token:
        return None
    try:
        with open(_path(token) + ".json", encoding="utf-8") as file:
            kept = json.load(file)
    except (OSError, ValueError):
        return None
    if not os.path.exists(_path(token)) or kept.get("kind") not in importing.KINDS:
        return None
    return {**kept, "token": token}


def _save(kept: dict) -> None:
    with open(_path(kept["token"]) + ".json", "w", encoding="utf-8") as file:
        json.dump({key: kept[key] for key in ("kind", "name", "encoding", "mapping")}, file)


def _forget() -> None:
    """The file this session checked before, and what was decided about it, deleted."""
    token = (session.pop("import", None) or {}).get("token", "")
    if TOKEN.fullmatch(token or ""):
        for path in (_path(token), _path(token) + ".json"):
            try:
                os.remove(path)
            except FileNotFoundError:
                pass


def _sweep() -> None:
    """Files of dry runs never applied go after an hour."""
    now = time.time()
    for entry in os.scandir(FOLDER):
        try:
            if KEPT_FILE.fullmatch(entry.name) and now - entry.stat().st_mtime > KEEP_SECONDS:
                os.remove(entry.path)
        except OSError:
            pass
