"""People choose their own language for the pages (DESIGN 29)

Empty: the depot's language, else the browser's. A person's choice is kept with the person, so
it lasts across sessions and devices.

Revision ID: f41a1a550001
Revises: f40a10750001
Create Date: 2026-11-28 06:30:00

"""
import sqlalchemy as sa
from alembic import op

revision = "f41a1a550001"
down_revision = "f40a10750001"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("language", sa.String(length=5), server_default="", nullable=False))


def downgrade():
    with op.batch_alter_table("users") as batch:
        batch.drop_column("language")
