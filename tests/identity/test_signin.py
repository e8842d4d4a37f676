"""Signing in as a person (DESIGN §16): the same answer for a wrong name or password, the throttle of
an address, the session's end (idle, sign-out, disabled, password changed), the cookie, the trail.

tests/pages/test_pages.py covers the form itself (token, origin, where it leads); identity/people.py's rules
are tested here too, through the pages.
"""
import logging
import re
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from conftest import PASSWORD
from identity import people
from models import AuditEntry, PageSession, SigninFailure
from stock import audit
from stock.audit import cli_actor
from stock.errors import Invalid
from storage.db import db, utc_now, writing
from conftest import token_of

OTHER = "a different long password"


def sign_in(client, name, password=PASSWORD, address="192.0.2.10", **kw):
    token = token_of(client.get("/login", environ_base={"REMOTE_ADDR": address}))
    return client.post("/login", data={"username": name, "password": password, "token": token},
                       environ_base={"REMOTE_ADDR": address}, **kw)


def fail_times(client, times, address="192.0.2.10"):
    for _ in range(times):
        assert sign_in(client, "anna", "wrong password!", address).status_code == 401


@pytest.fixture
def anna(person):
    return person("anna", role="read")


def test_a_wrong_name_and_a_wrong_password_get_the_same_answer(client, anna):
    unknown, wrong = sign_in(client, "nobody"), sign_in(client, "anna", "wrong password!")
    assert unknown.status_code == wrong.status_code == 401

    def page(response):  # the form, with its token and the name typed in taken out
        html = response.get_data(as_text=True)
        return re.sub(r'name="(token|username)" value="[^"]*"', "", html)

    assert page(unknown) == page(wrong)


def test_five_failures_close_the_address_for_15_minutes_even_for_the_right_password(client, anna, session):
    fail_times(client, 5)
    response = sign_in(client, "anna")
    assert response.status_code == 429
    assert 14 * 60 < int(response.headers["Retry-After"]) <= 15 * 60
    assert "Too many failed sign-ins" in response.get_data(as_text=True)
    assert client.get("/").status_code == 302
    # Another address is not affected.
    assert sign_in(client.application.test_client(), "anna", address="192.0.2.11").status_code == 302
    # Fifteen minutes later (the failures moved back instead of the clock forward).
    with writing(session):
        session.execute(update(SigninFailure).values(at=utc_now() - timedelta(minutes=15, seconds=1)))
    assert sign_in(client, "anna").status_code == 302


def test_four_failures_do_not_close_it_and_old_ones_do_not_count(client, anna, session):
    fail_times(client, 4)
    with writing(session):
        session.execute(update(SigninFailure).values(at=utc_now() - timedelta(minutes=16)))
    fail_times(client, 4)
    assert sign_in(client, "anna").status_code == 302


def test_the_failures_are_kept_in_the_database_for_every_process(client, anna, make_app):
    fail_times(client, 5)
    # Another process serving the same database (another app on it) refuses the address too.
    other = make_app(upgrade=False)
    assert sign_in(other.test_client(), "anna").status_code == 429
    with other.app_context():
        assert db.session.scalar(select(db.func.count()).select_from(SigninFailure)) == 5
        db.session.remove()


def test_failed_and_throttled_sign_ins_are_in_the_trail_without_what_was_typed(client, anna, session, caplog):
    caplog.set_level(logging.DEBUG)
    sign_in(client, "nobody", "secret typed as a name")
    sign_in(client, "secret typed as a name", PASSWORD)
    fail_times(client, 3)
    response = sign_in(client, "anna", "wrong password!")
    assert response.status_code == 429
    found = [(e["kind"], e["who"], e["from"], e["record"]) for e in audit.list_entries(session)]
    assert found[0] == ("signin.throttled", "anna", "192.0.2.10", "anna")
    assert found[1:6] == [("signin.failed", "anna", "192.0.2.10", "anna")] * 3 + [
        ("signin.failed", "", "192.0.2.10", "")] * 2
    text = str(audit.list_entries(session)) + caplog.text
    for secret in ("secret typed as a name", "wrong password!", PASSWORD):
        assert secret not in text
        assert secret not in response.get_data(as_text=True)


