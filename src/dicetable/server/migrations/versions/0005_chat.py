"""Table chat: ``chat`` (one row per message, by a seat or a spectator).

Revision ID: 0005_chat
Revises: 0004_time_bank
"""

import sqlalchemy as sa
from alembic import op

revision = "0005_chat"
down_revision = "0004_time_bank"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``chat`` (id, table_id, seat, name, text, created) with an index on ``table_id``."""
    op.create_table(
        "chat",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_table_id", "chat", ["table_id"])


def downgrade() -> None:
    """Drop ``chat``."""
    op.drop_index("ix_chat_table_id", table_name="chat")
    op.drop_table("chat")
