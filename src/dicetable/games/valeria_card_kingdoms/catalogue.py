"""Every action id Valeria: Card Kingdoms can offer, in a fixed order (the research action space).

Roll-Phase die changes by Domain and die, Harvest choices (take, choose, exchange, steal by
target, resource and amount), the Action Phase (recruit, slay by area, build, gain a resource)
with payments (``pay:<n><g|s>+<m>m``: real Gold or Strength plus Magic), returns, captures and
targets, and the Duke kept at set-up. Seat-named ids exist for each seat of the game.
"""

from __future__ import annotations

from .components import (
    AREA_SLUG, CHOOSE, CIT_COST, CIT_SLUG, DOM_COST, DOM_SLUG, DUKE_SLUG, MON_MAG, MON_SLUG, MON_STR,
    N_CIT, RES_ID, STEAL, STEPS,
)

#: Highest payment a catalogue lists: the dearest card plus a Domain's surcharges (reconstructed
#: bound: no card in the base set costs more than 14; surcharges add at most a few Gold).
PAY_MAX = 20


def _steps_of(op: int) -> list:
    return [st for st in STEPS if st and st[0] == op]


def action_catalogue(players: int, options: dict) -> tuple[str, ...]:
    """All action ids of a game with ``players`` seats and resolved ``options``, each once."""
    cits = CIT_SLUG[:N_CIT]
    top = max(PAY_MAX, max(MON_STR) + max(MON_MAG, default=0), max(DOM_COST), max(CIT_COST))
    pays = ["pay:free"] + [f"pay:{x}{w}" + (f"+{m}m" if m else "")
                           for w in ("g", "s") for x in range(top + 1) for m in range(top + 1 - x)
                           if x or m]
    steal_max = max((st[2] for st in _steps_of(STEAL)), default=0)
    choose_max = max((len(st[1]) for st in _steps_of(CHOOSE)), default=0)
    seats = tuple(f"p{s + 1}" for s in range(players))
    steals = ["steal:none"] + [f"steal:{who}:{r}:{k}" for who in ("the-bank",) + seats
                               for r in RES_ID for k in range(steal_max + 1)]
    return tuple(
        [f"die:{d}:{i}" for d in DOM_SLUG for i in (1, 2)] + ["dice:done"]
        + [f"gain:{r}" for r in RES_ID] + [f"free:{r}" for r in RES_ID]
        + [f"recruit:{c}" for c in cits] + [f"slay:{a}" for a in AREA_SLUG]
        + [f"attack:{a}" for a in AREA_SLUG] + [f"build:{d}" for d in DOM_SLUG] + pays
        + [f"choose:{i + 1}" for i in range(choose_max)]
        + ["exchange:accept", "exchange:done"] + [f"exchange:{c}" for c in cits]
        + steals + [f"take:{c}" for c in cits] + [f"capture:{c}" for c in cits]
        + [f"return:{m}" for m in MON_SLUG] + [f"return:{c}" for c in cits]
        + [f"target:{p}" for p in seats] + ["decline"]
        + [f"duke:{d}" for d in DUKE_SLUG]
    )