def test_one_closing_of_an_address_is_one_row_of_the_trail_however_often_it_is_tried(client, anna, session):
    fail_times(client, 5)
    for _ in range(20):
        assert sign_in(client, "anna").status_code == 429
    kinds = [e["kind"] for e in audit.list_entries(session)]
    assert kinds.count("signin.throttled") == 1 and kinds.count("signin.failed") == 5
    # The next closing of the address (the failures moved back instead of the clock forward) is
    # noted again, and another address's is its own.
    with writing(session):
        session.execute(update(SigninFailure).values(at=utc_now() - timedelta(minutes=31)))
        session.execute(update(AuditEntry).values(at=utc_now() - timedelta(minutes=31)))
    fail_times(client, 5)
    fail_times(client, 5, address="192.0.2.11")
    for address in ("192.0.2.10", "192.0.2.11", "192.0.2.10"):
        assert sign_in(client, "anna", address=address).status_code == 429
    throttled = [e["from"] for e in audit.list_entries(session) if e["kind"] == "signin.throttled"]
    assert sorted(throttled) == ["192.0.2.10", "192.0.2.10", "192.0.2.11"]


def seen_ago(session, seconds):
    """Every session's last request moved back (instead of the clock forward)."""
    with writing(session, []):
        session.execute(update(PageSession).values(seen_at=utc_now() - timedelta(seconds=seconds)))


def seen_at(session):
    """The session's last request as noted, read afresh (a read of `session` may keep its snapshot)."""
    with session.get_bind().connect() as connection:
        return connection.scalar(select(PageSession.seen_at))


def test_a_session_ends_after_12_hours_without_a_request(client, anna, session):
    assert sign_in(client, "anna").status_code == 302
    assert client.get("/").status_code == 200
    # The browser is told to forget the cookie after 12 hours too.
    assert "Expires=" in client.get("/login").headers["Set-Cookie"]
    seen_ago(session, 11 * 3600 + 59 * 60)
    assert client.get("/").status_code == 200
    seen_ago(session, 12 * 3600 + 60)
    response = client.get("/")
    assert response.status_code == 302 and response.headers["Location"].startswith("/login")
    assert client.get("/").status_code == 302


def test_a_page_notes_the_last_request_at_most_once_a_minute(client, anna, session):
    sign_in(client, "anna")
    seen_ago(session, 3600)
    client.get("/").close()  # noted after the answer has gone
    assert abs(seen_at(session) - utc_now()) < timedelta(seconds=5)
    seen_ago(session, 30)
    client.get("/").close()
    assert timedelta(seconds=25) < utc_now() - seen_at(session) < timedelta(seconds=40)


def test_a_password_change_ends_the_sessions_and_the_new_one_signs_in(client, anna, session):
    sign_in(client, "anna")
    assert client.get("/").status_code == 200
    people.change_password(session, cli_actor(), "anna", OTHER)
    assert client.get("/").status_code == 302
    assert sign_in(client, "anna").status_code == 401
    assert sign_in(client, "anna", OTHER).status_code == 302


def test_disabling_ends_the_sessions_and_refuses_sign_in(client, anna, session):
    sign_in(client, "anna")
    people.disable_person(session, cli_actor(), "anna")
    assert client.get("/").status_code == 302
    response = sign_in(client, "anna")
    assert response.status_code == 401
    assert "name or the password is wrong" in response.get_data(as_text=True)


def test_the_cookie_is_secure_when_the_page_came_over_https(client, anna, app):
    token = token_of(client.get("/login", base_url="https://depot.example"))
    response = client.post("/login", data={"username": "anna", "password": PASSWORD, "token": token},
                           base_url="https://depot.example")
    cookie = response.headers["Set-Cookie"]
    assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    plain = app.test_client()
    assert "Secure" not in sign_in(plain, "anna").headers["Set-Cookie"]


