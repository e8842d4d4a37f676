"""Warehouses as master data, and the decimal places of a product's base unit

Revision ID: b21a0de90001
Revises: a0d17a11e001
Create Date: 2026-11-25 12:00:00

Every warehouse id the data already uses (batches, documents, balances, stocktakings,
orders, keys) is declared as "Warehouse N", so that nothing booked loses its warehouse;
a database that uses none starts with warehouse 1, "Main".
"""
import sqlalchemy as sa
from alembic import op

revision = "b21a0de90001"
down_revision = "a0d17a11e001"
branch_labels = None
depends_on = None

Code = sa.String(length=200).with_variant(sa.String(length=200, collation="C"), "postgresql")
USING_WAREHOUSES = ("batches", "warehouse_documents", "warehouse_document_items", "balances",
                    "stocktakings", "order_documents")


def upgrade():
    warehouses = op.create_table(
        "warehouses",
        sa.Column("id_warehouse", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("name", Code, nullable=False),
        sa.Column("address", sa.Text(), nullable=False),
        sa.Column("active", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id_warehouse"),
        sa.UniqueConstraint("name"),
    )
    with op.batch_alter_table("products", schema=None) as batch_op:
        batch_op.add_column(sa.Column("decimal_places", sa.Integer(), nullable=False, server_default="3"))

    connection = op.get_bind()
    used = set()
    for table in USING_WAREHOUSES:
        used.update(connection.execute(sa.text(f"SELECT DISTINCT id_warehouse FROM {table}")).scalars())
    for listed in connection.execute(sa.text("SELECT warehouses FROM api_keys")).scalars():
        used.update(int(part) for part in (listed or "").split(",") if part.strip())
    rows = [{"id_warehouse": number, "name": f"Warehouse {number}", "address": "", "active": 1}
            for number in sorted(used)]
    op.bulk_insert(warehouses, rows or [{"id_warehouse": 1, "name": "Main", "address": "", "active": 1}])


def downgrade():
    with op.batch_alter_table("products", schema=None) as batch_op:
        batch_op.drop_column("decimal_places")
    op.drop_table("warehouses")
