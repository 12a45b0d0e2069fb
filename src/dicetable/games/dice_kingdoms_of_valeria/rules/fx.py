"""Dice Kingdoms of Valeria effects: what an event did to the table, named by the board's keys.

The browser board (``board.py``) gives each thing an effect names a
``data-key`` built by the functions here, so the rules and the board agree
(docs/web.md, "Live updates"; vocabulary in :mod:`dicetable.engine.effects`).
Every sheet is public, so every effect names only public things: the draft
line's places (``draft-<i>``), never the card a refill will bring.

Keys: ``dice`` (all six dice), ``dice-black`` (the Harvest pair), ``draft``
and ``draft-<i>`` (the Statue draft line and its places), ``statue-deck``,
``solo-trees``, ``solo-ships``; per seat ``p-<seat>-cit-<section>`` (a
Citizen section, "9/10" written "9-10"), ``p-<seat>-trk-<guild>``,
``p-<seat>-gold``, ``p-<seat>-wall``, ``p-<seat>-lair-<id>``,
``p-<seat>-road-<id>`` (counters of marked pips), ``p-<seat>-total`` (the
Score Tally's total), ``p-<seat>-statues`` and ``p-<seat>-statue-<n>`` (the
Statue Tally and a Statue held).
"""

from __future__ import annotations

from typing import Any, Final

from dicetable.engine import effects as fx

from ..layout import LAYOUTS, Layout
from ..sheet import GUILDS


def cit_key(seat: int, section: str) -> str:
    """The key of ``seat``'s Citizen section ``section`` ("9/10" -> ``p-0-cit-9-10``)."""
    return f"p-{seat}-cit-{section.replace('/', '-')}"


def trk_key(seat: int, guild: str) -> str:
    """The key of ``seat``'s Guild Track of ``guild`` (``p-0-trk-Holy``)."""
    return f"p-{seat}-trk-{guild}"


def lair_key(seat: int, lair: str) -> str:
    """The key of ``seat``'s Monster Lair ``lair`` (``p-0-lair-L6``): its count of marked pips."""
    return f"p-{seat}-lair-{lair}"


def road_key(seat: int, road: str) -> str:
    """The key of ``seat``'s Road ``road`` (``p-0-road-R09``): its count of marked pips."""
    return f"p-{seat}-road-{road}"


def statue_key(seat: int, number: int) -> str:
    """The key of Statue ``number`` (1-14) in ``seat``'s Statue Tally."""
    return f"p-{seat}-statue-{number}"


class SeatKeys:
    """One seat's keys on one season's sheets, written once (the rules name one at every mark):
    ``cit[section]``, ``trk[guild]``, ``lair[lair]``, ``road[road]`` (the functions above),
    ``gold``, ``wall`` and ``total`` (``p-<seat>-gold``, ``-wall``, ``-total``)."""

    def __init__(self, lay: Layout, seat: int) -> None:
        self.cit: tuple[str, ...] = tuple(cit_key(seat, name) for name in lay.cit_names)
        self.trk: tuple[str, ...] = tuple(trk_key(seat, guild) for guild in GUILDS)
        self.lair: tuple[str, ...] = tuple(lair_key(seat, lair) for lair in lay.lair_ids)
        self.road: tuple[str, ...] = tuple(road_key(seat, road) for road in lay.road_ids)
        self.gold: str = f"p-{seat}-gold"
        self.wall: str = f"p-{seat}-wall"
        self.total: str = f"p-{seat}-total"


#: ``KEYS[season][seat]``: the :class:`SeatKeys` of seats 0-4 on each season's sheets.
KEYS: Final = {season: tuple(SeatKeys(lay, seat) for seat in range(5)) for season, lay in LAYOUTS.items()}


def scored(seat: int, lay: Layout, after: int, before: int) -> list[dict[str, Any]]:
    """The effects of ``seat``'s score going from ``before`` to ``after`` ([] if unchanged): the Score
    Tally's total counts, and the seat's score changes. (The rules call it through ``_scored``, which
    keeps each seat's running score.)"""
    delta = after - before
    if not delta:
        return []
    return [fx.count(KEYS[lay.season][seat].total, delta, after), fx.score(seat, delta)]
