"""Every action id Biblios Dice can offer, in a fixed order (the research action space).

Phase I re-rolls (rulebook: "Phase I: Roll"), taking all dice of a type, the Adjustment Die's
raise/lower/set and Bishop Token moves, splitting the dice into two groups, the secret auction's
Bidding Cards and the choice of group (rulebook: "The Market"). The same for every player count.
"""

from __future__ import annotations

from .components import CARD_VALUES, KINDS, RESOURCES
from .rules import MARK_KINDS, card_name

_FIXED = ("reroll", "clear", "keep", "convert", "forgo", "group:large", "group:small")


def action_catalogue(players: int, options: dict) -> tuple[str, ...]:
    """All action ids of a game with ``players`` seats and resolved ``options``, each once."""
    return (
        tuple(f"mark:{k}" for k in MARK_KINDS) + _FIXED
        + tuple(f"take:{k}" for k in KINDS)
        + tuple(f"small:{k}" for k in KINDS)
        + tuple(f"bid:{card_name(v)}" for v in CARD_VALUES)
        + tuple(f"{op}:{r}" for op in ("raise", "lower", "set3", "advance") for r in RESOURCES)
    )
