"""Dice Kingdoms of Valeria turn order: the Roll Phase, the end of a turn and the end of the game.

Rulebook: Game Flow (Roll Phase; the last round once a player has completed
3 Guild Tracks), Solo Rules (20 trees) and Scoring (the game-over tally).
"""

from __future__ import annotations

from dicetable.engine import auto
from dicetable.engine import effects as fx
from dicetable.engine.flow import Task

from .consts import BLACK_DIE, COLOUR_DIE, END_TRACKS
from ..sheet import COLOURS, TRK
from .harvest import HarvestMixin
from .tables import EVENT, OVER, STAGE_EVENT, STAGE_HARVEST1, STAGE_HARVEST2, _NAME, _ROLL_TEXT
from .scoring import solo_result


class TurnMixin(HarvestMixin):
    """Roll Phase, end of a turn and of the game. Methods of :class:`DiceKingdomsState`."""

    __slots__ = ()

    # ------------------------------------------------------------ turn flow
    def _start_turn(self, seat: int) -> None:
        """Roll Phase: mark off a tree (solo), roll the six dice, draw a solo Event on doubles."""
        if self.players == 1:
            if self.trees >= self.lay.trees:
                self._game_over("all 20 trees are marked off")
                return
            self.trees += 1
        self.active = seat
        self.turn_no += 1
        if seat == self.first:
            self.round_no += 1
        if self.scripted_dice_left:
            roll = (self.roll(BLACK_DIE), self.roll(BLACK_DIE)) + tuple(self.roll(COLOUR_DIE[c]) for c in COLOURS)
        else:  # the same values, in one call (every die is a d6)
            roll = tuple(self.roll_many(BLACK_DIE, 6))
        self.dice = roll
        self.no_blue = False
        self.drought = False
        self.acted = False
        if not self.quiet:
            when = (f"Turn {self.trees} of {self.lay.trees} (a tree is marked off)" if self.players == 1
                    else f"Round {self.round_no}")
            text = _ROLL_TEXT.get(roll)
            if text is None:
                text = _ROLL_TEXT[roll] = (f"black {roll[0]} and {roll[1]} (sum {roll[0] + roll[1]}), "
                                           f"Yellow {roll[2]}, Red {roll[3]}, Green {roll[4]}, Blue {roll[5]}.")
            effects = [fx.turn(seat)]
            if self.players == 1:
                effects.append(fx.count("solo-trees", 1, self.trees))
            elif seat == self.first:
                effects.append(fx.round_begins(self.round_no))
            effects.append(fx.roll("dice", roll, seat))
            self.emit("roll", seat, f"{when}: {_NAME[seat]} rolls {text}",
                      {"dice": list(roll), "round": self.round_no}, effects=effects)
        self.phase = EVENT
        self.stage = STAGE_EVENT
        if (self.players == 1 and roll[0] == roll[1] and self.ships < self.lay.ships
                and self.event_deck):
            self.then(("harvest", None, STAGE_HARVEST1))  # after the Event's own tasks, if any
            self._draw_event()
        else:
            self._start_harvest(STAGE_HARVEST1)

    @auto("end-action")
    def _end_action(self, task: Task) -> None:
        if self.players == 1:
            self._start_harvest(STAGE_HARVEST2)
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        if self.players == 1:
            if self.last_round:
                self._game_over("a third Guild Track is complete")
                return
            self._start_turn(0)
            return
        nxt = (self.active + 1) % self.players
        if self.last_round and nxt == self.first:
            self._game_over("the last round is finished")
            return
        self._start_turn(nxt)

    def _check_trigger(self, seat: int) -> None:
        """``seat`` just completed a Guild Track: a 3rd one makes this round the last (rulebook: Game Flow)."""
        if self.players == 1 and not self.options.get("solo_track_trigger", False):
            return
        sh = self.sheets[seat]
        if sum(1 for g in range(4) if sh[TRK + g] >= 24) >= END_TRACKS:
            self.last_round = True
            what = "this is the last turn" if self.players == 1 else "this round is the last"
            self.emit("last-round", seat, f"{_NAME[seat]} has completed 3 Guild Tracks: {what}.")

    def _game_over(self, why: str) -> None:
        self.phase = OVER
        self.end_game()
        if self.quiet:
            return
        parts = [self.score_parts(s) for s in range(self.players)]
        text = f"Game over ({why}). " + "; ".join(
            f"{_NAME[s]}: {p['total']} VP (Stars {p['stars']}, Domains {p['domains']}, "
            f"Lairs {p['lairs']}, Statues {p['statues']})" for s, p in enumerate(parts))
        if self.players == 1:
            text += f". {solo_result(parts[0]['total'])[1]}"
        else:
            text += ". Winner: " + ", ".join(_NAME[s] for s in self.winners)
        self.emit("game-over", None, text, {"scores": [p["total"] for p in parts],
                                            "winners": list(self.winners)})
