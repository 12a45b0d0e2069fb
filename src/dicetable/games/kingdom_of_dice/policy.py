"""Kingdom of Dice evaluation for the bots: the greedy policy and a position score.

Greedy (documented in docs/bots.md): each set-aside decision is scored one
step ahead by the *expected result value* of the position it leads to, where
that expectation assumes the rest of the turn is played to maximise the
result's value. The table behind it is computed once by dynamic programming
over the dice set aside (924 multisets of up to six dice):

* ``S(kept)``: the value if the player stops now (0 if invalid);
* ``V(kept)``: the expected value of rolling the other ``6 - |kept|`` dice and
  then choosing the best non-empty set to keep and whether to stop;
* a set-aside that can no longer become valid is worth 0 (the turn ends).

Placement: greedy always places its marker (every marker on the board earns
a card at the round's end, so declining only ever wastes the turn).
"""

from __future__ import annotations

from typing import Final, Sequence

import json

from dicetable.engine import Action

from .components import FACE_ORDER
from .consts import SPACES, TOP_SPACE
from .rolls import roll_outcomes, sub_vectors
from .solo_round import round_endings
from .rules import (
    CAT, OVER, PLACE, CARD_VALUE, DICE, KingdomOfDiceState, counts_code, can_still_be_valid, claim_order,
    faces_text, free_space_at_or_below, result_value,
)

KEEP_IDS: Final = tuple(f"keep:{face}" for face in FACE_ORDER)


def greedy(state: KingdomOfDiceState, seat: int) -> Action:
    """The greedy bot's choice: the legal action with the highest one-step value (first on ties)."""
    if state.phase == PLACE:
        return state.legal_actions(seat)[0]
    kept, rolled, may_stop = state.kept, state.rolled, state.picked > 0
    kept_code, rolled_code = counts_code(kept), counts_code(rolled)
    if kept_code < 0 or rolled_code < 0:  # a count past 15: no code, worked out uncached
        best_id = _best_set_aside(tuple(kept), tuple(rolled), may_stop)
    else:
        key = (kept_code << 24 | rolled_code) << 1 | (1 if may_stop else 0)
        found = _BEST.get(key)
        if found is None:
            found = _BEST[key] = _best_set_aside(tuple(kept), tuple(rolled), may_stop)
        best_id = found
    for action in state.legal_actions(seat):
        if action.id == best_id:
            return action
    raise AssertionError(f"greedy chose {best_id!r}, not legal")  # pragma: no cover


#: the counts codes of (kept, rolled) and may_stop, as one int -> _best_set_aside's id, filled as
#: asked: greedy's one memo (search asks at every set-aside of a rollout; an lru_cache's key of two
#: tuples, built, hashed and compared each time, cost more than the look-up)
_BEST: Final[dict[int, str]] = {}


def _best_set_aside(kept: tuple, rolled: tuple, may_stop: bool) -> str:
    """Id of the best set-aside step for dice ``kept`` and ``rolled`` (``greedy`` memoises it in ``_BEST``)."""
    return RESULT_TABLE.choose(kept, rolled, may_stop)[0]


def _turn_outlook(state: KingdomOfDiceState) -> float:
    """The expected value of the result the player to move is building (0 when none)."""
    if state.phase == PLACE:
        return float(result_value(state.kept) or 0)
    if state.phase == OVER:
        return 0.0
    kept_code, rolled_code = counts_code(state.kept), counts_code(state.rolled)
    if kept_code < 0 or rolled_code < 0:
        return RESULT_TABLE.completion(tuple(state.kept), tuple(state.rolled))  # raises: not six dice
    return RESULT_TABLE.completion_code(kept_code, rolled_code)


