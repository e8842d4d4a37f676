"""Who may do what: sessions kept on the server, the audit trail's who_kind and reach, webhooks by warehouse

Revision ID: f30a5e550001
Revises: e25a1e770001
Create Date: 2026-11-26 12:00:00

Sessions of the pages become rows (page_sessions): signing out ends one for good. The session
generation of a person goes with it: a password change and disabling now delete the person's
rows. Sessions from before the upgrade are not rows, so their people sign in again.

The audit trail says what made each change (who_kind: person, key or cli) and which warehouses
it concerns (warehouses: "*" every one, "" none in particular, "1,2" those), so that an admin
limited to warehouses reads only its own. Rows from before the upgrade are taken as concerning
every warehouse, but those of products and customers (shared by every warehouse); their who_kind
is filled where it is sure: a command ("cli"), a sign-in under a person's name, or a name only a
person or only a key has.
"""
import sqlalchemy as sa
from alembic import op

revision = "f30a5e550001"
down_revision = "e25a1e770001"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "page_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("seen_at", sa.DateTime(), nullable=False),
        sa.Column("address", sa.String(length=100), nullable=False),
        sa.ForeignKeyConstraint(["person_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_index("ix_page_sessions_person_id", "page_sessions", ["person_id"])
    op.create_index("ix_page_sessions_seen_at", "page_sessions", ["seen_at"])
    with op.batch_alter_table("users") as batch:
        batch.drop_column("generation")
    with op.batch_alter_table("webhooks") as batch:
        batch.add_column(sa.Column("warehouses", sa.String(length=500), server_default="", nullable=False))
    with op.batch_alter_table("audit_trail") as batch:
        batch.add_column(sa.Column("who_kind", sa.String(length=10), server_default="", nullable=False))
        batch.add_column(sa.Column("warehouses", sa.String(length=500), server_default="*", nullable=False))
    op.execute("UPDATE audit_trail SET warehouses = '' WHERE kind LIKE 'product.%' OR kind LIKE 'customer.%'")
    op.execute("UPDATE audit_trail SET who_kind = 'cli' WHERE address = 'cli'")
    op.execute("UPDATE audit_trail SET who_kind = 'person' "
               "WHERE who_kind = '' AND who != '' AND kind LIKE 'signin.%'")
    op.execute("UPDATE audit_trail SET who_kind = 'person' WHERE who_kind = '' "
               "AND who IN (SELECT name FROM users) AND who NOT IN (SELECT name FROM api_keys)")
    op.execute("UPDATE audit_trail SET who_kind = 'key' WHERE who_kind = '' "
               "AND who IN (SELECT name FROM api_keys) AND who NOT IN (SELECT name FROM users)")


def downgrade():
    with op.batch_alter_table("audit_trail") as batch:
        batch.drop_column("warehouses")
        batch.drop_column("who_kind")
    with op.batch_alter_table("webhooks") as batch:
        batch.drop_column("warehouses")
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("generation", sa.Integer(), server_default="0", nullable=False))
    op.drop_index("ix_page_sessions_seen_at", table_name="page_sessions")
    op.drop_index("ix_page_sessions_person_id", table_name="page_sessions")
    op.drop_table("page_sessions")
