"""Small immutable records of the State protocol: dice, actions, decisions, events."""

from __future__ import annotations

from typing import Any, Final, NamedTuple


class Die(NamedTuple):
    """A kind of die: a name for messages and its faces (JSON-able values).

    ``faces`` is a tuple such as ``(1, 2, 3, 4, 5, "crown")``; a face that
    appears twice is twice as likely. Rolled with ``GameState.roll``.
    """

    name: str
    faces: tuple[Any, ...]


class Action(NamedTuple):
    """One legal move.

    ``id`` is a stable string (the same move has the same id in every run and
    after a save/load); ``label`` is a sentence for people in rulebook words;
    ``payload`` is an optional game-private value that spares the game from
    parsing ``id`` again (never shown, never saved).
    """

    id: str
    label: str
    payload: Any = None

    def to_json(self) -> dict[str, Any]:
        """Return ``{"id": ..., "label": ...}``."""
        return {"id": self.id, "label": self.label}


class Decision(NamedTuple):
    """What is asked of one seat now.

    ``kind`` is a short machine name (``"set-aside"``, ``"bid"``...);
    ``prompt`` says in the rulebook's words what the seat must decide;
    ``help`` explains the rule behind it at more length.
    """

    seat: int
    kind: str
    prompt: str
    help: str = ""

    def to_json(self) -> dict[str, Any]:
        """Return the decision as a JSON-able dict."""
        return {"seat": self.seat, "kind": self.kind, "prompt": self.prompt, "help": self.help}


class Event(NamedTuple):
    """One thing that happened, for logs and replays.

    ``kind`` is a machine name, ``seat`` the seat it concerns (or None),
    ``text`` a sentence for people, ``data`` a JSON-able dict of details and
    ``visible`` None when every seat may see it, otherwise the tuple of seats
    that may (a secret draw, a face-down bid).
    """

    kind: str
    seat: int | None
    text: str
    data: dict[str, Any] | None = None
    visible: tuple[Any, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the event as a JSON-able dict."""
        d: dict[str, Any] = {"kind": self.kind, "seat": self.seat, "text": self.text}
        if self.data:
            d["data"] = self.data
        if self.visible is not None:
            d["visible"] = list(self.visible)
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "Event":
        """Inverse of :meth:`to_json`."""
        vis = d.get("visible")
        return cls(d["kind"], d.get("seat"), d["text"], d.get("data"), tuple(vis) if vis is not None else None)

    def visible_to(self, seat: int | None) -> bool:
        """True when ``seat`` (None = a spectator) may see this event."""
        return self.visible is None or (seat is not None and seat in self.visible)


_TUPLE_NEW: Final[Any] = tuple.__new__
_EVENT: Final[Any] = Event  # compiled, a C global: the class's name is otherwise looked up in the module's dict


def new_event(kind: str, seat: int | None, text: str, data: dict[str, Any] | None = None,
              visible: tuple[Any, ...] | None = None) -> Event:
    """``Event(kind, seat, text, data, visible)``, built without the named tuple's ``__new__``.

    The same object (type, fields, equality, pickling): the named tuple's generated ``__new__``
    is an interpreted function, which the engine's hot path (:meth:`GameState.emit`) spares.
    """
    event: Event = _TUPLE_NEW(_EVENT, (kind, seat, text, data, visible))
    return event


_SEAT_NAMES: Final[tuple[str, ...]] = tuple(f"Player {seat + 1}" for seat in range(8))


def seat_name(seat: int) -> str:
    """The name a person reads for a seat: seat 0 is "Player 1"."""
    if 0 <= seat < 8:  # every event's text names a seat: the usual names are made once
        return _SEAT_NAMES[seat]
    return f"Player {seat + 1}"
