"""Balances keep their lot's best-before, indexed for the alerts of lots in stock past it

A depot that never wrote its old lots off holds a hundred thousand lots past their best-before
with stock left; counting them through a join of balances and best_before took a second on
every page (the count beside "Alerts"). With the date beside the stock, and a partial index of
the lots in stock that have one, the count and each page of the list are a range of one index.

Revision ID: f35a1e700001
Revises: f34b1e700001
Create Date: 2026-11-27 01:30:00

"""
import sqlalchemy as sa
from alembic import op

revision = "f35a1e700001"
down_revision = "f34b1e700001"
branch_labels = None
depends_on = None

HELD_WITH_DATE = "amount_milli > 0 AND best_before != ''"


def upgrade():
    with op.batch_alter_table("balances") as batch:
        batch.add_column(sa.Column("best_before", sa.String(length=10), server_default="", nullable=False))
    op.execute("UPDATE balances SET best_before = (SELECT bb.date_exp FROM best_before bb "
               "WHERE bb.product_code = balances.product_code AND bb.lot = balances.lot) "
               "WHERE EXISTS (SELECT 1 FROM best_before bb "
               "WHERE bb.product_code = balances.product_code AND bb.lot = balances.lot)")
    op.create_index("ix_balances_best_before", "balances", ["best_before", "id_warehouse", "product_code", "lot", "amount_milli"],
                    unique=False, sqlite_where=sa.text(HELD_WITH_DATE), postgresql_where=sa.text(HELD_WITH_DATE))


def downgrade():
    op.drop_index("ix_balances_best_before", table_name="balances")
    with op.batch_alter_table("balances") as batch:
        batch.drop_column("best_before")
