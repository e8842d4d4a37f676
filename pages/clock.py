"""Times as the depot reads them: every moment a page shows is in the depot's time zone.

Times are stored in UTC (storage/db.py UtcDateTime) and the /v1 answers give them as the
interface says; only what a person reads turns into the zone of WAREHOUSE_TIME_ZONE
(operations/settings.py), or into the machine's own zone when that is not set. Each time is
written as <time datetime="...Z">, so the UTC moment stays in the page for whoever compares
it with an API answer.
"""
from datetime import date, datetime, time, timezone
from functools import lru_cache
from zoneinfo import ZoneInfo

from flask import current_app
from markupsafe import Markup

from language.choice import current
from language.formats import day_text, moment_text
from pages import bp

MINUTES = "%Y-%m-%d %H:%M"
SECONDS = "%Y-%m-%d %H:%M:%S"
DAY = "%Y-%m-%d"


@lru_cache(maxsize=8)
def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def depot_zone() -> ZoneInfo | None:
    """The depot's zone; None for the machine's own (astimezone() without a zone follows the
    machine's rules, summer time included, for each moment)."""
    name = current_app.config.get("TIME_ZONE")
    return None if name is None else _zone(name)


def depot_today() -> date:
    """The calendar day it is in the depot: every "today" a page or a paper counts from (the
    documents' default week, the alerts' best-before, an order's expiration limit), so that a
    machine kept on UTC does not show Ljubljana yesterday's list until 01:00."""
    return datetime.now(depot_zone()).date()


def in_depot_zone(moment: datetime) -> datetime:
    # A naive moment is the machine's local time: the keys' created and revoked times were
    # always written so (stock/caller.py utc_text says the same).
    return moment.astimezone(depot_zone())


def start_of_day(day: date) -> datetime:
    """Midnight at the start of a calendar day in the depot, as an aware moment."""
    zone = depot_zone()
    return datetime.combine(day, time(), tzinfo=zone) if zone is not None else datetime.combine(day, time()).astimezone()


def _moment(value) -> datetime | None:
    """A stored time as the pages get it: a datetime, or the API's `YYYY-MM-DDThh:mm:ssZ` text."""
    if not value:
        return None
    return datetime.fromisoformat(value) if isinstance(value, str) else value


@bp.app_template_filter("local_time")
def local_time(value, format: str = MINUTES, none: str = "") -> Markup | str:
    """A moment in the depot's zone with the zone's abbreviation: "2026-05-04 14:03 CEST"."""
    moment = _moment(value)
    if moment is None:
        return none
    local = in_depot_zone(moment)
    utc = moment.astimezone(timezone.utc)
    language = current()
    if language == "en":
        shown = local.strftime(format) if format == DAY else f"{local.strftime(format)} {local.tzname()}"
    elif format == DAY:
        shown = day_text(local.date(), language)
    else:
        shown = f"{moment_text(local, language, seconds=format == SECONDS)} {local.tzname()}"
    return Markup('<time datetime="{}">{}</time>').format(utc.strftime("%Y-%m-%dT%H:%M:%SZ"), shown)


@bp.app_template_filter("local_date")
def local_date(value, none: str = "") -> Markup | str:
    """The depot's calendar day of a moment (a key made at 00:30 in Ljubljana was made that day)."""
    return local_time(value, DAY, none)


@bp.app_context_processor
def clock_globals():
    return {"SECONDS": SECONDS}


@bp.app_template_filter("day")
def day(value, none: str = "") -> str:
    """A calendar day (a date or its ISO text) as the page's language writes it: 2026-11-27,
    27. 11. 2026, 27.11.2026. Date fields of forms keep ISO (value="{{ d.isoformat() }}")."""
    if not value:
        return none
    return day_text(date.fromisoformat(value) if isinstance(value, str) else value, current())
