"""Experiments say which study (plan) made them, its baseline, and the playtest noise their bots
played with; experiments stored before have no study and played without noise.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("experiments") as batch:
        batch.add_column(sa.Column("study", sa.String(200), nullable=True))
        batch.add_column(sa.Column("baseline", sa.String(200), nullable=True))
        batch.add_column(sa.Column("noise", sa.Float(), nullable=False, server_default="0"))
