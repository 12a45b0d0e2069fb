"""What an action did to the table, in one vocabulary for all five games: effects.

An :class:`~dicetable.engine.core.Event` is a log line; its ``data`` may
carry ``"effects"``, a list of effect dicts made by the functions below.
The browser table animates them (dice tumble, pieces glide, counters count)
without knowing the game: each effect names the board element it concerns
by its ``data-key`` (see :mod:`dicetable.engine.markup`), and places by the
keys of the elements that stand for them.

Effects belong to their event, so they are shown to exactly the seats that
may see the event (``Event.visible``): an event every seat sees must not
name a hidden card in its effects (draw it as ``reveal`` only in the event
its owner alone sees).

Every effect is ``{"type": <one of EFFECT_TYPES>, ...}``:

- ``roll``: dice rolled; ``key`` the dice area, ``faces`` what they show, ``seat``.
- ``set_aside``: dice set aside or locked; ``key`` where they go, ``faces``, ``seat``.
- ``move``: a piece or marker moved; ``key`` the piece, ``from`` and ``to`` place keys (None: off the board).
- ``count``: a counter changed; ``key`` the counter, ``delta`` (an int, never 0), ``value`` the new value or None.
- ``take``: a card or tile taken; ``key`` the card, ``from`` and ``to`` place keys, ``seat`` the taker.
- ``reveal``: a card, tile or die turned face up; ``key``, ``at`` its place key or None.
- ``score``: a seat's score changed; ``seat``, ``delta``.
- ``turn``: a seat's turn begins; ``seat``.
- ``round``: a round (season, year) begins; ``round`` its number.
"""

from __future__ import annotations

from typing import Any, Final, Iterable

from .markup import check_key

#: The effect types and the fields each carries beside ``type``.
EFFECT_TYPES: Final[dict[str, tuple[str, ...]]] = {
    "roll": ("key", "faces", "seat"),
    "set_aside": ("key", "faces", "seat"),
    "move": ("key", "from", "to"),
    "count": ("key", "delta", "value"),
    "take": ("key", "from", "to", "seat"),
    "reveal": ("key", "at"),
    "score": ("seat", "delta"),
    "turn": ("seat",),
    "round": ("round",),
}

_KEYED: Final = ("key", "from", "to", "at")


def check_effect(effect: Any) -> dict[str, Any]:
    """Return ``effect`` if it is a well-formed effect (see the module docstring); raise ValueError naming the fault."""
    if not isinstance(effect, dict) or effect.get("type") not in EFFECT_TYPES:
        raise ValueError(f"{effect!r} is not an effect: a dict whose type is one of {', '.join(EFFECT_TYPES)}")
    fields = EFFECT_TYPES[effect["type"]]
    extra = set(effect) - set(fields) - {"type"}
    missing = [f for f in fields if f not in effect]
    if extra or missing:
        raise ValueError(f"a {effect['type']} effect has the fields {', '.join(fields)}; "
                         f"{'missing ' + ', '.join(missing) if missing else 'unexpected ' + ', '.join(sorted(extra))}")
    for name in _KEYED:
        if name in effect and effect[name] is not None:
            check_key(effect[name])
    for name in ("seat", "delta", "round"):
        value = effect.get(name)
        if name in effect and value is not None and type(value) is not int:
            raise ValueError(f"a {effect['type']} effect's {name} is a whole number, not {value!r}")
    if effect["type"] in ("count", "score") and effect["delta"] == 0:
        raise ValueError(f"a {effect['type']} effect changes something: its delta is not 0")
    if "faces" in effect and not isinstance(effect["faces"], list):
        raise ValueError(f"a {effect['type']} effect's faces are a list, not {effect['faces']!r}")
    return effect


def roll(key: str, faces: Iterable[Any], seat: int | None = None) -> dict[str, Any]:
    """Dice rolled: ``faces`` (JSON values: pips or face names) land in the dice area ``key``."""
    return {"type": "roll", "key": key, "faces": list(faces), "seat": seat}


def set_aside(key: str, faces: Iterable[Any], seat: int | None = None) -> dict[str, Any]:
    """Dice showing ``faces`` set aside (kept, locked, placed) into the area ``key``."""
    return {"type": "set_aside", "key": key, "faces": list(faces), "seat": seat}


def move(key: str, src: str | None, dst: str | None) -> dict[str, Any]:
    """The piece or marker ``key`` moved from place ``src`` to place ``dst`` (None: off the board)."""
    return {"type": "move", "key": key, "from": src, "to": dst}


def count(key: str, delta: int, value: int | None = None) -> dict[str, Any]:
    """The counter ``key`` changed by ``delta`` (not 0) to ``value`` (None when not shown)."""
    return {"type": "count", "key": key, "delta": delta, "value": value}


def take(key: str, src: str | None, dst: str | None, seat: int | None = None) -> dict[str, Any]:
    """The card or tile ``key`` taken from place ``src`` to place ``dst`` by ``seat``."""
    return {"type": "take", "key": key, "from": src, "to": dst, "seat": seat}


def reveal(key: str, at: str | None = None) -> dict[str, Any]:
    """The card, tile or die ``key`` turned face up at place ``at``."""
    return {"type": "reveal", "key": key, "at": at}


def score(seat: int, delta: int) -> dict[str, Any]:
    """``seat``'s score changed by ``delta`` (not 0)."""
    return {"type": "score", "seat": seat, "delta": delta}


def turn(seat: int) -> dict[str, Any]:
    """``seat``'s turn begins."""
    return {"type": "turn", "seat": seat}


def round_begins(number: int) -> dict[str, Any]:
    """Round (season, year) ``number`` begins."""
    return {"type": "round", "round": number}


def effects_of(data: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The effects an event's ``data`` carries ([] for none)."""
    if not data:
        return []
    return list(data.get("effects") or ())
