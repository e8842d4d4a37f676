"""Every setting of the service, read from the environment here and nowhere else.

A depot sets these once, in a unit file or a scheduled task, and nobody looks at
them again: a value that does not parse must stop the start with a message naming
the setting, never fall back to a default or read "no" as yes.
"""
import os
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from stock.errors import SettingError

YES = ("1", "true", "yes", "on")
NO = ("0", "false", "no", "off")


def flag(environ, name: str, default: bool) -> bool:
    raw = environ.get(name, "").strip()
    if raw == "":
        return default
    if raw.lower() in YES:
        return True
    if raw.lower() in NO:
        return False
    raise SettingError(f"{name}={raw!r} is neither yes nor no: use 1/0, true/false, yes/no or on/off.")


def number(environ, name: str, default, minimum=0, kind=int):
    """A whole number (kind=int) or a decimal one (kind=float), at least `minimum`."""
    raw = environ.get(name, "").strip()
    if raw == "":
        return default
    try:
        value = kind(raw)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise SettingError(f"{name}={raw!r} is not {what}.") from None
    if not value >= minimum:  # also refuses nan
        raise SettingError(f"{name}={raw!r} must be at least {minimum}.")
    return value


def choice(environ, name: str, default: str, allowed: tuple) -> str:
    raw = environ.get(name, "").strip().lower()
    if raw == "":
        return default
    if raw not in allowed:
        raise SettingError(f"{name}={raw!r} is not one of {', '.join(allowed)}.")
    return raw


def text(environ, name: str, default: str | None) -> str | None:
    raw = environ.get(name, "").strip()
    return raw if raw else default


def time_zone(environ, name: str) -> str | None:
    """An IANA time zone name such as Europe/Ljubljana, spelt as the database spells it;
    None (not set): the machine's own zone."""
    raw = environ.get(name, "").strip()
    if raw == "":
        return None
    try:
        ZoneInfo(raw)
    except (ZoneInfoNotFoundError, ValueError):  # ValueError: a path such as ../x, not a name
        raise SettingError(f"{name}={raw!r} is not a time zone name: use an IANA name such as "
                           f"Europe/Ljubljana or UTC (case matters).") from None
    return raw


def size_mm(environ, name: str, default: str, low: float = 15, high: float = 300) -> tuple[float, float]:
    """A label size "WIDTHxHEIGHT" in millimetres (decimals allowed, e.g. 101.6x152.4)."""
    raw = environ.get(name, "").strip() or default
    try:
        width, height = (float(part) for part in raw.lower().replace("mm", "").split("x"))
    except ValueError:
        raise SettingError(f"{name}={raw!r} is not a size like 62x29 (width x height in mm).") from None
    if not (low <= width <= high and low <= height <= high):  # also refuses nan
        raise SettingError(f"{name}={raw!r}: width and height must each be {low:g} to {high:g} mm.")
    return width, height


def app_config(environ=None) -> dict:
    """The settings create_app needs, as Flask config keys."""
    environ = os.environ if environ is None else environ
    return {
        "SQLALCHEMY_DATABASE_URI": text(environ, "DATABASE_URL", "sqlite:///warehouse.db"),
        "ALLOW_NEGATIVE_STOCK": flag(environ, "WAREHOUSE_ALLOW_NEGATIVE_STOCK", False),
        "ACQUIRE_TIMEOUT": number(environ, "WAREHOUSE_ACQUIRE_TIMEOUT", 1800),
        "MAX_FUTURE_DAYS": number(environ, "WAREHOUSE_MAX_FUTURE_DAYS", 7),
        "MAX_CONTENT_LENGTH": number(environ, "WAREHOUSE_MAX_BODY", 10 * 1024 * 1024, minimum=1),
        # How long a request waits for the database (a write lock on SQLite, the
        # writers' lock on PostgreSQL) before it answers 503 `unavailable`.
        "BUSY_TIMEOUT": number(environ, "WAREHOUSE_BUSY_TIMEOUT", 30.0, minimum=0.001, kind=float),
        "BACKUP_HOURS": number(environ, "WAREHOUSE_BACKUP_HOURS", 24.0, kind=float),
        "BACKUP_KEEP": number(environ, "WAREHOUSE_BACKUP_KEEP", 14, minimum=1),
        "BACKUP_DIR": text(environ, "WAREHOUSE_BACKUP_DIR", None),
        "BOOTSTRAP_API_KEY": text(environ, "WAREHOUSE_API_KEY", None),
        # The proxy (an address) whose X-Forwarded-For and X-Forwarded-Proto are believed
        # (identity/client.py): Caddy in front of the service, docs/https.md.
        "TRUSTED_PROXY": text(environ, "WAREHOUSE_TRUSTED_PROXY", None),
        # The name a new database's depot identity gets (safekeeping/depot.py).
        "DEPOT_NAME": text(environ, "WAREHOUSE_DEPOT_NAME", None),
        # Lots whose best-before is at most this many days ahead (or past) are alerts.
        "EXPIRY_DAYS": number(environ, "WAREHOUSE_EXPIRY_DAYS", 30),
        # The labels of the depot's label printer (PDF pages and ZPL), width x height in mm.
        "LABEL_SIZE": size_mm(environ, "WAREHOUSE_LABEL_SIZE", "62x29"),
        # The zone the pages show times in (stored times stay UTC, /v1 answers as the interface says).
        "TIME_ZONE": time_zone(environ, "WAREHOUSE_TIME_ZONE"),
        # The depot's language (DESIGN 29) until the depot page chooses one: pages, paper, scanner.
        "LANGUAGE": choice(environ, "WAREHOUSE_LANGUAGE", "", ("", "en", "sl", "de")) or None,
    }


