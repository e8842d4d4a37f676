"""Who a request acts for (the Caller), how far it reaches, and what it may manage (DESIGN 2, 16, 26).

A caller is a key (a device) or a person signed in to the pages; both carry a role and may be
limited to warehouses. `may_manage` is the one rule that decides whether a caller may make,
change or see among an admin's things (keys, people, webhooks, warehouses, rows of the audit
trail) something that reaches given warehouses: the API, the pages and the commands all ask it.

Every rule of stock/ is given a Caller, so this module sits below them: it imports only
stock.errors. It lives with the rules rather than with keys and people (identity/), which stand
above the rules: the two rooms then lean one way only, identity/ on stock/.
"""
from dataclasses import dataclass
from datetime import datetime, timezone

from stock.errors import Forbidden, Unauthorized, say, say_count

ROLES = ("read", "scan", "admin")  # each role may do all that the ones before it may

# What something reaches: a frozenset of warehouse ids, or EVERY warehouse. What every warehouse
# shares (a product, a customer) reaches no warehouse in particular: SHARED, which every admin may manage.
EVERY = None
SHARED = frozenset()


class ExpiredKey(Unauthorized):
    """A key past its expiry: refused, and told so, since a scanner's user can do something about it."""

    def __init__(self, name: str, expired: datetime):
        super().__init__(say("The API key expired on %(when)s; ask the office for a new one.", when=utc_text(expired)))
        self.name = name


@dataclass(frozen=True)
class Caller:
    """Who a request acts for: a key (key_id) or a person signed in to the pages (person_id)."""

    key_id: int | None
    name: str
    role: str
    warehouses: frozenset | None  # None: every warehouse
    expires: datetime | None = None  # a key's expiry (aware, UTC)
    person_id: int | None = None
    language: str = ""  # a person's own language for the pages ("" follows the depot's)

    @property
    def kind(self) -> str:
        """"key" or "person", as the audit trail tells them apart."""
        return "person" if self.person_id is not None else "key"

    def refuse_if_expired(self, now: datetime | None = None) -> None:
        if self.expires is not None and (now or datetime.now(timezone.utc)) >= self.expires:
            raise ExpiredKey(self.name, self.expires)

    def has_role(self, role: str) -> bool:
        return ROLES.index(self.role) >= ROLES.index(role)

    def sees(self, id_warehouse: int) -> bool:
        return self.warehouses is None or id_warehouse in self.warehouses

    def narrow(self, id_warehouses: list[int]) -> list[int] | None:
        """The warehouses a filter may cover: those asked for (all when none) that the key allows."""
        if self.warehouses is None:
            return sorted(set(id_warehouses)) or None
        if not id_warehouses:
            return sorted(self.warehouses)
        return sorted(set(id_warehouses) & self.warehouses)

    def require_warehouse(self, id_warehouse: int) -> None:
        if not self.sees(id_warehouse):
            raise Forbidden(say("This key may not act in warehouse %(number)s.", number=id_warehouse))


def may_manage(caller: Caller | None, reach: frozenset | None) -> bool:
    """Whether `caller` may make, change or list something that reaches `reach` (EVERY: all warehouses).

    An admin for every warehouse manages everything; an admin limited to warehouses manages
    only what stays within them, so never what reaches every warehouse; other roles manage
    nothing. None is the depot's terminal (`flask --app app ...`), which is unlimited.
    stock/audit.py asks the same of the trail's rows in SQL (`within`), and a test holds the
    two alike.
    """
    if caller is None:
        return True
    if not caller.has_role("admin"):
        return False
    if caller.warehouses is None:
        return True
    return reach is not EVERY and reach <= caller.warehouses


def require_may_manage(caller: Caller | None, reach: frozenset | None, what: str) -> None:
    """Forbidden, naming the caller's warehouses, unless `may_manage`; `what` names the thing refused."""
    if not may_manage(caller, reach):
        if not caller.has_role("admin"):
            raise Forbidden(say("%(what)s: only an admin may do that.", what=what))
        limits = ", ".join(str(number) for number in sorted(caller.warehouses or ()))
        raise Forbidden(say_count("%(what)s would reach beyond warehouse %(limits)s, to which %(name)r is limited; "
                                  "only an admin for every warehouse may do that.",
                                  "%(what)s would reach beyond warehouses %(limits)s, to which %(name)r is limited; "
                                  "only an admin for every warehouse may do that.", len(caller.warehouses or ()),
                                  text="%(what)s would reach beyond warehouse(s) %(limits)s, to which %(name)r is "
                                  "limited; only an admin for every warehouse may do that.",
                                  what=what, limits=limits, name=caller.name))


def reach_of(warehouses) -> frozenset | None:
    """A key's, a person's or a webhook's warehouse list as its reach: an empty list is EVERY warehouse."""
    return frozenset(warehouses or ()) or EVERY


def parse_warehouses(text: str) -> frozenset | None:
    """The warehouses column of keys, people and webhooks ("1,2"; empty: every warehouse)."""
    ids = frozenset(int(part) for part in text.split(",") if part.strip())
    return ids or None


def warehouses_text(warehouses) -> str:
    return ",".join(str(w) for w in sorted(set(warehouses or [])))


def utc_text(value: datetime | None) -> str:
    """`YYYY-MM-DDThh:mm:ssZ` in UTC, "" for none. A naive value is the server's local time
    (the keys' created and revoked times were always written so)."""
    if value is None:
        return ""
    return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
