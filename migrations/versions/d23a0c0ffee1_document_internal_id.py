"""Warehouse documents get an internal id; their numbers are given at the end of a booking

Revision ID: d23a0c0ffee1
Revises: c23a0b0b0001
Create Date: 2026-11-25 11:50:00

DESIGN 23: a document's doc_number and ufid are given just before its booking commits,
so its lines (and its stocktaking) refer to it by an internal id. Every existing document
gets the id equal to its doc_number, so every reference keeps its value and no number
changes: warehouse_document_items.doc_number becomes document_id, stocktakings' in_doc and
out_doc become in_document_id and out_document_id. A batch item's doc_number is the
number of its batch's document (stock/records.py), so batch_items loses its copy.

PostgreSQL changes the tables in place; SQLite copies the two document tables into new
ones of the new shape (it cannot change a primary key), as Alembic's batch mode would.
"""
import sqlalchemy as sa
from alembic import op

revision = "d23a0c0ffee1"
down_revision = "c23a0b0b0001"
branch_labels = None
depends_on = None

CODE = sa.String(length=200).with_variant(sa.String(length=200, collation="C"), "postgresql")
ROW_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
ITEM_COLUMNS = ("id", "item_number", "id_warehouse", "direction", "date", "product_code", "name", "lot",
                "date_exp", "amount_base_milli", "doc_created_date", "timestamp_from_client")
DOCUMENT_COLUMNS = ("id_warehouse", "direction", "date", "doc_created_date", "id_customer",
                    "batch_number", "ufid")


def upgrade():
    if op.get_bind().dialect.name == "postgresql":
        _documents_on_postgresql()
    else:
        _documents_on_sqlite()
    # Indexes chosen from measured query plans (docs/performance-growth.md).
    op.create_index("ix_documents_latest", "warehouse_documents", ["id_warehouse", "direction", "date", "doc_number"])
    op.drop_index("ix_warehouse_documents_date", "warehouse_documents")
    op.create_index("ix_documents_date_direction", "warehouse_documents", ["date", "direction"])
    # One product's movements, newest first: the product's page and its year of stock.
    op.create_index("ix_movements_product", "warehouse_document_items", ["product_code", "document_id", "item_number"])
    with op.batch_alter_table("batch_items") as batch_op:
        batch_op.drop_column("doc_number")
    with op.batch_alter_table("stocktakings") as batch_op:
        batch_op.alter_column("in_doc", new_column_name="in_document_id", existing_type=sa.BigInteger(),
                              existing_nullable=False)
        batch_op.alter_column("out_doc", new_column_name="out_document_id", existing_type=sa.BigInteger(),
                              existing_nullable=False)


def _documents_on_postgresql():
    run = op.execute
    run("ALTER TABLE warehouse_document_items DROP CONSTRAINT warehouse_document_items_doc_number_fkey")
    run("ALTER TABLE warehouse_documents DROP CONSTRAINT warehouse_documents_pkey")
    run("ALTER TABLE warehouse_documents ADD COLUMN id BIGINT")
    run("UPDATE warehouse_documents SET id = doc_number")
    # What a BIGSERIAL column is, as create_all makes it: a sequence the column owns.
    run("CREATE SEQUENCE warehouse_documents_id_seq OWNED BY warehouse_documents.id")
    run("SELECT setval('warehouse_documents_id_seq', COALESCE((SELECT max(id) FROM warehouse_documents), 0) + 1,"
        " false)")
    run("ALTER TABLE warehouse_documents ALTER COLUMN id SET DEFAULT nextval('warehouse_documents_id_seq'),"
        " ALTER COLUMN id SET NOT NULL, ADD CONSTRAINT warehouse_documents_pkey PRIMARY KEY (id),"
        " ALTER COLUMN doc_number DROP NOT NULL, ALTER COLUMN ufid DROP NOT NULL,"
        " ADD CONSTRAINT warehouse_documents_doc_number_key UNIQUE (doc_number)")
    run("ALTER TABLE warehouse_document_items RENAME COLUMN doc_number TO document_id")
    run("ALTER TABLE warehouse_document_items RENAME CONSTRAINT warehouse_document_items_doc_number_item_number_key"
        " TO warehouse_document_items_document_id_item_number_key")
    run("ALTER TABLE warehouse_document_items ADD CONSTRAINT warehouse_document_items_document_id_fkey"
        " FOREIGN KEY (document_id) REFERENCES warehouse_documents (id)")
    # The movements' indexes followed the renamed column: (.., document_id, item_number) already.


