"""The depot's settings that the stock rules obey, passed to each rule that needs one."""
from dataclasses import dataclass
from datetime import timedelta


@dataclass(frozen=True)
class Policy:
    """The depot's settings that the rules obey."""

    allow_negative_stock: bool = False
    acquire_timeout: timedelta = timedelta(seconds=1800)
