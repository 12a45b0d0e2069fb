"""The game options ``captains`` and ``tracks`` (rulebook: Game Setup), checked by
``GameSpec.resolve_options`` (``first_player`` is the engine's ``first_player_option``).
"""

from __future__ import annotations

from dicetable.engine import GameConfigError

from ..components import parse_layout
from .consts import CAPTAINS, CAPTAIN_INDEX, NO_CAPTAIN


# ================================================================ options (checked by GameSpec.resolve_options)
def parse_captains(text: str, n: int) -> tuple[int, ...] | None:
    """Captain indices (``NO_CAPTAIN`` for none) of option ``captains`` for ``n`` seats.

    None for "random" (dealt in set-up); GameConfigError naming a bad part.
    """
    text = text.strip().lower()
    if text == "random":
        return None
    if text == "none":
        return (NO_CAPTAIN,) * n
    parts = [p.strip() for p in text.split(",")]
    out = []
    for p in parts:  # each part first: a misspelt Captain is named, whatever the count
        if p in ("none", "-", ""):
            out.append(NO_CAPTAIN)
        elif p in CAPTAIN_INDEX:
            out.append(CAPTAIN_INDEX[p])
        else:
            raise GameConfigError(
                f"option 'captains': unknown Captain {p!r}; Captains: "
                + ", ".join(c.id for c in CAPTAINS) + " (or 'none', or the whole option 'random')")
    if len(parts) != n:
        raise GameConfigError(
            f"option 'captains' needs one Captain per player ({n}), got {len(parts)}: "
            "use 'random', 'none', or ids like " + ",".join(c.id for c in CAPTAINS[:n]))
    real = [c for c in out if c >= 0]
    if len(set(real)) != len(real):
        raise GameConfigError("option 'captains': each Captain card exists once")
    return tuple(out)


def check_captains(value: str, players: int) -> str:
    """Option ``captains``: 'random', 'none' or one Captain id per seat (GameConfigError otherwise)."""
    parse_captains(value, players)
    return value


def check_tracks(value: str, players: int) -> str:
    """Option ``tracks``: 'random' or three Tracks with sides, e.g. 'T1A,T3B,T2A' (ValueError otherwise)."""
    if value.strip() != "random":
        parse_layout(value.strip())
    return value

