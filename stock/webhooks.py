"""Webhooks: who is told of events, signed with a secret shown once (DESIGN section 20).

Plain functions on a session for the API and the admin pages. The sending itself is
background/sender.py; here only the receivers and what their deliveries answered.

A webhook may be limited to warehouses: it is then sent only their events. One made by an admin
limited to warehouses is limited to them (stock/caller.py `may_manage`), and such an admin
sees and removes only webhooks within its warehouses (DESIGN 26).
"""
import secrets

from sqlalchemy import delete, func, select

from stock.caller import Caller, may_manage, parse_warehouses, reach_of, require_may_manage, warehouses_text
from models import OutboxEvent, Webhook, WebhookDelivery
from stock.audit import Actor, record
from stock.errors import Invalid, NotFound, say, say_count
from stock.outbox import EVENTS
from stock.warehouses import require_warehouses
from storage.db import utc_now, writing


def create_webhook(session, actor: Actor, url: str, events: list[str], warehouses: list[int] | None = None,
                   caller: Caller | None = None) -> dict:
    """Add a receiver; the answer carries its secret, which is never shown again.

    `warehouses`: only their events ([]: every warehouse's); None, those of the caller (None: the
    terminal, every warehouse)."""
    unknown = {str(index): [say("Not an event; the events are %(events)s.", events=", ".join(EVENTS))]
               for index, event in enumerate(events) if event not in EVENTS}
    if unknown:
        raise Invalid(say_count("Unknown event.", "Unknown events.", len(unknown), text="Unknown event(s)."),
                      {"data": {"events": unknown}})
    wanted = [event for event in EVENTS if event in set(events)]  # in one order, without repeats
    reach = reach_of(warehouses) if warehouses is not None else (None if caller is None else caller.warehouses)
    require_may_manage(caller, reach, say("A webhook for every warehouse") if reach is None else say("This webhook"))
    secret = "whsec_" + secrets.token_hex(24)
    with writing(session, []):
        require_warehouses(session, reach or [])
        hook = Webhook(url=url, events=",".join(wanted), secret=secret, created_at=utc_now(),
                       warehouses=warehouses_text(reach))
        session.add(hook)
        session.flush()
        record(session, actor, "webhook.create", str(hook.id),
               {"url": [None, url], "events": [None, wanted], "warehouses": [None, sorted(reach or [])]}, reach=reach)
        answer = {"id": hook.id, "url": url, "events": wanted, "warehouses": sorted(reach or []), "secret": secret}
    return answer


# Webhook ids are an INTEGER column: on PostgreSQL a larger number is refused by the database
# (a 500) rather than found missing, so it is answered here as the receiver it cannot be.
WEBHOOK_ID_MAX = 2**31 - 1


def delete_webhook(session, actor: Actor, webhook_id: int, caller: Caller | None = None) -> None:
    """Remove a receiver and its deliveries (what was not sent yet is not sent). One the caller
    may not manage is not found, as it is not in its list."""
    if not 0 < webhook_id <= WEBHOOK_ID_MAX:
        raise NotFound(say("No webhook %(number)s.", number=webhook_id))
    with writing(session, []):
        hook = session.get(Webhook, webhook_id)
        if hook is None or not may_manage(caller, parse_warehouses(hook.warehouses)):
            raise NotFound(say("No webhook %(number)s.", number=webhook_id))
        session.execute(delete(WebhookDelivery).where(WebhookDelivery.webhook_id == webhook_id))
        record(session, actor, "webhook.delete", str(webhook_id), {"url": [hook.url, None]},
               reach=parse_warehouses(hook.warehouses))
        session.delete(hook)


def list_webhooks(session, caller: Caller | None = None) -> list[dict]:
    """Every receiver (that the caller may manage) with its last delivery's time and answer status
    (never its secret)."""
    last = (select(WebhookDelivery.webhook_id, func.max(WebhookDelivery.last_at).label("last_at"))
            .where(WebhookDelivery.last_at.is_not(None)).group_by(WebhookDelivery.webhook_id).subquery())
    waiting = dict(session.execute(select(WebhookDelivery.webhook_id, func.count())
                                   .where(WebhookDelivery.state == "pending")
                                   .group_by(WebhookDelivery.webhook_id)).all())
    answers = {}
    for hook_id, at, status in session.execute(
            select(WebhookDelivery.webhook_id, WebhookDelivery.last_at, WebhookDelivery.last_status)
            .join(last, (last.c.webhook_id == WebhookDelivery.webhook_id) & (last.c.last_at == WebhookDelivery.last_at))):
        answers[hook_id] = (at, status)
    return [{"id": hook.id, "url": hook.url, "events": hook.events.split(","),
             "warehouses": sorted(parse_warehouses(hook.warehouses) or []), "created": hook.created_at,
             "last_delivery": answers.get(hook.id, (None, 0))[0], "last_status": answers.get(hook.id, (None, 0))[1],
             "pending": waiting.get(hook.id, 0)}
            for hook in session.scalars(select(Webhook).order_by(Webhook.id))
            if may_manage(caller, parse_warehouses(hook.warehouses))]


def list_deliveries(session, webhook_id: int | None = None, limit: int = 100,
                    caller: Caller | None = None) -> list[dict]:
    """The newest deliveries (of one receiver, or all those the caller may manage), with their
    event and last answer."""
    query = (select(WebhookDelivery, OutboxEvent.event, OutboxEvent.created)
             .join(OutboxEvent, OutboxEvent.id == WebhookDelivery.event_id)
             .order_by(WebhookDelivery.id.desc()).limit(limit))
    if webhook_id is not None:
        query = query.where(WebhookDelivery.webhook_id == webhook_id)
    if caller is not None:
        mine = [hook.id for hook in session.scalars(select(Webhook))
                if may_manage(caller, parse_warehouses(hook.warehouses))]
        query = query.where(WebhookDelivery.webhook_id.in_(mine))
    return [{"id": d.id, "webhook_id": d.webhook_id, "event_id": d.event_id, "event": event, "created": created,
             "state": d.state, "attempts": d.attempts, "next_at": d.next_at, "last_at": d.last_at,
             "last_status": d.last_status, "last_answer": d.last_answer}
            for d, event, created in session.execute(query)]
