"""/admin/backups (DESIGN 12, 16): the copies of the database the service keeps, one made now, one
downloaded; how to restore one.

A backup is made by the very function `flask --app app backup` runs (safekeeping.backups
make_backup: checked, kept apart from the automatic ones, `backup.create` in the audit trail).
A download is streamed from the file, never read whole. Restoring stays on the terminal: the
page shows the exact command.
"""
import os
import sys

from flask import current_app, flash, redirect, render_template, send_file, url_for
from flask_babel import gettext as _, format_number

from pages import bp
from pages.signin import actor, admin_only, check_form_post
from safekeeping import backups, postgresql
from safekeeping.copies import BackupFailed
from storage.db import db


def page(error: str | None = None, status: int = 200):
    config = current_app.config
    on_sqlite = backups.database_file(config) is not None
    flask_program = os.path.join(os.path.dirname(sys.executable), "flask")
    kept = [{"backup": copy, "restore": backups.restore_command(config, copy.path, flask_program,
                                                              current_app.root_path)}
            for copy in backups.list_backups(config)]
    return render_template("admin_backups.html", kept=kept, folder=backups.backup_dir(config), on_sqlite=on_sqlite,
                           missing=[] if on_sqlite else postgresql.missing_tools(),
                           hours=config.get("BACKUP_HOURS"), keep=config.get("BACKUP_KEEP"), error=error), status


@bp.get("/admin/backups")
@admin_only
def admin_backups():
    """The backups kept, newest first, with their size and time; make one; download one."""
    return page()


@bp.post("/admin/backups")
@admin_only
def admin_backups_make():
    """Make a backup now, as `flask backup` does."""
    check_form_post()
    try:
        written = backups.make_backup(current_app.config, db.session, actor())
    except BackupFailed as error:
        # The service's own trouble (a full disk, pg_dump missing): said as it is, nothing kept.
        return page(f"No backup was made: {error}.", 500)
    flash(_("Backup %(name)s is made and checked (%(size)s bytes).", name=os.path.basename(written),
            size=format_number(os.path.getsize(written))))
    return redirect(url_for("pages.admin_backups"), 303)


@bp.get("/admin/backups/<any(automatic, manual, 'before-restore', 'before-upgrade'):kind>/<name>")
@admin_only
def admin_backup_download(kind, name):
    """One backup as a download, streamed from its file."""
    copy = backups.find_backup(current_app.config, kind, name)
    return send_file(copy.path, mimetype="application/octet-stream", as_attachment=True, download_name=copy.name,
                     conditional=False, max_age=0)
