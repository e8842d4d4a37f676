"""GET /health: whether the service and its database answer; no key needed."""
from flask import Blueprint
from sqlalchemy import text

from stock.errors import Unavailable
from storage import outage
from storage.db import db, storage_fault
from version import VERSION

bp = Blueprint("health", __name__)


@bp.get("/health")
def health():
    """Answer ok when the database answers, 503 while it does not (no key needed); with the release."""
    try:
        db.session.execute(text("SELECT 1"))
    except Exception as error:
        if storage_fault(error) is None:
            raise
        if outage.is_connection_lost(error):
            outage.refused(db.engine, error, "GET /health")
        return {"status": "unavailable", "version": VERSION}, 503, {"Retry-After": str(Unavailable.retry_after)}
    return {"status": "ok", "version": VERSION}
