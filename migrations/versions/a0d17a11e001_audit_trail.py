"""The audit trail: one row per change that is not a booking

Revision ID: a0d17a11e001
Revises: 85a7e1fcdb9a
Create Date: 2026-11-25 12:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = "a0d17a11e001"
down_revision = "85a7e1fcdb9a"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "audit_trail",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("who", sa.String(length=200), nullable=False),
        sa.Column("address", sa.String(length=100), nullable=False),
        sa.Column("kind", sa.String(length=50), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("changes", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_audit_trail_kind_id", "audit_trail", ["kind", "id"])
    op.create_index("ix_audit_trail_who_id", "audit_trail", ["who", "id"])


def downgrade():
    op.drop_index("ix_audit_trail_who_id", table_name="audit_trail")
    op.drop_index("ix_audit_trail_kind_id", table_name="audit_trail")
    op.drop_table("audit_trail")
