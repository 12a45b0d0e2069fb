"""What the server holds of one table in memory: its seats, state, connections and live snapshots.

:class:`LiveTable` is the cached table (set-up, seats, the state after
``version`` actions, its lock and its live machinery), :class:`Seat` one of
its seats, :class:`Subscriber` one WebSocket connection to it and
:class:`Snapshot` one viewer's live view at one revision. :func:`apply_on`
is the one step every action takes on a state (trying it, replaying it);
:func:`record_of` the replay record of a table. Nothing here reaches the
store, the bots or the connections' event loops: the modules above
(``views``, ``pushes``, ``bots``, ``tables``) do.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Protocol

from dicetable.engine import GameState
from dicetable.engine.eventlog import EventLog

from .banks import TimeBank
from .clock import Handle
from .delta import fragments
from .jsonio import dumps
from .models import SeatRow


@dataclass
class Seat:
    """A seat as the live table knows it (a :class:`SeatRow` without the session)."""

    seat: int
    kind: str
    level: str
    token_hash: str | None
    name: str
    autoplay: bool = False
    joined: bool = False
    invite_hash: str | None = None
    claimed: bool = False
    player_id: int | None = None  # the account holding this seat (None: a guest's seat, or a bot's)

    @classmethod
    def from_row(cls, row: SeatRow) -> "Seat":
        """Copy a stored seat."""
        return cls(row.seat, row.kind, row.level, row.token_hash, row.name, bool(row.autoplay), bool(row.joined),
                   row.invite_hash, bool(row.claimed), row.player_id)

    @property
    def by_bot(self) -> bool:
        """True when a bot chooses for this seat (a bot seat, or a human seat handed to its bot)."""
        return self.kind == "bot" or self.autoplay


class Outlet(Protocol):
    """Where a connection's messages are put, on its event loop (a ``SendQueue``; any queue in tests)."""

    def put_nowait(self, message: str) -> None:
        """Take ``message`` to be sent (or drop it, as the outlet's bounds say)."""


class Subscriber:
    """One WebSocket connection: its viewer (a seat or None) and the queue its task sends from
    (``queue``: a bounded ``dicetable.server.sendqueue.SendQueue`` on the server).

    ``rev`` is the revision of the table (``LiveTable.rev``) whose view this
    connection was last sent (None: nothing yet); ``gone`` is set when its
    event loop is closed (the table drops it at its next change).
    """

    __slots__ = ("key", "loop", "queue", "rev", "gone")

    def __init__(self, key: int | None, loop: asyncio.AbstractEventLoop, queue: Outlet) -> None:
        self.key = key
        self.loop = loop
        self.queue = queue
        self.rev: int | None = None
        self.gone = False


@dataclass
class Snapshot:
    """One viewer's live view of a table at one revision, and the messages made from it.

    ``view`` is the full view of the wire (LIVE.md section 4: WEB.md's fields,
    ``parts`` and ``last``) with its observation held as each entry's JSON text
    (``{key: str}``, ``dicetable.server.delta.entry_texts``: nothing in it for
    the cyclic collector to walk; ``delta.decoded`` gives the observation
    back); it is shared by every connection of the viewer and never changed.
    ``log_len`` and ``tail`` say how far the log it shows goes
    (events, and server notes at position ``log_len``); ``change`` is the
    change message from the snapshot of revision ``base`` (None: there is
    none, a connection at ``base`` gets the full view; ``""``: nothing this
    viewer sees changed); ``text`` the full view message, made when first needed.
    Both messages are let go once queued to every connection that needs them
    (the queues hold them until sent), so a table keeps no text between changes.
    """

    rev: int
    epoch: int
    view: dict
    log_len: int
    tail: int
    base: int | None = None
    change: str | None = None
    text: str | None = None

    def full(self) -> str:
        """The ``{"type": "view", ...}`` message of this snapshot (compact JSON, made once)."""
        if self.text is None:
            self.text = compact({"type": "view", **self.view, "observation": fragments(self.view["observation"])})
        return self.text


