"""Reviews of uploaded records (the replay page): one a seat of a record, found by the SHA-256 of the
record's bytes, with the replay step of each judged decision (the record itself is not kept).

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_record_reviews",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("review", sa.JSON(), nullable=False),
        sa.Column("steps", sa.JSON(), nullable=False),
        sa.Column("made", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("web_record_reviews")
