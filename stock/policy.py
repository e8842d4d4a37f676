"""The depot's settings that the stock rules obey, passed to each rule that needs one."""
from dataclasses import dataclass
from datetime import date, timedelta

from stock.errors import invalid_field


@dataclass(frozen=True)
class Policy:
    """The depot's settings that the rules obey."""

    allow_negative_stock: bool = False
    acquire_timeout: timedelta = timedelta(seconds=1800)
    max_future_days: int = 7


def refuse_far_future(day: date, today: date, policy: Policy, path: tuple) -> None:
    """422 naming the field at `path` when a business date lies more than the policy's days ahead:
    a batch dated 2099 is a typing mistake that would sit in every report for decades."""
    if (day - today).days > policy.max_future_days:
        raise invalid_field(path, f"{day.isoformat()} is more than {policy.max_future_days} day(s) "
                                  f"after today ({today.isoformat()}).")
