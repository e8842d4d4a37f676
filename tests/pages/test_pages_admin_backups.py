"""/admin/backups through the test client (pages/admin_backups.py): the copies kept, one made as
`flask backup` makes it, one downloaded, and the exact command that restores one.

On SQLite the shown command is run as the operator would and restores; on PostgreSQL the page
says what a backup is there.
"""
import os
import re
import subprocess
import time

import pytest

from conftest import BACKEND, token_of
from safekeeping import backups
from safekeeping.backups import check_sqlite_copy, identity_of_backup
from stock import audit
from storage.db import db


@pytest.fixture
def folder(app, tmp_path):
    """The backup folder of this test (on PostgreSQL it would otherwise be the working directory's)."""
    app.config["BACKUP_DIR"] = str(tmp_path / "backups")
    return tmp_path / "backups"


def make(client) -> str:
    response = client.post("/admin/backups", data={"token": token_of(client.get("/admin/backups"))})
    assert response.status_code == 303, response.get_data(as_text=True)
    assert response.headers["Location"] == "/admin/backups"
    return client.get("/admin/backups").get_data(as_text=True)


def rows(html: str) -> list[tuple[str, str]]:
    """(kind, file name) of each backup listed, in the page's order."""
    return re.findall(r'<tr data-kind="([^"]+)" data-name="([^"]+)">', html)


@pytest.mark.parametrize("path", ["/admin/backups", "/admin/backups/manual/warehouse-20260101-000000.db"])
def test_only_an_admin_sees_backups(office, folder, path):
    assert office.get(path).status_code == 403
    assert office.post("/admin/backups", data={"token": token_of(office.get("/"))}).status_code == 403
    assert not folder.exists()


def test_with_none_kept_the_page_says_how_one_comes(admin, folder):
    html = admin.get("/admin/backups").get_data(as_text=True)
    assert "No backups yet: make one now" in html and rows(html) == []
    assert 'href="/admin/backups"' in html  # in the navigation


def test_making_one_is_what_flask_backup_does_and_is_in_the_audit_trail(admin, app, folder, session):
    html = make(admin)
    [(kind, name)] = rows(html)
    assert kind == "manual" and re.fullmatch(r"warehouse-\d{8}-\d{6}\.(db|dump)", name)
    path = folder / "manual" / name
    assert f"Backup {name} is made and checked ({os.path.getsize(path):,} bytes)." in html
    if BACKEND == "sqlite":
        check_sqlite_copy(str(path))  # a checked copy, not a file copy
    assert identity_of_backup(str(path))["id"]
    [entry] = audit.list_entries(session, kind="backup.create")
    assert (entry["who"], entry["from"], entry["record"]) == ("admin", "127.0.0.1", name)
    assert entry["changes"]["path"] == [None, str(path)]

    # The command makes its copy through the same function: the same folder, the same trail.
    done = app.test_cli_runner().invoke(args=["backup"])
    assert done.exit_code == 0, done.output
    session.remove()
    assert [e["kind"] for e in audit.list_entries(session, kind="backup")] == ["backup.create"] * 2
    assert len(rows(admin.get("/admin/backups").get_data(as_text=True))) == 2


def test_every_kind_kept_is_listed_newest_first_with_size_and_time(admin, app, folder):
    config = app.config
    with app.app_context():
        automatic = backups.take_backup(db.engine, backups.new_backup_path(config), "Depot")
        kept = backups.new_backup_path(config, "-before-restore", kind=backups.BEFORE_RESTORE)
        backups.take_backup(db.engine, kept, "Depot")
        os.utime(automatic, (time.time() - 7200, time.time() - 7200))
        os.utime(kept, (time.time() - 3600, time.time() - 3600))
    expected = [("before-restore", os.path.basename(kept)), ("automatic", os.path.basename(automatic))]
    database = backups.database_file(config)
    if database:  # a copy before an upgrade lies beside a SQLite database
        with open(f"{database}.before-e25a1e770001", "wb") as copy, open(automatic, "rb") as source:
            copy.write(source.read())
        os.utime(f"{database}.before-e25a1e770001", (time.time() - 60, time.time() - 60))
        expected.insert(0, ("before-upgrade", os.path.basename(database) + ".before-e25a1e770001"))
    html = make(admin)
    listed = rows(html)
    assert listed[0][0] == "manual" and listed[1:] == expected
    size = os.path.getsize(automatic)
    row = re.search(r'<tr data-kind="automatic".*?</tr>', html, re.S).group(0)
    assert re.search(r'<td data-label="Written"><time datetime="[^"]+">\d{4}-\d{2}-\d{2} \d{2}:\d{2} [^<]+</time></td>', row)
    assert f'<td data-label="Size" class="num">{size / 1000:.1f} kB</td>' in row


