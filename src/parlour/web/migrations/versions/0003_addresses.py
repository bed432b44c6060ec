"""Tables remember a keyed digest of the address they were started from, so that the limits per address
(tables started in the last hour) hold across restarts.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("web_tables") as batch:
        batch.add_column(sa.Column("address", sa.String(64), nullable=True))
    op.create_index("ix_web_tables_address_created", "web_tables", ["address", "created"])


def downgrade() -> None:
    op.drop_index("ix_web_tables_address_created", "web_tables")
    with op.batch_alter_table("web_tables") as batch:
        batch.drop_column("address")
