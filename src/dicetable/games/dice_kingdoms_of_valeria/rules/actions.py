"""Dice Kingdoms of Valeria Action Phase: the Recruit, Slay and Build menu and carrying it out.

Rulebook: Dice Actions, Domain Powers and Important Manipulation Rules. The
menu lists every target the chosen die can reach with the unused Domain
powers and the optional Blue die (see ``dicemath``); its parts are memoised
by dice and powers because they recur millions of times in simulations.
"""

from __future__ import annotations

from typing import Final

from dicetable.engine import Action, auto, choices, counted, Decision, prompt, resolve
from dicetable.engine.flow import Task

from ..layout import Layout, LAYOUTS
from ..sheet import ACC, CIT, DOM, GUILDS, LB0, VDOM
from ..dicemath import build_reach, reach
from .rewards import RewardMixin
from .tables import PASS, _NAME, _ends, _reward_note


# The menu's parts are small classes, not tuples: the compiled build reads one attribute of a
# native class where a tuple's items are each type-checked and unboxed at every read of the tuple
# (docs/compiled.md, "Dice Kingdoms' compiled decisions: the running score").


class RecruitTarget:
    """A Citizen section the Yellow die reaches: ``section`` (0-9) and its Recruit ``action``."""

    def __init__(self, section: int, action: Action) -> None:
        self.section = section
        self.action = action


class SlayTarget:
    """A Range Block the Red die reaches: its ``lair`` and ``block``, ``by_pip`` (its Slay Actions by
    the block's next pip, each made when first offered), ``how`` (how the die makes it, the label's
    end) and the Actions' ``payload`` (``("red", block, value)``)."""

    def __init__(self, lair: int, block: int, by_pip: list[Action | None], how: str,
                 payload: tuple[str, int, int]) -> None:
        self.lair = lair
        self.block = block
        self.by_pip = by_pip
        self.how = how
        self.payload = payload


class Builds:
    """The Build Actions on one Road from one direction with some pips open (see :func:`_builds`):
    the ``longest`` and the ``shorter`` ones, longest first."""

    def __init__(self, longest: Action, shorter: tuple[Action, ...]) -> None:
        self.longest = longest
        self.shorter = shorter


#: (Recruit targets, Slay targets, Build ``how`` texts, their index in ``_MenuTables.hows``): see
#: ``ActionMixin._menu_parts``.
MenuParts = tuple[tuple[RecruitTarget, ...], tuple[SlayTarget, ...], tuple[str, ...], int]
#: A die's key for ``reach``: (die, its +1/-1, its Flip, Blue, Blue's +1/-1, Blue's Flip, Any, Blue allowed).
ReachKey = tuple[int, bool, bool, int, bool, bool, bool, bool]

#: How many die indices there are (see :func:`menu_indices`): 24 die parts times 96 Blue parts.
MENU_KEYS: Final = 24 * 96

def _build_slot(width: int, r: int, dr: int, left: int) -> int:
    """The index of (road ``r``, direction ``dr``, ``left`` pips open) in a :attr:`_MenuTables.builds` list."""
    return (r * 3 + dr) * width + left


def _cheapest(vals: dict, values) -> int:
    """The value among ``values`` (ascending) that ``vals`` (see ``reach``) makes with the fewest
    powers, the lowest on ties; 0 if none is reachable."""
    best, best_uses = 0, 99
    for v in values:
        made = vals.get(v)
        if made is not None and made[0] < best_uses:
            best, best_uses = v, made[0]
    return best


def power_bits(lay: Layout, claimed: int) -> int:
    """The Domain powers a seat can use, as 9 bits: bit ``i`` set when ``claimed`` (a mask of claimed,
    not voided Domains) holds a Domain of ``lay.power_masks[i]`` (Yellow +1/-1, Yellow Flip, Red +1/-1,
    Red Flip, Green +1/-1, Green Flip, Blue +1/-1, Blue Flip, +1/-1 Any)."""
    bits = 0
    masks = lay.power_masks
    for i in range(len(masks)):
        if claimed & masks[i]:
            bits |= 1 << i
    return bits


