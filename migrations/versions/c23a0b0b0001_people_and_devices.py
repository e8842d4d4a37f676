"""People and devices: users, failed sign-ins, key expiry and last use, who posted a batch

Revision ID: c23a0b0b0001
Revises: b21a0de90001
Create Date: 2026-11-25 12:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = "c23a0b0b0001"
down_revision = "b21a0de90001"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("role", sa.String(length=10), nullable=False),
        sa.Column("warehouses", sa.String(length=500), nullable=False),
        sa.Column("password_hash", sa.String(length=300), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("password_changed_at", sa.DateTime(), nullable=False),
        sa.Column("disabled_at", sa.DateTime(), nullable=True),
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name"),
    )
    op.create_table(
        "signin_failures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=100), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_signin_failures_address_at", "signin_failures", ["address", "at"])
    op.create_index("ix_signin_failures_at", "signin_failures", ["at"])
    with op.batch_alter_table("api_keys") as batch:
        batch.add_column(sa.Column("expires_at", sa.DateTime(), nullable=True))
        batch.add_column(sa.Column("last_used_at", sa.DateTime(), nullable=True))
        batch.add_column(sa.Column("last_used_from", sa.String(length=100), nullable=False, server_default=""))
    with op.batch_alter_table("batches") as batch:
        batch.add_column(sa.Column("posted_by", sa.String(length=100), nullable=False, server_default=""))
        batch.add_column(sa.Column("posted_from", sa.String(length=100), nullable=False, server_default=""))


def downgrade():
    with op.batch_alter_table("batches") as batch:
        batch.drop_column("posted_from")
        batch.drop_column("posted_by")
    with op.batch_alter_table("api_keys") as batch:
        batch.drop_column("last_used_from")
        batch.drop_column("last_used_at")
        batch.drop_column("expires_at")
    op.drop_index("ix_signin_failures_at", table_name="signin_failures")
    op.drop_index("ix_signin_failures_address_at", table_name="signin_failures")
    op.drop_table("signin_failures")
    op.drop_table("users")