def evaluate(state: KingdomOfDiceState, seat: int) -> float:
    """A score in [0, 1] for ``seat``: points won plus the cards its markers would take now.

    The player to move counts one more marker where the result it is
    building is expected to land (its expected value under the greedy
    table, on the highest free space at or below it), so positions inside a
    turn are judged by the card the turn is likely to win. 0.5 means level
    with the best opponent (the Cat in solo); each point of lead moves it by
    1/80 of the way to 1 (clamped).
    """
    points = [float(s) for s in state.scores]
    cat = float(state.cat_score)
    board = state.board
    outlook = _turn_outlook(state)
    if outlook >= SPACES[0]:
        space = free_space_at_or_below(board, int(outlook))
        if space >= 0:
            board = board[:]
            board[space] = state.current
    for i, card in zip(claim_order(board), state.market):
        owner = board[i]
        if owner == CAT:
            cat += CARD_VALUE[card]
        else:
            points[owner] += CARD_VALUE[card]
    others = [p for s, p in enumerate(points) if s != seat]
    if state.players == 1:
        others = [cat]
    lead = points[seat] - max(others)
    return min(1.0, max(0.0, 0.5 + lead / 80.0))


def throws_turn_away(state: KingdomOfDiceState, seat: int, action_id: str) -> str | None:
    """Why ``action_id`` would end ``seat``'s turn with no Crown marker (a sentence), or None.

    Rulebook, "Checking the result": a result is valid only with a crown, a
    number, 2s in twos or more, 3s in threes, 4s in fours and one 5 at most,
    and its Crown marker needs a free space at or below its value. A ``stop``
    with a result that fails either test ends the turn with no marker placed, and so
    does setting aside a die after which no roll can make the result valid (a second
    5, a 4 with too few dice left for three more) or the last die of a result that fails them.
    Front ends ask before such a choice when another would not (``GameSpec.confirm_warnings``)
    and show it when it is the only one. Reads only what the seat can see; None outside the
    seat's turn or while it places a marker."""
    if state.phase == PLACE or seat != state.current:
        return None
    return _throws_turn_away(state, action_id)


def _throws_turn_away(state: KingdomOfDiceState, action_id: str) -> str | None:
    """Why ``action_id`` (``stop`` or ``keep:<face>``) would end the turn with no Crown marker, or None."""
    if action_id in KEEP_IDS:
        after = list(state.kept)
        after[KEEP_IDS.index(action_id)] += 1
        left = sum(state.rolled) - 1
        if left > 0:
            if can_still_be_valid(after, left):
                return None
            return (f"Setting aside this die scores nothing: no roll can make {faces_text(after)} a valid "
                    "result (it needs a crown and a number; 2s in twos, 3s in threes, 4s in fours, one 5 at most).")
        doing = "Setting aside the last die"
    elif action_id == "stop":
        after = list(state.kept)
        doing = "Stopping now"
    else:
        return None
    value = result_value(after)
    if value is None:
        return (f"{doing} scores nothing: {faces_text(after)} is not a valid result (it needs a crown and a "
                "number; 2s in twos, 3s in threes, 4s in fours, one 5 at most).")
    if free_space_at_or_below(state.board, value) < 0:
        return f"{doing} scores nothing: no space at or below {value} is free for a Crown marker."
    return None


# ---------------------------------------------------------------- the turn's dynamic programme
#
# Greedy maximises the expected *result value* (``RESULT_TABLE``); what a turn is worth to the
# search's planner is the card its Crown marker will take, which depends on the board (a result
# lands on the highest free space at or below it, and cards go to the markers from the highest
# space down) and on what failing costs (a turn without a marker). One dynamic programme serves
# both: ``_TurnTable(outcomes)`` solves the rest of the turn exactly for given values of the
# ways the turn can end: ``outcomes[0]`` the value of ending the turn without a marker (an invalid
# result, no free space, or a decline) and ``outcomes[r]`` (r = 1..TOP_SPACE) that of a result
# worth ``r`` (or more, for r = TOP_SPACE), already the better of placing and declining.

_PLANS: Final[dict[tuple, "_TurnTable"]] = {}


# The programme keys its memos by counts codes (``rules.counts_code``: 4 bits a face) rather than
# count tuples: setting dice aside adds their code to the kept dice's code (a face never holds more
# than the six dice), and a memo's key is then one int. Compiled, the walk is native int work (a tuple
# built by ``zip`` and hashed at every step was most of its time); the values are the same floats,
# added in the same order (``roll_outcomes``' order of the rolls).


