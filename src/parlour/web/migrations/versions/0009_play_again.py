"""Play again: the link from a finished table whose people all chose to play again to the new table.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_play_again",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("next_table", sa.String(32), nullable=False),
        sa.Column("made", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("web_play_again")
