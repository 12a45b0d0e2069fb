"""The event log kept compactly: an :class:`~dicetable.engine.core.Event` stored as its text and bytes.

A live server holds every table's whole log; as objects an event with its
``data`` dict and its effects' dicts takes 0.5-1 KiB, as ``marshal`` bytes
of its fields a fifth of that. :func:`pack` makes the record (the text
kept as the very str object, which a server's views of the log share, and
the other fields as marshal bytes), :func:`unpack` gives back an equal Event
(same field values, same types, same dict key order, so its JSON is
byte-identical). An event whose fields ``marshal`` cannot give back
exactly (an object of a subclass of a built-in type, such as a NamedTuple
or an enum in ``data``) is kept as the Event itself. :class:`EventLog` is a
sequence of Events over such records, growing only at its end, which a
state and a server share (``GameState.event_log``).
"""

from __future__ import annotations

import marshal
from typing import Any, Iterable, Iterator, Sequence, overload

from .core import Event


def pack(event: Event) -> Any:
    """The record the log keeps for ``event``: bytes, or ``event`` itself when marshal cannot keep it exactly."""
    text = event.text
    if type(text) is not str:
        return event
    try:
        return (text, marshal.dumps((event.kind, event.seat, event.data, event.visible)))
    except ValueError:  # an object marshal does not write (a subclass of a built-in type)
        return event


def unpack(record: Any) -> Event:
    """The Event a :func:`pack` record stands for (a new Event equal to the packed one, its very text)."""
    if type(record) is tuple:
        kind, seat, data, visible = marshal.loads(record[1])
        return Event(kind, seat, record[0], data, visible)
    return record  # type: ignore[no-any-return]


class EventLog(Sequence[Event]):
    """Events, oldest first, stored as :func:`pack` records and made Events when read.

    Reads as a list of Events does (``len``, indexes, slices (a list), iteration both ways);
    grows with :meth:`extend` by Events or by another EventLog, whose records it shares.
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

    def extend(self, events: Iterable[Event]) -> None:
        """Append ``events`` (Events, or an EventLog whose records are then shared), oldest first."""
        if isinstance(events, EventLog):
            self._records.extend(events._records)
        else:
            self._records.extend(map(pack, events))

    def __repr__(self) -> str:
        return f"EventLog({len(self._records)} events)"
