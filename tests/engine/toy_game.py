"""A tiny game for kernel tests: simultaneous secret plays and hidden hands.

"Secret High Card": a 9-card deck (1..9) is shuffled; each seat is dealt
three cards it alone may see. Each of three tricks, every seat plays a card
face down at the same time (all seats in ``to_move``); when all have played,
the cards are revealed and the highest scores a point. Not a real game.
"""

from __future__ import annotations

from dicetable.engine import Action, Decision, Die, GameSpec, GameState, register, seat_name

COIN = Die("coin", ("heads", "tails"))


class SecretHighCard(GameState):
    __slots__ = ("hands", "played", "points", "deck", "trick", "coin")
    game_id = "toy-secret-high-card"

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

    @property
    def to_move(self):
        if self.trick > 3:
            return ()
        return tuple(s for s in range(self.players) if not self.played[s])

    def _decision(self, seat):
        return Decision(seat, "play", "Play a card face down.")

    def _legal_actions(self, seat):
        return [Action(f"play:{c}", f"Play {c}", c) for c in self.hands[seat]]

    def _apply(self, action, seat):
        self.hands[seat].remove(action.payload)
        self.played[seat] = action.payload
        self.emit("play", seat, f"{seat_name(seat)} plays a card face down.")
        if all(self.played):
            best = max(self.played)
            winner = self.played.index(best)
            self.points[winner] += 1
            self.emit("reveal", None, f"Revealed {self.played}; {seat_name(winner)} wins the trick.")
            self.played = [0] * self.players
            self.trick += 1

    @property
    def is_over(self):
        return self.trick > 3

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

    def _dump(self):
        return {"hands": self.hands, "played": self.played, "points": self.points,
                "deck": self.deck, "trick": self.trick, "coin": self.coin}

    def _restore(self, p):
        self.hands = [list(h) for h in p["hands"]]
        self.played = list(p["played"])
        self.points = list(p["points"])
        self.deck = list(p["deck"])
        self.trick = p["trick"]
        self.coin = p["coin"]

    def _copy_into(self, other):
        other.hands = [h[:] for h in self.hands]
        other.played = self.played[:]
        other.points = self.points[:]
        other.deck = self.deck[:]
        other.trick = self.trick
        other.coin = self.coin


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
