from flask import Blueprint
from sqlalchemy import text

from db import db

bp = Blueprint("health", __name__)


@bp.get("/health")
def health():
    """Answer ok when the database answers (no key needed)."""
    db.session.execute(text("SELECT 1"))
    return {"status": "ok"}
