"""Every action id Corsairs of Valeria can offer, in a fixed order (the research action space).

Dice (rulebook: "Rolling the dice", re-rolls for Grog), the Dice Actions in the player's order
(rulebook: "Phase C"), movement by lane where a Track splits, attacks by target seat, and every
Captain's choices. Seat-named ids (``attack:p2``) exist for each seat of the game.
"""

from __future__ import annotations

from typing import Any

from .components import COMPONENTS, TRACKS

_FIXED = (
    "roll", "reroll", "reroll-silver", "lock", "keep", "set-cannon", "set-map", "mistress",
    "reo:1", "reo:2", "reo:3", "give", "bones:ignore", "bones:pay", "jaxn", "pass", "hold",
    "jager:move", "jager:stay", "grog", "silver", "maps", "cannons", "merchant",
)


def _lanes() -> tuple[str, ...]:
    names = {lane.name for track in TRACKS for side in track.sides for lane in side.lanes}
    names |= {lane.name for lane in COMPONENTS.start_island.lanes}
    return tuple(sorted(names - {"main"}))


def action_catalogue(players: int, options: dict[str, Any]) -> tuple[str, ...]:
    """All action ids of a game with ``players`` seats and resolved ``options``, each once."""
    dice = COMPONENTS.dice.count
    moves = ("forward", "backward") + tuple(f"{d}:{lane}" for d in ("forward", "backward") for lane in _lanes())
    seats = tuple(f"p{s + 1}" for s in range(players))
    targeted = tuple(f"{kind}:{p}" for kind in ("give", "hook", "attack", "steal") for p in seats)
    return tuple(f"mark:{i + 1}" for i in range(dice)) + _FIXED + moves + targeted
