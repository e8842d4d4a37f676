"""Webhooks (/v1/webhooks, admin): who is told of events. Out of the API document, as routes/alerts.py."""
from flask import Blueprint

from routes.access import actor
from routes.alerts import undocumented
from routes.operation import operation
from routes.parsing import body_data, load
from schemas.alerts import WebhookCreatedSchema, webhook_create_schema, webhooks_schema
from stock import webhooks
from storage.db import db

bp = Blueprint("webhooks", __name__, url_prefix="/v1/webhooks")


@bp.post("/")
@undocumented
@operation("admin")
def add_webhook():
    """Add a receiver of events; the answer holds its secret, shown this once."""
    fields = load(webhook_create_schema, body_data(required=True))
    made = webhooks.create_webhook(db.session, actor(), fields["url"], fields["events"])
    return {"item": WebhookCreatedSchema().dump(made)}, 201


@bp.get("/")
@undocumented
@operation("admin")
def list_webhooks():
    """Every receiver with its last delivery's time and status; never a secret."""
    return {"list": webhooks_schema.dump(webhooks.list_webhooks(db.session))}


@bp.delete("/<number:webhook_id>")
@undocumented
@operation("admin")
def delete_webhook(webhook_id):
    """Remove a receiver; what it was not sent yet is not sent."""
    webhooks.delete_webhook(db.session, actor(), webhook_id)
    return {}
