"""The outbox: events written in the transaction of what caused them (DESIGN section 20).

A rule calls `emit` inside its own write transaction, so an event commits with its cause or not
at all: none is lost, none is told of a booking that failed. The rule does not know who listens;
background/sender.py reads the outbox after the commit and delivers to the webhooks.
`data` is plain JSON in the API's own format (amounts as numbers in base units).
"""
import json

from sqlalchemy import insert

from models import OutboxEvent
from storage.db import utc_now

EVENTS = ("batch.booked", "stock.low", "lot.expiring", "order.closed", "stocktaking.booked", "write_off.booked",
          "return.booked")


def emit(session, event: str, data: dict) -> None:
    """Write one event in the caller's transaction (e.g. `emit(session, "order.closed", {...})`)."""
    emit_many(session, [(event, data)])


_INSERT_EVENT = insert(OutboxEvent)  # built once: every booking writes its events


def emit_many(session, events: list[tuple[str, dict]]) -> None:
    """Write several events in one statement, in the caller's transaction, in the order given."""
    unknown = [event for event, _ in events if event not in EVENTS]
    if unknown:
        raise ValueError(f"unknown event(s): {', '.join(unknown)}")
    now = utc_now()
    session.connection().execute(_INSERT_EVENT, [
        {"event": event, "created": now, "fanned_out": 0,
         "data": json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)}
        for event, data in events])
