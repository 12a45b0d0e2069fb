"""Players: accounts (``players``), their sign-in and API tokens (``player_tokens``), who holds a seat
(``seats.player_id``), rated and listed tables (``tables.rated``, ``tables.listed``), each seat's result of a
finished table (``results``) and each player's rating per game (``ratings``).

Revision ID: 0006_players
Revises: 0005_chat
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_players"
down_revision = "0005_chat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``players``, ``player_tokens``, ``results`` and ``ratings``; add the new seat and table columns.

    Every existing table and seat keeps its rows: the new columns default to
    "no player", "not rated" and "not listed".
    """
    op.create_table(
        "players",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("name_key", sa.String(24), nullable=False, unique=True),
        sa.Column("password_hash", sa.Text, nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("notify_email", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "player_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.BigInteger().with_variant(sa.Integer, "sqlite"),
                  sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_player_tokens_player_id", "player_tokens", ["player_id"])
    # plain ALTER TABLE ... ADD COLUMN on both databases: never a copy of ``tables`` or ``seats`` (on SQLite
    # a batch copy drops the old table, and with foreign keys on, its dependent rows with it). SQLite cannot
    # add a foreign key that way, so ``seats.player_id`` has none on either database: a player's row is never
    # removed (deleting an account empties it and keeps its id), so the id it holds stays meaningful.
    op.add_column("seats", sa.Column("player_id", sa.BigInteger().with_variant(sa.Integer, "sqlite"),
                                     nullable=True))
    op.create_index("ix_seats_player_id", "seats", ["player_id"])
    op.add_column("tables", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("tables", sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "results",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.BigInteger().with_variant(sa.Integer, "sqlite"),
                  sa.ForeignKey("players.id", ondelete="SET NULL"), nullable=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("mu_before", sa.Float, nullable=True),
        sa.Column("sigma_before", sa.Float, nullable=True),
        sa.Column("mu_after", sa.Float, nullable=True),
        sa.Column("sigma_after", sa.Float, nullable=True),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_results_player_id", "results", ["player_id"])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.BigInteger().with_variant(sa.Integer, "sqlite"),
                  sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False, server_default="0"),
        sa.Column("wins", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_game", "ratings", ["game"])


def downgrade() -> None:
    """Drop what :func:`upgrade` created (accounts, results and ratings are lost; tables and seats stay)."""
    op.drop_index("ix_ratings_game", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("ix_results_player_id", table_name="results")
    op.drop_table("results")
    # ALTER TABLE ... DROP COLUMN, never a batch copy (see upgrade): SQLite 3.35 or later
    op.drop_column("tables", "listed")
    op.drop_column("tables", "rated")
    op.drop_index("ix_seats_player_id", table_name="seats")
    op.drop_column("seats", "player_id")
    op.drop_index("ix_player_tokens_player_id", table_name="player_tokens")
    op.drop_table("player_tokens")
    op.drop_table("players")
