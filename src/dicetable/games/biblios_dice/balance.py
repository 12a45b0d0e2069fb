"""Balance facts of a finished Biblios Dice game, for ``dicetable analyze``.

Read from the spectator observation only (``GameSpec.balance_facts``): at the end
every holding, Hidden Objectives included, is shown.
"""

from __future__ import annotations


def balance_facts(obs: dict) -> dict:
    """``{"objective": [Resource Track or "none", one per seat]}`` with the Hidden
    Objective Variant, else ``{}``. ``obs`` is ``state.observation(None)`` of a
    finished game."""
    if not obs.get("hidden_objectives"):
        return {}
    return {"objective": [p["objective"] or "none" for p in obs["players"]]}
