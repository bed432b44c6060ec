"""Table chat: what was said at each table, in order, found by the table (the newest few hundred kept).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_chat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("web_tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("spectator", sa.Boolean(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("said", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_web_chat_table", "web_chat", ["table_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_web_chat_table", table_name="web_chat")
    op.drop_table("web_chat")
