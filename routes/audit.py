"""The audit trail over HTTP (/v1/audit, DESIGN section 16): newest first, a page at a time; role admin."""
from flask import Blueprint

from routes.access import caller
from routes.operation import operation, query_args
from schemas import AuditEntrySchema, audit_entries_schema, audit_query_schema, listing
from stock import audit
from storage.db import db

bp = Blueprint("audit", __name__, url_prefix="/v1/audit")

DEFAULT_LIMIT = 100


@bp.get("/")
@operation("admin", query=audit_query_schema, answer=listing(AuditEntrySchema, "AuditList"))
def list_audit():
    """Changes that are not bookings, newest first; `before_id` pages on from the last id shown. An admin
    limited to warehouses reads the changes within them."""
    query = query_args()
    return {"list": audit_entries_schema.dump(audit.list_entries(
        db.session, since=query.get("since"), kind=query.get("kind") or None, who=query.get("who") or None,
        who_kind=query.get("who_kind"), limit=query.get("limit") or DEFAULT_LIMIT,
        before_id=query.get("before_id"), caller=caller()))}
