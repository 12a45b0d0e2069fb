"""Count the actions taken back at each table: ``tables.undos`` (0 for existing tables).

A view is ordered by ``(undos, version)``: an undo lowers ``version`` but raises
``undos``, so a page can always tell the newer of two views.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.undos`` (not null, default 0)."""
    # ALTER TABLE ... ADD COLUMN, never a batch copy: on SQLite a copy drops the old table, and with
    # foreign keys on, every seat and action of it
    op.add_column("tables", sa.Column("undos", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    """Drop ``tables.undos``."""
    # ALTER TABLE ... DROP COLUMN, never a batch copy: on SQLite a copy drops the old table, and with
    # foreign keys on, every seat and action of it (SQLite 3.35 or later)
    op.drop_column("tables", "undos")
