"""Claimed seats: ``seats.invite_hash`` and ``seats.claimed``, ``tables.seed_chosen``.

A human seat's link is an invite claimed once: the joiner gets a fresh token
and the creator's copy is revoked. Existing seats have no invite (their
links carried the token itself) and are not claimed; existing tables are
taken as seeded by the server.

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
    """Add ``seats.invite_hash`` (nullable), ``seats.claimed`` and ``tables.seed_chosen`` (false)."""
    # ALTER TABLE ... ADD COLUMN, never a batch copy: on SQLite a copy drops the old table, and with
    # foreign keys on, every seat and action of it
    op.add_column("seats", sa.Column("invite_hash", sa.String(64), nullable=True))
    op.add_column("seats", sa.Column("claimed", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("tables", sa.Column("seed_chosen", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    """Drop the three columns."""
    # ALTER TABLE ... DROP COLUMN, never a batch copy: on SQLite a copy drops the old table, and with
    # foreign keys on, every seat and action of it (SQLite 3.35 or later)
    op.drop_column("tables", "seed_chosen")
    op.drop_column("seats", "claimed")
    op.drop_column("seats", "invite_hash")
