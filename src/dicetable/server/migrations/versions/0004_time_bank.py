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
    # ALTER TABLE ... ADD COLUMN, never a batch copy: on SQLite a copy drops the old table, and with
    # foreign keys on, every seat and action of it
    op.add_column("tables", sa.Column("time_bank", sa.Text, nullable=True))


def downgrade() -> None:
    """Drop ``tables.time_bank``."""
    # ALTER TABLE ... DROP COLUMN, never a batch copy: on SQLite a copy drops the old table, and with
    # foreign keys on, every seat and action of it (SQLite 3.35 or later)
    op.drop_column("tables", "time_bank")
