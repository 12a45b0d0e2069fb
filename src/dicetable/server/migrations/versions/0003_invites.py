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
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("invite_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("claimed", sa.Boolean, nullable=False, server_default=sa.false()))
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("seed_chosen", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    """Drop the three columns."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("seed_chosen")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("claimed")
        batch.drop_column("invite_hash")
