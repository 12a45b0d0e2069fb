"""The event log kept compactly: an :class:`~dicetable.engine.core.Event` stored as its text and bytes.

A live server holds every table's whole log; as objects an event with its
``data`` dict and its effects' dicts takes 0.5-1 KiB, as ``marshal`` bytes
of its fields a fifth of that. :func:`pack` makes the record (the text
kept as the very str object, which a server's views of the log share, and
the other fields as marshal bytes), :func:`unpack` gives back an equal Event
(same field values, same types, same dict key order, so its JSON is
byte-identical). An event whose fields ``marshal`` cannot give back
exactly (an object of a subclass of a built-in type, such as a NamedTuple
or an enum in ``data``) is kept as the Event itself. The record is also the
cell of the log's chain (newest first), so a state's log costs one tuple an
event. :class:`EventLog` is a sequence of Events over such cells, growing
only at its end, which a state and a server share (``GameState.event_log``).
"""

from __future__ import annotations

import marshal
from typing import Any, Iterable, Iterator, Sequence, overload

from .core import Event


def pack(event: Event, older: Any = None) -> Any:
    """The log's cell for ``event`` after the cell ``older`` (None: the first event).

    The cell is ``(text, bytes, older)``: the very text, the other fields as marshal bytes and the
    chain of older cells; ``(event, None, older)`` when marshal cannot keep the fields exactly.
    """
    text = event.text
    if type(text) is str:
        try:
            return (text, marshal.dumps((event.kind, event.seat, event.data, event.visible)), older)
        except ValueError:  # an object marshal does not write (a subclass of a built-in type)
            pass
    return (event, None, older)


def unpack(cell: Any) -> Event:
    """The Event a :func:`pack` cell stands for (a new Event equal to the packed one, its very text)."""
    blob = cell[1]
    if blob is None:
        return cell[0]  # type: ignore[no-any-return]
    kind, seat, data, visible = marshal.loads(blob)
    return Event(kind, seat, cell[0], data, visible)


def cells(chain: Any, last: int | None = None) -> list[Any]:
    """The cells of the chain whose newest cell is ``chain`` (its newest ``last`` when given), oldest first."""
    out: list[Any] = []
    while chain is not None and (last is None or len(out) < last):
        out.append(chain)
        chain = chain[2]
    out.reverse()
    return out


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

    def extend(self, events: Iterable[Event]) -> None:
        """Append ``events`` (Events, or an EventLog whose cells are then shared), oldest first."""
        if isinstance(events, EventLog):
            self._records.extend(events._records)
        else:
            self._records.extend(pack(e) for e in events)

    def __repr__(self) -> str:
        return f"EventLog({len(self._records)} events)"
