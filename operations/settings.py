"""Every setting of the service, read from the environment here and nowhere else.

A depot sets these once, in a unit file or a scheduled task, and nobody looks at
them again: a value that does not parse must stop the start with a message naming
the setting, never fall back to a default or read "no" as yes.
"""
import os

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


def text(environ, name: str, default: str | None) -> str | None:
    raw = environ.get(name, "").strip()
    return raw if raw else default


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
        "MAX_CONTENT_LENGTH": number(environ, "WAREHOUSE_MAX_BODY", 10 * 1024 * 1024, minimum=1),
        # How long a request waits for the database (a write lock on SQLite, the
        # writers' lock on PostgreSQL) before it answers 503 `unavailable`.
        "BUSY_TIMEOUT": number(environ, "WAREHOUSE_BUSY_TIMEOUT", 30.0, minimum=0.001, kind=float),
        "BACKUP_HOURS": number(environ, "WAREHOUSE_BACKUP_HOURS", 24.0, kind=float),
        "BACKUP_KEEP": number(environ, "WAREHOUSE_BACKUP_KEEP", 14, minimum=1),
        "BACKUP_DIR": text(environ, "WAREHOUSE_BACKUP_DIR", None),
        "BOOTSTRAP_API_KEY": text(environ, "WAREHOUSE_API_KEY", None),
        # Lots whose best-before is at most this many days ahead (or past) are alerts.
        "EXPIRY_DAYS": number(environ, "WAREHOUSE_EXPIRY_DAYS", 30),
        # The labels of the depot's label printer (PDF pages and ZPL), width x height in mm.
        "LABEL_SIZE": size_mm(environ, "WAREHOUSE_LABEL_SIZE", "62x29"),
    }


def server_config(environ=None) -> dict:
    """What only `python app.py` uses: where to listen, and where the log file goes."""
    environ = os.environ if environ is None else environ
    return {
        "host": text(environ, "WAREHOUSE_HOST", "0.0.0.0"),
        "port": number(environ, "WAREHOUSE_PORT", 8000, minimum=1),
        "threads": number(environ, "WAREHOUSE_THREADS", 4, minimum=1),
        "log_file": text(environ, "WAREHOUSE_LOG_FILE", None),
        "log_max_mb": number(environ, "WAREHOUSE_LOG_MAX_MB", 10.0, minimum=0.01, kind=float),
        "log_keep": number(environ, "WAREHOUSE_LOG_KEEP", 5, minimum=1),
    }
