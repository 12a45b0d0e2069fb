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

from sqlalchemy import (
    BigInteger, Boolean, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint,
)
from sqlalchemy import false as sa_false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Declarative base of the store's models."""


class TableRow(Base):
    """One table: its set-up (the start of its record) and its status.

    ``options`` is the JSON text of the resolved options; ``seed`` the game
    seed (0 <= seed < 2**63); ``seed_chosen`` True when the creator gave the seed
    (then no invite can be claimed: the creator could know every secret);
    ``status`` is ``running``, ``over`` or ``abandoned``;
    ``clock`` the seconds per decision (None: no turn clock); ``time_bank`` the
    chess-style clock's settings and banks as JSON (``dicetable.server.banks``;
    None: none); ``undos`` how many actions were taken back so far (an undo
    lowers the version, never ``undos``).
    """

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(BigInteger)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(16), index=True)
    clock: Mapped[int | None] = mapped_column(Integer, nullable=True)
    time_bank: Mapped[str | None] = mapped_column(Text, nullable=True, default=None)
    undos: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    seed_chosen: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())


class SeatRow(Base):
    """One seat of a table (``seat`` from 0).

    ``kind`` is ``human`` or ``bot``; ``level`` the bot level (for a human
    seat: the level of the bot that stands in when the seat is handed over or
    its clock runs out); ``token_hash`` the hex SHA-256 of the seat's token
    (human seats only); ``autoplay`` True while a human seat is played by its
    bot; ``joined`` True once the seat's token has been used; ``invite_hash`` the
    hex SHA-256 of the seat's invite (its ``link``), None once claimed;
    ``claimed`` True once someone claimed the seat with its invite (the
    creator's copy of the token is revoked then).
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


class ActionRow(Base):
    """One accepted action: the ``seq``-th of its table (from 1), by ``seat``.

    ``by`` says who chose it: ``seat`` (the seat's holder), ``bot`` (a bot
    seat or a human seat handed to its bot) or ``clock`` (the seat's clock
    ran out and its bot chose); ``undoable`` is True when the action drew no
    randomness and revealed nothing (see ``dicetable.server.tables``).
    """

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_actions_table_seq"),)

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
                                    autoincrement=True)
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

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
                                    autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
