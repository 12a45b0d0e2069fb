"""Dice Kingdoms of Valeria Reward chains and marking: the tasks every phase shares.

Rulebook: Player Sheets (pips are marked left to right, never skipping),
Reward Pips (each chain resolved at once, to its end), Roads and Domains,
Monster Lairs, Gold, Knights on the Wall and Statue Cards.
"""

from __future__ import annotations

from typing import Final

import operator

from dicetable.engine import Action, Decision, auto, choices, prompt, resolve
from dicetable.engine import effects as fx
from dicetable.engine.flow import Task

from .consts import CARD_ID, CARD_KIND, DRAFT_LINE, MAX_STATUES, STATUES, STATUE_INSTANT, STATUE_TIMES
from ..layout import LAYOUTS
from ..sheet import (
    ACC, CIT, DOM, GOLDC, GUILDS, LAIR_HIGH, LAIR_LOW, LAIR_OPEN, LAIR_PENDING, LB0, LST, NSTAT, PLAIN, PLP,
    RECRUIT, ROAD, SLAY, STAR, STAT, TRK, VBRIDGE, VDOM, VTRK, WALLC,
)
from .solo import SoloEventMixin
from .fx import KEYS, statue_key
from .tables import (
    Reward,
    CHOOSE, DRAFT, HARVEST, KIND_CODE, REWARD_KIND, TASK_NAMES, T_CITIZEN, T_FALLBACK, T_PICK, T_STRIKE,
    _NAME, _ROAD_MARKS, _TEXTS, _ends, _reached, _reward_tasks, _rewards_note, power_text,
)

#: What each Reward-chain decision asks: (Decision kind, prompt).
_PROMPTS: Final = {
    "choose-recruit": ("recruit", "Recruit Reward: mark the leftmost open pip of a Citizen section."),
    "choose-road": ("road", "Road Reward: mark a pip to continue a Road or start one from a claimed Domain."),
    "choose-slay": ("slay", "Slay Reward: mark the next pip of the leftmost incomplete Range Block of a lair."),
    "choose-pick": ("statue", "Plinth Reward: take a Statue card from the draft line."),
    "choose-fallback": ("harvest-fallback",
                        "You marked nothing this Harvest: mark 1 pip on a Guild Track of your choice."),
    "choose-strike": ("guild-strike", "Guild Strike: your Guild Tracks with the most marked pips tie; "
                      "choose the one that loses its next Reward Pip."),
}

_LOST_WHY: Final = {"recruit": "no Citizen section has an open pip",
                    "road": "no Road can be continued",
                    "slay": "no lair you may slay in has an open pip",
                    "pick": "you hold 4 Statues or the draft line has only Statues you own",
                    "fallback": "every Guild Track is full"}


# ---------------------------------------------------------------- Action-phase tables
#: Per season, usable (road, direction) lists by (claimed Domains, Road directions, Roads not full).
_ROADS_CACHE: Final[dict[str, dict[tuple[int, ...], list[tuple[int, int]]]]] = {season: {} for season in LAYOUTS}

#: _ROAD_DIRS[r][d] == (r, d).
_ROAD_DIRS: Final = tuple(((r, 0), (r, 1), (r, 2)) for r in range(64))

#: Per season, the Recruit Reward options by the Citizen sections' marked pips.
_RECRUIT_OPTIONS: Final[dict[str, dict[tuple[int, ...], list[Action]]]] = {season: {} for season in LAYOUTS}

_lt = operator.lt

#: True in the compiled build (this module loaded from its C extension): there the Road menu is
#: worked out at every call instead of memoised (see ``RewardMixin._usable_roads``).
_NATIVE: Final = not __file__.endswith(".py")

_payload = operator.attrgetter("payload")  # a sort key (a lambda in a method is a closure, which compiled methods avoid)


