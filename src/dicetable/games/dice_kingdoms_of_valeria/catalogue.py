"""Every action id Dice Kingdoms of Valeria can offer, in a fixed order (the research action space).

Per sheet season (the ``sheets`` option; solo plays Summer): Harvest marks by Citizen
(rulebook: "Harvest"), the three Actions by die colour (Yellow: recruit a Citizen, Red: slay in
a Range Block of a Monster Lair, Green: build on a Road), Reward Pip choices (recruit, slay,
road), fallback and Guild Strike pips, Statue picks, and passing.
"""

from __future__ import annotations

from .components import N_KINDS
from .layout import LAYOUTS
from .sheet import GUILDS


def action_catalogue(players: int, options: dict) -> tuple[str, ...]:
    """All action ids of a game with ``players`` seats and resolved ``options``, each once."""
    lay = LAYOUTS[options.get("sheets", "summer")]
    ends = [(f"{rid}@{origin}", lay.road_len[r]) for r, rid in enumerate(lay.road_ids)
            for origin in (lay.road_a_name[r], lay.road_b_name[r])]
    blocks = [f"{lay.lair_ids[li]}:{lay.block_range[b][0]}-{lay.block_range[b][1]}"
              for li, bs in enumerate(lay.lair_blocks) for b in bs]
    return (
        ("pass",)
        + tuple(f"recruit:{n}" for n in lay.cit_names)
        + tuple(f"yellow:{n}" for n in lay.cit_names)
        + tuple(f"slay:{lid}" for lid in lay.lair_ids)
        + tuple(f"red:{b}" for b in blocks)
        + tuple(f"road:{e}" for e, _ in ends)
        + tuple(f"green:{e}:{k}" for e, n in ends for k in range(1, n + 1))
        + tuple(f"harvest:{g}" for g in GUILDS)
        + tuple(f"strike:{g}" for g in GUILDS)
        + tuple(f"statue:{k + 1}" for k in range(N_KINDS))
    )