def _code_counts(code: int) -> list[int]:
    """The six counts by face of the counts code ``code`` (``rules.counts_code``'s inverse)."""
    return [code & 15, code >> 4 & 15, code >> 8 & 15, code >> 12 & 15, code >> 16 & 15, code >> 20 & 15]


def _code_dice(code: int) -> int:
    """How many dice the counts code ``code`` holds."""
    return (code & 15) + (code >> 4 & 15) + (code >> 8 & 15) + (code >> 12 & 15) + (code >> 16 & 15) + (code >> 20 & 15)


def _tuple_code(counts: tuple) -> int:
    """The counts code of a 6-tuple of counts by face; ValueError past the programme's six dice."""
    code = counts_code(list(counts))
    if code < 0 or sum(counts) > DICE:
        raise ValueError(f"the turn programme covers {DICE} dice, not {counts}")
    return code


#: rolled counts code -> every way to set aside some of those dice, each as ``sub code << 3 | its
#: dice`` in ``sub_vectors``' order (the empty set first); filled as asked
_SUBS: Final[dict[int, list[int]]] = {}


def _subs(code: int) -> list[int]:
    """The ways to set aside some of the dice of counts code ``code`` (see :data:`_SUBS`)."""
    found = _SUBS.get(code)
    if found is None:
        found = _SUBS[code] = [counts_code(list(sub)) << 3 | sum(sub)
                               for sub in sub_vectors(tuple(_code_counts(code)))]
    return found


#: dice -> every roll of that many dice as (probability, its non-empty set-asides from :func:`_subs`),
#: in ``roll_outcomes``' order; filled as asked
_ROLLS: Final[dict[int, list[tuple[float, list[int]]]]] = {}


def _rolls(n: int) -> list[tuple[float, list[int]]]:
    """The rolls of ``n`` dice for :meth:`_TurnTable.continue_` (see :data:`_ROLLS`)."""
    found = _ROLLS.get(n)
    if found is None:
        found = _ROLLS[n] = [(p, _subs(counts_code(list(roll)))[1:]) for roll, p in roll_outcomes(n)]
    return found