def test_a_download_is_the_file_streamed(admin, folder):
    [(kind, name)] = rows(make(admin))
    response = admin.get(f"/admin/backups/{kind}/{name}", buffered=False)
    try:
        assert response.status_code == 200
        assert response.is_streamed  # sent from the file as it is read, never held whole
        assert response.headers["Content-Disposition"] == f"attachment; filename={name}"
        assert response.mimetype == "application/octet-stream"
        body = b"".join(response.response)
    finally:
        response.close()
    with open(folder / "manual" / name, "rb") as file:
        assert body == file.read()


@pytest.mark.parametrize("path", ["/admin/backups/manual/warehouse-20200101-000000.db",
                                  "/admin/backups/automatic/..%2Fwarehouse.db", "/admin/backups/manual/..",
                                  "/admin/backups/elsewhere/warehouse-20200101-000000.db"])
def test_only_a_listed_backup_downloads(admin, folder, path):
    make(admin)
    response = admin.get(path, headers={"Accept": "text/html"})  # as a browser asks
    assert response.status_code == 404 and response.mimetype == "text/html"


def test_a_backup_that_cannot_be_written_says_why_and_nothing_is_noted(admin, app, tmp_path, session):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the backup folder should be", encoding="utf-8")
    app.config["BACKUP_DIR"] = str(blocker)
    response = admin.post("/admin/backups", data={"token": token_of(admin.get("/admin/backups"))})
    assert response.status_code == 500 and response.mimetype == "text/html"
    assert "No backup was made: no backup can be written in" in response.get_data(as_text=True)
    assert audit.list_entries(session, kind="backup") == []


@pytest.mark.skipif(BACKEND != "sqlite", reason="the restore command is run on SQLite; PostgreSQL's page is below")
@pytest.mark.live
def test_the_restore_command_shown_restores_that_backup_when_run(admin, api, folder, app):
    [(kind, name)] = rows(make(admin))
    assert api.post("/v1/warehouses/", {"id_warehouse": 12, "name": "After the backup"}).status_code == 201
    html = admin.get("/admin/backups").get_data(as_text=True)
    command = re.search(r'<code class="command">([^<]+)</code>', html).group(1).replace("&amp;", "&")
    assert command.endswith(f"--app app restore {folder / kind / name}")
    with app.app_context():
        db.engine.dispose()
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=300,
                          env={k: v for k, v in os.environ.items() if not k.startswith("WAREHOUSE_")})
    assert done.returncode == 0, done.stderr
    assert "Restored from" in done.stdout
    assert "After the backup" not in api.get("/v1/warehouses/").get_data(as_text=True)
    assert [k for k, _ in rows(admin.get("/admin/backups").get_data(as_text=True))].count("before-restore") == 1


@pytest.mark.skipif(BACKEND != "postgresql", reason="what the page says on PostgreSQL")
def test_on_postgresql_the_page_says_what_a_backup_is(admin, folder):
    html = make(admin)
    assert 'id="postgresql-note"' in html and "pg_dump" in html and "custom format" in html
    [(kind, name)] = rows(html)
    assert name.endswith(".dump")
    command = re.search(r'<code class="command">([^<]+)</code>', html).group(1)
    assert "DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1" in command and "--app app restore" in command
