"""Batch numbers reserved per key: the browser scanner books offline from blocks of its own

Revision ID: f31b5ca70001
Revises: f30a5e550001
Create Date: 2026-11-26 21:36:12

"""
import sqlalchemy as sa
from alembic import op

revision = "f31b5ca70001"
down_revision = "f30a5e550001"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "batch_number_blocks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key_id", sa.Integer(), nullable=False),
        sa.Column("first", sa.BigInteger(), nullable=False),
        sa.Column("last", sa.BigInteger(), nullable=False),
        sa.Column("reserved_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["key_id"], ["api_keys.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("first"),
    )
    op.create_index("ix_batch_number_blocks_key_id", "batch_number_blocks", ["key_id"])


def downgrade():
    op.drop_index("ix_batch_number_blocks_key_id", table_name="batch_number_blocks")
    op.drop_table("batch_number_blocks")