class _TurnTable:
    """The set-aside DP for one table of end-of-turn values (see the notes above).

    ``kept`` and ``rolled`` are 6-tuples of counts by face (``FACE_ORDER``), together at most
    the turn's six dice (ValueError otherwise); the memos hold counts codes (notes above).
    """

    def __init__(self, outcomes: tuple) -> None:
        self.outcomes = outcomes
        self.fail: float = outcomes[0]
        self.pos: dict[int, float] = {}   # by kept code << 3 | dice left
        self.cont: dict[int, float] = {}  # by kept code
        self.best: dict[int, float] = {}  # by kept code << 24 | rolled code

    def stop(self, kept: Sequence[int]) -> float:
        """The value of stopping with ``kept`` set aside: its result's outcome, or failing."""
        v = result_value(kept)
        fail = self.fail
        return fail if v is None else max(fail, self.outcomes[min(v, TOP_SPACE)])

    def position(self, kept: tuple, left: int) -> float:
        """The value of ``kept`` set aside with ``left`` dice still to roll, played on at best."""
        return self.position_code(_tuple_code(kept), left)

    def position_code(self, code: int, left: int) -> float:
        """:meth:`position` of the kept dice's counts code ``code``."""
        key = code << 3 | left
        got = self.pos.get(key)
        if got is None:
            kept = _code_counts(code)
            if not can_still_be_valid(kept, left):
                got = self.fail
            elif left == 0:
                got = self.stop(kept)
            else:
                got = max(self.stop(kept), self.continue_code(code))
            self.pos[key] = got
        return got

    def continue_(self, kept: tuple) -> float:
        """The expected value of rolling the dice not in ``kept``, then playing on at best."""
        return self.continue_code(_tuple_code(kept))

    def continue_code(self, code: int) -> float:
        """:meth:`continue_` of the kept dice's counts code ``code``."""
        got = self.cont.get(code)
        if got is None:
            left = DICE - _code_dice(code)
            got = 0.0
            for p, subs in _rolls(left):
                best = -1e9
                for sub in subs:
                    w = self.position_code(code + (sub >> 3), left - (sub & 7))
                    if w > best:
                        best = w
                got += p * best
            self.cont[code] = got
        return got

    def completion(self, kept: tuple, rolled: tuple) -> float:
        """The value of setting aside the best part (none included) of ``rolled`` next to ``kept``."""
        return self.completion_code(_tuple_code(kept), _tuple_code(rolled))

    def completion_code(self, kept: int, rolled: int) -> float:
        """:meth:`completion` of the counts codes ``kept`` and ``rolled``."""
        key = kept << 24 | rolled
        got = self.best.get(key)
        if got is None:
            left = _code_dice(rolled)
            got = -1e9
            for sub in _subs(rolled):
                w = self.position_code(kept + (sub >> 3), left - (sub & 7))
                if w > got:
                    got = w
            self.best[key] = got
        return got

    def choose(self, kept: tuple, rolled: tuple, may_stop: bool) -> tuple[str, float]:
        """(id, value) of the best set-aside step; greedy's order breaks ties (first best)."""
        kept_code, rolled_code = _tuple_code(kept), _tuple_code(rolled)
        if _code_dice(kept_code) + _code_dice(rolled_code) > DICE:
            raise ValueError(f"the turn programme covers {DICE} dice, not {kept} and {rolled}")
        best_id, best_value = "", -1e9
        for i in range(6):
            if rolled_code >> 4 * i & 15:
                one = 1 << 4 * i
                value = self.completion_code(kept_code + one, rolled_code - one)
                if value > best_value + 1e-12:
                    best_id, best_value = KEEP_IDS[i], value
        if may_stop:
            for aid, value in (("reroll", self.continue_code(kept_code)), ("stop", self.stop(kept))):
                if value > best_value + 1e-12:
                    best_id, best_value = aid, value
        return best_id, best_value


#: Greedy's table: a turn's ending is worth its result's value (no marker: 0), so the DP
#: maximises the expected result value, ``S``, ``V`` and ``W`` of the module notes.
RESULT_TABLE: Final = _TurnTable(tuple(float(r) for r in range(TOP_SPACE + 1)))


def _turn_table(outcomes: tuple) -> _TurnTable:
    table = _PLANS.get(outcomes)
    if table is None:
        if len(_PLANS) > 16:
            _PLANS.clear()
        table = _PLANS[outcomes] = _TurnTable(outcomes)
    return table


def _points_lead(state: KingdomOfDiceState, seat: int) -> float:
    """Points won so far: solo the seat's own, else its lead over the other seats' mean (at 2
    players the lead over the other; at 4 players, 40 games each on seeds 11 and 12, hard won
    27 of 80 against greedy with the mean and 23 of 80 with the lead over the best other)."""
    points = state.scores
    if state.players == 1:
        return float(points[0])
    return float(points[seat] - (sum(points) - points[seat]) / (len(points) - 1))


def turn_key(state: KingdomOfDiceState, seat: int) -> str:
    """What :func:`turn_outcomes` depends on, as text: ``seat``'s observation without the turn's
    dice (roll, kept dice, result, target space, phase). Two decisions of one turn with the same
    key have the same outcomes, so a planner computes them once a turn."""
    obs = state.observation(seat)
    return json.dumps({k: v for k, v in obs.items()
                       if k not in ("roll", "kept", "picked_since_roll", "result_value", "target_space", "phase")},
                      sort_keys=True, default=str)


