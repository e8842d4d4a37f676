"""Write-offs and customer returns, each naming the warehouse document it was booked as; lines by lot

A write-off is a goods-out and a return a goods-in like any other (the seed's figures read them
unchanged): the new tables only say which documents they are, why, and who booked them. A lot's
story reads every line of one (product, lot): the index keeps that one range however long the
product's history.

Revision ID: f40a10750001
Revises: f39a10ca0001
Create Date: 2026-11-28 05:40:00

"""
import sqlalchemy as sa
from alembic import op

revision = "f40a10750001"
down_revision = "f39a10ca0001"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "write_offs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("write_off_id", sa.String(length=100), nullable=False),
        sa.Column("id_warehouse", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(length=20), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("document_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("content_digest", sa.String(length=64), nullable=False),
        sa.Column("posted_by", sa.String(length=100), nullable=False),
        sa.Column("posted_from", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["document_id"], ["warehouse_documents.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("document_id"),
        sa.UniqueConstraint("write_off_id"),
    )
    op.create_index("ix_write_offs_warehouse_date", "write_offs", ["id_warehouse", "date"])
    op.create_table(
        "returns",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("return_id", sa.String(length=100), nullable=False),
        sa.Column("document_number", sa.String(length=200).with_variant(sa.String(length=200, collation="C"),
                                                                        "postgresql"), nullable=False),
        sa.Column("id_warehouse", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("location", sa.String(length=30), nullable=False),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("document_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("content_digest", sa.String(length=64), nullable=False),
        sa.Column("posted_by", sa.String(length=100), nullable=False),
        sa.Column("posted_from", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["document_id"], ["warehouse_documents.id"]),
        sa.ForeignKeyConstraint(["document_number"], ["order_documents.document_number"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("document_id"),
        sa.UniqueConstraint("return_id"),
    )
    op.create_index("ix_returns_document_number", "returns", ["document_number"])
    op.create_index("ix_movements_lot", "warehouse_document_items", ["product_code", "lot", "document_id"])


def downgrade():
    op.drop_index("ix_movements_lot", table_name="warehouse_document_items")
    op.drop_index("ix_returns_document_number", table_name="returns")
    op.drop_table("returns")
    op.drop_index("ix_write_offs_warehouse_date", table_name="write_offs")
    op.drop_table("write_offs")
