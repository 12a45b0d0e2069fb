"""Balance facts of a finished Corsairs of Valeria game, for ``dicetable analyze``.

Read from the spectator observation only (``GameSpec.balance_facts``).
"""

from __future__ import annotations


def balance_facts(obs: dict) -> dict:
    """``{"captain": [Captain id or "none", one per seat], "tracks": "T1A,T3B,T2A"}``.

    ``obs`` is ``state.observation(None)`` of a finished game. The Captain is
    the card each seat was dealt (rulebook: Captains); ``tracks`` names the
    race track's three Tracks and sides from Start Island upwards.
    """
    return {
        "captain": [ship["captain"] or "none" for ship in obs["ships"]],
        "tracks": obs["tracks"],
    }
