"""Locations inside a warehouse, stock per location, moves (DESIGN 27)

Every (warehouse, product, lot) keeps its stock per location beside its balance; location ""
is unplaced stock. A depot upgraded from an earlier release has no locations yet: all its
stock becomes unplaced, so the rows of each balance add up to it from the first booking on.

Revision ID: f39a10ca0001
Revises: f35a1e700001
Create Date: 2026-11-28 06:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = "f39a10ca0001"
down_revision = "f35a1e700001"
branch_labels = None
depends_on = None

CODE = sa.String(length=200).with_variant(sa.String(length=200, collation="C"), "postgresql")
LOCATION = sa.String(length=30).with_variant(sa.String(length=30, collation="C"), "postgresql")
SORT_KEY = sa.String(length=100).with_variant(sa.String(length=100, collation="C"), "postgresql")


def upgrade():
    with op.batch_alter_table("warehouses") as batch:
        batch.add_column(sa.Column("receiving_location", LOCATION, server_default="", nullable=False))
    op.create_table(
        "locations",
        sa.Column("id_warehouse", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("code", LOCATION, nullable=False),
        sa.Column("code_key", LOCATION, nullable=False),
        sa.Column("sort_key", SORT_KEY, nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("sequence", sa.BigInteger(), nullable=False),
        sa.Column("hold", sa.Integer(), nullable=False),
        sa.Column("active", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["id_warehouse"], ["warehouses.id_warehouse"]),
        sa.PrimaryKeyConstraint("id_warehouse", "code"),
        sa.UniqueConstraint("id_warehouse", "code_key", name="uq_locations_code_key"),
    )
    op.create_table(
        "location_balances",
        sa.Column("id_warehouse", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("product_code", CODE, nullable=False),
        sa.Column("lot", CODE, nullable=False),
        sa.Column("location", LOCATION, nullable=False),
        sa.Column("amount_milli", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["product_code"], ["products.product_code"]),
        sa.PrimaryKeyConstraint("id_warehouse", "product_code", "lot", "location"),
    )
    op.create_index("ix_location_balances_place", "location_balances",
                    ["id_warehouse", "location", "product_code", "lot"], unique=False)
    op.create_table(
        "moves",
        sa.Column("move_id", sa.String(length=100), nullable=False),
        sa.Column("from_warehouse", sa.BigInteger(), nullable=False),
        sa.Column("from_location", LOCATION, nullable=False),
        sa.Column("to_warehouse", sa.BigInteger(), nullable=False),
        sa.Column("to_location", LOCATION, nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("posted_by", sa.String(length=100), nullable=False),
        sa.Column("content_digest", sa.String(length=64), nullable=False),
        sa.Column("out_document_id", sa.BigInteger(), nullable=False),
        sa.Column("in_document_id", sa.BigInteger(), nullable=False),
        sa.Column("items", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("move_id"),
    )
    op.create_index("ix_moves_from_warehouse", "moves", ["from_warehouse"], unique=False)
    op.create_index("ix_moves_to_warehouse", "moves", ["to_warehouse"], unique=False)
    # What the depot holds today lies nowhere in particular yet: all of it unplaced.
    op.execute("INSERT INTO location_balances (id_warehouse, product_code, lot, location, amount_milli) "
               "SELECT id_warehouse, product_code, lot, '', amount_milli FROM balances WHERE amount_milli != 0")


def downgrade():
    op.drop_index("ix_moves_to_warehouse", table_name="moves")
    op.drop_index("ix_moves_from_warehouse", table_name="moves")
    op.drop_table("moves")
    op.drop_index("ix_location_balances_place", table_name="location_balances")
    op.drop_table("location_balances")
    op.drop_table("locations")
    with op.batch_alter_table("warehouses") as batch:
        batch.drop_column("receiving_location")
