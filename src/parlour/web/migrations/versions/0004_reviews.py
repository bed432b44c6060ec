"""A finished match keeps the reviews its players asked for: one a seat, the search's verdict on each of
that seat's decisions and the accuracy figure, as JSON (``parlour.review.Review.to_data``).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_reviews",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("review", sa.JSON(), nullable=False),
        sa.Column("made", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("web_reviews")
