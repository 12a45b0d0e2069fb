"""Kingdom of Dice rules (rulebook: How to Play, End of a Round, Solo Mode).

A turn is a short state machine. The turn's roll happens as soon as the turn
starts (rolling is not a choice). Then, in the ``set-aside`` step, the player
sets dice aside one at a time (``keep:<face>``); once at least one die has been
set aside since the last roll they may also ``reroll`` the rest or ``stop``.
Setting dice aside one by one reaches every choice the rulebook allows (any
non-empty set of the rolled dice) with a handful of actions per step.

When no dice are left or the player stops, the result is checked; if it is
valid and a free space at or below its value exists, the ``place`` step asks
to place a Crown marker there or decline (rulebook step 4).

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

from dicetable.engine import Action, Decision, GameState, seat_name

from .components import (
    CARD_INDEX,
    CARD_NAME,
    CARD_VALUE,
    CARDS,
    CAT_LEVELS,
    COMPONENTS,
    FACE_ORDER,
    KINGDOM_DIE,
    REGULAR_CARDS,
    SPACES,
    SPECIAL_BY_ROUND,
)

EMPTY = -1
CAT = -2
SET_ASIDE = "set-aside"
PLACE = "place"
OVER = "over"

DICE = COMPONENTS.dice.count
MARKERS = COMPONENTS.markers.per_player
ROUNDS = COMPONENTS.round.rounds
CARDS_DRAWN = COMPONENTS.round.cards_drawn
MARKERS_TO_END = COMPONENTS.round.markers_to_end
NUMBER_FACES = (1, 2, 3, 4, 5)

_FACE_WORD = {"crown": "crown", 1: "1", 2: "2", 3: "3", 4: "4", 5: "5"}
_KEEP_ACTIONS = tuple(
    Action(f"keep:{face}", f"Set aside a {_FACE_WORD[face]}", i) for i, face in enumerate(FACE_ORDER)
)
_REROLL = Action("reroll", "Reroll the remaining dice")
_STOP = Action("stop", "Stop rolling and check the result")
_DECLINE = Action("decline", "Decline: place no Crown marker this turn")


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


def can_still_be_valid(kept, dice_left: int) -> bool:
    """True if some faces on the ``dice_left`` dice not yet set aside could make ``kept`` valid."""
    if kept[5] > 1:
        return False
    need = 0 if kept[0] else 1
    for face in (2, 3, 4):
        if 0 < kept[face] < face:
            need += face - kept[face]
    if kept[1] + kept[2] + kept[3] + kept[4] + kept[5] == 0:
        need += 1
    return need <= dice_left


def faces_text(counts) -> str:
    """``[1, 0, 2, 0, 0, 0]`` -> ``"crown, 2, 2"`` (crowns first, then numbers rising)."""
    return _faces_text(tuple(counts))


@lru_cache(maxsize=None)
def _faces_text(counts: tuple) -> str:
    parts = []
    for i, face in enumerate(FACE_ORDER):
        parts.extend([_FACE_WORD[face]] * counts[i])
    return ", ".join(parts) if parts else "nothing"


def _counts_to_faces(counts) -> list:
    return list(_faces_tuple(tuple(counts)))


@lru_cache(maxsize=None)
def _faces_tuple(counts: tuple) -> tuple:
    out = []
    for i, face in enumerate(FACE_ORDER):
        out.extend([face] * counts[i])
    return tuple(out)


class KingdomOfDiceState(GameState):
    """A game of Kingdom of Dice for 2-4 players, or solo against the Mischievous Cat.

    ``board[i]`` holds who occupies ``SPACES[i]`` (a seat, ``CAT`` or
    ``EMPTY``); ``rolled`` and ``kept`` count the dice by face (crown, 1..5);
    ``market`` lists this round's Influence cards, highest first.
    """

    __slots__ = (
        "round_no", "first", "current", "phase", "rolled", "kept", "picked",
        "target", "board", "placed", "spent", "market", "deck", "won", "cat_won",
        "last_ender",
    )

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
        self.last_ender = -1
        self.rolled = [0] * 6
        self.kept = [0] * 6
        self.picked = 0
        self.target = -1
        self.market = []
        self.phase = SET_ASIDE
        if n == 1:
            level = self.options["cat_level"]
            for space in CAT_LEVELS[level]:
                self.board[SPACES.index(space)] = CAT
            self.emit("cat", None, f"The Mischievous Cat (level {level}) takes spaces "
                      + ", ".join(map(str, CAT_LEVELS[level])) + ".", {"level": level})
        self.first = 0
        self.current = 0
        self._start_round(first=0)

    def _start_round(self, first: int) -> None:
        self.round_no += 1
        drawn = self.deck[:CARDS_DRAWN]
        del self.deck[:CARDS_DRAWN]
        drawn.append(SPECIAL_BY_ROUND[self.round_no])
        drawn.sort(key=lambda c: (-CARD_VALUE[c], CARDS[c].id))
        self.market = drawn
        self.first = first
        self.spent = 0
        for s in range(self.players):
            self.placed[s] = 0
        self.emit("round", None, f"Round {self.round_no} begins; {seat_name(first)} starts. "
                  "Influence cards: " + ", ".join(f"{CARD_NAME[c]} ({CARD_VALUE[c]})" for c in drawn) + ".",
                  {"round": self.round_no, "cards": [CARDS[c].id for c in drawn], "first": first})
        self._start_turn(first)

    def _start_turn(self, seat: int) -> None:
        self.current = seat
        self.kept = [0] * 6
        self._roll_dice(DICE)

    def _roll_dice(self, count: int) -> None:
        roll = [0] * 6
        index = _FACE_SLOT
        for face in self.roll_many(KINGDOM_DIE, count):
            roll[index[face]] += 1
        self.rolled = roll
        self.picked = 0
        self.phase = SET_ASIDE
        self.emit("roll", self.current, f"{seat_name(self.current)} rolls {faces_text(roll)}.",
                  {"faces": _counts_to_faces(roll)})

    # ------------------------------------------------------------ protocol
    @property
    def to_move(self) -> tuple:
        return () if self.phase == OVER else (self.current,)

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def scores(self) -> list:
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
        if self.phase != OVER:
            return ()
        keys = [self._rank_key(cards) for cards in self.won]
        if self.players == 1:
            return (0,) if keys[0] > self._rank_key(self.cat_won) else ()
        best = max(keys)
        return tuple(s for s, k in enumerate(keys) if k == best)

    @staticmethod
    def _rank_key(cards) -> tuple:
        values = sorted((CARD_VALUE[c] for c in cards), reverse=True)
        return (sum(values), *values)

    def _decision(self, seat: int):
        if seat != self.current or self.phase == OVER:
            return None
        if self.phase == PLACE:
            value = result_value(self.kept)
            return Decision(seat, PLACE,
                            f"Your result {faces_text(self.kept)} is worth {value}: place a Crown "
                            f"marker on space {SPACES[self.target]} or decline.",
                            "A valid result places a Crown marker on its value, or on the next lower "
                            "free space if that one is taken. You may decline a result you do not like.")
        left = sum(self.rolled)
        if self.picked == 0:
            prompt = f"You rolled {faces_text(self.rolled)}: set aside at least one die."
        else:
            prompt = (f"Set aside more dice, reroll the other {left} dice, or stop "
                      f"(set aside: {faces_text(self.kept)}).")
        return Decision(seat, SET_ASIDE, prompt,
                        "After each roll you must set aside at least one die; dice set aside cannot "
                        "be rerolled. Then reroll the rest or stop. A valid result needs a crown and a "
                        "number; 2s only in twos or more, 3s in threes, 4s in fours, at most one 5; "
                        "value = sum of numbers x crowns.")

    def _legal_actions(self, seat: int) -> list:
        if self.phase == PLACE:
            space = SPACES[self.target]
            return [Action("place", f"Place a Crown marker on space {space}"), _DECLINE]
        return _set_aside_actions(tuple(self.rolled), self.picked > 0)

    def _apply(self, action: Action, seat: int) -> None:
        aid = action.id
        if self.phase == PLACE:
            if aid == "place":
                self._place(seat)
            else:
                self.emit("decline", seat, f"{seat_name(seat)} declines to place a Crown marker.")
                self._end_turn(seat, used_marker=False)
            return
        if aid == "reroll":
            self._roll_dice(sum(self.rolled))
            return
        if aid == "stop":
            self._check_result(seat)
            return
        face = action.payload
        self.rolled[face] -= 1
        self.kept[face] += 1
        self.picked += 1
        left = sum(self.rolled)
        if not can_still_be_valid(self.kept, left):
            self.emit("invalid", seat, f"{seat_name(seat)} has set aside {faces_text(self.kept)}: "
                      "no roll can make that valid, so the turn ends.",
                      {"kept": _counts_to_faces(self.kept)})
            self._end_turn(seat, used_marker=False)
        elif left == 0:
            self._check_result(seat)

    # ------------------------------------------------------------ turn steps
    def _check_result(self, seat: int) -> None:
        value = result_value(self.kept)
        if value is None:
            self.emit("invalid", seat, f"{seat_name(seat)}'s result {faces_text(self.kept)} is not valid.",
                      {"kept": _counts_to_faces(self.kept)})
            self._end_turn(seat, used_marker=False)
            return
        target = self._free_space_at_or_below(value)
        if target < 0:
            self.emit("invalid", seat, f"{seat_name(seat)}'s result is worth {value} but no space at or "
                      "below it is free, so it is not valid.", {"value": value})
            self._end_turn(seat, used_marker=False)
            return
        self.target = target
        self.phase = PLACE

    def _free_space_at_or_below(self, value: int) -> int:
        i = bisect_right(SPACES, value) - 1
        board = self.board
        while i >= 0 and board[i] != EMPTY:
            i -= 1
        return i

    def _place(self, seat: int) -> None:
        self.board[self.target] = seat
        self.placed[seat] += 1
        value = result_value(self.kept)
        self.emit("place", seat, f"{seat_name(seat)} places a Crown marker on space "
                  f"{SPACES[self.target]} (result {value}).",
                  {"space": SPACES[self.target], "value": value})
        self._end_turn(seat, used_marker=True)

    def _end_turn(self, seat: int, used_marker: bool) -> None:
        self.target = -1
        if self.players == 1 and not used_marker:
            self.spent += 1
            self.emit("marker-set-aside", seat, "Solo: a Crown marker is set aside for this round.")
        on_board = len(SPACES) - self.board.count(EMPTY)
        ended = on_board >= MARKERS_TO_END or (used_marker and self.placed[seat] >= MARKERS)
        if self.players == 1 and self.placed[0] + self.spent >= MARKERS:
            ended = True
        if ended:
            self._end_round(ender=seat)
        else:
            self._start_turn((seat + 1) % self.players)

    def _end_round(self, ender: int) -> None:
        """Hand out cards from the highest marker down; return markers; next round or game end."""
        self.last_ender = ender
        cards = iter(self.market)
        handed = []
        for i in range(len(SPACES) - 1, -1, -1):
            owner = self.board[i]
            if owner == EMPTY:
                continue
            card = next(cards, None)
            if card is None:
                break
            if owner == CAT:
                self.cat_won.append(card)
                who = "The Mischievous Cat"
            else:
                self.won[owner].append(card)
                self.board[i] = EMPTY
                who = seat_name(owner)
            handed.append({"space": SPACES[i], "owner": owner, "card": CARDS[card].id})
            self.emit("card", owner if owner >= 0 else None,
                      f"{who} (space {SPACES[i]}) takes {CARD_NAME[card]} ({CARD_VALUE[card]}).",
                      {"space": SPACES[i], "card": CARDS[card].id})
        removed = list(cards)
        if removed:
            self.emit("removed", None, "Unclaimed cards leave the game: "
                      + ", ".join(CARD_NAME[c] for c in removed) + ".",
                      {"cards": [CARDS[c].id for c in removed]})
        for i, owner in enumerate(self.board):
            if owner >= 0:
                self.board[i] = EMPTY
        self.market = []
        if self.round_no >= ROUNDS:
            self.phase = OVER
            self.rolled = [0] * 6
            self.kept = [0] * 6
            self.picked = 0
            text = "Game over. Scores: " + ", ".join(
                f"{seat_name(s)} {v}" for s, v in enumerate(self.scores))
            if self.players == 1:
                text += f"; the Mischievous Cat {self.cat_score}"
            text += ". " + ("Winner: " + ", ".join(seat_name(s) for s in self.winners)
                            if self.winners else "The Mischievous Cat wins.")
            self.emit("game-over", None, text, {"scores": self.scores, "winners": list(self.winners)})
            return
        self._start_round(first=(ender + 1) % self.players)

    # ------------------------------------------------------------ views
    def _observation(self, seat: int | None) -> dict:
        """Everything on the table; the draw pile only as a count (its order is hidden)."""
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
            "target_space": SPACES[self.target] if self.target >= 0 else None,
            "board": {str(SPACES[i]): ("cat" if o == CAT else o) for i, o in enumerate(self.board) if o != EMPTY},
            "markers_placed": list(self.placed),
            "markers_left": [MARKERS - p - (self.spent if self.players == 1 else 0) for p in self.placed],
            "market": [{"id": CARDS[c].id, "name": CARD_NAME[c], "value": CARD_VALUE[c]} for c in self.market],
            "won": [[CARDS[c].id for c in cards] for cards in self.won],
            "scores": self.scores,
            "draw_pile": len(self.deck),
            "is_over": self.phase == OVER,
            "winners": list(self.winners),
        }
        if self.players == 1:
            obs["cat"] = {"level": self.options["cat_level"],
                          "spaces": list(CAT_LEVELS[self.options["cat_level"]]),
                          "won": [CARDS[c].id for c in self.cat_won], "score": self.cat_score}
        return obs

    def _determinize(self, seat: int) -> None:
        # Only the order of the draw pile is hidden from every seat.
        self.deck.sort()
        self.shuffle(self.deck)

    # ------------------------------------------------------------ persistence
    def _dump(self) -> dict:
        return {
            "round": self.round_no, "first": self.first, "current": self.current,
            "phase": self.phase, "roll": list(self.rolled), "kept": list(self.kept),
            "picked": self.picked, "target": self.target, "board": list(self.board),
            "placed": list(self.placed), "spent": self.spent,
            "market": [CARDS[c].id for c in self.market], "deck": [CARDS[c].id for c in self.deck],
            "won": [[CARDS[c].id for c in w] for w in self.won],
            "cat_won": [CARDS[c].id for c in self.cat_won], "last_ender": self.last_ender,
        }

    def _restore(self, p: dict) -> None:
        self.round_no = int(p["round"])
        self.first = int(p["first"])
        self.current = int(p["current"])
        self.phase = str(p["phase"])
        if self.phase not in (SET_ASIDE, PLACE, OVER):
            raise ValueError(f"unknown phase {self.phase!r}")
        self.rolled = [int(x) for x in p["roll"]]
        self.kept = [int(x) for x in p["kept"]]
        self.picked = int(p["picked"])
        self.target = int(p["target"])
        self.board = [int(x) for x in p["board"]]
        if len(self.board) != len(SPACES) or len(self.rolled) != 6 or len(self.kept) != 6:
            raise ValueError("board, roll or kept has the wrong length")
        self.placed = [int(x) for x in p["placed"]]
        if len(self.placed) != self.players:
            raise ValueError("placed needs one count per seat")
        self.spent = int(p["spent"])
        self.market = [CARD_INDEX[c] for c in p["market"]]
        self.deck = [CARD_INDEX[c] for c in p["deck"]]
        self.won = [[CARD_INDEX[c] for c in w] for w in p["won"]]
        self.cat_won = [CARD_INDEX[c] for c in p["cat_won"]]
        self.last_ender = int(p["last_ender"])

    def _copy_into(self, other: "KingdomOfDiceState") -> None:
        other.round_no = self.round_no
        other.first = self.first
        other.current = self.current
        other.phase = self.phase
        other.rolled = self.rolled[:]
        other.kept = self.kept[:]
        other.picked = self.picked
        other.target = self.target
        other.board = self.board[:]
        other.placed = self.placed[:]
        other.spent = self.spent
        other.market = self.market[:]
        other.deck = self.deck[:]
        other.won = [w[:] for w in self.won]
        other.cat_won = self.cat_won[:]
        other.last_ender = self.last_ender


_FACE_SLOT = {face: i for i, face in enumerate(FACE_ORDER)}


@lru_cache(maxsize=None)
def _set_aside_actions(rolled: tuple, may_stop: bool) -> tuple:
    """The set-aside step's actions for dice showing ``rolled`` (a tuple: shared safely)."""
    acts = [_KEEP_ACTIONS[i] for i in range(6) if rolled[i]]
    if may_stop:
        acts.append(_REROLL)
        acts.append(_STOP)
    return tuple(acts)
