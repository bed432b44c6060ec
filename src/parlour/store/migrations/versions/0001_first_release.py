"""The lab's tables as releases before migrations made them with ``create_all``: experiments,
their matches with rounds and events, and the ladder's ratings.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "experiments",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("game_version", sa.String(20), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("mode", sa.String(10), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("rounds_only", sa.Boolean(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("player", sa.String(200), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("updated", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("game", "player"),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("experiment_id", sa.Integer(), sa.ForeignKey("experiments.id"), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("deal", sa.Integer(), nullable=True),
        sa.Column("seating", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("first", sa.Integer(), nullable=False),
        sa.Column("totals", sa.JSON(), nullable=False),
        sa.Column("winners", sa.JSON(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.UniqueConstraint("experiment_id", "index"),
    )
    op.create_index("ix_matches_experiment_id", "matches", ["experiment_id"])
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("match_id", sa.Integer(), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("starter", sa.Integer(), nullable=False),
        sa.Column("scores", sa.JSON(), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
    )
    op.create_index("ix_rounds_match_id", "rounds", ["match_id"])
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("match_id", sa.Integer(), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("round_number", sa.Integer(), nullable=False),
        sa.Column("move_number", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(60), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
    )
    op.create_index("ix_events_kind", "events", ["kind"])
    op.create_index("ix_events_match_id", "events", ["match_id"])