def menu_indices(bits: int, dice: tuple[int, ...], no_blue: bool) -> tuple[int, int, int]:
    """The Yellow, Red and Green dice's indices (0 to ``MENU_KEYS - 1``) into the menu tables.

    ``bits``: :func:`power_bits`; ``dice``: (black, black, Yellow, Red, Green, Blue); ``no_blue``:
    Heavy Rain. An index is ``96 * die part + Blue part``: the die part ``4 * (face - 1)`` plus the
    die's +1/-1 and 2 for its Flip, the Blue part ``2 * (8 * (Blue face - 1) + Blue's powers)`` plus 1
    when Blue may be used (Blue's powers: 1 for +1/-1, 2 for Flip, 4 for Any). Plain int arithmetic,
    so the compiled build works it out natively (no tuple key to build and hash).
    :func:`reach_key` turns an index back into the arguments of ``dicemath.reach``.
    """
    blue = 2 * (8 * dice[5] - 8 + (bits >> 6)) + (0 if no_blue else 1)
    return (96 * (4 * dice[2] - 4 + (bits & 3)) + blue, 96 * (4 * dice[3] - 4 + (bits >> 2 & 3)) + blue,
            96 * (4 * dice[4] - 4 + (bits >> 4 & 3)) + blue)


def reach_key(index: int) -> ReachKey:
    """The ``dicemath.reach`` arguments after the colour of a die index (see :func:`menu_indices`):
    (die, its +1/-1, its Flip, Blue, Blue's +1/-1, Blue's Flip, Any, Blue allowed)."""
    die, blue = divmod(index, 96)
    own = blue >> 1
    return (die // 4 + 1, bool(die & 1), bool(die & 2), own // 8 + 1, bool(own & 1), bool(own & 2),
            bool(own & 4), bool(blue & 1))


class _MenuTables:
    """One season's Action-menu parts by die index (:func:`menu_indices`), each made when first met
    and then kept for the process: Recruit targets, Slay targets and Build ``how`` texts, plus the
    :func:`power_bits` of every mask of claimed Domains. A list read by an int (native in the
    compiled build) where a memo by a tuple key cost a tuple, its hash and a dict look-up.

    The Build ``how`` texts are kept once per different tuple of texts (``hows``; 569 of them for
    the 2,304 Green die indices), ``how_at[g]`` their index for the Green die's index ``g`` (-1 until
    met). ``builds[h]``: the Build Actions for the texts ``hows[h]`` by (road, direction, pips left)
    at :func:`_build_slot` (``width`` pips-left values a Road can have), made when first asked for:
    the die indices with the same texts share them (the Actions are the same), so a Road's Builds
    are made about a quarter as often as by die index, and at most 569 such lists are kept.
    """

    def __init__(self, lay: Layout) -> None:
        # power_bits of every mask, each from the mask without its lowest Domain (a few ms at import)
        single = [power_bits(lay, 1 << d) for d in range(len(lay.dom_ids))]
        bits = [0] * (1 << len(lay.dom_ids))
        for claimed in range(1, len(bits)):
            low = claimed & -claimed
            bits[claimed] = bits[claimed ^ low] | single[low.bit_length() - 1]
        self.bits: tuple[int, ...] = tuple(bits)
        self.recruit: list[tuple[RecruitTarget, ...] | None] = [None] * MENU_KEYS
        self.slay: list[tuple[SlayTarget, ...] | None] = [None] * MENU_KEYS
        self.how_at: list[int] = [-1] * MENU_KEYS
        self.hows: list[tuple[str, ...]] = []
        self.how_index: dict[tuple[str, ...], int] = {}
        self.width: int = max(lay.road_len) + 1
        self.size: int = lay.nr * 3 * self.width
        self.builds: list[list[Builds | None]] = []

    def add_how(self, g: int) -> int:
        """The index in ``hows`` of the Green die's index ``g``'s Build texts, worked out (and the texts
        kept, with an empty list of Builds, when no other index had them); kept as ``how_at[g]``."""
        how = _build_how(reach_key(g))
        h = self.how_index.get(how)
        if h is None:
            h = self.how_index[how] = len(self.hows)
            self.hows.append(how)
            self.builds.append([None] * self.size)
        self.how_at[g] = h
        return h


