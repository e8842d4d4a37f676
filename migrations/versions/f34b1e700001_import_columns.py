"""Import columns: the office's own headers mapped to a kind's columns, kept for the next file

Revision ID: f34b1e700001
Revises: f31b5ca70001
Create Date: 2026-11-26 12:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = "f34b1e700001"
down_revision = "f31b5ca70001"
branch_labels = None
depends_on = None

CODE = sa.String(length=200).with_variant(sa.String(length=200, collation="C"), "postgresql")


def upgrade():
    op.create_table(
        "import_columns",
        sa.Column("kind", sa.String(length=30), nullable=False),
        sa.Column("header", CODE, nullable=False),
        sa.Column("field", sa.String(length=100), nullable=False),
        sa.PrimaryKeyConstraint("kind", "header"),
    )


def downgrade():
    op.drop_table("import_columns")
