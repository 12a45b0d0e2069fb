"""A tiny game for kernel tests, written on the engine's turn flow: simultaneous secret plays.

"Secret High Card": a 9-card deck (1..9) is shuffled; each seat is dealt
three cards it alone may see. Each of three tricks, every seat plays a card
face down at the same time (a lane per seat: all seats in ``to_move``); when
all have played, the automatic ``reveal`` task shows the cards and the
highest scores a point. Not a real game; docs/engine.md "Writing a game"
walks through it.
"""

from __future__ import annotations

from dicetable.engine import (
    LIST, ROWS, Action, Decision, Die, Field, FlowState, GameSpec, auto, choices, declare, int_list, int_rows,
    prompt, register, resolve, seat_name,
)

COIN = Die("coin", ("heads", "tails"))
TRICKS = 3


class SecretHighCard(FlowState):
    game_id = "toy-secret-high-card"

    hands: list[list[int]]  # each seat's cards, sorted
    deck: list[int]         # the undealt cards
    played: list[int]       # the card each seat played face down this trick (0: none yet)
    points: list[int]
    trick: int              # 1..3, then 4 once the game is over
    coin: str

    OWN_FIELDS = declare(
        hands=Field(int_rows, copy=ROWS),
        deck=Field(int_list, copy=LIST),
        played=Field(int_list, copy=LIST),
        points=Field(int_list, copy=LIST),
        trick=Field(int),
        coin=Field(str),
    )

    def _setup(self):
        deck = list(range(1, 10))
        self.shuffle(deck)
        self.hands = [sorted(deck[3 * s:3 * s + 3]) for s in range(self.players)]
        self.deck = deck[3 * self.players:]
        self.played = [0] * self.players
        self.points = [0] * self.players
        self.trick = 1
        self.coin = self.roll(COIN)
        for s in range(self.players):
            self.emit("deal", s, f"{seat_name(s)} is dealt {self.hands[s]}.", visible=(s,))
        self.tasks = [("trick", None)]
        self.lanes = None
        self.run()

    @auto("trick")
    def _start_trick(self, task):
        if self.trick > TRICKS:
            return  # nothing more pending: the game is over
        self.split([[("play", s)] for s in range(self.players)])
        self.then(("reveal", None), ("trick", None))

    @prompt("play")
    def _play_prompt(self, task):
        return Decision(task[1], "play", "Play a card face down.")

    @choices("play")
    def _play_choices(self, task):
        return [Action(f"play:{c}", f"Play {c}", c) for c in self.hands[task[1]]]

    @resolve("play")
    def _play(self, task, action):
        seat = task[1]
        self.hands[seat].remove(action.payload)
        self.played[seat] = action.payload
        self.emit("play", seat, f"{seat_name(seat)} plays a card face down.")

    @auto("reveal")
    def _reveal(self, task):
        best = max(self.played)
        winner = self.played.index(best)
        self.points[winner] += 1
        self.emit("reveal", None, f"Revealed {self.played}; {seat_name(winner)} wins the trick.")
        self.played = [0] * self.players
        self.trick += 1

    @property
    def scores(self):
        return list(self.points)

    @property
    def winners(self):
        if not self.is_over:
            return ()
        best = max(self.points)
        return tuple(s for s, p in enumerate(self.points) if p == best)

    def _observation(self, seat):
        return {
            "trick": self.trick,
            "my_hand": list(self.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "played_face_down": [bool(p) for p in self.played],
            "my_play": self.played[seat] if seat is not None else None,
            "points": list(self.points),
            "coin": self.coin,
        }

    def _determinize(self, seat):
        # Other seats' hands, their face-down plays and the undealt cards are unknown to `seat`.
        unknown = list(self.deck)
        for s in range(self.players):
            if s != seat:
                unknown.extend(self.hands[s])
                if self.played[s]:
                    unknown.append(self.played[s])
        unknown.sort()
        self.shuffle(unknown)
        for s in range(self.players):
            if s != seat:
                n = len(self.hands[s])
                self.hands[s] = sorted(unknown[:n])
                del unknown[:n]
                if self.played[s]:
                    self.played[s] = unknown.pop()
        self.deck = unknown


class LeakyHighCard(SecretHighCard):
    """Shows every hand to everyone: the conformance check must catch it."""

    __slots__ = ()
    game_id = "toy-leaky-high-card"

    def _observation(self, seat):
        obs = super()._observation(seat)
        obs["all_hands"] = [list(h) for h in self.hands]
        return obs


SPEC = register(GameSpec(id="toy-secret-high-card", name="Secret High Card (toy)", min_players=2,
                         max_players=3, state_class=SecretHighCard, dice_faces=COIN.faces))
LEAKY = register(GameSpec(id="toy-leaky-high-card", name="Leaky (toy)", min_players=2,
                          max_players=3, state_class=LeakyHighCard))


class UnsortedHighCard(SecretHighCard):
    """Shuffles the unknown cards without sorting them first: its determinization leaks order."""

    __slots__ = ()
    game_id = "toy-unsorted-high-card"

    def _determinize(self, seat):
        unknown = list(self.deck)
        for s in range(self.players):
            if s != seat:
                unknown.extend(self.hands[s])
        self.shuffle(unknown)
        for s in range(self.players):
            if s != seat:
                n = len(self.hands[s])
                self.hands[s] = sorted(unknown[:n])
                del unknown[:n]
        self.deck = unknown


UNSORTED = register(GameSpec(id="toy-unsorted-high-card", name="Unsorted (toy)", min_players=2,
                             max_players=3, state_class=UnsortedHighCard))
