"""A move's lines one row each (issue 40), so that a lot's story finds its moves by an index

A lot's story read every move's JSON lines to find the moves of one lot: its cost grew with
every move the depot ever made. The lines of the moves made so far are written out here.

Revision ID: f42a0e170001
Revises: f41a1a550001
Create Date: 2026-11-28 09:30:00

"""
import json

import sqlalchemy as sa
from alembic import op

revision = "f42a0e170001"
down_revision = "f41a1a550001"
branch_labels = None
depends_on = None

CODE = sa.String(length=200).with_variant(sa.String(length=200, collation="C"), "postgresql")
# Moves read at a time, and lines written at a time: a depot's history never sits in memory whole,
# nor does a part of moves of thousands of lines each.
PART = 1000
LINES = 5000


def upgrade():
    move_items = op.create_table(
        "move_items",
        sa.Column("move_id", sa.String(length=100), nullable=False),
        sa.Column("line", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("product_code", CODE, nullable=False),
        sa.Column("lot", CODE, nullable=False),
        sa.Column("amount_milli", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["move_id"], ["moves.move_id"]),
        sa.PrimaryKeyConstraint("move_id", "line"),
    )
    op.create_index("ix_move_items_lot", "move_items", ["product_code", "lot"], unique=False)
    connection = op.get_bind()
    moves = sa.table("moves", sa.column("move_id", sa.String), sa.column("items", sa.Text))
    after = None
    while True:
        query = sa.select(moves.c.move_id, moves.c["items"]).order_by(moves.c.move_id).limit(PART)
        if after is not None:
            query = query.where(moves.c.move_id > after)
        part = connection.execute(query).all()
        if not part:
            break
        rows = []
        for move_id, items in part:
            for number, line in enumerate(json.loads(items), start=1):
                rows.append({"move_id": move_id, "line": number, "product_code": line["product_code"],
                             "lot": line.get("lot", ""), "amount_milli": line["amount_milli"]})
                if len(rows) == LINES:  # a part of long moves: written as it grows
                    connection.execute(move_items.insert(), rows)
                    rows = []
        if rows:
            connection.execute(move_items.insert(), rows)
        after = part[-1][0]


def downgrade():
    op.drop_index("ix_move_items_lot", table_name="move_items")
    op.drop_table("move_items")
