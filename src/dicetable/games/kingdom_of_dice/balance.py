"""Balance facts of a finished Kingdom of Dice game, for ``dicetable analyze``.

Read from the spectator observation only (``GameSpec.balance_facts``).
"""

from __future__ import annotations


def balance_facts(obs: dict) -> dict:
    """Solo: ``{"cat_level": 1-6}`` (the Mischievous Cat's level); with 2-4 players: ``{}``.

    ``obs`` is ``state.observation(None)`` of a finished game. Player 1
    starts round 1 (the table may choose; see the module notes of
    :mod:`.rules`), so seat position already is turn order there.
    """
    return {"cat_level": obs["cat"]["level"]} if "cat" in obs else {}
