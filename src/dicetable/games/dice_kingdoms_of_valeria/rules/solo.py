"""Dice Kingdoms of Valeria solo Events, drawn on doubles in the Roll Phase.

Rulebook: Solo Rules (Events are reconstructed: see the package docstring).
"""

from __future__ import annotations

from dicetable.engine import effects as fx

from .consts import EVENTS
from ..sheet import CIT, CITV, DOM, GUILDS, LAIR_OPEN, LB0, LST, REWARD_NAME, TRK, VBRIDGE, VDOM, VTRK
from .fields import DiceKingdomsFields
from .tables import Reward, _reward_tasks
from .fx import trk_key
from .scoring import bridge_complete


class SoloEventMixin(DiceKingdomsFields):
    """Solo Events. Methods of :class:`DiceKingdomsState`."""

    __slots__ = ()

    # ------------------------------------------------------------ Solo Events
    def _draw_event(self) -> None:
        deck = list(self.event_deck)
        e = deck.pop()
        self.event_deck = tuple(deck)
        self.events_drawn = self.events_drawn + (e,)
        self.ships += 1
        ev = EVENTS[e]
        self.emit("event", 0, f"Doubles: ship {self.ships} of {self.lay.ships} is marked off. "
                  f"Event: {ev.name} - {ev.text}", {"event": ev.id, "ship": self.ships},
                  effects=[fx.count("solo-ships", 1, self.ships)])
        self._resolve_event(ev.id)

    def _resolve_event(self, eid: str) -> None:
        lay = self.lay
        sh = self.sheets[0]
        if eid == "exodus":
            for s in range(9, -1, -1):
                n = sh[CIT + s]
                void = sh[CITV + s]
                for i in range(n - 1, -1, -1):
                    if not void >> i & 1:
                        before = self._score_before(0)
                        sh[CITV + s] = void | (1 << i)
                        self.emit("void", 0, f"Exodus voids the {'left' if i == 0 else 'right'} pip of the "
                                  f"{lay.cit_names[s]} Citizen.", {"section": lay.cit_names[s], "pip": i + 1},
                                  effects=self._scored(0, before))
                        return
            self._no_target("Exodus")
        elif eid == "washed-out-bridge":
            for bi in range(len(lay.bridge_ids)):
                if not (sh[VBRIDGE] >> bi & 1) and not bridge_complete(lay, sh, bi):
                    sh[VBRIDGE] |= 1 << bi
                    self.forget_score(0)  # the sheet changed outside a mark
                    self.emit("void", 0, f"Washed-Out Bridge voids Bridge {lay.bridge_ids[bi]} "
                              f"(Road {lay.road_ids[lay.bridge_road[bi]]}).", {"bridge": lay.bridge_ids[bi]})
                    return
            self._no_target("Washed-Out Bridge")
        elif eid == "wildfire":
            for di in range(len(lay.dom_ids)):
                if not (sh[DOM] >> di & 1) and not (sh[VDOM] >> di & 1):
                    sh[VDOM] |= 1 << di
                    self.forget_score(0)  # the sheet changed outside a mark
                    self.emit("void", 0, f"Wildfire voids Domain {lay.dom_ids[di]} {lay.dom_names[di]}.",
                              {"domain": lay.dom_ids[di]})
                    return
            self._no_target("Wildfire")
        elif eid == "rival-hunters":
            best, pick = None, -1
            for li in range(len(lay.lair_ids)):
                if sh[LST + li] != LAIR_OPEN or self.lair_first[li] != -1:
                    continue
                key = (sum(sh[LB0 + b] for b in lay.lair_blocks[li]), lay.lair_vp[li][0])
                if best is None or key > best:
                    best, pick = key, li
            if pick < 0:
                self._no_target("Rival Hunters")
                return
            self.lair_first[pick] = -2
            self.emit("void", 0, f"Rival Hunters cross out the {lay.lair_vp[pick][0]} VP of "
                      f"{lay.lair_ids[pick]} {lay.lair_names[pick]}.", {"lair": lay.lair_ids[pick]})
        elif eid == "guild-strike":
            open_tracks = [g for g in range(4) if sh[TRK + g] < 24]
            if not open_tracks:
                self._no_target("Guild Strike")
                return
            most = max(sh[TRK + g] for g in open_tracks)
            tied = [g for g in open_tracks if sh[TRK + g] == most]
            if len(tied) == 1:
                self._strike_track(tied[0])
            else:
                self.then(("strike", 0, sum(1 << g for g in tied)))
        elif eid == "royal-stipend":
            self.then(("gold", 0, 0))
        elif eid == "road-crew":
            self.then(("road", 0, 0))
        elif eid == "pilgrims":
            rewards: list[Reward] = []
            before = self._score_before(0)
            if self._mark_track(0, 0, 1, rewards):
                self.emit("mark", 0, "Pilgrims: 1 pip is marked on the Holy Guild Track.",
                          effects=[fx.count(trk_key(0, GUILDS[0]), 1, sh[TRK]), *self._scored(0, before)])
                self.then(*_reward_tasks(0, rewards))
            else:
                self._no_target("Pilgrims")
        elif eid == "drought":
            self.drought = True
        elif eid == "heavy-rain":
            self.no_blue = True

    def _strike_track(self, g: int) -> None:
        sh = self.sheets[0]
        pips = self.lay.trk_pips[g]
        void = sh[VTRK + g]
        for i in range(sh[TRK + g], 24):
            if pips[i] and not void >> i & 1:
                sh[VTRK + g] = void | (1 << i)
                self.forget_score(0)  # the sheet changed outside a mark
                self.emit("void", 0, f"Guild Strike voids the {REWARD_NAME[pips[i]]} Reward of pip {i + 1} "
                          f"on the {GUILDS[g]} Guild Track.", {"track": GUILDS[g], "pip": i + 1})
                return
        self._no_target("Guild Strike")

    def _no_target(self, name: str) -> None:
        self.emit("void", 0, f"{name} has nothing to act on: no effect.")
