"""pages/clock.py through the test client: every time a page shows is in the depot's time zone
(WAREHOUSE_TIME_ZONE, tests/operations/test_settings.py reads it), while stored times and the /v1 answers
stay UTC. tests/pages/test_pages_lists_browser.py reads one on a live server in chromium.
"""
import re
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from helpers import created, order, order_item, product
from models import ApiKey, AuditEntry, Person
from storage.db import writing

SUMMER = datetime(2026, 7, 1, 22, 30, tzinfo=timezone.utc)  # 00:30 on 2 July in Ljubljana (CEST, +2)
WINTER = datetime(2026, 1, 15, 10, 0, 5, tzinfo=timezone.utc)  # 11:00:05 in Ljubljana (CET, +1)


@pytest.fixture
def ljubljana(app, monkeypatch):
    monkeypatch.setitem(app.config, "TIME_ZONE", "Europe/Ljubljana")


def audit_rows(response) -> list[tuple[str, str, str]]:
    """(UTC moment, time as shown, record) of each row of the audit page."""
    assert response.status_code == 200, response.get_data(as_text=True)
    return re.findall(r'<td data-label="When"><time datetime="([^"]+)">([^<]+)</time></td>.*?'
                      r'<td data-label="Record">([^<]*)</td>', response.get_data(as_text=True), re.S)


def add_entries(session, *moments):
    with writing(session):
        for number, moment in enumerate(moments):
            session.add(AuditEntry(at=moment, who="tests", address="cli", kind="product.update",
                                   record=f"P{number}", changes="{}"))


def test_the_audit_trail_shows_each_time_in_the_depots_zone_summer_and_winter(ljubljana, admin, session):
    add_entries(session, WINTER, SUMMER)
    shown = [row for row in audit_rows(admin.get("/admin/audit?kind=product")) if row[2] in ("P0", "P1")]
    assert shown == [("2026-07-01T22:30:00Z", "2026-07-02 00:30:00 CEST", "P1"),
                     ("2026-01-15T10:00:05Z", "2026-01-15 11:00:05 CET", "P0")]
    # What is stored is UTC, and the API says so as it always did.
    assert session.scalar(select(AuditEntry.at).where(AuditEntry.record == "P1")) == SUMMER


def test_a_day_typed_in_the_audit_filter_starts_at_the_depots_midnight(ljubljana, admin, session):
    before_midnight = datetime(2026, 7, 1, 21, 59, tzinfo=timezone.utc)  # 23:59 on 1 July in Ljubljana
    add_entries(session, before_midnight, SUMMER)
    assert [row[2] for row in audit_rows(admin.get("/admin/audit?since=2026-07-02&kind=product"))] == ["P1"]
    assert [row[2] for row in audit_rows(admin.get("/admin/audit?since=2026-07-01&kind=product"))] == ["P1", "P0"]


def test_keys_last_use_and_people_in_the_depots_zone_and_the_api_in_utc(ljubljana, admin, api, session):
    assert api.post("/v1/keys/", {"name": "gate-2", "role": "scan"}).status_code == 201
    with writing(session):
        key = session.scalar(select(ApiKey).where(ApiKey.name == "gate-2"))
        key.last_used_at = SUMMER
        session.scalar(select(Person).where(Person.name == "admin")).created_at = SUMMER
    row = re.search(r'<tr data-name="gate-2".*?</tr>', admin.get("/admin/keys").get_data(as_text=True), re.S).group(0)
    assert '<time datetime="2026-07-01T22:30:00Z">2026-07-02 00:30 CEST</time>' in row
    listed = {k["name"]: k for k in api.get("/v1/keys/").json["list"]}
    assert listed["gate-2"]["last_used"] == "2026-07-01T22:30:00Z"  # the API keeps UTC
    people = re.search(r'<tr data-name="admin".*?</tr>', admin.get("/admin/people").get_data(as_text=True), re.S)
    assert '<td data-label="Since"><time datetime="2026-07-01T22:30:00Z">2026-07-02</time></td>' in people.group(0)


def test_without_the_setting_times_are_in_the_machines_zone(admin, session):
    add_entries(session, SUMMER)
    local = SUMMER.astimezone()
    [row] = [row for row in audit_rows(admin.get("/admin/audit?kind=product")) if row[2] == "P0"]
    assert row == ("2026-07-01T22:30:00Z", f"{local:%Y-%m-%d %H:%M:%S} {local.tzname()}", "P0")


def a_zone_on_another_day() -> tuple[str, date]:
    """A time zone whose calendar day differs from the machine's now, and that day: UTC-12 and
    UTC+14 are a day or two apart at every moment, so one of them differs from any machine's."""
    for name in ("Etc/GMT+12", "Pacific/Kiritimati"):
        day = datetime.now(ZoneInfo(name)).date()
        if day != date.today():
            return name, day
    raise AssertionError("UTC-12 and UTC+14 on one day")


def test_every_today_of_the_pages_and_paper_is_the_depots_day(app, office, api, monkeypatch):
    zone, today = a_zone_on_another_day()
    monkeypatch.setitem(app.config, "TIME_ZONE", zone)
    week_back = (today - timedelta(days=6)).isoformat()
    assert f'name="date_from" value="{week_back}"' in office.get("/documents").get_data(as_text=True)
    created(api.post("/v1/products/", product("P1")))
    created(api.post("/v1/documents/", order("SO-1", [order_item(1, "P1", 5, direction="O")],
                                             directions=("O",), expiration_limit=5)))
    paper = office.get("/orders/SO-1/pick-list").get_data(as_text=True)
    assert f"<dt>Goods must keep until</dt><dd>{(today + timedelta(days=5)).isoformat()}</dd>" in paper