class Round:
    """What the snapshots of one table revision share while they are built (``Views.sharing``): the view
    fields common to every viewer, the first viewer's observation entries, their texts and patches
    (``dicetable.server.delta.entry_texts``), board parts by id and events' JSON by log position."""

    __slots__ = ("common", "observation", "parts", "events")

    def __init__(self) -> None:
        self.common: tuple | None = None
        self.observation: dict = {}
        self.parts: dict[str, str] = {}
        self.events: dict[int, dict] = {}


#: How every full view message starts (:meth:`Snapshot.full`); change messages start otherwise.
VIEW_START = '{"type":"view"'


def is_full_view(message: str) -> bool:
    """True when ``message`` (a pushed text) is a full view, which brings its client up to date."""
    return message.startswith(VIEW_START)


def compact(value: Any) -> str:
    """``value`` as compact JSON text (no spaces, non-ASCII kept): how every pushed message is written (orjson)."""
    return dumps(value)


@dataclass
class LiveTable:
    """A table in memory: set-up, seats, the state after ``version`` actions, and its live machinery.

    ``actions`` is ``[(seat, by, undoable)]`` per applied action; ``notes``
    maps a log position to server lines shown before the event there (a
    clock that ran out); ``undos`` counts the actions taken back (stored with
    the table), so ``(undos, version)`` orders the table's views even across
    an undo; ``lock`` serialises every change and every view.

    Live pushes: ``events`` is the whole log, an EventLog sharing the state's cells (``log_len`` long);
    ``rev`` counts the changes any viewer could see (actions, seats, clocks,
    connections) and ``epoch`` the rebuilds (a reload: the log may differ,
    so every connection gets a full view); ``live`` holds the current
    :class:`Snapshot` of each viewer with a connection; ``outbox`` the
    messages built under ``lock`` and sent after it is released, in order,
    under ``send_lock``; ``round`` what the snapshots being built for one
    revision share (None between builds). ``bank`` is the chess clock (:class:`TimeBank`; None
    without one), ``timer`` the pending clock call and ``deadline`` when it is due. ``rematch`` is
    ``(table id, name of the seat that started it)`` of the table replaying this one once it is over
    (None: none yet).
    """

    id: str
    game: str
    players: int
    options: dict
    seed: int
    clock: int | None
    seats: list[Seat]
    state: GameState
    status: str = "running"
    seed_chosen: bool = False
    version: int = 0
    undos: int = 0
    log_len: int = 0
    actions: list = field(default_factory=list)
    notes: dict = field(default_factory=dict)
    lock: threading.RLock = field(default_factory=threading.RLock)
    subscribers: set = field(default_factory=set)
    events: EventLog = field(default_factory=EventLog)
    rev: int = 0
    epoch: int = 0
    live: dict = field(default_factory=dict)
    outbox: deque = field(default_factory=deque)
    send_lock: threading.Lock = field(default_factory=threading.Lock)
    seats_view: tuple | None = None
    round: Round | None = None
    thinking: set = field(default_factory=set)
    timed_out: set = field(default_factory=set)
    timer: Handle | None = None
    deadline: float | None = None
    used: float = field(default_factory=time.monotonic)
    bank: TimeBank | None = None
    rematch: tuple[str, str] | None = None


def apply_on(state: GameState, seat: int, action_id: str) -> tuple[list, bool, str]:
    """Apply on ``state`` (raises IllegalActionError, state unchanged); return (events, undoable, label)."""
    before = state.to_move
    mark = state.chance_mark
    label = next((a.label for a in state.legal_actions(seat) if a.id == action_id), action_id)
    events = state.apply(action_id, seat)
    state.compact_log()  # a table's log lives as long as the table: packed (a fifth of the memory)
    undoable = (len(before) == 1 and state.chance_mark == mark and not state.is_over
                and all(e.visible is None for e in events))
    return events, undoable, label


def record_of(lt: LiveTable) -> dict:
    """The replay record of ``lt`` (``run_replay`` plays it) plus its table id and seats (no tokens)."""
    record = lt.state.replay_record()
    record["table_id"] = lt.id
    record["seats"] = [{"seat": s.seat, "kind": s.kind, "level": s.level if s.kind == "bot" else None,
                        "name": s.name} for s in lt.seats]
    return record
