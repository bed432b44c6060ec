"""Several server processes: the reviews of uploaded records being worked out, with the record itself, so
that every process shows how far one has got and another takes it over if its process is given up.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_record_review_jobs",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("node", sa.String(32), nullable=False),
        sa.Column("lane", sa.String(64), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=True),
        sa.Column("record", sa.LargeBinary(), nullable=False),
    )
    op.create_index("ix_web_record_review_jobs_lane", "web_record_review_jobs", ["lane"])


def downgrade() -> None:
    op.drop_index("ix_web_record_review_jobs_lane", "web_record_review_jobs")
    op.drop_table("web_record_review_jobs")
