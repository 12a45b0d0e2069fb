"""Balance facts of a finished Corsairs of Valeria game, for ``dicetable analyze``.

Read from the spectator observation only (``GameSpec.balance_facts``).
"""

from __future__ import annotations

from typing import Any


def balance_facts(obs: dict[str, Any]) -> dict[str, Any]:
    """``{"captain": [Captain id or "none", one per seat], "tracks": "T1A,T3B,T2A",
    "track_left_out": "T4"}``.

    ``obs`` is ``state.observation(None)`` of a finished game. The Captain is
    the card each seat was dealt (rulebook: Captains); ``tracks`` names the
    race track's three Tracks and sides from Start Island upwards, and
    ``track_left_out`` the one of the four Tracks not used (rulebook: Setup).
    """
    used = {t[:2] for t in obs["tracks"].split(",")}
    return {
        "captain": [ship["captain"] or "none" for ship in obs["ships"]],
        "tracks": obs["tracks"],
        "track_left_out": ",".join(sorted({"T1", "T2", "T3", "T4"} - used)) or "none",
    }
