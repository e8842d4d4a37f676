"""The depot's settings that the stock rules obey, passed to each rule that needs one."""
from dataclasses import dataclass
from datetime import date, timedelta

from stock.errors import invalid_field, say_count


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
        raise invalid_field(path, say_count("%(day)s is more than %(count)s day after today (%(today)s).",
                                            "%(day)s is more than %(count)s days after today (%(today)s).",
                                            policy.max_future_days,
                                            text="%(day)s is more than %(count)s day(s) after today (%(today)s).",
                                            day=day, today=today))
