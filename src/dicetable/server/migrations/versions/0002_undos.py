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
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("undos", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    """Drop ``tables.undos``."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("undos")
