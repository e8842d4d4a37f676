"""Webhooks (/v1/webhooks, admin, DESIGN section 20): who is told of events."""
from flask import Blueprint

from routes.access import actor, caller
from routes.operation import operation
from routes.parsing import body_data, load
from schemas import NothingSchema, listing, single
from schemas.alerts import WebhookCreatedSchema, WebhookSchema, webhook_create_schema, webhooks_schema
from stock import webhooks
from storage.db import db

bp = Blueprint("webhooks", __name__, url_prefix="/v1/webhooks")


@bp.post("/")
@operation("admin", body=webhook_create_schema, answer=single(WebhookCreatedSchema, "WebhookCreatedAnswer"),
           status=201)
def add_webhook():
    """Add a receiver of events; the answer holds its secret, shown this once. An admin limited to
    warehouses adds receivers of their events only."""
    fields = load(webhook_create_schema, body_data(required=True))
    made = webhooks.create_webhook(db.session, actor(), fields["url"], fields["events"], fields["warehouses"],
                                   caller())
    return {"item": WebhookCreatedSchema().dump(made)}, 201


@bp.get("/")
@operation("admin", answer=listing(WebhookSchema, "WebhookList"))
def list_webhooks():
    """Every receiver with its last delivery's time and status; never a secret."""
    return {"list": webhooks_schema.dump(webhooks.list_webhooks(db.session, caller()))}


@bp.delete("/<number:webhook_id>")
@operation("admin", answer=NothingSchema, errors=(404,))
def delete_webhook(webhook_id):
    """Remove a receiver; what it was not sent yet is not sent."""
    webhooks.delete_webhook(db.session, actor(), webhook_id, caller())
    return {}
