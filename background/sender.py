"""The webhook sender: fans the outbox out into deliveries, and posts them, signed, in order.

Every event the rules wrote (stock/outbox.py) becomes one delivery per webhook that wants it
and existed when it happened. A webhook's deliveries go out one at a time in the order of
their events: a later one waits while an earlier one is retried (after PAUSE, doubling up to
an hour), and an event nobody took within GIVE_UP is marked failed so the rest can go on.
Each attempt's answer (status and the start of the body) is kept for /admin/webhooks.

A webhook limited to warehouses is given only the events of those warehouses (each event's
data names its `id_warehouse`; one that names none is not theirs). A redirect is never
followed: it is the receiver's answer, and the event waits for the next attempt, so that a
receiver cannot send the depot's signed events, or its requests, anywhere else.

Nothing here runs inside a booking: a slow, failing or dead receiver only delays its own queue.
"""
import hashlib
import hmac
import json
import time
import urllib.error
import urllib.request
from datetime import timedelta

from sqlalchemy import and_, delete, select, update

from stock.caller import parse_warehouses
from models import OutboxEvent, Webhook, WebhookDelivery
from storage.db import utc_now, writing

TIMEOUT = 5.0  # seconds a receiver has to answer
GIVE_UP = timedelta(hours=24)
MAX_PAUSE = 3600.0  # seconds between two attempts at most
KEEP = timedelta(days=7)  # events and their deliveries are pruned after this
ANSWER_KEPT = 200  # characters of a receiver's answer kept for the page


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The Warehouse-Signature header: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">."""
    mac = hmac.new(secret.encode("utf-8"), f"{timestamp}.".encode("ascii") + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


def event_body(event_id: int, event: str, created, data: str) -> bytes:
    """What a receiver gets: {id, event, created, data}, data as the rule wrote it."""
    return json.dumps({"id": event_id, "event": event, "created": created.strftime("%Y-%m-%dT%H:%M:%SZ"),
                       "data": json.loads(data)}, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """A 3xx answer stays the answer (urllib raises it as an HTTPError) instead of being followed."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


_OPENER = urllib.request.build_opener(NoRedirect)


def post(url: str, secret: str, body: bytes, timeout: float = TIMEOUT) -> tuple[int, str]:
    """Post one event; its HTTP status (0 when no answer came) and the start of its answer."""
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json", "User-Agent": "warehouse-webhooks/1",
        "Warehouse-Signature": signature(secret, int(time.time()), body)})
    try:
        with _OPENER.open(request, timeout=timeout) as answer:  # http and https only (the schema's URL check)
            return answer.status, answer.read(ANSWER_KEPT).decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read(ANSWER_KEPT).decode("utf-8", "replace")
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", error)
        return 0, f"no answer: {reason}"[:ANSWER_KEPT]


def fan_out(session, batch: int = 500) -> int:
    """Make the deliveries of events not fanned out yet; how many events were taken."""
    events = session.execute(select(OutboxEvent.id, OutboxEvent.event, OutboxEvent.created, OutboxEvent.data)
                             .where(OutboxEvent.fanned_out == 0).order_by(OutboxEvent.id).limit(batch)).all()
    if not events:
        session.rollback()
        return 0
    hooks = session.execute(select(Webhook.id, Webhook.events, Webhook.created_at, Webhook.warehouses)).all()
    session.rollback()
    now = utc_now()
    limited = any(hook.warehouses for hook in hooks)
    rows = [{"webhook_id": hook.id, "event_id": event.id, "state": "pending", "attempts": 0, "next_at": now,
             "last_status": 0, "last_answer": ""}
            for event, warehouse in ((event, warehouse_of(event.data) if limited else None) for event in events)
            for hook in hooks
            if event.event in hook.events.split(",") and hook.created_at <= event.created
            and in_reach(hook.warehouses, warehouse)]
    with writing(session, []):
        if rows:
            # A webhook deleted meanwhile takes none (its row is gone: no delivery may name it).
            alive = set(session.scalars(select(Webhook.id)))
            rows = [row for row in rows if row["webhook_id"] in alive]
            if rows:
                session.execute(WebhookDelivery.__table__.insert(), rows)
        session.execute(update(OutboxEvent).where(OutboxEvent.id.in_([event.id for event in events]))
                        .values(fanned_out=1))
    return len(events)


def warehouse_of(data: str) -> int | None:
    """The warehouse an event concerns, as its data names it (None: none)."""
    value = json.loads(data).get("id_warehouse") if data.startswith("{") else None
    return value if isinstance(value, int) else None


def in_reach(warehouses: str, id_warehouse: int | None) -> bool:
    """Whether a webhook with these warehouses ("": every one) is given an event of that warehouse."""
    reach = parse_warehouses(warehouses)
    return reach is None or id_warehouse in reach


def due_webhooks(session) -> list[int]:
    """Webhooks whose oldest pending delivery may be tried now."""
    found = set(session.scalars(select(WebhookDelivery.webhook_id).where(
        WebhookDelivery.state == "pending", WebhookDelivery.next_at <= utc_now()).distinct()))
    session.rollback()
    return sorted(found)


def pause(attempts: int, first: float) -> float:
    """Seconds before the next attempt after `attempts` failed ones: first, 2x, 4x... at most an hour."""
    return min(first * 2 ** (attempts - 1), MAX_PAUSE)


def deliver(session, webhook_id: int, first_pause: float = 10.0, timeout: float = TIMEOUT,
            limit: int = 100, stopping=None) -> int:
    """Send a webhook's pending deliveries in event order until one fails or none is due; how many went."""
    sent = 0
    while sent < limit and not (stopping is not None and stopping.is_set()):
        row = session.execute(
            select(WebhookDelivery.id, WebhookDelivery.attempts, WebhookDelivery.next_at, Webhook.url,
                   Webhook.secret, OutboxEvent.id.label("event_id"), OutboxEvent.event, OutboxEvent.created,
                   OutboxEvent.data)
            .join(Webhook, Webhook.id == WebhookDelivery.webhook_id)
            .join(OutboxEvent, OutboxEvent.id == WebhookDelivery.event_id)
            .where(WebhookDelivery.webhook_id == webhook_id, WebhookDelivery.state == "pending")
            .order_by(WebhookDelivery.event_id).limit(1)).first()
        session.rollback()
        if row is None or row.next_at > utc_now():
            return sent
        status, answer = post(row.url, row.secret, event_body(row.event_id, row.event, row.created, row.data),
                              timeout)
        now = utc_now()
        attempts = row.attempts + 1
        values = {"attempts": attempts, "last_at": now, "last_status": status, "last_answer": answer}
        if 200 <= status < 300:
            values["state"] = "delivered"
        elif now - row.created >= GIVE_UP:
            values["state"] = "failed"
        else:
            values["next_at"] = now + timedelta(seconds=pause(attempts, first_pause))
        with writing(session, []):
            session.execute(update(WebhookDelivery).where(WebhookDelivery.id == row.id).values(**values))
        if values.get("state") != "delivered":
            return sent
        sent += 1
    return sent


def prune(session) -> None:
    """Forget events older than KEEP whose deliveries are all done (none is pending after 24 h)."""
    cutoff = utc_now() - KEEP
    old = select(OutboxEvent.id).where(OutboxEvent.created < cutoff, OutboxEvent.fanned_out == 1)
    with writing(session, []):
        session.execute(delete(WebhookDelivery).where(and_(WebhookDelivery.event_id.in_(old),
                                                           WebhookDelivery.state != "pending")))
        session.execute(delete(OutboxEvent).where(
            OutboxEvent.id.in_(old),
            ~select(WebhookDelivery.id).where(WebhookDelivery.event_id == OutboxEvent.id).exists()))
