"""Balance facts of a finished Dice Kingdoms of Valeria game, for ``dicetable analyze``.

Read from the spectator observation only (``GameSpec.balance_facts``).
"""

from __future__ import annotations


def balance_facts(obs: dict) -> dict:
    """Per seat ``statues``, ``statue_count``, ``turn_order``; per table ``sheets``.

    ``obs`` is ``state.observation(None)`` of a finished game. ``statues``
    lists, per seat, the numbers of the Statue cards it drafted (rulebook:
    Statue Cards), ``statue_count`` how many; ``turn_order`` is 1 for the
    first player (drawn at random in setup), 2 for the next, and so on;
    ``sheets`` is ``summer`` or ``winter``.
    """
    n = len(obs["players"])
    return {
        "statues": [list(p["statues"]) for p in obs["players"]],
        "statue_count": [len(p["statues"]) for p in obs["players"]],
        "turn_order": [(s - obs["first_player"]) % n + 1 for s in range(n)],
        "sheets": obs["sheets"],
    }
