"""The import page (/admin/import, role admin): upload a file, see its dry run, then apply it.

Between the two steps the file waits in a private folder of the system's temporary directory,
named by a random token that only this session's cookie holds (the form posts it back and must
match). A file is read from nowhere else, is deleted once applied, and any left over for more
than an hour (a dry run never applied) is deleted at the next upload. The exports of each
kind, in the import's columns, are downloaded from the same page.
"""
import os
import re
import secrets
import tempfile
import time

from flask import Response, abort, g, render_template, request, session, stream_with_context

from pages import bp
from pages.common import page_actor
from pages.signin import check_form_post, signed_in
from storage.db import db
from transfer import exporting, importing

FOLDER = os.path.join(tempfile.gettempdir(), "warehouse-imports")
TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")
KEEP_SECONDS = 3600
SHOWN_ROWS = 1000  # outcomes listed on the page; every error is listed whatever their number


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
    """`check`: keep the file and show its dry run. `apply`: import the file kept."""
    require_admin()
    request.max_content_length = importing.MAX_FILE_BYTES
    check_form_post()
    kept = session.get("import") or {}
    if request.form.get("step") == "apply":
        if not kept or request.form.get("file_token") != kept.get("token") or not TOKEN.fullmatch(kept["token"]):
            return _page(error="The checked file is no longer here: upload it again.", status=409)
        path = os.path.join(FOLDER, kept["token"])
        if not os.path.exists(path):
            return _page(error="The checked file is no longer here: upload it again.", status=409)
        with open(path, "rb") as file:
            report = importing.run(db.session, kept["kind"], file, kept["name"], actor=page_actor(), caller=g.caller)
        if not report.errors:
            _forget(kept)
        return _page(kind=kept["kind"], name=kept["name"], report=report, applied=not report.errors)
    kind = request.form.get("kind", "")
    upload = request.files.get("file")
    if kind not in importing.KINDS:
        return _page(error="Choose what the file holds.", status=422)
    if upload is None or not upload.filename:
        return _page(kind=kind, error="Choose a file to upload.", status=422)
    _forget(kept)
    token = secrets.token_urlsafe(24)
    os.makedirs(FOLDER, mode=0o700, exist_ok=True)
    _sweep()
    path = os.path.join(FOLDER, token)
    upload.save(path)
    name = os.path.basename(upload.filename)
    with open(path, "rb") as file:
        report = importing.run(db.session, kind, file, name, caller=g.caller, dry_run=True)
    if report.errors:
        os.remove(path)
        session.pop("import", None)
    else:
        session["import"] = {"token": token, "kind": kind, "name": name}
    return _page(kind=kind, name=name, report=report, token=None if report.errors else token,
                 status=422 if report.errors else 200)


@bp.get("/admin/export/<any(" + ", ".join(importing.KINDS) + "):kind>")
@signed_in
def export_page(kind):
    """A kind's records in the import's columns, as CSV or XLSX."""
    require_admin()
    format = request.args.get("format", "csv")
    header, rows = importing.KINDS[kind].export(db.session, g.caller)
    media, filename, pieces = exporting.export(kind, header, rows, format if format in exporting.FORMATS else "csv")
    return Response(stream_with_context(pieces), content_type=media,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def _page(kind="products", name="", report=None, token=None, applied=False, error="", status=200):
    lines = _lines(report) if report is not None else []
    return render_template("import.html", kinds=list(importing.KINDS), kind=kind, name=name, report=report,
                           lines=lines[:SHOWN_ROWS] + [line for line in lines[SHOWN_ROWS:] if line["errors"]],
                           more=max(0, len([line for line in lines[SHOWN_ROWS:] if not line["errors"]])),
                           token=token, applied=applied, error=error), status


def _lines(report) -> list[dict]:
    """One line per row of the file that the report speaks of: its record, outcome and errors."""
    by_row: dict[int, dict] = {}
    for row, record, outcome in report.outcomes:
        by_row.setdefault(row, {"row": row, "record": "", "outcome": "", "errors": []}).update(
            record=record, outcome=outcome)
    for error in report.answer()["errors"]:
        by_row.setdefault(error["row"], {"row": error["row"], "record": "", "outcome": "", "errors": []})[
            "errors"].append(error)
    return [by_row[row] for row in sorted(by_row)]


def _forget(kept: dict) -> None:
    token = kept.get("token", "")
    if TOKEN.fullmatch(token or ""):
        try:
            os.remove(os.path.join(FOLDER, token))
        except FileNotFoundError:
            pass
    session.pop("import", None)


def _sweep() -> None:
    """Files of dry runs never applied go after an hour."""
    now = time.time()
    for entry in os.scandir(FOLDER):
        try:
            if TOKEN.fullmatch(entry.name) and now - entry.stat().st_mtime > KEEP_SECONDS:
                os.remove(entry.path)
        except OSError:
            pass
