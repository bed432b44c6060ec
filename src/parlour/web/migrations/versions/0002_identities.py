"""Seats belong to people: players (a cookie identity and a chosen name), each seat's owner, a table's
host, its last activity (for abandoning idle tables) and unaccepted invitations; server settings.

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
    op.create_table(
        "web_players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("created", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "web_settings",
        sa.Column("key", sa.String(40), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
    )
    with op.batch_alter_table("web_seats") as batch:
        batch.add_column(sa.Column("owner", sa.String(32), nullable=True))
        batch.add_column(sa.Column("invite", sa.String(64), nullable=True))
    op.create_index("ix_web_seats_owner", "web_seats", ["owner"])
    with op.batch_alter_table("web_tables") as batch:
        batch.add_column(sa.Column("host", sa.String(32), nullable=True))
        batch.add_column(sa.Column("active", sa.DateTime(), nullable=True))
    op.create_index("ix_web_tables_status", "web_tables", ["status"])
    op.create_index("ix_web_tables_host_created", "web_tables", ["host", "created"])
