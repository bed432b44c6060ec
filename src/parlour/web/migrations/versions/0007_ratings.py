"""Ratings: a table may be rated; each person's openskill rating per game, and its history (one row per
rated match and person); the public handle of each rated player's page.  Tables of earlier releases
are not rated.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN, never a batch: SQLite's batch mode would copy web_tables to a new table and drop
    # the old one, and the drop cascades to every table's seats and moves.
    op.add_column("web_tables", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "web_ratings",
        sa.Column("player", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("updated", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "web_rating_changes",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("player", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("made", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_web_rating_changes_player", "web_rating_changes", ["player"])
    op.create_table(
        "web_player_handles",
        sa.Column("handle", sa.String(24), primary_key=True),
        sa.Column("player", sa.String(32), nullable=False, unique=True),
    )


def downgrade() -> None:
    op.drop_table("web_player_handles")
    op.drop_index("ix_web_rating_changes_player", "web_rating_changes")
    op.drop_table("web_rating_changes")
    op.drop_table("web_ratings")
    op.drop_column("web_tables", "rated")
