"""The End Phase and the end of the game (R8.1-R8.6), and solo's Monsters phase (R12.7-R12.18)."""

from __future__ import annotations

from dicetable.engine import Action, Decision, auto, choices, prompt, resolve
from dicetable.engine import effects as fx
from dicetable.engine.flow import Task

from .consts import AREAS, AREA_SLUG, CIT_NAME, CIT_SLUG, DOM_NAME, DUKE_NAME, RULES
from .fields import DOM_KEY, ValeriaFields, stack_key
from .tables import (
    BANK, CIT0, DOM0, EXHAUSTED_PER_PLAYER, LAST_CAPTURE, N_MON_POS, N_POS, P_END, P_MONSTERS, P_OVER, SEAT,
    article,
)


class EndMixin(ValeriaFields):
    """The End Phase, game end and solo Monsters; a link of the chain ``ValeriaState`` extends."""

    __slots__ = ()

    # ------------------------------------------------------------ solo Monsters phase (R12.7-R12.12)
    @auto("monsters")
    def _monsters(self, task: Task) -> None:
        """Each die activates a Monster stack (a 6: the player's choice, R12.9)."""
        self.phase = P_MONSTERS
        attacks = []
        for v in self.dice:
            if v == 6:
                attacks.append(("monster-attack", task[1], -1))
            elif self.stacks[v - 1]:
                attacks.append(("monster-attack", task[1], v - 1))
            elif not self.quiet:
                self.emit("no-attack", None, f"The die {v} points at an Exhausted Monster stack: no attack.")
        self.then(*attacks)

    def _attack_actions(self, t: Task) -> list[Action]:
        col = t[2]
        if col < 0:
            return [Action(f"attack:{AREA_SLUG[self.areas[p]]}",
                           f"The 6 activates the {AREAS[self.areas[p]]} stack", p)
                    for p in range(N_MON_POS) if self.stacks[p]]
        return [Action(f"capture:{CIT_SLUG[self.stacks[p][-1]]}",
                       f"The Dark Lord captures the top {CIT_NAME[self.stacks[p][-1]]}", p)
                for p in (CIT0 + col, CIT0 + 5 + col) if self.stacks[p]]

    @auto("monster-attack")
    def _monster_attack(self, task: Task) -> None:
        """An activated stack attacks its column: a Citizen (the player picks when two, R12.12),
        else the Domain (R12.11); no card left: the Dark Lord wins."""
        acts = self._attack_actions(task)
        if len(acts) > 1:
            self.then(("attack", *task[1:]))
            return
        if acts:
            self._attack(task, acts[0])
            return
        col = task[2]
        if col < 0:
            return  # no Monster left (the game is already won)
        p = DOM0 + col
        st = self.stacks[p]
        if not st:
            self.emit("attack", None, f"The {AREAS[self.areas[col]]} Monsters attack column {col + 1}, "
                      "which has no card left: the Dark Lord wins.")
            self._game_over("loss")
            return
        d = st[-1]
        self.stacks[p] = st[:-1]
        self.cap_dom = self.cap_dom + (d,)
        self.last = (BANK, LAST_CAPTURE, p, d)
        if not self.quiet:
            reveal = f" {DOM_NAME[st[-2]]} is revealed." if len(st) > 1 else ""
            effects = [fx.take(f"dl-dom-{DOM_KEY[d]}", stack_key(p), "dark-lord", None)]
            if len(st) > 1:
                effects.append(fx.reveal(f"{stack_key(p)}-top", stack_key(p)))
            self.emit("capture", None, f"The {AREAS[self.areas[col]]} Monsters attack column {col + 1}: "
                      f"the Dark Lord captures {DOM_NAME[d]}.{reveal}", {"domain": DOM_NAME[d]}, effects=effects)
        self._after_attack()

    @prompt("attack")
    def _attack_prompt(self, task: Task) -> Decision:
        seat, col = task[1], task[2]
        if col < 0:
            return Decision(seat, "monster-six", "A 6: choose the Monster stack that attacks.",
                            "A die showing 6 activates a Monster stack of your choice (R12.9).")
        return Decision(seat, "capture", f"The {AREAS[self.areas[col]]} Monsters attack column {col + 1}: "
                        "choose the Citizen the Dark Lord captures.",
                        "An activated Monster stack takes the top card of one of the two Citizen stacks "
                        "of its column, your choice (R12.12).")

    @choices("attack")
    def _attack_choices(self, task: Task) -> list[Action]:
        return self._attack_actions(task)

    @resolve("attack")
    def _attack(self, task: Task, action: Action) -> None:
        seat = task[1]
        p = action.payload
        if task[2] < 0:
            if not self.quiet:
                self.emit("attack-choice", seat, f"The 6 activates the {AREAS[self.areas[p]]} stack.")
            self.then(("monster-attack", seat, p))
            return
        effects = self.citizen_effects(-1, p, self.stacks[p][-1]) if not self.quiet else None
        ct = self._take_top_citizen(p)
        self.cap_cit = self.cap_cit + (ct,)
        self.last = (BANK, LAST_CAPTURE, p, ct)
        col = task[2]
        if not self.quiet:
            self.emit("capture", None, f"The {AREAS[self.areas[col]]} Monsters attack column {col + 1}: "
                      f"the Dark Lord captures {article(CIT_NAME[ct])}.", {"citizen": CIT_NAME[ct]}, effects=effects)
        self._after_attack()

    def _after_attack(self) -> None:
        self._place_exhausted()
        self._solo_end_check()

    # ------------------------------------------------------------ end checks (R8.1, R12.16)
    def _solo_end_check(self) -> bool:
        """Solo: end at once when all Monsters are slain (a win) or 5 stacks are Exhausted (R12.16)."""
        if not any(self.stacks[p] for p in range(N_MON_POS)):
            self.emit("end", None, "Every Monster has been slain: you win.")
            self._game_over("win")
            return True
        if self.exhausted_count() >= RULES.solo_exhausted_end:
            me, lord = self.score(0), self.dark_lord_score()
            outcome = "win" if me > lord else "loss"
            if not self.quiet:
                self.emit("end", None, f"{RULES.solo_exhausted_end} stacks are Exhausted: you score {me}, the "
                          f"Dark Lord {lord}: {'you win' if outcome == 'win' else 'the Dark Lord wins'}.")
            self._game_over(outcome)
            return True
        return False

    def end_triggered(self) -> bool:
        """Any end condition holds now: Monsters all slain, Domains all built, 2 x players Exhausted (R8.1)."""
        stacks = self.stacks
        # index loops, native when compiled (any() of a slice is a call into the interpreter)
        monsters = domains = False
        for p in range(N_MON_POS):
            if stacks[p]:
                monsters = True
                break
        for p in range(DOM0, N_POS):
            if stacks[p]:
                domains = True
                break
        if not monsters or not domains:
            return True
        return self.exhausted.bit_count() >= EXHAUSTED_PER_PLAYER * self.players

    def ends_in_end_phase(self, seat: int) -> bool:
        """True if the End Phase of ``seat``'s turn, were it now, would end the game.

        Multi-player: the last player of the round with an end condition met (R8.1-R8.3);
        solo: every Monster slain or enough stacks Exhausted (R12.16).
        """
        if self.solo:
            return not any(self.stacks[:N_MON_POS]) or self.exhausted.bit_count() >= RULES.solo_exhausted_end
        return seat == (self.first - 1) % self.players and self.end_triggered()

    @auto("end")
    def _end_phase(self, task: Task) -> None:
        """End Phase: the game ends, or the next player's turn starts (R8.1-R8.3, R12.16).

        A task marked ``("end", seat, "horizon")`` (``horizon_clone``, several players) stops
        play here instead of starting the next turn, unless the game ends.
        """
        seat: int = task[1]
        if len(task) > 2 and not self.ends_in_end_phase(seat):
            self.end_game()  # the look-ahead's horizon: nothing more is played in this copy
            return
        self.phase = P_END
        if self.solo:
            if self._solo_end_check():
                return
        elif self.ends_in_end_phase(seat):
            self._game_over("end")
            return
        self._start_turn((seat + 1) % self.players)

    def _game_over(self, result: str) -> None:
        """End the game with ``result`` (``"end"``; solo ``"win"``/``"loss"``) and show the scores (R8.4-R8.6)."""
        self.end_game()
        self.phase = P_OVER
        self.result = result
        if self.quiet:
            return
        effects = []
        for s in range(self.players):
            effects.append(fx.reveal(f"p-{s}-duke", f"p-{s}"))
            effects += self.score_effects(s, self.duke_vp(s))
        if self.solo:
            scores = self.scores
            text = (f"Game over: you score {scores[0]}, the Dark Lord ({DUKE_NAME[self.dark_lord]}) "
                    f"{self.dark_lord_score()}. {'You win!' if result == 'win' else 'The Dark Lord wins.'}")
            winners = self.winners
        else:
            # ``scores`` and ``winners`` computed once (the properties would score every Duke twice)
            seats = range(self.players)
            duke_vp = [self.duke_vp(s) for s in seats]
            scores = [self.public_vp(s) + duke_vp[s] for s in seats]
            keys = [(scores[s], -self.tableau_size(s)) for s in seats]
            best = max(keys)
            winners = tuple(s for s, k in enumerate(keys) if k == best)
            text = "Game over. Dukes: " + ", ".join(
                f"{SEAT[s]} {DUKE_NAME[self.dukes[s]]} ({duke_vp[s]} VP)" for s in seats)
            text += ". Scores: " + ", ".join(f"{SEAT[s]} {v}" for s, v in enumerate(scores))
            text += ". Winner: " + ", ".join(SEAT[s] for s in winners) + "."
        self.emit("game-over", None, text, {"scores": scores, "winners": list(winners),
                                            "dukes": [DUKE_NAME[d] for d in self.dukes]}, effects=effects)
