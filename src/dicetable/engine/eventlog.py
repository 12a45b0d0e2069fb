"""The event log kept compactly: an :class:`~dicetable.engine.core.Event` stored as its text and bytes.

A live server holds every table's whole log; as objects an event with its
``data`` dict and its effects' dicts takes 0.5-1 KiB, as ``marshal`` bytes
of its fields a fifth of that. :func:`pack` makes the record (the text
kept as the very str object, which a server's views of the log share, the
seat and audience as they are, and the kind and data as marshal bytes), :func:`unpack` gives back an equal Event
(same field values, same types, same dict key order, so its JSON is
byte-identical). An event whose fields ``marshal`` cannot give back
exactly (an object of a subclass of a built-in type, such as a NamedTuple
or an enum in ``data``) is kept as the Event itself. The record is also the
cell of the log's chain (newest first), so a state's log costs one tuple an
event. :class:`EventLog` is a sequence of Events over such cells, growing
only at its end, which a state and a server share (``GameState.event_log``).
``apply`` first chains its events :func:`loose` (the Event itself in a two-entry cell, no
marshal: a playout never keeps its log); :func:`compact` packs them for a holder of the log
(``GameState.compact_log``).
"""

from __future__ import annotations

import marshal
from typing import Any, Iterable, Iterator, Sequence, overload

from .core import Event, new_event

_dumps = marshal.dumps


def pack(event: Event, older: Any = None) -> Any:
    """The log's cell for ``event`` after the cell ``older`` (None: the first event).

    The cell is ``(text, seat, visible, payload, older)``: the very text, seat and audience (read
    as they are, so a log's lines and who sees them need no decoding), ``payload`` the marshal
    bytes of ``(kind, data)`` (or the Event itself when marshal cannot keep them exactly), and
    the chain of older cells.
    """
    text = event[2]
    if type(text) is str:
        try:
            return (text, event[1], event[4], _dumps((event[0], event[3])), older)
        except ValueError:  # an object marshal does not write (a subclass of a built-in type)
            pass
    return (text, event[1], event[4], event, older)


def loose(event: Event, older: Any = None) -> Any:
    """The log's cell for ``event`` after ``older``, keeping the Event itself, not yet packed: ``(event, older)``.

    What :meth:`GameState.apply <dicetable.engine.state.GameState.apply>` makes: a playout or a
    simulation, which never keeps its log, then skips :func:`pack`'s marshal (13-23% of a
    compiled random game's ``apply``), and its cells are the smallest to build and to free (a
    finished playout frees its whole log at once). Its two entries mark it loose for
    :func:`compact`; :func:`cells` gives it as the record ``(text, seat, visible, event, None,
    None)``, which reads as a packed cell does (:func:`unpack`, :func:`cell_visible_to`) and whose
    six entries mark it loose in an :class:`EventLog` (:meth:`EventLog.loose_count`).
    """
    return (event, older)


def compact(chain: Any) -> Any:
    """``chain`` with its newest loose cells (:func:`loose`, down to the first packed one) packed.

    The same chain when its newest cell is packed already; the older packed cells are shared, not
    copied. A holder of many long-lived logs (a server's tables) compacts after each action.
    """
    fresh: list[Event] = []
    while chain is not None and len(chain) == 2:
        fresh.append(chain[0])
        chain = chain[1]
    for i in range(len(fresh) - 1, -1, -1):  # oldest first (mypyc cannot compile reversed() of this list)
        chain = pack(fresh[i], chain)
    return chain


def unpack(cell: Any) -> Event:
    """The Event a :func:`pack` cell stands for (a new Event equal to the packed one, its very text)."""
    payload = cell[3]
    if type(payload) is not bytes:
        return payload  # type: ignore[no-any-return]
    kind, data = marshal.loads(payload)
    return new_event(kind, cell[1], cell[0], data, cell[2])


def cell_visible_to(cell: Any, seat: int | None) -> bool:
    """:meth:`Event.visible_to` of a cell's event, read without decoding it."""
    visible = cell[2]
    return visible is None or (seat is not None and seat in visible)


def cells(chain: Any, last: int | None = None, link: int = 4) -> list[Any]:
    """The cells of the chain whose newest cell is ``chain`` (its newest ``last`` when given), oldest first.

    ``link`` is the index of a cell's older cell: 4 in the log's packed cells, 2 in the history's
    ``(seat, action id, older)`` cells. A loose log cell ``(event, older)`` (:func:`loose`) is
    given as its record ``(text, seat, visible, event, None, None)``, which reads as a packed cell.
    """
    out: list[Any] = []
    while chain is not None and (last is None or len(out) < last):
        if len(chain) == 2:  # a loose log cell
            event = chain[0]
            out.append((event[2], event[1], event[4], event, None, None))
            chain = chain[1]
        else:
            out.append(chain)
            chain = chain[link]
    out.reverse()
    return out


def _saved(cell: Any) -> dict[str, Any]:
    """The cell's event as a saved game keeps it (``Event.to_json``)."""
    return unpack(cell).to_json()


class EventLog(Sequence[Event]):
    """Events, oldest first, stored as :func:`pack` cells and made Events when read.

    Reads as a list of Events does (``len``, indexes, slices (a list), iteration both ways);
    grows with :meth:`extend` by Events or by another EventLog, whose cells it shares.
    """

    __slots__ = ("_records",)

    def __init__(self, records: Iterable[Any] = ()) -> None:
        self._records: list[Any] = list(records)

    def __len__(self) -> int:
        return len(self._records)

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        if isinstance(index, slice):
            return [unpack(r) for r in self._records[index]]
        return unpack(self._records[index])

    def __iter__(self) -> Iterator[Event]:
        return map(unpack, self._records)

    def __reversed__(self) -> Iterator[Event]:
        return map(unpack, reversed(self._records))

    def __eq__(self, other: object) -> bool:
        """Equal to an EventLog, or a list of Events, whose events save the same, in the same order.

        Events are compared as a saved game keeps them (``Event.to_json``: no ``data`` and empty
        ``data`` are the same), so two logs are equal exactly
        when the ``"log"`` of their states' ``to_dict()`` is. Two EventLogs compare cell by cell:
        a cell both share (a clone's log, a server's view of its state's) is equal without being
        decoded.
        """
        if isinstance(other, EventLog):
            mine, theirs = self._records, other._records
            return len(mine) == len(theirs) and all(
                a is b or _saved(a) == _saved(b) for a, b in zip(mine, theirs))
        if isinstance(other, list):
            return len(other) == len(self._records) and all(
                _saved(a) == b.to_json() for a, b in zip(self._records, other))
        return NotImplemented

    def text(self, index: int) -> str:
        """The text of the event at ``index`` (the very str object), without decoding the event."""
        return self._records[index][0]  # type: ignore[no-any-return]

    def seat(self, index: int) -> int | None:
        """The seat of the event at ``index`` (None: no seat's), without decoding the event."""
        return self._records[index][1]  # type: ignore[no-any-return]

    def visible_to(self, index: int, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) may see the event at ``index``, without decoding it."""
        return cell_visible_to(self._records[index], seat)

    def loose_count(self) -> int:
        """How many of its events are held loose (:func:`loose`: Event objects, not yet packed)."""
        return sum(len(r) == 6 for r in self._records)

    def extend(self, events: Iterable[Event]) -> None:
        """Append ``events`` (Events, or an EventLog whose cells are then shared), oldest first."""
        if isinstance(events, EventLog):
            self._records.extend(events._records)
        else:
            self._records.extend(pack(e) for e in events)

    def __repr__(self) -> str:
        return f"EventLog({len(self._records)} events)"