def test_behind_the_trusted_proxy_its_https_and_client_address_count(client, anna, app):
    app.config["TRUSTED_PROXY"] = "127.0.0.9"
    headers = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "192.0.2.50"}
    for _ in range(5):
        token = token_of(client.get("/login", environ_base={"REMOTE_ADDR": "127.0.0.9"}, headers=headers))
        response = client.post("/login", data={"username": "anna", "password": "wrong password!", "token": token},
                               environ_base={"REMOTE_ADDR": "127.0.0.9"}, headers=headers)
        assert response.status_code == 401
    # The forwarded address is the one closed; another one behind the same proxy is not.
    assert sign_in(app.test_client(), "anna", address="127.0.0.9", headers={
        "X-Forwarded-For": "192.0.2.50"}).status_code == 429
    response = sign_in(app.test_client(), "anna", address="127.0.0.9", headers={
        "X-Forwarded-For": "192.0.2.51", "X-Forwarded-Proto": "https"})
    assert response.status_code == 302 and "Secure" in response.headers["Set-Cookie"]


def test_a_person_is_kept_with_a_slow_salted_hash_only(session, person):
    person("anna", role="read")
    person("ben", role="read")
    from models import Person
    hashes = dict(session.execute(select(Person.name, Person.password_hash)).all())
    assert hashes["anna"].startswith("scrypt:") and hashes["anna"] != hashes["ben"]
    assert PASSWORD not in hashes["anna"]


@pytest.mark.parametrize("password", ["", "short", "nine char"])
def test_a_password_needs_10_characters(session, password):
    with pytest.raises(Invalid, match="at least 10"):
        people.create_person(session, cli_actor(), "anna", "read", password)
    assert people.list_people(session) == []


def test_people_changes_are_in_the_trail_without_the_password(session, caplog):
    caplog.set_level(logging.DEBUG)
    people.create_person(session, cli_actor(), "anna", "scan", PASSWORD, [2, 1])
    people.change_password(session, cli_actor(), "anna", OTHER)
    people.disable_person(session, cli_actor(), "anna")
    found = audit.list_entries(session)
    assert [(e["kind"], e["record"], e["from"]) for e in found] == [
        ("user.disable", "anna", "cli"), ("user.password", "anna", "cli"), ("user.create", "anna", "cli")]
    assert found[2]["changes"] == {"role": [None, "scan"], "warehouses": [None, [1, 2]]}
    text = str(found) + caplog.text
    assert PASSWORD not in text and OTHER not in text


def test_bootstrap_makes_the_person_admin_only_while_nobody_can_sign_in(session):
    password = people.bootstrap(session, cli_actor())
    assert len(password) >= 20
    assert [(p["name"], p["role"]) for p in people.list_people(session)] == [("admin", "admin")]
    assert people.sign_in(session, "admin", password, "192.0.2.1").name == "admin"
    assert people.bootstrap(session, cli_actor()) is None


@pytest.mark.live
def test_the_service_prints_the_first_persons_password_once_at_its_first_start(live_server, session):
    server = live_server()
    printed = re.findall(r"name: admin  password: (\S+)", server.log())
    assert len(printed) == 1
    assert "shown only this once" in server.log()
    assert people.sign_in(session, "admin", printed[0], "192.0.2.1").role == "admin"
    session.remove()
    server.stop()
    server.start()
    assert "password:" not in server.log()


@pytest.mark.parametrize("ending", ["sign-out", "password", "disable"])
def test_a_copy_of_the_cookie_opens_nothing_once_the_session_has_ended(client, anna, person, app, ending):
    assert sign_in(client, "anna").status_code == 302
    copied = client.get_cookie("session").value
    if ending == "sign-out":
        assert client.post("/logout", data={"token": token_of(client.get("/logout"))}).status_code == 302
    else:
        person("boss", role="admin")
        boss = app.test_client()
        sign_in(boss, "boss")
        path, form = (("/admin/people/anna/password", {"password": OTHER}) if ending == "password"
                      else ("/admin/people/anna/disable", {"confirm": "yes"}))
        assert boss.post(path, data={"token": token_of(boss.get("/admin/people")), **form}).status_code == 302
    replayed = app.test_client()
    replayed.set_cookie("session", copied)
    for path in ("/", "/orders", "/admin/people"):
        response = replayed.get(path)
        assert response.status_code == 302 and response.headers["Location"].startswith("/login"), path


def test_signing_out_ends_that_session_only(client, anna, app):
    other = app.test_client()
    sign_in(client, "anna")
    sign_in(other, "anna")
    client.post("/logout", data={"token": token_of(client.get("/logout"))})
    assert client.get("/").status_code == 302
    assert other.get("/").status_code == 200