def server_config(environ=None) -> dict:
    """What only `python app.py` uses: where to listen, and where the log file goes."""
    environ = os.environ if environ is None else environ
    return {
        "host": text(environ, "WAREHOUSE_HOST", "0.0.0.0"),
        "port": number(environ, "WAREHOUSE_PORT", 8000, minimum=1),
        "threads": number(environ, "WAREHOUSE_THREADS", 4, minimum=1),
        "idle_timeout": number(environ, "WAREHOUSE_IDLE_TIMEOUT", 30, minimum=1),
        "connection_limit": number(environ, "WAREHOUSE_CONNECTION_LIMIT", 1000, minimum=1),
        "log_file": text(environ, "WAREHOUSE_LOG_FILE", None),
        "log_max_mb": number(environ, "WAREHOUSE_LOG_MAX_MB", 10.0, minimum=0.01, kind=float),
        "log_keep": number(environ, "WAREHOUSE_LOG_KEEP", 5, minimum=1),
        "log_level": choice(environ, "WAREHOUSE_LOG_LEVEL", "info", ("debug", "info", "warning", "error")),
    }


# Every setting, for `flask --app app settings` and the documentation (DESIGN 1):
# (environment variable, CLI flag of `python app.py`, default, what it sets).
SETTINGS = [
    ("DATABASE_URL", "--database-url", "sqlite:///warehouse.db", "the database"),
    ("WAREHOUSE_HOST", "--host", "0.0.0.0", "listen address"),
    ("WAREHOUSE_PORT", "--port", "8000", "port"),
    ("WAREHOUSE_THREADS", "--threads", "4", "worker threads"),
    ("WAREHOUSE_API_KEY", "", "none", "bootstrap admin key"),
    ("WAREHOUSE_ALLOW_NEGATIVE_STOCK", "", "0", "allow stock below zero"),
    ("WAREHOUSE_ACQUIRE_TIMEOUT", "", "1800", "an order's lock by a scanner ends after (seconds)"),
    ("WAREHOUSE_MAX_BODY", "", "10485760", "largest request body (bytes)"),
    ("WAREHOUSE_BUSY_TIMEOUT", "", "30", "a request waits for the database at most (seconds)"),
    ("WAREHOUSE_MAX_FUTURE_DAYS", "", "7", "business dates ahead of today allowed (days)"),
    ("WAREHOUSE_IDLE_TIMEOUT", "", "30", "an idle connection is closed after (seconds)"),
    ("WAREHOUSE_CONNECTION_LIMIT", "", "1000", "open connections at most"),
    ("WAREHOUSE_TRUSTED_PROXY", "", "none", "the proxy whose X-Forwarded-For is believed (an address)"),
    ("WAREHOUSE_BACKUP_HOURS", "", "24", "automatic backup every (hours; 0 = never)"),
    ("WAREHOUSE_BACKUP_KEEP", "", "14", "automatic backups kept"),
    ("WAREHOUSE_BACKUP_DIR", "", "backups", "backup folder (beside the database when relative)"),
    ("WAREHOUSE_DEPOT_NAME", "", "Depot on <machine name>", "the name a new database's depot gets"),
    ("WAREHOUSE_LABEL_SIZE", "", "62x29", "label size, width x height in mm"),
    ("WAREHOUSE_EXPIRY_DAYS", "", "30", "lots shown as expiring (days ahead; past ones too)"),
    ("WAREHOUSE_TIME_ZONE", "", "the machine's", "the depot's time zone, an IANA name such as Europe/Ljubljana: "
                                                 "every time a page shows is in it"),
    ("WAREHOUSE_LANGUAGE", "", "the browser's", "the depot's language, en, sl or de, until the depot page "
                                               "chooses one (docs/language.md)"),
    ("WAREHOUSE_LOG_FILE", "", "none", "log file (rotated)"),
    ("WAREHOUSE_LOG_MAX_MB", "", "10", "log file size before it rotates (MB)"),
    ("WAREHOUSE_LOG_KEEP", "", "5", "rotated log files kept"),
    ("WAREHOUSE_LOG_LEVEL", "", "info", "log level: debug, info, warning or error (debug shows libraries' lines)"),
]


def check_all(environ=None) -> None:
    """Every setting parsed once: a bad value raises SettingError naming it."""
    app_config(environ)
    server_config(environ)