#: The Recruit and Slay targets already made, by (season, section or Range Block, value, how the die
#: makes it): die indices that reach a section or block the same way share one target (and the Slay
#: Actions it makes when first offered): 1,644 Recruit and 1,123 Slay targets over both seasons, where
#: the 2,304 die indices of a season made 12,057 Recruit targets.
_RECRUITS: Final[dict[tuple[str, int, int, str], RecruitTarget]] = {}
_SLAYS: Final[dict[tuple[str, int, int, str], SlayTarget]] = {}


def _recruit_targets(season: str, key: ReachKey) -> tuple[RecruitTarget, ...]:
    """(section, Action) for each Citizen section the Yellow die (+Blue, powers) reaches.

    ``key``: see :func:`reach_key` (2,304 keys a season; kept in :class:`_MenuTables`).
    """
    lay = LAYOUTS[season]
    vals = reach("yellow", *key)
    out = []
    for s in range(10):
        v = _cheapest(vals, lay.cit_values[s])
        if v:
            how = vals[v][1]
            target = _RECRUITS.get((season, s, v, how))
            if target is None:
                name = lay.cit_names[s]
                target = _RECRUITS[(season, s, v, how)] = RecruitTarget(s, Action(
                    f"yellow:{name}", f"Recruit: mark the {name} Citizen ({GUILDS[lay.cit_guild[s]]}) with {how}",
                    ("yellow", s, v)))
            out.append(target)
    return tuple(out)


def _slay_targets(season: str, key: ReachKey) -> tuple[SlayTarget, ...]:
    """(lair, block, Actions by the block's next pip, how, payload) for each Range Block the Red die reaches."""
    lay = LAYOUTS[season]
    vals = reach("red", *key)
    out: list[SlayTarget] = []
    for li, blocks in enumerate(lay.lair_blocks):
        for bi in blocks:
            lo, hi = lay.block_range[bi]
            v = _cheapest(vals, range(lo, hi + 1))
            if not v:
                continue
            how = vals[v][1]
            target = _SLAYS.get((season, bi, v, how))
            if target is None:
                # Actions by the block's next pip, made when first offered (see ``_slay_action``).
                by_pip: list[Action | None] = [None] * lay.block_len[bi]
                target = _SLAYS[(season, bi, v, how)] = SlayTarget(li, bi, by_pip, f" with {how}, then 1 Gold",
                                                                   ("red", bi, v))
            out.append(target)
    return tuple(out)


def _slay_action(lay: Layout, target: SlayTarget, i: int) -> Action:
    """The Slay Action of ``target`` (from ``_slay_targets``) when its block's next pip is ``i``."""
    li = target.lair
    bi = target.block
    action = target.by_pip[i]
    if action is None:
        lo, hi = lay.block_range[bi]
        action = target.by_pip[i] = Action(
            f"red:{lay.lair_ids[li]}:{lo}-{hi}", f"Slay: {lay.lair_ids[li]} {lay.lair_names[li]}, Range Block "
            f"{lo}-{hi} (pip {i + 1}{_reward_note(lay.block_pips[bi][i])}){target.how}", target.payload)
    return action


def _build_how(key: ReachKey) -> tuple[str, ...]:
    """``how[k] + ")"``: how the Green die makes a Build of at least ``k`` pips (index 0 unused).

    ``len(result) - 1`` is the longest Build the die allows.
    """
    return tuple(h + ")" for h in build_reach("green", *key))


