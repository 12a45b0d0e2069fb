"""Chess-style clocks: ``tables.time_bank`` (JSON: bank, increment, each seat's bank; None for others).

Revision ID: 0004_time_bank
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_time_bank"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.time_bank`` (nullable text)."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("time_bank", sa.Text, nullable=True))


def downgrade() -> None:
    """Drop ``tables.time_bank``."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("time_bank")
