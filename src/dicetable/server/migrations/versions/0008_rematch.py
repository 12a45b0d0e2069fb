"""Rematches: ``tables.rematch`` (the id of the table that replays this one with the same seats; None:
none yet) and ``tables.rematch_by`` (the name of the seat that started it).

Revision ID: 0008_rematch
Revises: 0007_sign_in_failures
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_rematch"
down_revision = "0007_sign_in_failures"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.rematch`` and ``tables.rematch_by`` (nullable)."""
    # ALTER TABLE ... ADD COLUMN, never a batch copy: on SQLite a copy drops the old table, and with
    # foreign keys on, every seat and action of it
    op.add_column("tables", sa.Column("rematch", sa.String(32), nullable=True))
    op.add_column("tables", sa.Column("rematch_by", sa.String(40), nullable=True))


def downgrade() -> None:
    """Drop ``tables.rematch`` and ``tables.rematch_by``."""
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35 or later), never a batch copy (see upgrade)
    op.drop_column("tables", "rematch_by")
    op.drop_column("tables", "rematch")
