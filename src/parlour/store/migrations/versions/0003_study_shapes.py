"""Experiments say what their study varies (its shape: a sweep of an option, restricted play, skill
depth, deal luck, or a plan's own variants); experiments stored before have none, and the report
reads their studies as it did.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("experiments") as batch:
        batch.add_column(sa.Column("shape", sa.JSON(), nullable=True))