def _builds(lay: Layout, how: tuple[str, ...], r: int, dr: int, left: int) -> Builds:
    """(the longest Build, the shorter ones) on Road ``r`` from direction ``dr`` with ``left`` pips open."""
    parts = _BUILDS[lay.season][r][dr]
    new = tuple.__new__
    out = []
    for k in range(min(len(how) - 1, left), 0, -1):
        ident, pre, pre_reach, payload = parts[k]
        out.append(new(Action, (ident, (pre_reach if k == left else pre) + how[k], payload)))
    return Builds(out[0], tuple(out[1:]))


_BuildRow = tuple[str, str, str, tuple[str, tuple[int, int], int]]


def _build_table(lay: Layout) -> tuple:
    """Per Road and direction, per Build length ``k``: (id, label start, label start when the Build
    reaches the Road's end, payload); a label ends with ``_build_how(...)[k]``."""
    table = []
    for r in range(lay.nr):
        per_dir: list[tuple[_BuildRow | None, ...] | None] = [None, None, None]
        for dr in (1, 2):
            origin, dest = _ends(lay, r, dr)
            rows: list[_BuildRow | None] = [None]
            for k in range(1, lay.road_len[r] + 1):
                start = f"Build: {counted(k, 'pip')} on Road {lay.road_ids[r]} from {origin}"
                rows.append((f"green:{lay.road_ids[r]}@{origin}:{k}", start + " (with ",
                             start + f", reaching {dest} (with ", ("green", (r, dr), k)))
            per_dir[dr] = tuple(rows)
        table.append(tuple(per_dir))
    return tuple(table)


_BUILDS: Final = {s: _build_table(lay) for s, lay in LAYOUTS.items()}

#: Per season, its :class:`_MenuTables`.
_MENUS: Final = {s: _MenuTables(lay) for s, lay in LAYOUTS.items()}