def _documents_on_sqlite():
    op.create_table(
        "_new_warehouse_documents",
        sa.Column("id", ROW_ID, nullable=False),
        sa.Column("doc_number", sa.BigInteger(), nullable=True),
        sa.Column("id_warehouse", sa.BigInteger(), nullable=False),
        sa.Column("direction", sa.String(length=1), nullable=False),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("doc_created_date", sa.Date(), nullable=False),
        sa.Column("id_customer", sa.BigInteger(), nullable=False),
        sa.Column("batch_number", sa.BigInteger(), nullable=False),
        sa.Column("ufid", sa.String(length=20), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("doc_number"),
        sa.UniqueConstraint("ufid"),
    )
    listed = ", ".join(DOCUMENT_COLUMNS)
    op.execute(f"INSERT INTO _new_warehouse_documents (id, doc_number, {listed}) "
               f"SELECT doc_number, doc_number, {listed} FROM warehouse_documents")
    op.create_table(
        "_new_warehouse_document_items",
        sa.Column("id", ROW_ID, nullable=False),
        sa.Column("document_id", ROW_ID, nullable=False),
        sa.Column("item_number", sa.Integer(), nullable=False),
        sa.Column("id_warehouse", sa.BigInteger(), nullable=False),
        sa.Column("direction", sa.String(length=1), nullable=False),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("product_code", CODE, nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("lot", CODE, nullable=False),
        sa.Column("date_exp", sa.String(length=10), nullable=False),
        sa.Column("amount_base_milli", sa.BigInteger(), nullable=False),
        sa.Column("doc_created_date", sa.Date(), nullable=False),
        sa.Column("timestamp_from_client", sa.String(length=40), nullable=False),
        # Named as it will be called once the copies take the old tables' names.
        sa.ForeignKeyConstraint(["document_id"], ["warehouse_documents.id"]),
        sa.ForeignKeyConstraint(["product_code"], ["products.product_code"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("document_id", "item_number"),
    )
    listed = ", ".join(ITEM_COLUMNS)
    op.execute(f"INSERT INTO _new_warehouse_document_items (document_id, {listed}) "
               f"SELECT doc_number, {listed} FROM warehouse_document_items")
    # Foreign keys are off while a migration runs (migrations/env.py) and checked before it
    # commits; dropping a table drops its indexes.
    op.drop_table("warehouse_document_items")
    op.drop_table("warehouse_documents")
    op.rename_table("_new_warehouse_documents", "warehouse_documents")
    op.rename_table("_new_warehouse_document_items", "warehouse_document_items")
    op.create_index("ix_documents_warehouse_date", "warehouse_documents", ["id_warehouse", "date"])
    op.create_index("ix_warehouse_documents_batch_number", "warehouse_documents", ["batch_number"])
    op.create_index("ix_warehouse_documents_date", "warehouse_documents", ["date"])
    op.create_index("ix_movements_date", "warehouse_document_items", ["date", "document_id", "item_number"])
    op.create_index("ix_movements_warehouse_date", "warehouse_document_items",
                    ["id_warehouse", "date", "document_id", "item_number"])


def downgrade():
    raise NotImplementedError("Documents numbered since this migration may hold ids that are not their "
                              "numbers: restore the copy made before the upgrade instead.")
