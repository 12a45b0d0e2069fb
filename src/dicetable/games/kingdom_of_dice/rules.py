"""Kingdom of Dice rules (rulebook: How to Play, End of a Round, Solo Mode).

The game is a stack of tasks on the engine's turn flow
(:mod:`dicetable.engine.flow`):

* ``("round-start", first)`` (automatic): Round Setup, then ``first``'s turn
  starts. Every turn starts with a roll of all six dice, as soon as the
  previous turn ends (rolling is not a choice);
* ``("set-aside", seat)`` (a decision): the player sets dice aside one at a
  time (``keep:<face>``); once at least one die has been set aside since the
  last roll they may also ``reroll`` the rest or ``stop``. Setting dice aside
  one by one reaches every choice the rulebook allows (any non-empty set of
  the rolled dice) with a handful of actions per step;
* ``("place", seat, space_index)`` (a decision): when no dice are left or the
  player stops, a valid result with a free space at or below its value may
  place a Crown marker there, or be declined (rulebook step 4);
* ``("round-end", ender)`` (automatic): the Influence cards go to the markers
  from the highest space down (:func:`claim_order`), then the next round
  starts left of ``ender``, or the game ends.

Decisions where the rulebook is silent, each tested:

* A turn ends as soon as the dice set aside can no longer form a valid
  result whatever the remaining dice show (the rulebook's Example 2, where
  two 5s are set aside, generalised: e.g. two 4s with one die left).
* Solo: every turn uses one Crown marker (placed, or set aside when the
  result is invalid or declined), so a round lasts at most five turns, as the
  rulebook's "after 5 turns, once you have used all your markers" implies.
* Solo: the player wins only by beating the Cat after the usual tie-breaks;
  a complete tie is not a win.
* The first player of round 1 is seat 0 (the rulebook lets the table choose).
* Collected Influence cards are kept face down, but every player saw them
  handed out, so observations show them (perfect recall).
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from typing import Any, ClassVar, Final, Sequence

from dicetable.engine import (
    LIST, ROWS, Action, Decision, Die, Field, FlowState, GameState, auto, choices, counted, declare, int_list, prompt,
    resolve, seat_name,
)
from dicetable.engine import ScoreLine, ScoreSheet, TieMeasure, outcome_text
from dicetable.engine import effects as fx

from .components import COMPONENTS
from .consts import (
    CARDS, CARD_INDEX, CARD_NAME, CARD_VALUE, CAT_LEVELS, FACE_INDEX, FACE_ORDER, KINGDOM_DIE, REGULAR_CARDS,
    SPACES, SPECIAL_BY_ROUND,
)

EMPTY: Final = -1
CAT: Final = -2
SET_ASIDE: Final = "set-aside"
PLACE: Final = "place"
OVER: Final = "over"
ROUND_START: Final = "round-start"
ROUND_END: Final = "round-end"

DICE: Final = COMPONENTS.dice.count
MARKERS: Final = COMPONENTS.markers.per_player
ROUNDS: Final = COMPONENTS.round.rounds
CARDS_DRAWN: Final = COMPONENTS.round.cards_drawn
MARKERS_TO_END: Final = COMPONENTS.round.markers_to_end

_FACE_WORD: Final = {"crown": "crown", 1: "1", 2: "2", 3: "3", 4: "4", 5: "5"}
_KEEP_ACTIONS: Final = tuple(
    Action(f"keep:{face}", f"Set aside a {_FACE_WORD[face]}", i) for i, face in enumerate(FACE_ORDER)
)
#: The effects of a set-aside event by seat (1-4 players) and face index, made once and shared by every
#: such event (as Corsairs' rolls share their faces' names): an event's data is never changed once
#: emitted, and a playout spares three objects (a list and two dicts) at its commonest step.
_KEEP_EFFECTS: Final[tuple[tuple[list[dict[str, Any]], ...], ...]] = tuple(
    tuple([fx.set_aside("dice-kept", (face,), seat)] for face in FACE_ORDER) for seat in range(4))
# The set-aside event's text by seat (1-4 players) and face: the step a playout takes most, written once
_KEEP_TEXT: Final = tuple(tuple(f"{seat_name(seat)} sets aside a {_FACE_WORD[face]}." for face in FACE_ORDER)
                          for seat in range(4))
#: The Kingdom die with each face written as its index in FACE_ORDER: rolled in its place (no script),
#: it draws the same faces in the same order, read without the FACE_INDEX look-up
_INDEX_DIE: Final = Die(KINGDOM_DIE.name, tuple(FACE_INDEX[face] for face in KINGDOM_DIE.faces))
_REROLL: Final = Action("reroll", "Reroll the remaining dice")
_STOP: Final = Action("stop", "Stop rolling and check the result")
_DECLINE: Final = Action("decline", "Decline: place no Crown marker this turn")
# The place step's actions, one pair per target space (built once: a playout asks at every result)
_PLACE_ACTIONS: Final = tuple((Action("place", f"Place a Crown marker on space {space}"), _DECLINE) for space in SPACES)


def result_value(kept) -> int | None:
    """Value of a set-aside result, or None when it is invalid (rulebook step 2-3).

    ``kept`` is a 6-list of counts indexed like ``FACE_ORDER`` (crown, 1..5).
    Valid: at least one crown and one number; any number of 1s; 2s only if at
    least two, 3s at least three, 4s at least four; at most one 5. The value
    is the sum of the numbers times the number of crowns.
    """
    crowns = kept[0]
    if crowns == 0:
        return None
    numbers = kept[1] + kept[2] + kept[3] + kept[4] + kept[5]
    if numbers == 0:
        return None
    if (0 < kept[2] < 2) or (0 < kept[3] < 3) or (0 < kept[4] < 4) or kept[5] > 1:
        return None
    return (kept[1] + 2 * kept[2] + 3 * kept[3] + 4 * kept[4] + 5 * kept[5]) * crowns


def counts_code(counts: list[int]) -> int:
    """The six counts by face as one int, 4 bits each: the key of the caches below (no tuple to
    build and hash); -1 for a count outside 0-15, which the callers then work out uncached.

    ``counts`` is a list at every caller (the state's ``kept`` and ``rolled`` are): compiled, each
    read is then a native list read, where a ``Sequence`` was a generic subscript and an unbox."""
    a, b, c, d, e, f = counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]
    if not 0 <= (a | b | c | d | e | f) < 16:
        return -1
    return a | b << 4 | c << 8 | d << 12 | e << 16 | f << 20


def can_still_be_valid(kept: list[int], dice_left: int) -> bool:
    """True if some faces on the ``dice_left`` dice not yet set aside could make ``kept`` (a 6-list of
    counts by face) valid (rulebook step 2).

    The fewest more dice that could: a crown if there is none, a number if there is none, and the
    2s, 3s and 4s short of their minimum; two 5s can never be valid. Worked out at each call (a
    playout asks at every set-aside): a handful of native int operations in the compiled build,
    where a memo keyed by the counts was a dict look-up by a boxed int.
    """
    if kept[5] > 1:
        return False
    two, three, four = kept[2], kept[3], kept[4]
    need = 0 if kept[0] else 1
    if 0 < two < 2:
        need += 2 - two
    if 0 < three < 3:
        need += 3 - three
    if 0 < four < 4:
        need += 4 - four
    if kept[1] + two + three + four + kept[5] == 0:
        need += 1
    return need <= dice_left


def counts_index(counts: list[int]) -> int:
    """The six counts by face as one int below ``7 ** 6`` (base 7), or -1 unless every count is 0 or
    more and they add up to at most six (the game's dice): the index of :data:`_SHOWN`.

    A list read by a small int: compiled, a native read, where a dict keyed by :func:`counts_code`
    (up to 2 ** 24) boxed the key, hashed it and probed the table at every roll."""
    a, b, c, d, e, f = counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]
    if (a | b | c | d | e | f) < 0 or a + b + c + d + e + f > DICE:
        return -1
    return a + 7 * (b + 7 * (c + 7 * (d + 7 * (e + 7 * f))))


class _Shown:
    """What a set of dice shows, made once per set by :func:`_shown` and shared by every event of it.

    ``faces`` (crowns first, numbers rising) as a tuple and as ``faces_list`` (the list an event's
    data holds), ``text`` (:func:`faces_text`), and by seat 1-4 the text of a roll event that
    rolled them (``roll_texts``) and its effects: ``reroll_effects`` (the dice land) and
    ``turn_effects`` (a turn's first roll: the turn begins, then the dice land). An event's data
    is never changed once emitted, so these are shared (as Corsairs' rolls share their faces'
    names): a playout spares four to five objects a roll.
    """

    __slots__ = ("faces", "faces_list", "text", "roll_texts", "reroll_effects", "turn_effects")

    faces: tuple[Any, ...]
    faces_list: list[Any]
    text: str
    roll_texts: tuple[str, ...]
    reroll_effects: tuple[list[dict[str, Any]], ...]
    turn_effects: tuple[list[dict[str, Any]], ...]

    def __init__(self, counts: tuple[int, ...]) -> None:
        self.faces = _faces_tuple(counts)
        self.faces_list = list(self.faces)
        self.text = _faces_text(counts)
        self.roll_texts = tuple(f"{seat_name(seat)} rolls {self.text}." for seat in range(4))
        lands = [fx.roll("dice-roll", self.faces, seat) for seat in range(4)]
        self.reroll_effects = tuple([effect] for effect in lands)
        self.turn_effects = tuple([fx.turn(seat), effect] for seat, effect in enumerate(lands))


#: counts_index -> _Shown of those counts, filled as asked
_SHOWN: Final[list[_Shown | None]] = [None] * 7 ** 6


def _shown(counts: list[int]) -> _Shown:
    """What dice of ``counts`` (a 6-list by face) show (:class:`_Shown`)."""
    i = counts_index(counts)
    shown = _SHOWN[i] if i >= 0 else None
    if shown is None:
        shown = _Shown(tuple(counts))
        if i >= 0:  # more dice than the game has are worked out uncached
            _SHOWN[i] = shown
    return shown


def faces_text(counts: list[int]) -> str:
    """``[1, 0, 2, 0, 0, 0]`` -> ``"crown, 2, 2"`` (crowns first, then numbers rising)."""
    return _shown(counts).text


@lru_cache(maxsize=None)
def _faces_text(counts: tuple) -> str:
    parts = []
    for i, face in enumerate(FACE_ORDER):
        parts.extend([_FACE_WORD[face]] * counts[i])
    return ", ".join(parts) if parts else "nothing"


def face_counts(faces) -> list:
    """Dice faces (``["crown", 2, 2]``) as the 6-list of counts by face the rules use (crown, 1..5)."""
    counts = [0] * 6
    for face in faces:
        counts[FACE_INDEX[face]] += 1
    return counts


def _counts_to_faces(counts: list[int]) -> list:
    return list(_shown(counts).faces)


def _faces_tuple(counts: tuple) -> tuple:
    out = []
    for i, face in enumerate(FACE_ORDER):
        out.extend([face] * counts[i])
    return tuple(out)


def free_space_at_or_below(board: Sequence, value: int, empty: Any = EMPTY) -> int:
    """Index into ``SPACES`` of the space a result worth ``value`` takes, or -1 (rulebook step 3).

    That is the space showing ``value`` if free, else the next lower free
    one. ``board`` lists the owner of each space (indexed like ``SPACES``);
    a free space holds ``empty`` (``EMPTY`` on the state's board, None on
    :func:`.viewdata.observed_board`).
    """
    i = bisect_right(SPACES, value) - 1
    while i >= 0 and board[i] != empty:
        i -= 1
    return i


def claim_order(board: Sequence, empty: Any = EMPTY) -> list[int]:
    """Indices into ``SPACES`` of the occupied spaces, highest first (rulebook: End of a Round).

    At a round's end the marker on the highest space takes the best
    Influence card of the round, the next marker the next card, and so on
    (``market`` is kept best first), so ``zip(claim_order(board), market)``
    pairs each claiming space with its card; cards left over leave the game.
    ``board`` and ``empty`` as for :func:`free_space_at_or_below`.
    """
    return [i for i in range(len(board) - 1, -1, -1) if board[i] != empty]


def _rank_key(cards) -> tuple:
    """Ranking key of a hand of cards: total points, then the values from the highest down."""
    values = sorted((CARD_VALUE[c] for c in cards), reverse=True)
    return (sum(values), *values)


def _market_order(card: int) -> tuple[int, str]:
    """Sort key of the market: highest value first, then by card id."""
    return (-CARD_VALUE[card], CARDS[card].id)


def _ordinal(i: int) -> str:
    """"" for the 0th place, else "2nd ", "3rd ", "4th "... (the tie-break's card order)."""
    if i == 0:
        return ""
    n = i + 1
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix} "


_CARD_ID: Final = tuple(c.id for c in CARDS)


def _cards_in(value) -> list[int]:
    return [CARD_INDEX[c] for c in value]


def _cards_out(value) -> list[str]:
    return [_CARD_ID[c] for c in value]


def _card_rows_in(value) -> list[list[int]]:
    return [[CARD_INDEX[c] for c in row] for row in value]


def _card_rows_out(value) -> list[list[str]]:
    return [[_CARD_ID[c] for c in row] for row in value]


class KingdomOfDiceState(FlowState):
    """A game of Kingdom of Dice for 2-4 players, or solo against the Mischievous Cat.

    ``board[i]`` holds who occupies ``SPACES[i]`` (a seat, ``CAT`` or
    ``EMPTY``); ``rolled`` and ``kept`` count the dice by face (indexed like
    ``FACE_ORDER``: crown, 1..5); ``market`` lists this round's Influence
    cards, highest first. The turn is a stack of tasks (see the module notes):
    ``("round-start", first)``, ``("set-aside", seat)``,
    ``("place", seat, space_index)`` and ``("round-end", ender)``.
    """

    round_no: int
    first: int                  # the round's first player
    current: int                # the seat taking its turn
    rolled: list[int]           # dice showing, by face
    kept: list[int]             # dice set aside this turn, by face
    picked: int                 # dice set aside since the last roll
    board: list[int]            # owner of each space
    placed: list[int]           # Crown markers on the board, per seat
    spent: int                  # solo: markers set aside this round
    market: list[int]           # this round's Influence cards (indexes into CARDS), highest first
    deck: list[int]             # the regular cards not yet drawn
    won: list[list[int]]        # the cards each seat has claimed
    cat_won: list[int]          # solo: the cards the Cat has claimed

    OWN_FIELDS: ClassVar[tuple[Field[Any], ...]] = declare(
        round_no=Field(int, save="round"),
        first=Field(int),
        current=Field(int),
        rolled=Field(int_list, copy=LIST, save="roll"),
        kept=Field(int_list, copy=LIST),
        picked=Field(int),
        board=Field(int_list, copy=LIST),
        placed=Field(int_list, copy=LIST),
        spent=Field(int),
        market=Field(_cards_in, copy=LIST, encode=_cards_out),
        deck=Field(_cards_in, copy=LIST, encode=_cards_out),
        won=Field(_card_rows_in, copy=ROWS, encode=_card_rows_out),
        cat_won=Field(_cards_in, copy=LIST, encode=_cards_out),
    )

    def _copy_into(self, other: GameState) -> None:
        """Every field of OWN_FIELDS and FlowState's into ``other`` (``clone``), written out: search
        clones on every iteration, and direct attribute copies cost a fraction of the engine's
        loop over its plan (tests/engine/test_flow.py checks no field is missed or shared)."""
        assert isinstance(other, KingdomOfDiceState)
        other.tasks = self.tasks.copy()
        lanes = self.lanes
        other.lanes = None if lanes is None else [lane.copy() for lane in lanes]
        other.round_no = self.round_no
        other.first = self.first
        other.current = self.current
        other.rolled = self.rolled.copy()
        other.kept = self.kept.copy()
        other.picked = self.picked
        other.board = self.board.copy()
        other.placed = self.placed.copy()
        other.spent = self.spent
        other.market = self.market.copy()
        other.deck = self.deck.copy()
        other.won = [row.copy() for row in self.won]
        other.cat_won = self.cat_won.copy()

    # ------------------------------------------------------------ set-up
    def _setup(self) -> None:
        n = self.players
        self.board = [EMPTY] * len(SPACES)
        self.placed = [0] * n
        self.spent = 0
        self.won = [[] for _ in range(n)]
        self.cat_won = []
        self.deck = list(REGULAR_CARDS)
        self.shuffle(self.deck)
        self.round_no = 0
        self.rolled = [0] * 6
        self.kept = [0] * 6
        self.picked = 0
        self.market = []
        self.first = 0
        self.current = 0
        self.tasks = []
        self.lanes = None
        if n == 1:
            level = self.options["cat_level"]
            for space in CAT_LEVELS[level]:
                self.board[SPACES.index(space)] = CAT
            self.emit("cat", None, f"The Mischievous Cat (level {level}) takes spaces "
                      + ", ".join(map(str, CAT_LEVELS[level])) + ".", {"level": level})
        self.then((ROUND_START, 0))
        self.run()

    def _after_restore(self) -> None:
        if len(self.board) != len(SPACES) or len(self.rolled) != 6 or len(self.kept) != 6:
            raise ValueError("board, roll or kept has the wrong length")
        if len(self.placed) != self.players or len(self.won) != self.players:
            raise ValueError("placed and won need one entry per seat")
        if self.lanes is not None:
            raise ValueError("Kingdom of Dice has no simultaneous decisions (lanes must be null)")
        for task in self.tasks:
            if not task or task[0] not in self.TASK_KINDS:
                raise ValueError(f"unknown task {task!r}")

    # ------------------------------------------------------------ round and turn (automatic)
    @auto(ROUND_START)
    def _start_round(self, task: tuple) -> None:
        """Round Setup: six regular cards and the round's special card, highest first; ``task[1]`` starts."""
        first = task[1]
        self.round_no += 1
        drawn = self.deck[:CARDS_DRAWN]
        del self.deck[:CARDS_DRAWN]
        drawn.append(SPECIAL_BY_ROUND[self.round_no])
        drawn.sort(key=_market_order)
        self.market = drawn
        self.first = first
        returned = [self.placed[s] + (self.spent if self.players == 1 else 0) for s in range(self.players)]
        self.spent = 0
        for s in range(self.players):
            self.placed[s] = 0
        if not self.quiet:
            # The markers used last round come back; the new cards are turned face up in the market.
            effects = [fx.round_begins(self.round_no)]
            effects += [fx.count(f"p-{s}-left", n, MARKERS) for s, n in enumerate(returned) if n]
            effects += [fx.reveal(f"card-{CARDS[c].id}", "market") for c in drawn]
            self.emit("round", None, f"Round {self.round_no} begins; {seat_name(first)} starts. "
                      "Influence cards: " + ", ".join(f"{CARD_NAME[c]} ({CARD_VALUE[c]})" for c in drawn) + ".",
                      {"round": self.round_no, "cards": [CARDS[c].id for c in drawn], "first": first},
                      effects=effects)
        self._start_turn(first)

    def _start_turn(self, seat: int) -> None:
        """A turn starts with a roll of all six dice (rolling is not a choice)."""
        self.current = seat
        self.kept = [0] * 6
        self._roll_dice(seat, DICE, new_turn=True)

    def _roll_dice(self, seat: int, count: int, new_turn: bool = False) -> None:
        """Roll ``count`` dice into ``rolled``; then ``seat`` sets dice aside."""
        roll = [0] * 6
        if self.scripted_dice_left:  # a test's script names the faces
            for face in self.roll_many(KINGDOM_DIE, count):
                roll[FACE_INDEX[face]] += 1
        else:  # the same draws, read as the faces' indices (compiled: no dict look-up, a native int)
            index: int
            for index in self.roll_many(_INDEX_DIE, count):
                roll[index] += 1
        self.rolled = roll
        self.picked = 0
        if not self.quiet:
            shown = _shown(roll)
            effects = shown.turn_effects[seat] if new_turn else shown.reroll_effects[seat]
            self.emit("roll", seat, shown.roll_texts[seat], {"faces": shown.faces_list, "effects": effects})
        self.tasks.append((SET_ASIDE, seat))  # = then(...): no lanes in this game, and the hot path

    # ------------------------------------------------------------ set-aside (a decision)
    @prompt(SET_ASIDE)
    def _set_aside_prompt(self, task: tuple) -> Decision:
        seat = task[1]
        if self.picked == 0:
            text = f"You rolled {faces_text(self.rolled)}: set aside at least one die."
        else:
            text = (f"Set aside more dice, reroll the other {counted(sum(self.rolled), 'die')}, or stop "
                    f"(set aside: {faces_text(self.kept)}).")
        return Decision(seat, SET_ASIDE, text,
                        "After each roll you must set aside at least one die; dice set aside cannot "
                        "be rerolled. Then reroll the rest or stop. A valid result needs a crown and a "
                        "number; 2s only in twos or more, 3s in threes, 4s in fours, at most one 5; "
                        "value = sum of numbers x crowns.")

    @choices(SET_ASIDE)
    def _set_aside_choices(self, task: tuple) -> tuple:
        # The menu depends only on which faces show and on whether a die was set aside since the roll:
        # one read of a table of the 128 menus, by a small int (no key to build, box and hash).
        rolled = self.rolled
        shown = ((rolled[0] > 0) | (rolled[1] > 0) << 1 | (rolled[2] > 0) << 2 | (rolled[3] > 0) << 3
                 | (rolled[4] > 0) << 4 | (rolled[5] > 0) << 5)
        return _SET_ASIDE_MENUS[2 * shown + (self.picked > 0)]

    @resolve(SET_ASIDE)
    def _set_aside(self, task: tuple, action: Action) -> None:
        # Typed locals and the dice counted by hand: compiled, native ints and list reads, where the
        # task's and payload's Any made every read generic and sum() called the builtin.
        seat: int = task[1]
        aid = action.id
        rolled = self.rolled
        if aid == "reroll":
            self._roll_dice(seat, rolled[0] + rolled[1] + rolled[2] + rolled[3] + rolled[4] + rolled[5])
            return
        if aid == "stop":
            self._check_result(seat)
            return
        face: int = action.payload  # the face's index (_KEEP_ACTIONS)
        rolled[face] -= 1
        kept = self.kept
        kept[face] += 1
        self.picked += 1
        if not self.quiet:  # the effects in the data as emit would put them, without its second dict
            self.emit("keep", seat, _KEEP_TEXT[seat][face], {"face": FACE_ORDER[face],
                                                             "effects": _KEEP_EFFECTS[seat][face]})
        left = rolled[0] + rolled[1] + rolled[2] + rolled[3] + rolled[4] + rolled[5]
        if not can_still_be_valid(kept, left):
            if not self.quiet:
                shown = _shown(kept)
                self.emit("invalid", seat, f"{seat_name(seat)} has set aside {shown.text}: "
                          "no roll can make that valid, so the turn ends.", {"kept": shown.faces_list})
            self._end_turn(seat, used_marker=False)
        elif left == 0:
            self._check_result(seat)
        else:
            self.tasks.append(task)  # the same seat sets aside more: = then(task), without the call

    def _check_result(self, seat: int) -> None:
        """Rulebook step 3: a valid result with a free space at or below its value may place a marker."""
        value = result_value(self.kept)
        if value is None:
            if not self.quiet:
                shown = _shown(self.kept)
                self.emit("invalid", seat, f"{seat_name(seat)}'s result {shown.text} is not valid.",
                          {"kept": shown.faces_list})
            self._end_turn(seat, used_marker=False)
            return
        target = free_space_at_or_below(self.board, value)
        if target < 0:
            if not self.quiet:
                self.emit("invalid", seat, f"{seat_name(seat)}'s result is worth {value} but no space at or "
                          "below it is free, so it is not valid.", {"value": value})
            self._end_turn(seat, used_marker=False)
            return
        self.then((PLACE, seat, target))

    # ------------------------------------------------------------ place (a decision)
    @prompt(PLACE)
    def _place_prompt(self, task: tuple) -> Decision:
        value = result_value(self.kept)
        return Decision(task[1], PLACE,
                        f"Your result {faces_text(self.kept)} is worth {value}: place a Crown "
                        f"marker on space {SPACES[task[2]]} or decline.",
                        "A valid result places a Crown marker on its value, or on the next lower "
                        "free space if that one is taken. You may decline a result you do not like.")

    @choices(PLACE)
    def _place_choices(self, task: tuple) -> tuple:
        return _PLACE_ACTIONS[task[2]]

    @resolve(PLACE)
    def _place(self, task: tuple, action: Action) -> None:
        seat, target = task[1], task[2]
        if action.id != "place":
            if not self.quiet:
                self.emit("decline", seat, f"{seat_name(seat)} declines to place a Crown marker.")
            self._end_turn(seat, used_marker=False)
            return
        self.board[target] = seat
        self.placed[seat] += 1
        if not self.quiet:
            value = result_value(self.kept)
            space = SPACES[target]
            left = MARKERS - self.placed[seat] - (self.spent if self.players == 1 else 0)
            on_board = len(SPACES) - self.board.count(EMPTY)
            # A marker that ends the round leaves the board in the same action: nothing to move to.
            moved = [] if self._round_over(seat, True) else [
                fx.move(f"marker-{space}", f"p-{seat}-markers", f"space-{space}")]
            self.emit("place", seat, f"{seat_name(seat)} places a Crown marker on space "
                      f"{space} (result {value}).", {"space": space, "value": value},
                      effects=moved + [fx.count(f"p-{seat}-left", -1, left), fx.count("on-board", 1, on_board)])
        self._end_turn(seat, used_marker=True)

    def _end_turn(self, seat: int, used_marker: bool) -> None:
        """End of a turn: the next player's turn, or the round's end (rulebook: End of a Round)."""
        if self.players == 1 and not used_marker:
            self.spent += 1
            if not self.quiet:
                self.emit("marker-set-aside", seat, "Solo: a Crown marker is set aside for this round.",
                          effects=[fx.count(f"p-{seat}-left", -1, MARKERS - self.placed[seat] - self.spent)])
        if self._round_over(seat, used_marker):
            self.then((ROUND_END, seat))
        else:
            self._start_turn((seat + 1) % self.players)

    def _round_over(self, seat: int, used_marker: bool) -> bool:
        """True when the turn just played ends the round: seven markers on the board, the seat's last
        marker placed, or (solo) every marker used (rulebook: End of a Round)."""
        return (len(SPACES) - self.board.count(EMPTY) >= MARKERS_TO_END
                or (used_marker and self.placed[seat] >= MARKERS)
                or (self.players == 1 and self.placed[0] + self.spent >= MARKERS))

    # ------------------------------------------------------------ end of a round (automatic)
    @auto(ROUND_END)
    def _end_round(self, task: tuple) -> None:
        """Hand out cards from the highest marker down; return markers; next round or game end."""
        ender = task[1]
        board = self.board
        market = self.market
        claims = claim_order(board)
        for i, card in zip(claims, market):
            owner = board[i]
            if owner == CAT:
                self.cat_won.append(card)
            else:
                self.won[owner].append(card)
            if not self.quiet:
                who = "The Mischievous Cat" if owner == CAT else seat_name(owner)
                key, value = f"card-{CARDS[card].id}", CARD_VALUE[card]
                if owner == CAT:
                    effects = [fx.take(key, "market", "cat-won"), fx.count("cat-pts", value, self.cat_score)]
                else:
                    effects = [fx.take(key, "market", f"p-{owner}-won", owner), fx.score(owner, value),
                               fx.count(f"p-{owner}-pts", value, self.scores[owner])]
                self.emit("card", owner if owner >= 0 else None,
                          f"{who} (space {SPACES[i]}) takes {CARD_NAME[card]} ({value}).",
                          {"space": SPACES[i], "card": CARDS[card].id}, effects=effects)
        removed = market[len(claims):]
        if removed and not self.quiet:
            self.emit("removed", None, "Unclaimed cards leave the game: "
                      + ", ".join(CARD_NAME[c] for c in removed) + ".",
                      {"cards": [CARDS[c].id for c in removed]})
        lifted = 0
        for i, owner in enumerate(board):
            if owner >= 0:
                board[i] = EMPTY
                lifted += 1
        if lifted and not self.quiet:
            self.emit("markers-off", None, "The players' Crown markers leave the board.",
                      effects=[fx.count("on-board", -lifted, len(SPACES) - board.count(EMPTY))])
        self.market = []
        if self.round_no < ROUNDS:
            self.then((ROUND_START, (ender + 1) % self.players))
            return
        self.rolled = [0] * 6
        self.kept = [0] * 6
        self.picked = 0
        if not self.quiet:
            text = "Game over. Scores: " + ", ".join(
                f"{seat_name(s)} {v}" for s, v in enumerate(self.scores))
            if self.players == 1:
                text += f"; the Mischievous Cat {self.cat_score}"
            text += ". " + ("Winner: " + ", ".join(seat_name(s) for s in self.winners)
                            if self.winners else "The Mischievous Cat wins.")
            self.emit("game-over", None, text, {"scores": self.scores, "winners": list(self.winners)})

    # ------------------------------------------------------------ public read-only queries
    @property
    def phase(self) -> str:
        """``"set-aside"``, ``"place"`` (a result waits to be placed or declined) or ``"over"``."""
        tasks = self.tasks
        if not tasks:
            return OVER
        return PLACE if tasks[-1][0] == PLACE else SET_ASIDE

    @property
    def target(self) -> int:
        """Index into ``SPACES`` of the space the pending result would take, or -1 when none is pending."""
        tasks = self.tasks
        if tasks and tasks[-1][0] == PLACE:
            return tasks[-1][2]
        return -1

    @property
    def scores(self) -> list:
        """Points per seat: the values of the Influence cards each has won (rulebook: End of the Game)."""
        return [sum(CARD_VALUE[c] for c in cards) for cards in self.won]

    @property
    def cat_score(self) -> int:
        """The Mischievous Cat's points (solo)."""
        return sum(CARD_VALUE[c] for c in self.cat_won)

    @property
    def winners(self) -> tuple:
        """Most points, then the higher best card, then the next, and so on (rulebook).

        Solo: ``(0,)`` when the player beats the Cat by those rules, else ``()``.
        """
        if not self.is_over:
            return ()
        keys = [_rank_key(cards) for cards in self.won]
        if self.players == 1:
            return (0,) if keys[0] > _rank_key(self.cat_won) else ()
        best = max(keys)
        return tuple(s for s, k in enumerate(keys) if k == best)

    def score_sheet(self) -> ScoreSheet:
        """The score table (rulebook: End of the Game and Winner; solo: the Mischievous Cat's line).

        One category, the points of the Influence cards won; the tie-break
        measures are the card values from the highest down (the rulebook:
        "the player holding the Influence card with the highest value wins.
        If the tie persists, compare the second highest card, and so on").
        Solo: the Cat is a line of its own and wins unless the player beats
        it by those rules. Only the highest card is a column of the table
        (the next ones decide only after it).
        """
        hands = [list(cards) for cards in self.won]
        names = [seat_name(s) for s in range(self.players)]
        winners = self.winners
        won = [s in winners for s in range(self.players)]
        if self.players == 1:
            hands.append(list(self.cat_won))
            names.append("the Mischievous Cat")
            won.append(self.is_over and not winners)
        values = [sorted((CARD_VALUE[c] for c in cards), reverse=True) for cards in hands]
        depth = max((len(v) for v in values), default=0)
        measures = tuple(TieMeasure(f"{_ordinal(i)}highest Influence card", True,
                                    f"a higher {_ordinal(i)}best Influence card", i == 0) for i in range(depth))
        lines = tuple(ScoreLine(names[i], i if i < self.players else None, (sum(v),), sum(v),
                                tuple(v) + (0,) * (depth - len(v)), won[i]) for i, v in enumerate(values))
        return ScoreSheet(("Influence cards",), lines,
                          outcome_text(lines, measures, "rulebook: End of the Game and Winner"),
                          "rulebook: End of the Game and Winner", measures)

    # ------------------------------------------------------------ views
    def _observation(self, seat: int | None) -> dict:
        """Everything on the table; the draw pile only as a count (its order is hidden)."""
        target = self.target
        over = self.is_over
        obs = {
            "game": self.game_id,
            "seat": seat,
            "round": self.round_no,
            "first_player": self.first,
            "current": self.current,
            "phase": self.phase,
            "roll": _counts_to_faces(self.rolled),
            "kept": _counts_to_faces(self.kept),
            "picked_since_roll": self.picked,
            "result_value": result_value(self.kept),
            "target_space": SPACES[target] if target >= 0 else None,
            "board": {str(SPACES[i]): ("cat" if o == CAT else o) for i, o in enumerate(self.board) if o != EMPTY},
            "markers_placed": list(self.placed),
            "markers_left": [MARKERS - p - (self.spent if self.players == 1 else 0) for p in self.placed],
            "market": [{"id": CARDS[c].id, "name": CARD_NAME[c], "value": CARD_VALUE[c]} for c in self.market],
            "won": [[CARDS[c].id for c in cards] for cards in self.won],
            "scores": self.scores,
            "draw_pile": len(self.deck),
            "is_over": over,
            "winners": list(self.winners),
        }
        if self.players == 1:
            cat: dict[str, Any] = {"level": self.options["cat_level"],
                          "spaces": list(CAT_LEVELS[self.options["cat_level"]]),
                                   "won": [CARDS[c].id for c in self.cat_won], "score": self.cat_score}
            obs["cat"] = cat
        return obs

    def _determinize(self, seat: int) -> None:
        # Only the order of the draw pile is hidden from every seat.
        self.deck.sort()
        self.shuffle(self.deck)


def _set_aside_actions(shown: int, may_stop: bool) -> tuple:
    """The set-aside step's actions when the faces in the 6-bit mask ``shown`` (bit i: ``FACE_ORDER[i]``)
    show on the dice rolled, ``may_stop`` once a die was set aside since the roll (a tuple: shared safely)."""
    acts = [_KEEP_ACTIONS[i] for i in range(6) if shown >> i & 1]
    if may_stop:
        acts.append(_REROLL)
        acts.append(_STOP)
    return tuple(acts)


#: 2 * shown + may_stop -> _set_aside_actions(shown, may_stop), every one of the 128 built once
_SET_ASIDE_MENUS: Final[tuple[tuple, ...]] = tuple(
    _set_aside_actions(key >> 1, bool(key & 1)) for key in range(128))
