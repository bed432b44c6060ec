"""Several server processes on one database: the processes (nodes) alive, which one owns each table, and
who is connected to each table at each process, and the clients' budgets and holdings they count together.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_nodes",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("started", sa.DateTime(), nullable=False),
        sa.Column("beat", sa.DateTime(), nullable=False),
    )
    with op.batch_alter_table("web_tables") as batch:
        batch.add_column(sa.Column("owner", sa.String(32), nullable=True))
    op.create_index("ix_web_tables_owner", "web_tables", ["owner"])
    op.create_table(
        "web_presence",
        sa.Column("node", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("watchers", sa.JSON(), nullable=False),
        sa.Column("host", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "web_again_votes",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("accept", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "web_review_jobs",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("node", sa.String(32), nullable=False),
        sa.Column("lane", sa.String(64), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=True),
    )
    op.create_table(
        "web_budgets",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("tokens", sa.Float(), nullable=False),
        sa.Column("stamp", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "web_held",
        sa.Column("node", sa.String(32), primary_key=True),
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("count", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("web_held")
    op.drop_table("web_budgets")
    op.drop_table("web_review_jobs")
    op.drop_table("web_again_votes")
    op.drop_table("web_presence")
    op.drop_index("ix_web_tables_owner", "web_tables")
    with op.batch_alter_table("web_tables") as batch:
        batch.drop_column("owner")
    op.drop_table("web_nodes")
