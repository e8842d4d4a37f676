"""Service settings: where the office pages keep their session secret

Revision ID: 85a7e1fcdb9a
Revises: 6a1d3f0c2b71
Create Date: 2026-11-23 07:42:32

"""
import sqlalchemy as sa
from alembic import op

revision = "85a7e1fcdb9a"
down_revision = "6a1d3f0c2b71"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "service_settings",
        sa.Column("name", sa.String(length=50), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade():
    op.drop_table("service_settings")
