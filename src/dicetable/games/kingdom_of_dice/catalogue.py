"""Every action id Kingdom of Dice can offer, in a fixed order (the research action space).

Set-aside one die face at a time (rulebook: "Setting dice aside"), reroll or stop, then place
a Crown marker or decline (rulebook: "Placing a Crown marker"). The same for every player count.
"""

from __future__ import annotations

from .components import FACE_ORDER


def action_catalogue(players: int, options: dict) -> tuple[str, ...]:
    """All action ids of a game with ``players`` seats and resolved ``options``, each once."""
    return tuple(f"keep:{face}" for face in FACE_ORDER) + ("reroll", "stop", "place", "decline")
