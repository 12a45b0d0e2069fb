"""Valeria: Card Kingdoms as a fixed-length feature vector (the research observation space).

Drawn from ``observation(seat)`` only: another seat's Duke, face-down Domains and face-down
Citizens are not in it. Seat slices start from the observer. See
:mod:`dicetable.engine.encoding`; ``Encoding.slices`` documents each position.
"""

from __future__ import annotations

from dicetable.engine.encoding import Encoding, counts, numbers, one_hot, per_seat, scalar

from .components import AREAS, CIT_DISPLAY, CIT_NAME, DOM_NAME, DUKE_NAME, MON_NAME
from .rules import N_CIT_POS, N_MON_POS, PHASE_NAME, TASK_NAME
from .viewdata import own_player

_RES_SCALE = 20.0
_VP_SCALE = 60.0


def _p(v: dict) -> dict:
    return v["obs"]["player"][v["seat"]]


def observation_encoding(players: int, options: dict) -> Encoding:
    """The feature layout for ``players`` seats (rulebook sections: Roll, Harvest, Actions,
    Game end, Dukes; solo: the Dark Lord)."""
    seat = lambda f: per_seat(players, f)  # noqa: E731 - a short alias for the list below
    feats = [
        one_hot("phase", lambda o: o["phase"], PHASE_NAME, "the phase of the turn"),
        scalar("turn", lambda o: o["turn"], 40, "turn / 40"),
        seat(scalar("is_active", lambda v: v["obs"]["active"] == v["seat"], 1, "1 for the Active player")),
        seat(scalar("is_first", lambda v: v["obs"]["first_player"] == v["seat"], 1, "1 for the first player")),
        numbers("dice", lambda o: o["dice"], 2, 6, "the two dice / 6 (0 before the roll)"),
        numbers("monster_areas", lambda o: [AREAS.index(m["area"]) == a for m in o["monsters"] for a in range(len(AREAS))],
                N_MON_POS * len(AREAS), 1, "per Monster stack: one-hot of its area"),
        numbers("monster_counts", lambda o: [len(m["cards"]) for m in o["monsters"]], N_MON_POS, 6,
                "cards left in each Monster stack / 6"),
        numbers("monster_tops", lambda o: [m["cards"][-1] == name if m["cards"] else 0
                                           for m in o["monsters"] for name in MON_NAME],
                N_MON_POS * len(MON_NAME), 1, "per Monster stack: one-hot of the Monster on top"),
        numbers("citizen_counts", lambda o: [c["face_down"] + len(c["face_up"]) for c in o["citizens"]],
                N_CIT_POS, 5, "cards left in each Citizen stack (roll 1..11-12) / 5"),
        numbers("citizen_tops", lambda o: [c["face_up"][-1] == name if c["face_up"] else 0
                                           for c in o["citizens"] for name in CIT_NAME[:len(set(CIT_NAME))]],
                N_CIT_POS * len(set(CIT_NAME)), 1, "per Citizen stack: one-hot of the Citizen on top"),
        counts("domain_tops", lambda o: [d["top"] for d in o["domains"]], DOM_NAME, 1, "Domains on offer"),
        numbers("domain_counts", lambda o: [d["face_down"] for d in o["domains"]], 5, 3,
                "face-down Domains under each offered one / 3"),
        scalar("exhausted", lambda o: o["exhausted"], 5, "Exhausted stacks / 5"),
        one_hot("pending", lambda o: (o["pending"] or {}).get("task"), TASK_NAME, "the task the game waits on"),
        scalar("actions_left", lambda o: (o["pending"] or {}).get("actions_left"), 2, "Actions left this turn / 2"),
        seat(numbers("resources", lambda v: [_p(v)[k] for k in ("gold", "strength", "magic", "vp_tokens")],
                     4, _RES_SCALE, "Gold, Strength, Magic, VP tokens / 20")),
        seat(counts("tableau", lambda v: [n for n, c in _p(v)["citizens"].items() for _ in range(c)],
                    CIT_DISPLAY, 3, "Citizens owned, by card (count / 3)")),
        seat(counts("owned_domains", lambda v: _p(v)["domains"], DOM_NAME, 1, "Domains built")),
        seat(counts("slain", lambda v: _p(v)["victory"], MON_NAME, 2, "Monsters slain, by card (count / 2)")),
        seat(scalar("public_vp", lambda v: _p(v)["public_vp"], _VP_SCALE, "public VP / 60")),
        one_hot("my_duke", lambda o: own_player(o).get("duke"), DUKE_NAME, "the observer's Duke"),
        scalar("my_duke_vp", lambda o: own_player(o).get("duke_vp"), 30, "the observer's Duke VP / 30"),
        counts("my_duke_offer", lambda o: own_player(o).get("duke_offer", ()), DUKE_NAME, 1,
               "Dukes offered to the observer"),
    ]
    if players == 1:
        feats += [
            counts("dark_lord_citizens", lambda o: o["dark_lord"]["captured_citizens"], CIT_NAME, 3,
                   "solo: Citizens the Dark Lord captured (count / 3)"),
            counts("dark_lord_domains", lambda o: o["dark_lord"]["captured_domains"], DOM_NAME, 1,
                   "solo: Domains the Dark Lord captured"),
        ]
    return Encoding(feats)
