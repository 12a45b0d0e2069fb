"""SQLAlchemy 2 models of the store: ``tables``, ``seats`` and ``actions`` (docs: WEB.md, Storage).

The record is the truth: a table's game, players, options and seed (``tables``)
plus its accepted actions in order (``actions``, one row per action, numbered
by ``seq`` from 1, ``UNIQUE(table_id, seq)``). The live state of a table is
always rebuilt by replaying that record through the engine. ``seats`` holds
who sits where: a person (only the SHA-256 hash of the seat's token is kept)
or a bot with its level. The schema is created and upgraded by the Alembic
migrations in ``dicetable.server.migrations`` (never by ``create_all``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger, Boolean, DateTime, Float, ForeignKey, Integer, String, Text, TypeDecorator, UniqueConstraint,
)
from sqlalchemy import false as sa_false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: A game seed's 64 bits (seeds are 0..2**64-1; the column is a signed 64-bit integer).
_SEED_BITS = 1 << 64
_SEED_SIGN = 1 << 63


def seed_to_column(seed: int) -> int:
    """A game seed (0..2**64-1) as the signed 64-bit number with the same bits: seeds below 2**63 are
    stored as they are (every row stored before tables took 64-bit seeds), ``2**63 + k`` as
    ``-2**63 + k``. ValueError for a number outside 0..2**64-1 (nothing is written)."""
    if not 0 <= seed < _SEED_BITS:
        raise ValueError(f"a game seed is 0..2**64-1, got {seed}")
    return seed - _SEED_BITS if seed >= _SEED_SIGN else seed


def seed_from_column(stored: int) -> int:
    """The game seed of a stored signed 64-bit number (the inverse of :func:`seed_to_column`)."""
    return stored + _SEED_BITS if stored < 0 else stored


class Seed64(TypeDecorator[int]):
    """The ``tables.seed`` column: a BIGINT in the database (SQLite's INTEGER, PostgreSQL's BIGINT),
    an unsigned game seed (0..2**64-1) in Python. Every read and write of the column goes through
    :func:`seed_to_column` and :func:`seed_from_column` (ORM rows and Core statements alike), so no
    other code sees the signed form; no migration: rows stored before are all below 2**63, where the
    two forms are the same number."""

    impl = BigInteger
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Any) -> Any:
        """The stored form of a seed (None stays None)."""
        return None if value is None else seed_to_column(int(value))

    def process_result_value(self, value: Any, dialect: Any) -> Any:
        """The seed of a stored number (None stays None)."""
        return None if value is None else seed_from_column(int(value))


#: The type of an autoincrement id: 64 bits on PostgreSQL, SQLite's INTEGER rowid on SQLite.
_ID = BigInteger().with_variant(Integer, "sqlite")


class Base(DeclarativeBase):
    """Declarative base of the store's models."""


class TableRow(Base):
    """One table: its set-up (the start of its record) and its status.

    ``options`` is the JSON text of the resolved options; ``seed`` the game
    seed (0 <= seed < 2**64; stored signed, :class:`Seed64`); ``seed_chosen`` True when the creator gave the seed
    (then no invite can be claimed: the creator could know every secret);
    ``status`` is ``running``, ``over`` or ``abandoned``;
    ``clock`` the seconds per decision (None: no turn clock); ``time_bank`` the
    chess-style clock's settings and banks as JSON (``dicetable.server.banks``;
    None: none); ``undos`` how many actions were taken back so far (an undo
    lowers the version, never ``undos``); ``rated`` True when the table's
    result changes its players' ratings (WEB.md, Players); ``listed`` True when
    the table is shown in the open lobby, where strangers may take its empty seats; ``rematch`` the id
    of the table that replays this one with the same seats, started once it was over by the seat named
    ``rematch_by`` (None: no rematch yet).
    """

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(Seed64)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(16), index=True)
    clock: Mapped[int | None] = mapped_column(Integer, nullable=True)
    time_bank: Mapped[str | None] = mapped_column(Text, nullable=True, default=None)
    undos: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    seed_chosen: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    listed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True, default=None)
    rematch_by: Mapped[str | None] = mapped_column(String(40), nullable=True, default=None)