class ActionMixin(RewardMixin):
    """Action Phase task handlers and the action menu. Methods of :class:`DiceKingdomsState`."""

    __slots__ = ()

    # ------------------------------------------------------------ the Action phase
    def _menu_parts(self, seat: int) -> MenuParts:
        """(Recruit targets, Slay targets, Build ``how`` texts, their index in ``_MenuTables.hows``)
        for the dice and ``seat``'s powers.

        Read from the season's :class:`_MenuTables` by :func:`menu_indices`; see
        :func:`_recruit_targets`, :func:`_slay_targets` and :func:`_build_how`.
        """
        lay = self.lay
        sh = self.sheets[seat]
        tables = _MENUS[lay.season]
        y, r, g = menu_indices(tables.bits[sh[DOM] & ~sh[VDOM]], self.dice, self.no_blue)
        recruit = tables.recruit[y]
        if recruit is None:
            recruit = tables.recruit[y] = _recruit_targets(lay.season, reach_key(y))
        slay = tables.slay[r]
        if slay is None:
            slay = tables.slay[r] = _slay_targets(lay.season, reach_key(r))
        h = tables.how_at[g]
        if h < 0:
            h = tables.add_how(g)
        return recruit, slay, tables.hows[h], h

    def _has_action(self, seat: int) -> bool:
        """True when ``seat`` has some Recruit, Slay or Build (the menu is not just PASS).

        A usable Road always allows a Build of 1 pip, so the menu is only built when there is none.
        A begun, unfinished Road is usable (the start Roads are begun at set-up): they are looked at first.
        """
        sh = self.sheets[seat]
        lay = self.lay
        rc0 = lay.rc0
        ro0 = lay.ro0
        road_len = lay.road_len
        for r in lay.start_roads:
            if sh[ro0 + r] and sh[rc0 + r] < road_len[r]:
                return True
        if self._usable_roads(sh):
            return True
        return self._action_choices(seat)[0] is not PASS

    def _action_choices(self, seat: int) -> tuple[Action, ...]:
        """Every Recruit, Slay and Build the Active Player can take (rulebook: Dice Actions).

        Computed when first asked for (``legal_actions``), then kept until the next ``apply``.
        """
        if self.menu is not None:
            return self.menu
        lay = self.lay
        sh = self.sheets[seat]
        recruit, slay, how, h = self._menu_parts(seat)
        out = [target.action for target in recruit if sh[CIT + target.section] < 2]
        if slay:
            acc = sh[ACC]
            block_len = lay.block_len
            for slain in slay:
                if acc >> slain.lair & 1:
                    b = slain.block
                    i = sh[LB0 + b]
                    if i < block_len[b]:
                        out.append(slain.by_pip[i] or _slay_action(lay, slain, i))
        roads = self._usable_roads(sh)
        if roads:
            rc0 = lay.rc0
            road_len = lay.road_len
            shorter: list[Action] = []
            tables = _MENUS[lay.season]
            width = tables.width
            rows = tables.builds[h]
            for r, dr in roads:
                left = road_len[r] - sh[rc0 + r]
                slot = _build_slot(width, r, dr, left)
                builds = rows[slot]
                if builds is None:
                    builds = rows[slot] = _builds(lay, how, r, dr, left)
                out.append(builds.longest)
                if builds.shorter:
                    shorter += builds.shorter
            out.extend(shorter)  # the longest Build on each Road first, then the shorter ones
        self.menu = menu = tuple(out) if out else (PASS,)  # a tuple: handed out as it is
        return menu

    @auto("action")
    def _action_phase(self, task: Task) -> None:
        """Action Phase: the Active Player chooses a die (``act``), unless no action can mark a pip."""
        seat = task[1]
        self.menu = None  # a menu left from another seat's Action phase is not this one's
        if self._has_action(seat):
            self.then(("act", seat), ("end-action", seat))  # the menu is built when legal_actions asks
            return
        self.emit("no-action", seat, f"{_NAME[seat]} has no action that can mark a pip.")
        self.acted = True
        self.then(("end-action", seat))  # a task, not a call: turns follow one another in the run loop

    @prompt("act")
    def _act_prompt(self, task: Task) -> Decision:
        y, r, g, b = self.dice[2:]
        blue = " (Heavy Rain: the Blue die may not be used)" if self.no_blue else f", Blue {b}"
        return Decision(
            task[1], "action",
            f"Action phase: choose the Yellow (Recruit), Red (Slay) or Green (Build) die - "
            f"Yellow {y}, Red {r}, Green {g}{blue}.",
            "Yellow: mark a pip in the Citizen section matching the die (or die + Blue). "
            "Red: mark the leftmost pip of the matching Range Block in a lair, then gain 1 Gold. "
            "Green: mark up to that many pips on one Road, stopping at a Domain or dead end. "
            "Your Domain powers (each once, no wrap-around, flip = 7 - x) are applied as listed.")

    @choices("act")
    def _act_choices(self, task: Task) -> tuple[Action, ...]:
        return self._action_choices(task[1])

    @resolve("act")
    def _take_action(self, task: Task, action: Action) -> None:
        """Carry out a Recruit, Slay or Build (rulebook: Dice Actions)."""
        seat = task[1]
        self.acted = True
        self.menu = None
        if action is PASS or action.payload is None:
            self.emit("no-action", seat, f"{_NAME[seat]} takes no action.")
            return
        colour, target, value = action.payload
        if colour == "yellow":
            if not self.quiet:
                self.emit("action", seat, f"{_NAME[seat]} takes the Recruit action: {action.label[9:]}.",
                          {"die": "yellow", "value": value})
            self._mark_citizen(seat, target, "Recruit action")
        elif colour == "red":
            if not self.quiet:
                self.emit("action", seat, f"{_NAME[seat]} takes the Slay action: {action.label[6:]}.",
                          {"die": "red", "value": value})
            self.then(("gold", seat, 0))  # the Slay action's Gold, after the pip's chain
            self._mark_block(seat, target, "Slay action")
        else:
            r, dr = target
            if not self.quiet:
                self.emit("action", seat, f"{_NAME[seat]} takes the Build action: {action.label[7:]}.",
                          {"die": "green", "pips": value})
            self._mark_road(seat, r, dr, value, "Build action")
