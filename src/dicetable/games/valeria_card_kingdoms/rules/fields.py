"""Valeria: Card Kingdoms state fields and the queries every phase reads.

:class:`ValeriaFields` declares every field of the game state once (annotated attributes and
an ``OWN_FIELDS`` table of the engine's :class:`~dicetable.engine.Field`, which save and
restore follow; clone is written out in :meth:`ValeriaFields._copy_into`), with the read-only
queries on them (positions, the Rest token, scoring). The phase classes extend one another in
one chain of single inheritance, so that each is a native class in the compiled build: ``end``
on the fields, then ``powers``, ``actions``, ``harvest`` and ``roll``, which ``ValeriaState``
(``rules/__init__.py``) extends; each sees every field with its type. The steps one phase
calls in another are declared at the end of the class (stubs the phase classes override).
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from dicetable.engine import (
    LIST, Action, Field, FlowState, GameState, ScoreLine, ScoreSheet, TieMeasure, declare, int_list, int_tuple,
    outcome_text, seat_name,
)
from dicetable.engine import effects as fx

from ..components import CIT_DISPLAY, DOM_NAME, MON_NAME, slug
from .consts import (
    AREAS, CIT_NAME, C_DOMAINS, C_NAME, C_ROLE, DOM_VP, DUKE_NAME, MON_AREA, MON_VP, N_CIT, RULES, SLOT_TYPES,
)
from .tables import (
    CIT0, DOM0, MAX_SEATS, NAME_TYPES, NT, N_MON_POS, N_POS, P_DUKES, P_HARVEST, P_HARVEST2, P_OVER, ROLE_TYPES, duke_score,
)

#: The board's keys (``board.py``) of a player's tokens, by resource index (Gold, Strength, Magic, VP tokens).
RES_KEY: Final = ("gold", "strength", "magic", "vp")
#: Card keys on the board: a Citizen or Starter (by type), a Monster, a Domain, as the tableau names them.
CIT_KEY: Final = tuple(slug(n) for n in CIT_DISPLAY)
CIT_CAPTURED_KEY: Final = tuple(slug(n) for n in CIT_NAME)
MON_KEY: Final = tuple(slug(n) for n in MON_NAME)
DOM_KEY: Final = tuple(slug(n) for n in DOM_NAME)


def _stack_key(p: int) -> str:
    return f"m-{p}" if p < CIT0 else f"c-{p - CIT0}" if p < DOM0 else f"d-{p - DOM0}"


#: The board keys an event's effects name, made once: every logged event names some, and an
#: f-string per key was a share of the event's cost (docs/compiled.md, "(2026-12-06, night)").
STACK_KEYS: Final[tuple[str, ...]] = tuple(_stack_key(p) for p in range(N_POS))
STACK_TOP_KEYS: Final[tuple[str, ...]] = tuple(f"{k}-top" for k in STACK_KEYS)
#: ``p-<seat>-<resource>`` at ``seat * 4 + resource`` (Gold, Strength, Magic, VP tokens).
RES_KEYS: Final[tuple[str, ...]] = tuple(f"p-{s}-{r}" for s in range(MAX_SEATS) for r in RES_KEY)
SCORE_KEYS: Final[tuple[str, ...]] = tuple(f"p-{s}-score" for s in range(MAX_SEATS))
VICTORY_KEYS: Final[tuple[str, ...]] = tuple(f"p-{s}-victory" for s in range(MAX_SEATS))
CITS_KEYS: Final[tuple[str, ...]] = tuple(f"p-{s}-cits" for s in range(MAX_SEATS))
DOMS_KEYS: Final[tuple[str, ...]] = tuple(f"p-{s}-doms" for s in range(MAX_SEATS))
#: A seat's card in its tableau: ``p-<seat>-mon-<Monster>`` at ``seat * len(MON_KEY) + Monster``, and
#: the same for Domains (``p-<seat>-dom-<Domain>``).
MON_CARD_KEYS: Final[tuple[str, ...]] = tuple(f"p-{s}-mon-{k}" for s in range(MAX_SEATS) for k in MON_KEY)
DOM_CARD_KEYS: Final[tuple[str, ...]] = tuple(f"p-{s}-dom-{k}" for s in range(MAX_SEATS) for k in DOM_KEY)
N_MON_KEYS: Final = len(MON_KEY)
N_DOM_KEYS: Final = len(DOM_KEY)


def stack_key(p: int) -> str:
    """The board key of Center Stack position ``p``: ``m-<i>``, ``c-<i>`` or ``d-<i>``."""
    return STACK_KEYS[p]


HarvestSteal = tuple[int, int, int, int, int]
"""One steal between players in a Harvest: ``(thief, victim, resource, amount, source)``
(resource 0-2 Gold, Strength, Magic; source as ``src_name``)."""


def _tuples(value: Any) -> list[tuple[int, ...]]:
    """A saved list of lists of ints as a list of tuples."""
    return [tuple(int(x) for x in row) for row in value]


def _tuple_rows(value: Any) -> tuple[tuple[int, ...], ...]:
    """A saved list of lists of ints as a tuple of tuples."""
    return tuple(tuple(int(x) for x in row) for row in value)


def _steals(value: Any) -> tuple[HarvestSteal, ...]:
    """Saved steals (lists of five ints, see :data:`HarvestSteal`) as a tuple of tuples."""
    return tuple((int(t), int(v), int(r), int(k), int(s)) for t, v, r, k, s in value)


def _rows_out(value: Any) -> list[list[int]]:
    return [list(row) for row in value]


class ValeriaFields(FlowState):
    """The fields of a Valeria: Card Kingdoms game (all plain data) and the queries on them.

    Seats are 0-based; a seat's resources are ``res[4 * seat:4 * seat + 4]``. Center Stack
    positions: 0-4 Monsters, 5-14 Citizens in slot order, 15-19 Domains (``CIT0``, ``DOM0``).
    """

    phase: int
    """The phase (``P_DUKES`` ... ``P_OVER``, ``PHASE_NAME``)."""
    active: int
    """The Active player's seat."""
    first: int
    """The first player's seat (R3.16); the round ends with the seat to its right (R8.1)."""
    turn: int
    """Turns started so far (1 in the first turn)."""
    dice: tuple[int, ...]
    """The two dice of the current Roll Phase (after any changes); ``()`` before the first roll."""
    res: list[int]
    """4 ints per seat: Gold, Strength, Magic, VP tokens."""
    own: list[int]
    """``NT`` counts per seat: Citizen types, then the Starters."""
    doms: list[tuple[int, ...]]
    """Per seat, the Domains built (indices), in the order built."""
    victory: list[tuple[int, ...]]
    """Per seat, the Monsters in its Victory stack (indices)."""
    stacks: list[tuple[int, ...]]
    """The 20 Center Stacks, each a tuple of card indices, bottom first, top last."""
    exhausted: int
    """A bitmask of the positions holding an Exhausted card (R7.1)."""
    cit_down: list[int]
    """Per Citizen stack, its face-down cards at the bottom (Mixed stacks, R13)."""
    dom_box: tuple[int, ...]
    """The Domains left in the box at set-up (face down, R3.10)."""
    cit_box: tuple[tuple[int, ...], ...]
    """Per Citizen stack, the Mixed-stack cards left in the box (R13)."""
    dukes: list[int]
    """Per seat, the Duke kept (secret until the end), -1 before the choice (R3.14)."""
    offers: list[tuple[int, ...]]
    """Per seat, the two Dukes dealt (secret)."""
    dark_lord: int
    """Solo: the Dark Lord's Duke (face down until the end), -1 otherwise (R12.2)."""
    cap_cit: tuple[int, ...]
    """Solo: the Citizen types the Dark Lord captured (R12.12)."""
    cap_dom: tuple[int, ...]
    """Solo: the Domains the Dark Lord captured (R12.11)."""
    roll_used: int
    """A bitmask of the Domains whose die change was used this Roll Phase (R5.5)."""
    hbase: tuple[int, ...]
    """``res`` at the start of the current Harvest."""
    payouts: tuple[tuple[int, ...], ...]
    """The last Harvest that ended: per seat the net change (Gold, Strength, Magic, VP)."""
    result: str
    """``""`` while the game runs; then ``"end"``, or solo ``"win"``/``"loss"``."""
    areas: tuple[int, ...]
    """The Monster Area of each Monster stack, left to right (indices into ``AREAS``)."""
    cit_types: tuple[int, ...]
    """The Citizen type of each Citizen stack (one-type stacks)."""
    hsteals: tuple[HarvestSteal, ...]
    """The current Harvest's steals between players so far."""
    steals: tuple[HarvestSteal, ...]
    """The steals of the last Harvest that ended."""
    last: tuple[int, ...]
    """The last card that left the Center Stacks: ``(seat or -1 for the Dark Lord, LAST_* move,
    position, card index)``, or ``()``, so the views can mark the last move."""

    OWN_FIELDS: ClassVar[tuple[Field[Any], ...]] = declare(
        phase=Field(int),
        active=Field(int),
        first=Field(int),
        turn=Field(int),
        dice=Field(int_tuple),
        res=Field(int_list, copy=LIST),
        own=Field(int_list, copy=LIST),
        doms=Field(_tuples, copy=LIST, encode=_rows_out),
        victory=Field(_tuples, copy=LIST, encode=_rows_out),
        stacks=Field(_tuples, copy=LIST, encode=_rows_out),
        exhausted=Field(int),
        cit_down=Field(int_list, copy=LIST),
        dom_box=Field(int_tuple),
        cit_box=Field(_tuple_rows, encode=_rows_out),
        dukes=Field(int_list, copy=LIST),
        offers=Field(_tuples, copy=LIST, encode=_rows_out),
        dark_lord=Field(int),
        cap_cit=Field(int_tuple),
        cap_dom=Field(int_tuple),
        roll_used=Field(int),
        hbase=Field(int_tuple),
        payouts=Field(_tuple_rows, encode=_rows_out),
        result=Field(str),
        areas=Field(int_tuple),
        cit_types=Field(int_tuple),
        hsteals=Field(_steals, encode=_rows_out),
        steals=Field(_steals, encode=_rows_out),
        last=Field(int_tuple),
    )

    def _copy_into(self, other: GameState) -> None:
        """Every declared field (FlowState's and these) into ``other`` (``clone``), written out:
        the bots' look-ahead clones for every candidate, and direct copies cost a fraction of the
        engine's loop over its plan (tests/engine/test_flow.py checks no field is missed or shared)."""
        assert isinstance(other, ValeriaFields)
        other.tasks = self.tasks.copy()
        lanes = self.lanes
        other.lanes = None if lanes is None else [lane.copy() for lane in lanes]
        other.phase = self.phase
        other.active = self.active
        other.first = self.first
        other.turn = self.turn
        other.dice = self.dice
        other.res = self.res.copy()
        other.own = self.own.copy()
        other.doms = self.doms.copy()
        other.victory = self.victory.copy()
        other.stacks = self.stacks.copy()
        other.exhausted = self.exhausted
        other.cit_down = self.cit_down.copy()
        other.dom_box = self.dom_box
        other.cit_box = self.cit_box
        other.dukes = self.dukes.copy()
        other.offers = self.offers.copy()
        other.dark_lord = self.dark_lord
        other.cap_cit = self.cap_cit
        other.cap_dom = self.cap_dom
        other.roll_used = self.roll_used
        other.hbase = self.hbase
        other.payouts = self.payouts
        other.result = self.result
        other.areas = self.areas
        other.cit_types = self.cit_types
        other.hsteals = self.hsteals
        other.steals = self.steals
        other.last = self.last

    # ------------------------------------------------------------ queries
    @property
    def solo(self) -> bool:
        """True in the solo game (R12)."""
        return self.players == 1

    def _cit_stack_name(self, p: int) -> str:
        types = SLOT_TYPES[p]
        if self.options["citizens"] == "mixed" and len(types) > 1:
            return "/".join(CIT_NAME[t] for t in types)
        return CIT_NAME[self.cit_types[p]]

    def position_name(self, p: int) -> str:
        """Words for a Center Stack position (0-4 Monsters, 5-14 Citizens, 15-19 Domains)."""
        if p < CIT0:
            return f"{AREAS[self.areas[p]]} Monster"
        if p < DOM0:
            return f"{self._cit_stack_name(p - CIT0)} Citizen"
        return f"Domain {p - DOM0 + 1}"

    def exhausted_count(self) -> int:
        """Center Stack positions holding an Exhausted card (R7.2)."""
        return self.exhausted.bit_count()

    @property
    def resting(self) -> int:
        """The seat holding the Rest token (5 players: right of the Active player, R11.5); else -1."""
        if self.players == 5 and self.phase != P_DUKES:
            return (self.active - 1) % 5
        return -1

    @property
    def payouts_resting(self) -> int:
        """The seat that rested in the Harvest whose ``payouts`` are kept (5 players), else -1.

        From a roll until that turn's Harvest ends, ``payouts`` are still the previous turn's,
        whose Active player sat to the right of this one: then not ``resting`` but the seat to
        its right rested.
        """
        if self.players != 5 or not self.payouts:
            return -1
        pending = any(t[0] == "harvest-end" for t in self.tasks)
        return (self.active - (2 if pending else 1)) % 5

    def count(self, seat: int, kind: int, arg: int) -> int:
        """A count for ``per`` steps at resolution time (R5.14): Role, name, Domains, Monster Area."""
        own = self.own
        base = seat * NT
        if kind == C_ROLE:
            return sum(own[base + t] for t in ROLE_TYPES[arg])
        if kind == C_NAME:
            return sum(own[base + t] for t in NAME_TYPES[arg])
        if kind == C_DOMAINS:
            return len(self.doms[seat])
        n = 0
        for m in self.victory[seat]:
            if MON_AREA[m] == arg:
                n += 1
        return n

    # ------------------------------------------------------------ scoring (R8.4-R8.6, R12.18)
    def cards_vp(self, seat: int) -> int:
        """VP of the seat's slain Monsters and built Domains (R8.4 1-2)."""
        return sum(MON_VP[m] for m in self.victory[seat]) + sum(DOM_VP[d] for d in self.doms[seat])

    def public_vp(self, seat: int) -> int:
        """VP everyone can see: slain Monsters, built Domains and VP tokens (R8.4 1-3)."""
        return self.cards_vp(seat) + self.res[seat * 4 + 3]

    def duke_vp(self, seat: int, duke: int | None = None) -> int:
        """VP the seat's Duke (or ``duke``) scores now (R8.4 4, R8.5)."""
        duke = self.dukes[seat] if duke is None else duke
        if duke < 0:
            return 0
        b = seat * 4
        res = self.res
        citizens = [self.own[seat * NT + t] for t in range(N_CIT)]
        return duke_score(duke, res[b], res[b + 1], res[b + 2], citizens, self.doms[seat], self.victory[seat])

    def score(self, seat: int) -> int:
        """The seat's total: public VP plus its Duke (R8.4)."""
        return self.public_vp(seat) + self.duke_vp(seat)

    @property
    def scores(self) -> list[int]:
        """Final totals once over (Dukes included); before the end only the public VP,
        since Dukes stay secret until the game ends (R3.15)."""
        if self.phase == P_OVER:
            return [self.score(s) for s in range(self.players)]
        return [self.public_vp(s) for s in range(self.players)]

    def _visible_scores(self, seat: int | None) -> list[int]:
        """VP per seat as ``seat`` may count them (R8.4; None: a spectator): everyone's public VP,
        plus ``seat``'s own Duke, which only it has seen (R3.15)."""
        return [self.public_vp(s) + (self.duke_vp(s) if s == seat else 0) for s in range(self.players)]

    def dark_lord_score(self) -> int:
        """Solo: surviving Monster VP + captured Domain VP + the Dark Lord Duke on them (R12.18)."""
        if self.dark_lord < 0:
            return 0
        survivors = [m for p in range(N_MON_POS) for m in self.stacks[p]]
        citizens = [0] * N_CIT
        for t in self.cap_cit:
            citizens[t] += 1
        vp = sum(MON_VP[m] for m in survivors) + sum(DOM_VP[d] for d in self.cap_dom)
        return vp + duke_score(self.dark_lord, 0, 0, 0, citizens, self.cap_dom, survivors)

    def tableau_size(self, seat: int) -> int:
        """Cards in the seat's tableau: Starters, Citizens, Domains, slain Monsters (R8.6)."""
        return sum(self.own[seat * NT:(seat + 1) * NT]) + len(self.doms[seat]) + len(self.victory[seat])

    @property
    def winners(self) -> tuple[int, ...]:
        """Highest total, then fewest tableau cards, still tied: shared (R8.6, A8). Solo: (0,) on a win."""
        if self.phase != P_OVER:
            return ()
        if self.solo:
            return (0,) if self.result == "win" else ()
        keys = [(self.score(s), -self.tableau_size(s)) for s in range(self.players)]
        best = max(keys)
        return tuple(s for s, k in enumerate(keys) if k == best)

    def score_sheet(self) -> ScoreSheet:
        """The score table (rules R8.4-R8.6, rulebook: the End Phase; solo R12.16-R12.19).

        R8.4's four parts: the VP on slain Monsters, on built Domains, VP
        tokens and the Duke's VP. Ties: the fewest cards in the tableau
        (R8.6); a tie beyond that is shared. Solo: the Dark Lord has a line
        of surviving Monsters, captured Domains and his Duke (R12.18), and the
        outcome names how the game ended (R12.16, R12.19).
        """
        measures = (TieMeasure("cards in the tableau", False),)
        winners = self.winners
        lines = []
        for s in range(self.players):
            res = self.res[s * 4 + 3]
            points = (sum(MON_VP[m] for m in self.victory[s]), sum(DOM_VP[d] for d in self.doms[s]), res,
                      self.duke_vp(s))
            lines.append(ScoreLine(seat_name(s), s, points, self.score(s), (self.tableau_size(s),), s in winners))
        source = "rules R8.4-R8.6 (rulebook: the End Phase)"
        if not self.solo:
            return ScoreSheet(("Monsters", "Domains", "VP tokens", "Duke"), tuple(lines),
                              outcome_text(lines, measures, "rule R8.6: the fewest cards in the tableau"),
                              source, measures)
        monsters = sum(MON_VP[m] for p in range(N_MON_POS) for m in self.stacks[p])
        domains = sum(DOM_VP[d] for d in self.cap_dom)
        total = self.dark_lord_score()
        lord = "the Dark Lord" + (f" ({DUKE_NAME[self.dark_lord]})" if self.dark_lord >= 0 else "")
        lines.append(ScoreLine(lord, None, (monsters, domains, 0, total - monsters - domains), total, (None,),
                               self.phase == P_OVER and not winners))
        me = lines[0]
        if self.phase != P_OVER:
            outcome = "The game is not over."
        elif not any(self.stacks[p] for p in range(N_MON_POS)):
            outcome = f"Every Monster has been slain: {me.name} wins whatever the scores (R12.16a)."
        elif self.exhausted_count() < RULES.solo_exhausted_end and self.result == "loss":
            outcome = "A Monster attacked a column with no card left: the Dark Lord wins whatever the scores (R12.16b)."
        elif winners:
            outcome = f"{me.name} scores {me.total}, more than the Dark Lord's {total}: {me.name} wins (R12.19)."
        else:
            tie = " a tie is a loss, so" if me.total == total else ""
            outcome = f"{me.name} scores {me.total}, the Dark Lord {total}:{tie} the Dark Lord wins (R12.19)."
        return ScoreSheet(("Monsters", "Domains", "VP tokens", "Duke"), tuple(lines), outcome,
                          source + "; solo R12.17-R12.18", measures)

    # ------------------------------------------------------------ effects (engine.effects; keys of board.py)
    def res_effects(self, seat: int, deltas: tuple[int, ...], harvest: bool = False) -> list[dict[str, Any]]:
        """``count`` effects of ``seat``'s tokens changed by ``deltas`` (Gold, Strength, Magic, VP tokens),
        with their new values; VP tokens also change the score (``score_effects``).

        In a Harvest the tokens are counted once, by the Harvest summary (``harvest=True``), so
        the events of its choices and trades carry none. ``deltas`` is a tuple (3 or 4 ints), which
        the compiled build indexes natively.
        """
        if not harvest and self.phase in (P_HARVEST, P_HARVEST2):
            return []
        b = seat * 4
        res = self.res
        out = []
        for r in range(len(deltas)):
            d = deltas[r]
            if d:
                out.append(fx.count(RES_KEYS[b + r], d, res[b + r]))
        if len(deltas) > 3 and deltas[3]:
            out += self.score_effects(seat, deltas[3])
        return out

    def score_effects(self, seat: int, delta: int) -> list[dict[str, Any]]:
        """The seat's public VP (its score on the board, ``p-<s>-score``) changed by ``delta``."""
        if not delta:
            return []
        value = self.score(seat) if self.phase == P_OVER else self.public_vp(seat)
        return [fx.score(seat, delta), fx.count(SCORE_KEYS[seat], delta, value)]

    def citizen_effects(self, seat: int, p: int, ct: int) -> list[dict[str, Any]]:
        """A Citizen of type ``ct`` about to be taken from Center Stack ``p`` into ``seat``'s tableau
        (``seat`` -1: captured by the Dark Lord); in a Mixed stack the card below turns face up (R13)."""
        i = p - CIT0
        if seat < 0:
            out = [fx.take(f"dl-cit-{CIT_CAPTURED_KEY[ct]}", STACK_KEYS[p], "dark-lord", None)]
        else:
            out = [fx.take(f"p-{seat}-cit-{CIT_KEY[ct]}", STACK_KEYS[p], CITS_KEYS[seat], seat)]
        n = len(self.stacks[p])
        if n >= 2 and self.cit_down[i] >= n - 1:
            out.append(fx.reveal(STACK_TOP_KEYS[p], STACK_KEYS[p]))
        return out

    # ------------------------------------------------------------ declared for the phase classes
    # Steps written in one phase class that another calls, declared here so that each sees the
    # others' with their types, whatever its place in the chain; every phase class extends this
    # one, so these bodies never run. (Real methods, not a TYPE_CHECKING block: the compiled
    # build needs them declared.)
    def _start_turn(self, seat: int) -> None:  # roll.py
        raise NotImplementedError

    def _gain(self, seat: int, g: int, s: int, m: int, vp: int) -> None:  # powers.py
        raise NotImplementedError

    def _push_effect(self, seat: int, effect: tuple[int, ...], src: int) -> None:  # powers.py
        raise NotImplementedError

    def _trigger(self, seat: int, when: int) -> None:  # powers.py
        raise NotImplementedError

    def _slay_actions(self, seat: int, out: list[Action]) -> None:  # actions.py
        raise NotImplementedError

    def _take_top_citizen(self, p: int) -> int:  # actions.py
        raise NotImplementedError

    def _gain_citizen(self, seat: int, p: int) -> None:  # actions.py
        raise NotImplementedError

    def _place_exhausted(self) -> None:  # actions.py
        raise NotImplementedError

    def _solo_end_check(self) -> bool:  # end.py
        raise NotImplementedError
