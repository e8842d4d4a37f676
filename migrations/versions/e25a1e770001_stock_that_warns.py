"""Stock that warns: reorder levels, best-before per lot, webhooks with their outbox, the lease

Revision ID: e25a1e770001
Revises: d23a0c0ffee1
Create Date: 2026-11-25 12:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = "e25a1e770001"
down_revision = "d23a0c0ffee1"
branch_labels = None
depends_on = None

CODE = sa.String(length=200).with_variant(sa.String(length=200, collation="C"), "postgresql")
BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade():
    op.create_index("ix_balances_held", "balances", ["id_warehouse", "product_code", "lot"],
                    sqlite_where=sa.text("amount_milli != 0"), postgresql_where=sa.text("amount_milli != 0"))
    op.create_table(
        "reorder_levels",
        sa.Column("id_warehouse", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("product_code", CODE, nullable=False),
        sa.Column("min_amount_milli", sa.BigInteger(), nullable=False),
        sa.Column("target_amount_milli", sa.BigInteger(), nullable=False),
        sa.Column("low_notified", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["product_code"], ["products.product_code"]),
        sa.PrimaryKeyConstraint("id_warehouse", "product_code"),
    )
    op.create_table(
        "best_before",
        sa.Column("product_code", CODE, nullable=False),
        sa.Column("lot", CODE, nullable=False),
        sa.Column("date_exp", sa.String(length=10), nullable=False),
        sa.Column("expiring_notified", sa.String(length=10), nullable=False),
        sa.ForeignKeyConstraint(["product_code"], ["products.product_code"]),
        sa.PrimaryKeyConstraint("product_code", "lot"),
    )
    op.create_index("ix_best_before_date_exp", "best_before", ["date_exp"])
    # The best-before of every lot already received: its earliest date on a goods-in line.
    op.execute(
        "INSERT INTO best_before (product_code, lot, date_exp, expiring_notified) "
        "SELECT product_code, lot, MIN(date_exp), '' FROM warehouse_document_items "
        "WHERE direction = 'I' AND date_exp != '' GROUP BY product_code, lot")
    op.create_table(
        "webhooks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("events", sa.Text(), nullable=False),
        sa.Column("secret", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "outbox_events",
        sa.Column("id", BIG_ID, nullable=False),
        sa.Column("event", sa.String(length=50), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("fanned_out", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_outbox_events_fanned_out", "outbox_events", ["fanned_out"])
    op.create_table(
        "webhook_deliveries",
        sa.Column("id", BIG_ID, nullable=False),
        sa.Column("webhook_id", sa.Integer(), nullable=False),
        sa.Column("event_id", BIG_ID, nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_at", sa.DateTime(), nullable=False),
        sa.Column("last_at", sa.DateTime(), nullable=True),
        sa.Column("last_status", sa.Integer(), nullable=False),
        sa.Column("last_answer", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["outbox_events.id"]),
        sa.ForeignKeyConstraint(["webhook_id"], ["webhooks.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_webhook_deliveries_queue", "webhook_deliveries", ["webhook_id", "state", "event_id"])
    op.create_index("ix_webhook_deliveries_event_id", "webhook_deliveries", ["event_id"])
    op.create_table(
        "leases",
        sa.Column("name", sa.String(length=50), nullable=False),
        sa.Column("holder", sa.String(length=200), nullable=False),
        sa.Column("expires", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade():
    op.drop_table("leases")
    op.drop_index("ix_webhook_deliveries_event_id", table_name="webhook_deliveries")
    op.drop_index("ix_webhook_deliveries_queue", table_name="webhook_deliveries")
    op.drop_table("webhook_deliveries")
    op.drop_index("ix_outbox_events_fanned_out", table_name="outbox_events")
    op.drop_table("outbox_events")
    op.drop_table("webhooks")
    op.drop_index("ix_best_before_date_exp", table_name="best_before")
    op.drop_table("best_before")
    op.drop_table("reorder_levels")
    op.drop_index("ix_balances_held", table_name="balances")
