"""`flask --app app users create|list|password|disable` (DESIGN §16): people who sign in to the pages."""
import os
import pty
import select
import subprocess
import sys
import time

import pytest

from conftest import PASSWORD
from identity import people
from server import server_url
from stock import audit
from conftest import sign_in

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OTHER = "a different long password"


def run(runner, *args, password=None):
    return runner.invoke(args=["users", *args], input=None if password is None else password + "\n")


def test_create_reads_the_password_from_standard_input_and_the_person_signs_in(runner, client, session):
    result = run(runner, "create", "anna", "--role", "scan", "--warehouses", "2,1", password=PASSWORD)
    assert result.exit_code == 0, (result.output, repr(result.exception))
    assert PASSWORD not in result.output
    assert [(p["name"], p["role"], p["warehouses"], p["disabled"]) for p in people.list_people(session)] == [
        ("anna", "scan", [1, 2], "")]
    assert sign_in(client, "anna").status_code == 302


def test_the_cli_records_the_operating_system_user_in_the_trail(runner, session):
    run(runner, "create", "anna", "--role", "read", password=PASSWORD)
    run(runner, "password", "anna", password=OTHER)
    run(runner, "disable", "anna")
    found = audit.list_entries(session)
    assert [e["kind"] for e in found] == ["user.disable", "user.password", "user.create"]
    assert {(e["who"], e["from"]) for e in found} == {(audit.cli_actor().who, "cli")}
    assert PASSWORD not in str(found) and OTHER not in str(found)


@pytest.mark.parametrize("args, password, says", [
    (("create", "anna", "--role", "read"), "too short", "at least 10"),
    (("create", "anna", "--role", "boss"), PASSWORD, "Invalid value for '--role'"),
    (("create", "anna", "--role", "read", "--warehouses", "one"), PASSWORD, "--warehouses"),
    (("create", "anna", "--role", "read"), "", "No password"),
])
def test_create_refuses_and_makes_nobody(runner, session, args, password, says):
    result = runner.invoke(args=["users", *args], input=password and password + "\n")
    assert result.exit_code != 0
    assert says in result.output
    if password:
        assert password not in result.output.replace(says, "")
    assert people.list_people(session) == []


def test_a_name_in_use_is_refused(runner):
    assert run(runner, "create", "anna", "--role", "read", password=PASSWORD).exit_code == 0
    result = run(runner, "create", "anna", "--role", "admin", password=PASSWORD)
    assert result.exit_code != 0 and "exists already" in result.output


def test_list_shows_each_person_and_never_a_password(runner):
    run(runner, "create", "anna", "--role", "admin", password=PASSWORD)
    run(runner, "create", "ben", "--role", "read", "--warehouses", "3", password=OTHER)
    run(runner, "disable", "ben")
    result = run(runner, "list")
    assert result.exit_code == 0
    lines = [line.split("\t") for line in result.output.splitlines()]
    assert [line[:3] for line in lines] == [["anna", "admin", "all"], ["ben", "read", "3"]]
    assert lines[0][3] == "active" and lines[1][3].startswith("disabled 20")
    assert PASSWORD not in result.output and "scrypt" not in result.output


def test_password_changes_it_and_ends_the_sessions(runner, client):
    run(runner, "create", "anna", "--role", "read", password=PASSWORD)
    sign_in(client, "anna")
    assert client.get("/").status_code == 200
    result = run(runner, "password", "anna", password=OTHER)
    assert result.exit_code == 0, result.output
    assert client.get("/").status_code == 302
    assert sign_in(client, "anna").status_code == 401
    assert sign_in(client, "anna", OTHER).status_code == 302


def test_password_and_disable_of_an_unknown_person_fail(runner):
    assert "No person named 'nobody'" in run(runner, "password", "nobody", password=OTHER).output
    assert "No person named 'nobody'" in run(runner, "disable", "nobody").output


def test_disable_ends_the_sessions(runner, client):
    run(runner, "create", "anna", "--role", "read", password=PASSWORD)
    sign_in(client, "anna")
    assert run(runner, "disable", "anna").exit_code == 0
    assert client.get("/").status_code == 302
    assert sign_in(client, "anna").status_code == 401


def test_enable_lets_a_disabled_person_sign_in_again(runner, client, session):
    run(runner, "create", "anna", "--role", "read", password=PASSWORD)
    run(runner, "disable", "anna")
    assert sign_in(client, "anna").status_code == 401
    result = run(runner, "enable", "anna")
    assert result.exit_code == 0 and "may sign in again" in result.output
    assert sign_in(client, "anna").status_code == 302
    [entry] = audit.list_entries(session, kind="user.enable")
    assert (entry["record"], entry["who_kind"], entry["from"]) == ("anna", "cli", "cli")
    assert "No person named 'nobody'" in run(runner, "enable", "nobody").output


def test_the_last_admin_for_every_warehouse_stays_one(runner, session):
    run(runner, "create", "anna", "--role", "admin", password=PASSWORD)
    run(runner, "create", "ben", "--role", "admin", "--warehouses", "1", password=PASSWORD)
    for args in (("disable", "anna"), ("change", "anna", "--role", "scan"),
                 ("change", "anna", "--role", "admin", "--warehouses", "1")):
        result = run(runner, *args)
        assert result.exit_code != 0 and "last active admin for every warehouse" in result.output, args
    assert [(p["name"], p["role"], p["warehouses"], p["disabled"]) for p in people.list_people(session)] == [
        ("anna", "admin", [], ""), ("ben", "admin", [1], "")]
    # With a second one, either may go.
    assert run(runner, "change", "ben", "--role", "admin").exit_code == 0
    assert run(runner, "disable", "anna").exit_code == 0
    assert run(runner, "change", "ben", "--role", "read").exit_code != 0


def test_change_gives_another_role_and_warehouses(runner, client, session):
    run(runner, "create", "anna", "--role", "read", password=PASSWORD)
    result = run(runner, "change", "anna", "--role", "scan", "--warehouses", "2,1")
    assert result.exit_code == 0, result.output
    assert [(p["role"], p["warehouses"]) for p in people.list_people(session)] == [("scan", [1, 2])]
    assert "No active warehouse 99" in run(runner, "change", "anna", "--role", "scan", "--warehouses", "99").output


@pytest.mark.live
def test_on_a_terminal_the_password_is_asked_twice_and_not_shown(app, database_config, session):
    env = {k: v for k, v in os.environ.items() if not k.startswith("WAREHOUSE_")}
    env["DATABASE_URL"] = server_url(database_config)
    controller, terminal = pty.openpty()
    process = subprocess.Popen([os.path.join(os.path.dirname(sys.executable), "flask"), "--app", "app", "users",
                                "create", "anna", "--role", "read"], cwd=REPO, env=env,
                               stdin=terminal, stdout=terminal, stderr=terminal, close_fds=True)
    os.close(terminal)
    seen = b""

    def wait_for(text: bytes):
        nonlocal seen
        deadline = time.monotonic() + 60
        while text not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([controller], [], [], 1)
            if ready:
                try:
                    seen += os.read(controller, 4096)
                except OSError:
                    break
        assert text in seen, seen

    try:
        wait_for(b"Password for anna:")
        os.write(controller, (PASSWORD + "\n").encode())
        wait_for(b"Repeat for confirmation:")
        os.write(controller, (PASSWORD + "\n").encode())
        wait_for(b"may sign in now")
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)
        os.close(controller)
    assert PASSWORD.encode() not in seen  # hidden as typed
    assert [p["name"] for p in people.list_people(session)] == ["anna"]
