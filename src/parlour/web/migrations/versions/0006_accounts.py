"""Accounts: a username (unique whatever its case) and the argon2 hash of a password that keep one
identity (a player id) across browsers.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_accounts",
        sa.Column("username_key", sa.String(40), primary_key=True),
        sa.Column("username", sa.String(40), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("player", sa.String(32), nullable=False, unique=True),
        sa.Column("created", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("web_accounts")