class SeatRow(Base):
    """One seat of a table (``seat`` from 0).

    ``kind`` is ``human`` or ``bot``; ``level`` the bot level (for a human
    seat: the level of the bot that stands in when the seat is handed over or
    its clock runs out); ``token_hash`` the hex SHA-256 of the seat's token
    (human seats only); ``autoplay`` True while a human seat is played by its
    bot; ``joined`` True once the seat's token has been used; ``invite_hash`` the
    hex SHA-256 of the seat's invite (its ``link``), None once claimed;
    ``claimed`` True once someone claimed the seat with its invite (the
    creator's copy of the token is revoked then); ``player_id`` the account
    holding the seat (``players.id``; None: a guest or a bot). It has no
    foreign key (SQLite cannot add one to an existing table in place); a
    player's row is never removed, so the id stays meaningful.
    """

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    level: Mapped[str] = mapped_column(String(16))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    autoplay: Mapped[bool] = mapped_column(Boolean, default=False)
    joined: Mapped[bool] = mapped_column(Boolean, default=False)
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None)
    claimed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    player_id: Mapped[int | None] = mapped_column(_ID, nullable=True, default=None, index=True)


class ActionRow(Base):
    """One accepted action: the ``seq``-th of its table (from 1), by ``seat``.

    ``by`` says who chose it: ``seat`` (the seat's holder), ``bot`` (a bot
    seat or a human seat handed to its bot) or ``clock`` (the seat's clock
    ran out and its bot chose); ``undoable`` is True when the action drew no
    randomness and revealed nothing (see ``dicetable.server.tables``).
    """

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_actions_table_seq"),)

    id: Mapped[int] = mapped_column(_ID, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(200))
    by: Mapped[str] = mapped_column(String(8))
    undoable: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatRow(Base):
    """One chat message of a table (``server/chat.py``): ``id`` orders the messages of every table.

    ``seat`` is the poster's seat (None: a spectator); ``name`` the name shown
    (the seat's name, or ``Spectator``); ``text`` the message as typed (at most
    ``chat.MAX_CHARS`` characters, checked before it is stored; never HTML: pages
    show it as text).
    """

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(_ID, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PlayerRow(Base):
    """One account (WEB.md, Players): ``name`` as its owner typed it, ``name_key`` its case-folded form (unique).

    ``password_hash`` is the argon2id hash (never the password); None once the
    account is deleted. A deleted account keeps its row and id (``deleted``
    True, its name replaced) so finished tables still name a player in replays.
    ``email`` (optional) and ``notify_email`` say whether the player asked for
    an e-mail when it becomes their move at a turn-based table.
    """

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(_ID, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(24))
    name_key: Mapped[str] = mapped_column(String(24), unique=True)
    password_hash: Mapped[str | None] = mapped_column(Text, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    deleted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    email: Mapped[str | None] = mapped_column(String(254), nullable=True, default=None)
    notify_email: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())


class PlayerTokenRow(Base):
    """A token that acts for an account: the hex SHA-256 of the token (never the token) and its ``kind``.

    ``kind`` is ``session`` (a browser sign-in: the session cookie's value, also
    usable as ``Authorization: Bearer``) or ``api`` (a personal API token for
    programs). Signing out deletes the sign-in's row.
    """

    __tablename__ = "player_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(8))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ResultRow(Base):
    """One seat's result at a finished table: its ``place`` (1 = won; shared places repeat) and ``score``.

    ``player_id`` is the account that held the seat (None: a guest or a bot);
    ``rated`` True when the table was rated, then ``mu_before``/``sigma_before``
    and ``mu_after``/``sigma_after`` are that player's OpenSkill rating for
    ``game`` before and after the table (the rating history).
    """

    __tablename__ = "results"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"), nullable=True,
                                                  index=True)
    game: Mapped[str] = mapped_column(String(64))
    place: Mapped[int] = mapped_column(Integer)
    score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    mu_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    mu_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """A player's current OpenSkill rating for one game (``mu``, ``sigma``), with games played and won."""

    __tablename__ = "ratings"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    wins: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SignInFailureRow(Base):
    """One wrong password (``accounts.SignInThrottle``), kept for the throttle's window and then deleted.

    ``key`` is the hex SHA-256 (first 40 digits) of ``name:<case-folded name>`` or ``address:<client
    address>``, so neither the names tried nor the addresses are stored as such; ``at`` is the wall
    clock in seconds since the epoch (every server process shares it).
    """

    __tablename__ = "sign_in_failures"

    id: Mapped[int] = mapped_column(_ID, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(40), index=True)
    at: Mapped[float] = mapped_column(Float, index=True)