class RewardMixin(SoloEventMixin):
    """Reward-chain task handlers and the marking rules. Methods of :class:`DiceKingdomsState`."""

    __slots__ = ()

    # ------------------------------------------------------------ Reward chains
    @auto("gold")
    def _gold_reward(self, task: Task) -> None:
        self._mark_gold(task[1])

    @auto("knight")
    def _knight_reward(self, task: Task) -> None:
        self._mark_wall(task[1])

    @auto("plinth")
    def _plinth_reward(self, task: Task) -> None:
        """A Plinth in the Harvest waits for the draft; otherwise the Statue is taken at once."""
        ph = self.phase
        if ph == HARVEST:
            self.sheets[task[1]][PLP] += 1
        else:
            self.then(("pick", task[1], 0 if ph == DRAFT else 1))

    @auto("citizen")
    def _citizen_reward(self, task: Task) -> None:
        self._instant_citizen(task[1], task[2])

    @auto("recruit")
    @auto("road")
    @auto("slay")
    @auto("pick")
    @auto("fallback")
    @auto("strike")
    def _reward_task(self, task: Task) -> None:
        """A Reward that may need a choice: done at once with one way, lost with none, else asked."""
        options = self._task_options(task)
        if len(options) > 1:
            self.then((CHOOSE[task[0]], task[1], task[2]))
        elif options:
            self._resolve_choice(task, options[0].payload)
        else:
            self._lost(task)

    @prompt("choose-recruit")
    @prompt("choose-road")
    @prompt("choose-slay")
    @prompt("choose-pick")
    @prompt("choose-fallback")
    @prompt("choose-strike")
    def _reward_prompt(self, task: Task) -> Decision:
        kind, text = _PROMPTS[task[0]]
        pending = len(self.seat_tasks(task[1])) - 1
        more = f" ({pending} more task{'s' if pending != 1 else ''} after this)" if pending else ""
        return Decision(task[1], kind, f"{self._where()}: {text}{more}",
                        "Reward Pips are resolved at once, each chain to its end; "
                        "pips are marked left to right, top to bottom, never skipping.")

    @choices("choose-recruit")
    @choices("choose-road")
    @choices("choose-slay")
    @choices("choose-pick")
    @choices("choose-fallback")
    @choices("choose-strike")
    def _reward_options(self, task: Task) -> list[Action]:
        return self._task_options(task)

    @resolve("choose-recruit")
    @resolve("choose-road")
    @resolve("choose-slay")
    @resolve("choose-pick")
    @resolve("choose-fallback")
    @resolve("choose-strike")
    def _reward_chosen(self, task: Task, action: Action) -> None:
        self.menu = None
        self._resolve_choice(task, action.payload)

    def _lost(self, task: Task) -> None:
        kind = task[0]
        if kind == "strike" or self.quiet:
            return
        name = TASK_NAMES[KIND_CODE[kind]]
        self.emit("lost", task[1], f"{_NAME[task[1]]}'s {name} is lost: {_LOST_WHY[kind]}.", {"task": name})

    def _task_options(self, task: Task) -> list[Action]:
        """The Actions a Reward task may be resolved with (its decision's legal actions)."""
        code = KIND_CODE[task[0]]
        sh = self.sheets[task[1]]
        acts = self.acts
        if code == RECRUIT:
            key = tuple(sh[CIT:CIT + 10])
            cache = _RECRUIT_OPTIONS[self.lay.season]
            out = cache.get(key)
            if out is None:
                if len(cache) > 20_000:
                    cache.clear()
                out = cache[key] = [acts.recruit[s] for s in range(10) if key[s] < 2]
            return out
        if code == ROAD:
            lay = self.lay
            rc0 = lay.rc0
            return [acts.road_last[rd][_reached(sh, acts.road_far[rd])]
                    if sh[rc0 + rd[0]] == lay.road_len[rd[0]] - 1 else acts.road[rd]
                    for rd in self._usable_roads(sh)]
        if code == SLAY:
            first = self.lair_first
            return [acts.slay[li] if first[li] == -1 else acts.slay_low[li][first[li]]
                    for li in self._slay_reward_lairs(sh)]
        if code == T_PICK:
            if sh[NSTAT] >= MAX_STATUES:
                return []
            held = sh[STAT]
            seen = 0
            out = []
            for c in self.line:
                k = CARD_KIND[c]
                bit = 1 << k
                if not (held & bit) and not (seen & bit):
                    seen |= bit
                    out.append(acts.statue[k])
            out.sort(key=_payload)
            return out
        if code == T_FALLBACK:
            return [acts.fallback[g] for g in range(4) if sh[TRK + g] < 24]
        if code == T_STRIKE:
            return [acts.strike[g] for g in range(4) if task[2] >> g & 1]
        raise AssertionError(f"task {task} has no options")

    def _resolve_choice(self, task: Task, payload) -> None:
        code = KIND_CODE[task[0]]
        seat = task[1]
        if code == RECRUIT:
            self._mark_citizen(seat, payload, "Recruit Reward")
        elif code == ROAD:
            r, d = payload
            self._mark_road(seat, r, d, 1, "Road Reward")
        elif code == SLAY:
            b = self._leftmost_block(self.sheets[seat], payload)
            self._mark_block(seat, b, "Slay Reward")
        elif code == T_PICK:
            self._take_statue(seat, payload, refill=task[2] == 1)
        elif code == T_FALLBACK:
            rewards: list[Reward] = []
            sh = self.sheets[seat]
            before = self._score_before(seat)
            self._mark_track(seat, payload, 1, rewards)
            if not self.quiet:
                self.emit("mark", seat, f"{_NAME[seat]} marks 1 pip on the {GUILDS[payload]} Guild Track"
                          + _rewards_note(rewards) + ".", {"track": GUILDS[payload]},
                          effects=[fx.count(KEYS[self.lay.season][seat].trk[payload], 1, sh[TRK + payload]),
                                   *self._scored(seat, before)])
            if rewards:
                self.then(*_reward_tasks(seat, rewards))
        elif code == T_STRIKE:
            self._strike_track(payload)
        else:  # pragma: no cover - automatic tasks never reach here
            raise AssertionError(task)

    # ------------------------------------------------------------ marking
    def _mark_track(self, seat: int, g: int, n: int, rewards: list[Reward]) -> int:
        """Mark up to ``n`` pips of Guild Track ``g``; append their Rewards; return how many."""
        sh = self.sheets[seat]
        have = sh[TRK + g]
        k = min(n, 24 - have)
        if k <= 0:
            return 0
        void = sh[VTRK + g]
        if void:
            pips = self.lay.trk_pips[g]
            for i in range(have, have + k):
                code = pips[i]
                if code and not (void >> i & 1):
                    rewards.append(code)
        else:
            rewards += self.lay.trk_rewards[g][have][k]
        sh[TRK + g] = have + k
        if have + k == 24 and not self.last_round:
            self._check_trigger(seat)
        return k

    def _mark_citizen(self, seat: int, s: int, why: str) -> None:
        sh = self.sheets[seat]
        i = sh[CIT + s]
        if i >= 2:
            return
        lay = self.lay
        before = self._score_before(seat)
        sh[CIT + s] = i + 1
        code = lay.cit_pips[s][i]
        if not self.quiet:
            self.emit("mark", seat, f"{_NAME[seat]} ({why}){_TEXTS[lay.season].citizen[s][i]}",
                      {"section": lay.cit_names[s], "pip": i + 1},
                      effects=[fx.count(KEYS[lay.season][seat].cit[s], 1, i + 1), *self._scored(seat, before)])
        if code > PLAIN and code != STAR:
            self.then((REWARD_KIND[code], seat, 0))

    def _instant_citizen(self, seat: int, g: int) -> None:
        sh = self.sheets[seat]
        for s in self.lay.guild_sections[g]:
            if sh[CIT + s] < 2:
                self._mark_citizen(seat, s, f"instant {GUILDS[g]} Citizen")
                return
        self.emit("lost", seat, f"{_NAME[seat]} has no open {GUILDS[g]} Citizen pip: "
                  "the instant Citizen is lost.")

    def _mark_gold(self, seat: int) -> None:
        """Mark the next Gold Chart pip (rulebook: Gold)."""
        lay = self.lay
        self._mark_next(seat, GOLDC, lay.gold_len, lay.gold_pips, _TEXTS[lay.season].gold, "gold",
                        KEYS[lay.season][seat].gold)

    def _mark_wall(self, seat: int) -> None:
        """Mark the next Knight pip on the Wall (rulebook: Knights on the Wall)."""
        lay = self.lay
        self._mark_next(seat, WALLC, lay.wall_len, lay.wall_pips, _TEXTS[lay.season].wall, "wall",
                        KEYS[lay.season][seat].wall)

    def _mark_next(self, seat: int, col: int, length: int, pips, texts, key: str, board_key: str) -> None:
        """Mark the next pip of a left-to-right row whose count is ``sheet[col]``; a full row marks nothing.

        ``key`` names the row in the event's data, ``board_key`` its counter on the board (``p-<seat>-<key>``)."""
        sh = self.sheets[seat]
        i = sh[col]
        if i >= length:
            return
        before = self._score_before(seat)
        sh[col] = i + 1
        code = pips[i]
        if not self.quiet:
            self.emit("mark", seat, _NAME[seat] + texts[i], {key: i + 1},
                      effects=[fx.count(board_key, 1, i + 1), *self._scored(seat, before)])
        if code > PLAIN and code != STAR:
            self.then((REWARD_KIND[code], seat, 0))

    def _leftmost_block(self, sh: list[int], li: int) -> int:
        lay = self.lay
        for b in lay.lair_blocks[li]:
            if sh[LB0 + b] < lay.block_len[b]:
                return b
        return -1

    def _slay_reward_lairs(self, sh: list[int]) -> list[int]:
        acc = sh[ACC]
        return [li for li in range(len(self.lay.lair_blocks)) if acc >> li & 1 and sh[LST + li] == LAIR_OPEN]

    def _mark_block(self, seat: int, b: int, why: str) -> None:
        """Mark the next pip of Range Block ``b``; settle the lair if it is now complete."""
        sh = self.sheets[seat]
        lay = self.lay
        i = sh[LB0 + b]
        if i >= lay.block_len[b]:
            return
        before = self._score_before(seat)
        sh[LB0 + b] = i + 1
        li = lay.block_lair[b]
        code = lay.block_pips[b][i]
        if not self.quiet:
            texts = _TEXTS[lay.season]
            in_lair = sum(sh[LB0 + x] for x in lay.lair_blocks[li])
            self.emit("mark", seat, f"{_NAME[seat]} ({why}){texts.block[b][i]}",
                      {"lair": lay.lair_ids[li], "block": texts.block_name[b], "pip": i + 1},
                      effects=[fx.count(KEYS[lay.season][seat].lair[li], 1, in_lair), *self._scored(seat, before)])
        if code > PLAIN and code != STAR:
            self.then((REWARD_KIND[code], seat, 0))
        if all(sh[LB0 + x] >= lay.block_len[x] for x in lay.lair_blocks[li]):
            if self.phase == HARVEST and self.lair_first[li] == -1:
                before = self._score_before(seat)
                sh[LST + li] = LAIR_PENDING
                if not self.quiet:  # a Statue that counts completed lairs may score already
                    self.emit("lair", seat, f"{_NAME[seat]} completes {lay.lair_ids[li]} "
                              f"{lay.lair_names[li]} during the Harvest (priority is settled after it).",
                              effects=self._scored(seat, before))
            else:
                self._settle_lair(seat, li)

    def _settle_lair(self, seat: int, li: int) -> None:
        lay = self.lay
        sh = self.sheets[seat]
        before = self._score_before(seat)
        if self.lair_first[li] == -1:
            self.lair_first[li] = seat
            sh[LST + li] = LAIR_HIGH
            if not self.quiet:
                hi = lay.lair_vp[li][0]
                self.emit("lair", seat, f"{_NAME[seat]} is the first to complete {lay.lair_ids[li]} "
                          f"{lay.lair_names[li]}: circles {hi} VP; everyone else crosses it out.",
                          {"lair": lay.lair_ids[li], "vp": hi}, effects=self._scored(seat, before))
        else:
            sh[LST + li] = LAIR_LOW
            if not self.quiet:
                lo = lay.lair_vp[li][1]
                self.emit("lair", seat, f"{_NAME[seat]} completes {lay.lair_ids[li]} "
                          f"{lay.lair_names[li]}: the higher value is crossed out, {lo} VP.",
                          {"lair": lay.lair_ids[li], "vp": lo}, effects=self._scored(seat, before))

    def _usable_roads(self, sh: list[int]) -> list[tuple[int, int]]:
        """(road, direction) pairs a pip may be marked on now (rulebook: Roads and Domains).

        The pure build memoises the list; the compiled build works it out at every call
        (a loop over the Roads' ints, cheaper there than building and hashing the memo's key).
        """
        if _NATIVE:
            return self._find_usable_roads(sh)
        lay = self.lay
        # What decides it: claimed Domains, each Road's direction and whether it has open pips
        # (this changes only when a Road is begun or finished or a Domain claimed).
        key = (sh[DOM], *sh[lay.ro0:], *map(_lt, sh[lay.rc0:lay.ro0], lay.road_len))
        cache = _ROADS_CACHE[lay.season]
        out = cache.get(key)
        if out is not None:
            return out
        if len(cache) > 20_000:  # bound the memory of long simulations
            cache.clear()
        out = cache[key] = self._find_usable_roads(sh)
        return out

    def _find_usable_roads(self, sh: list[int]) -> list[tuple[int, int]]:
        """:meth:`_usable_roads` worked out (no memo): the Roads in order, a begun one in its
        direction, an unbegun one from each claimed Domain at its ends (``a`` first)."""
        lay = self.lay
        rc0 = lay.rc0
        ro0 = lay.ro0
        claimed = sh[DOM]
        road_info = lay.road_info
        out: list[tuple[int, int]] = []
        for r in range(lay.nr):
            info = road_info[r]
            if sh[rc0 + r] >= info[3]:
                continue
            d = sh[ro0 + r]
            if d:
                out.append(_ROAD_DIRS[r][d])
                continue
            a = info[1]
            b = info[2]
            if a >= 0 and claimed >> a & 1:
                out.append(_ROAD_DIRS[r][1])
            if b >= 0 and claimed >> b & 1:
                out.append(_ROAD_DIRS[r][2])
        return out

    def _mark_road(self, seat: int, r: int, d: int, n: int, why: str) -> None:
        """Mark ``n`` pips (at most to the Road's end) on Road ``r`` from direction ``d``."""
        sh = self.sheets[seat]
        lay = self.lay
        length = lay.road_len[r]
        have = sh[lay.rc0 + r]
        k = min(n, length - have)
        if k <= 0:
            return
        before = self._score_before(seat)
        sh[lay.ro0 + r] = d
        sh[lay.rc0 + r] = have + k
        vb = sh[VBRIDGE]
        rewards: list[Reward]
        if vb:  # solo Washed-Out Bridge: a voided Bridge's Gold is a plain pip
            pips = lay.road_pips[r][d]
            rewards = []
            for i in range(have, have + k):
                code = pips[i]
                if code:
                    pos = i if d == 1 else length - 1 - i
                    bi = lay.pip_bridge[r].get(pos, -1)
                    if bi >= 0 and vb >> bi & 1:
                        code = PLAIN
                if code:
                    rewards.append(code)
        else:
            rewards = list(lay.road_rewards[r][d][have][k])
        quiet = self.quiet
        if not quiet:
            text = f"{_NAME[seat]} ({why}){_ROAD_MARKS[lay.season][r][d][k]}"
            data = {"road": lay.road_ids[r], "from": _ends(lay, r, d)[0], "pips": k}
        if have + k == length:
            far = lay.road_b[r] if d == 1 else lay.road_a[r]
            if far >= 0:
                if not (sh[DOM] >> far & 1):
                    sh[DOM] |= 1 << far
                    sh[ACC] |= lay.dom_trail[far]
                    if sh[VDOM] >> far & 1:
                        if not quiet:
                            text += (f" and claims Domain {lay.dom_ids[far]} {lay.dom_names[far]}"
                                     " (voided: no power, no point)")
                    else:
                        if lay.dom_power[far][0] == "instant_citizen":
                            rewards.append((T_CITIZEN, lay.instant_guild[far]))
                        if not quiet:
                            text += (f" and claims Domain {lay.dom_ids[far]} {lay.dom_names[far]}"
                                     f" ({power_text(lay, far)})")
                    if not quiet:
                        data["claims"] = lay.dom_ids[far]
                        if lay.dom_trail[far]:
                            text += "; its Trailhead opens " + ", ".join(
                                lay.lair_ids[li] for li in range(len(lay.lair_ids)) if lay.dom_trail[far] >> li & 1)
                elif not quiet:
                    text += f", reaching {lay.dom_ids[far]} (already claimed)"
            elif far == -2 and not quiet:
                text += f", reaching the dead end {_ends(lay, r, d)[1]}"
        if not quiet:
            self.emit("mark", seat, text + _rewards_note(rewards) + ".", data,
                      effects=[fx.count(KEYS[lay.season][seat].road[r], k, have + k), *self._scored(seat, before)])
        if rewards:
            self.then(*_reward_tasks(seat, rewards))

    # ------------------------------------------------------------ Statues
    def _take_statue(self, seat: int, kind: int, refill: bool) -> None:
        line = list(self.line)
        place = 0
        for place, c in enumerate(line):
            if CARD_KIND[c] == kind:
                del line[place]
                break
        self.line = tuple(line)
        sh = self.sheets[seat]
        before = self._score_before(seat)
        sh[STAT] |= 1 << kind
        sh[NSTAT] += 1
        if not self.quiet:
            self.emit("statue", seat, f"{_NAME[seat]} takes Statue {kind + 1}: {STATUES[kind].effect}",
                      {"statue": kind + 1},
                      effects=[fx.take(statue_key(seat, kind + 1), f"draft-{place}", f"p-{seat}-statues", seat),
                               *self._scored(seat, before)])
        if refill:
            self._refill()
        code = STATUE_INSTANT[kind]
        if code:
            self.then(*[(REWARD_KIND[code], seat, 0)] * STATUE_TIMES[kind])

    def _refill(self) -> None:
        if len(self.line) >= DRAFT_LINE or not self.deck:
            return
        deck = list(self.deck)
        line = list(self.line)
        new = []
        while len(line) < DRAFT_LINE and deck:
            c = deck.pop()
            line.append(c)
            new.append(c)
        self.line = tuple(line)
        self.deck = tuple(deck)
        if not self.quiet:
            first = len(line) - len(new)
            effects = [fx.reveal(f"draft-{first + j}", "draft") for j in range(len(new))]
            effects.append(fx.count("statue-deck", -len(new), len(deck)))
            self.emit("refill", None, "The draft line is refilled with " + ", ".join(
                f"Statue {CARD_KIND[c] + 1}" for c in new) + ".", {"new": [CARD_ID[c] for c in new]},
                effects=effects)