def turn_outcomes(state: KingdomOfDiceState, seat: int, value, seeds: tuple = (1, 2, 3, 4, 5, 6, 7, 8),
                  to_round_end: bool = True) -> tuple:
    """The value to ``seat`` of each way its turn can end, for :func:`plan_turn`.

    ``state`` is ``seat``'s turn (set-aside or place phase); ``value(st)`` scores a position
    for ``seat`` (e.g. a search's leaf evaluator). Each ending is played on copies determinized
    for ``seat`` with ``seeds`` (the draw pile and the dice after the turn: the mean over them),
    with ``to_round_end`` played on by the greedy policy to the end of the round (the markers
    still to come decide which card each space takes), then scored (``value`` None: the points
    won, solo the seat's own, else its lead over the other seats' mean; the cards a round hands
    out are all a marker earns):
    no marker (rulebook step 3: invalid, no free space, or declined), or a Crown marker on
    each free space. Returns a tuple of ``TOP_SPACE + 1`` floats: index 0 no marker, index
    ``r`` a result worth ``r`` (``TOP_SPACE``: or more) placed where the rulebook puts it
    (no marker when no space at or below ``r`` is free). ValueError when it is not ``seat``'s
    decision in its turn.

    Solo with ``value`` None nothing is sampled: the round's cards are face up and its rest
    depends only on the player's dice, so :func:`~.solo_round.round_endings` solves it (the
    points at the round's end under the best play of its later turns; ``seeds`` unused).
    """
    top = state.tasks[-1] if state.tasks else ("over",)
    if top[0] not in (PLACE, "set-aside") or top[1] != seat:
        raise ValueError(f"it is not seat {seat}'s turn to set dice aside or place")
    solo = state.players == 1
    if solo and value is None:   # solo the round's rest is solved, not sampled (solo_round.py)
        return round_endings(state, seat)
    bases = [state.determinize(seat, s) for s in seeds]

    def ending(space: int) -> float:
        total = 0.0
        for base in bases:
            st = base.clone()
            st.tasks = st.tasks[:-1] + [(PLACE, seat, max(space, 0))]
            aid = "place" if space >= 0 else "decline"
            # the round this turn is in, read before the step: read after it, an ending that ends
            # the round was played on through the whole next round (solo that added the next
            # round's points, ~28, to such endings only; with rivals it added a round's lead)
            round_no = st.round_no
            st.step(next(a for a in st.legal_actions(seat) if a.id == aid), seat)
            if to_round_end:
                while not st.is_over and st.round_no == round_no:
                    mover = st.to_move[0]
                    st.step(greedy(st, mover), mover)
            total += value(st) if value is not None else _points_lead(st, seat)
        return total / len(bases)

    fail = ending(-1)
    by_key: dict[int, float] = {}
    out = [fail]
    board = state.board
    for r in range(1, TOP_SPACE + 1):
        space = free_space_at_or_below(board, r)
        if space < 0:
            out.append(fail)
            continue
        # solo the cards go by rank and only the Cat's markers rank against the seat's, so a
        # marker's card depends only on how many Cat markers are above it: one ending per gap
        key = sum(1 for i in range(space + 1, len(board)) if board[i] == CAT) if solo else space
        if key not in by_key:
            by_key[key] = ending(space)
        out.append(by_key[key])
    return tuple(out)


def plan_turn(state: KingdomOfDiceState, seat: int, outcomes: tuple,
              deadline: float | None = None) -> tuple[Action, float]:
    """The action maximising the expected end-of-turn value ``outcomes`` (:func:`turn_outcomes`),
    and that expectation: an exact expectimax over the turn's remaining dice (rulebook: How to
    Play, steps 1-4). At the place step: place when worth at least as much as declining.
    ``deadline`` (the planner protocol's decision cap) cuts nothing here: the one table over the
    924 sets of dice is built whole (80-130 ms for a turn's first decision) and reused for the turn."""
    legal = state.legal_actions(seat)
    if state.phase == PLACE:
        result = result_value(state.kept) or 0
        place = outcomes[min(result, TOP_SPACE)]
        pick = "place" if place >= outcomes[0] else "decline"
        return next(a for a in legal if a.id == pick), max(place, outcomes[0])
    aid, expected = _turn_table(outcomes).choose(tuple(state.kept), tuple(state.rolled), state.picked > 0)
    return next(a for a in legal if a.id == aid), expected
