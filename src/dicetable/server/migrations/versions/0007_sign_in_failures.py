"""The sign-in throttle in the database: ``sign_in_failures`` (one row per wrong password, for 15 minutes),
so that every server process counts the same wrong passwords.

Revision ID: 0007_sign_in_failures
Revises: 0006_players
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_sign_in_failures"
down_revision = "0006_players"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``sign_in_failures`` (id, key, at) with indexes on ``key`` and ``at``."""
    op.create_table(
        "sign_in_failures",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(40), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_sign_in_failures_key", "sign_in_failures", ["key"])
    op.create_index("ix_sign_in_failures_at", "sign_in_failures", ["at"])


def downgrade() -> None:
    """Drop ``sign_in_failures``."""
    op.drop_index("ix_sign_in_failures_at", table_name="sign_in_failures")
    op.drop_index("ix_sign_in_failures_key", table_name="sign_in_failures")
    op.drop_table("sign_in_failures")
