"""Biblios Dice rules (rulebook: Setup, Playing the Game, Market Rules, Auctions,
Game End, Scoring, Rules for 2 Players, Bishop Tokens, Hidden Objective Variant).

Turn structure
--------------
A round is a small phase machine; nested choices live on an explicit stack of
pending tasks (plain tuples), so a state clones, saves and replays:

``reroll``        Phase I: the first player marks dice one at a time
                  (``mark:<kind>``), then ``reroll`` (pays 1 VP, once) or ``keep``.
``select``        Phase III, dice selection: the seat to move takes all dice of
                  one type (``take:<kind>``) and resolves them fully.
``split``         Phase III, market: the first player puts dice one at a time
                  into the group of 3 (``small:<kind>``); the rest is the large group.
``bid``           the auction's simultaneous rounds: every seat still bidding
                  places one card face down (``bid:<n>`` or ``bid:pass``); when all
                  have placed, the cards are revealed together.
``choose-group``  the auction winner picks ``group:large`` or ``group:small``.
``resolve``       a seat resolves the dice of the group it won, one type at a
                  time in the order it likes (``take:<kind>``).
``over``          the game has ended and is scored.

Tasks (top of the stack asks first): ``("adjust", seat, face, step, used)``,
``("advance", seat, left, excluded)`` (a Bishop Token's moves) and
``("convert", seat, track, dice)`` (the Conversion Rule).

Scripted dice (``new_game(..., dice=[...])``) are consumed in this order: in a
2-player game Phase 0 rolls Cadfael's 3 Resource Dice (then any of his
conversion re-rolls); Phase I rolls the Resource Dice, then the Gold Die, the
Mule Die and the Adjustment Die; a paid re-roll rolls the marked dice in that
same order; at the market the Gold Die is re-rolled while it shows gold for
all; a conversion re-rolls each die until it shows another resource.

Decisions where the rulebook is silent (each tested, see docs/games/biblios-dice.md)
-------------------------------------------------------------------------------------
* Seat 0 holds the Monastery Card first; clockwise is increasing seat number.
  On the Bishop Track the last seat starts leftmost (ahead), seat 0 rightmost;
  Cadfael is left of everyone.
* The re-roll ends Phase I (it is allowed once); it is not offered to a first
  player without VP.
* Adjustment Die: a step may only target a Value Die it changes (raise a die
  below 6, lower a die above 1; "show 3" any die, as the rulebook allows); a
  step with no such die has no effect. The all-1/all-6 reset is checked once
  the whole face is applied.
* Conversion Rule: optional ("is allowed to"); each die is re-rolled until it
  shows one of the four *other resources* (the Bishop symbol is not a
  resource); a result on a track whose marker is at the top is lost (no chain).
  Cadfael always converts. Movement past a top space is lost.
* Bishop Tokens' "move up in N different Resource Tracks" are chosen one track
  at a time among tracks not at the top; if fewer remain, the rest is lost.
* Market groups are one turn (for the same-turn exception) and their dice are
  resolved one type at a time in the winner's order.
* Overbidding is checked on the two places after ranking; a penalised player
  is removed and the places are ranked again, until both can pay.
* Two players: "a player must beat Cadfael's bid" is read as ranking Cadfael
  like a bidder (ties by the Bishop Track); if Cadfael wins, the next bidder
  still takes the small group ("he denies 1 of the players"). Tokens Cadfael
  reaches are revealed and leave the game without effect. His score (track
  places and penalties, no Gold, no tokens) is shown; only players can win.
  Gold for all gives (players - 1) = 1 Gold to each of the two players.
* Tie-break "most remaining gold" uses the Gold left after conversion.
* Gold and VP tokens behind a shield are hidden in other seats' observations,
  but every gain and payment is a public event (Gold and Bishop tokens taken,
  VP stacks in known order, bids revealed, the re-roll's 1 VP), so a seat with
  perfect recall knows them: ``_determinize`` keeps them. Truly hidden are a
  face-down bid until revealed, the order of the Bishop Token stacks, the
  order of Cadfael's draw pile and other seats' Hidden Objective cards.
"""

from __future__ import annotations

from dicetable.engine import Action, Decision, GameState, seat_name

from .components import (
    ADJ_DIE, ADJ_FACES, ADJ_INDEX, ADJ_STEPS, ADJUST, BISHOP, BONUSES, CADFAEL, CADFAEL_CARDS,
    CARD_VALUES, CONVERSION_FROM, EMPTY_SET, FULL_HAND, GOLD, GOLD_DIE, GOLD_FOR_ALL, KINDS,
    MULE_DIE, MULE_FINAL, NRES, NTRACKS, PASS, PENALTY, PLACES_FROM, RESOURCE_DIE, RESOURCES,
    SCORING, SMALL_GROUP, START, SYMBOL_INDEX, SYMBOL_NAMES, SYMBOLS, TOKEN_GROUPS, TOKEN_INDEX,
    TOKEN_SPOTS, TOKENS, TOP, TRACK_NAMES, VALUE_MAX, VALUE_MIN, VALUE_RESET, VALUE_START,
    VP_STACKS, place_points, ratio_at, resource_dice_for,
)

REROLL = "reroll"
SELECT = "select"
SPLIT = "split"
BID = "bid"
CHOOSE = "choose-group"
RESOLVE = "resolve"
OVER = "over"
PHASES = (REROLL, SELECT, SPLIT, BID, CHOOSE, RESOLVE, OVER)

DISCARD = -1                 # a market group nobody takes
CHOOSER = -1                 # queue: the winner still chooses a group
OTHER = -2                   # queue: the group the winner did not choose

GOLD_VALUES = tuple(dict.fromkeys(GOLD_DIE.faces))
GOLD_VALUE_INDEX = {f: i for i, f in enumerate(GOLD_VALUES)}
MARK_KINDS = SYMBOLS + ("gold", "adjustment", "mule")
MARK_GOLD, MARK_ADJUST, MARK_MULE = NTRACKS, NTRACKS + 1, NTRACKS + 2
NSTACKS = len(VP_STACKS)
REROLL_COST = SCORING.reroll_cost_vp
CARDS_PER_BID = CADFAEL.cards_per_bid
RESHUFFLE_AT = CADFAEL.cards_per_bid * CADFAEL.reshuffle_after_auctions
GROUP_NAMES = ("large", "small")


def card_name(value: int) -> str:
    """``0`` -> ``"pass"``, ``5`` -> ``"5"``."""
    return "pass" if value == PASS else str(value)


def half_up(n: int) -> int:
    """Half of ``n`` rounded up (the second bidder's payment, third place's VPs)."""
    return -(-n // 2)


def dice_count(dice) -> int:
    """Number of dice in a dice set (see components: 6 symbol counts, Gold, Adjustment)."""
    return sum(dice[:NTRACKS]) + (dice[GOLD] >= 0) + (dice[ADJUST] >= 0)


def dice_text(dice) -> str:
    """A dice set in words: ``"3 Ink, 2 Manuscripts, Gold 3, Adjustment +1"``."""
    parts = [f"{dice[k]} {SYMBOL_NAMES[k]}" for k in range(NTRACKS) if dice[k]]
    if dice[GOLD] >= 0:
        g = GOLD_VALUES[dice[GOLD]]
        parts.append("Gold: gold for all" if g == GOLD_FOR_ALL else f"Gold {g}")
    if dice[ADJUST] >= 0:
        parts.append(f"Adjustment {ADJ_FACES[dice[ADJUST]].id}")
    return ", ".join(parts) if parts else "no dice"


def dice_json(dice) -> dict:
    """A dice set as a JSON-able dict (kind -> count; gold/adjustment -> face or None)."""
    out = {SYMBOLS[k]: dice[k] for k in range(NTRACKS) if dice[k]}
    out["gold"] = GOLD_VALUES[dice[GOLD]] if dice[GOLD] >= 0 else None
    out["adjustment"] = ADJ_FACES[dice[ADJUST]].id if dice[ADJUST] >= 0 else None
    return out


def _a(word: str) -> str:
    return ("an " if word[0] in "AEIOU" else "a ") + word


# ------------------------------------------------------------ fixed actions
_MARK = tuple(Action(f"mark:{k}", f"Mark {_a(SYMBOL_NAMES[i])} die to re-roll" if i < NTRACKS
                     else f"Mark the {k.capitalize()} Die to re-roll", i) for i, k in enumerate(MARK_KINDS))
_REROLL = Action("reroll", f"Pay {REROLL_COST} VP and re-roll the marked dice (once per round)")
_CLEAR = Action("clear", "Unmark all dice")
_KEEP = Action("keep", "Keep the dice as they are (end Phase I)")
_SMALL = tuple(Action(f"small:{k}", (f"Put {_a(SYMBOL_NAMES[i])} die" if i < NTRACKS
                                     else f"Put the {k.capitalize()} Die") + f" into the group of {SMALL_GROUP}", i)
               for i, k in enumerate(KINDS))
_BIDS = {v: Action(f"bid:{card_name(v)}",
                   "Play the pass card face down (stop bidding)" if v == PASS
                   else f"Play your {v} Bidding Card face down", v) for v in CARD_VALUES}
_CONVERT = Action("convert", "Re-roll each die until it shows another resource and move up there")
_FORGO = Action("forgo", "Forgo the conversion (the dice have no effect)")
_TAKE_CACHE: dict = {}


def _take_action(kind: int, dice, players: int) -> Action:
    if kind < NTRACKS:
        key = (kind, dice[kind])
    elif kind == GOLD:
        key = (kind, dice[GOLD], players)
    else:
        key = (kind, dice[ADJUST])
    action = _TAKE_CACHE.get(key)
    if action is None:
        if kind < NTRACKS:
            c = dice[kind]
            what = f"the {SYMBOL_NAMES[kind]} die" if c == 1 else f"the {c} {SYMBOL_NAMES[kind]} dice"
            label = f"Take {what}: move up {c} on the {TRACK_NAMES[kind]}"
        elif kind == GOLD:
            g = GOLD_VALUES[dice[GOLD]]
            label = (f"Take the Gold Die (gold for all): every player gains {players - 1} Gold"
                     if g == GOLD_FOR_ALL else f"Take the Gold Die: {g} Gold")
        else:
            label = f"Take the Adjustment Die: {ADJ_FACES[dice[ADJUST]].label}"
        action = _TAKE_CACHE[key] = Action(f"take:{KINDS[kind]}", label, kind)
    return action


class BibliosDiceState(GameState):
    """A game of Biblios Dice for 2-5 players (2 players add Cadfael).

    Markers are numbered ``0..players-1`` for the seats and ``cad`` (= 2) for
    Cadfael in a 2-player game (``cad`` is -1 otherwise); ``nm`` is the number
    of markers. ``pos[t * nm + m]`` is the space (1 = lowest) of marker ``m``
    on track ``t`` and ``stamp[...]`` its arrival time there: on one space the
    lower stamp is further left, i.e. ahead. ``value`` holds the five Value
    Dice; ``gold``/``vp`` what is behind each shield. Dice sets (``pool``,
    ``small``, ``groups``) use the layout of :mod:`.components`. ``hands`` are
    bitmasks of Bidding Card values (bit 0 = the pass card).
    """

    __slots__ = (
        "nm", "cad", "round_no", "first", "current", "phase", "value", "pos", "stamp", "clock",
        "vp_stacks", "bishop_stacks", "gold", "vp", "mule", "mule_roll", "pool", "marks",
        "small", "groups", "grp", "hands", "facedown", "played", "active", "sitting", "barred",
        "penalized", "cad_deck", "cad_faceup", "cad_played", "tasks", "topped", "queue",
        "objectives", "auctions", "last_auction", "final", "waiting",
    )

    # ================================================================ set-up
    def _setup(self) -> None:
        n = self.players
        self.cad = n if n == 2 else -1
        self.nm = nm = n + (1 if n == 2 else 0)
        self.round_no = 0
        self.first = 0
        self.current = 0
        self.phase = REROLL
        self.value = [VALUE_START] * NRES
        self.pos = [1] * (NTRACKS * nm)
        self.stamp = [0] * (NTRACKS * nm)
        self.clock = 0
        # Resource Tracks: any order (seat order). Bishop Track: Cadfael leftmost, then the
        # last player ... the first player rightmost (rulebook Setup 12, 2 players Setup).
        for t in range(NRES):
            for m in range(nm):
                self.clock += 1
                self.stamp[t * nm + m] = self.clock
        order = ([self.cad] if self.cad >= 0 else []) + list(range(n - 1, -1, -1))
        for m in order:
            self.clock += 1
            self.stamp[BISHOP * nm + m] = self.clock
        self.vp_stacks = [VP_STACKS[k][1] for _ in range(NRES) for k in range(NSTACKS)]
        stacks = []
        for group in TOKEN_GROUPS:
            tokens = list(group)
            self.shuffle(tokens)
            stacks.append(tuple(tokens))
        self.bishop_stacks = stacks
        self.gold = [START.gold] * n
        self.vp = [START.vp] * n
        self.mule = 0
        self.mule_roll = 0
        self.pool = list(EMPTY_SET)
        self.marks = [0] * len(MARK_KINDS)
        self.small = list(EMPTY_SET)
        self.groups = [list(EMPTY_SET), list(EMPTY_SET)]
        self.grp = -1
        self.hands = [FULL_HAND] * n
        self.facedown = [-1] * n
        self.played = [()] * n
        self.active = 0
        self.waiting = ()
        self.sitting = 0
        self.barred = 0
        self.penalized = 0
        self.cad_deck = []
        self.cad_faceup = []
        self.cad_played = []
        self.tasks = []
        self.topped = 0
        self.queue = []
        self.objectives = [-1] * n
        self.auctions = 0
        self.last_auction = None
        self.final = None
        self.emit("setup", None, f"Biblios Dice for {n} players"
                  + (" with Cadfael" if self.cad >= 0 else "")
                  + f"; {resource_dice_for(n)} Resource Dice. {seat_name(0)} takes the Monastery Card.",
                  {"players": n, "resource_dice": resource_dice_for(n)})
        for s in range(n):
            g, v, res = BONUSES[s]
            self.gold[s] += g
            self.vp[s] += v
            if res >= 0:
                self.pos[res * nm + s] += 1
            if g or v or res >= 0:
                parts = ([f"{g} Gold"] if g else []) + ([f"a {v} VP token"] if v else []) + (
                    [f"1 {SYMBOL_NAMES[res]}"] if res >= 0 else [])
                self.emit("start-bonus", s, f"{seat_name(s)} (position {s + 1}) receives "
                          + " and ".join(parts) + ".", {"gold": g, "vp": v,
                                                        "resource": RESOURCES[res] if res >= 0 else None})
        if self.cad >= 0:
            self.cad_deck = list(CADFAEL_CARDS)
            self.shuffle(self.cad_deck)
        if self.options.get("hidden_objectives"):
            cards = list(range(NRES))
            self.shuffle(cards)
            for s in range(n):
                self.objectives[s] = cards[s]
                self.emit("objective", s, f"{seat_name(s)}'s Hidden Objective: the "
                          f"{TRACK_NAMES[cards[s]]}.", {"track": RESOURCES[cards[s]]}, visible=(s,))
        self._start_round()

    # ================================================================ names
    def who(self, m: int) -> str:
        """A marker's owner for people: ``"Player 2"`` or ``"Cadfael"``."""
        return "Cadfael" if m == self.cad else seat_name(m)

    # ================================================================ round
    def _start_round(self) -> None:
        self.round_no += 1
        self.phase = REROLL
        self.current = self.first
        self.topped = 0
        self.emit("round", None, f"Round {self.round_no}: {seat_name(self.first)} holds the "
                  "Monastery Card.", {"round": self.round_no, "first": self.first})
        if self.cad >= 0:
            self._cadfael_phase()
        n_res = resource_dice_for(self.players)
        pool = [0] * NTRACKS + [-1, -1]
        for _ in range(n_res):
            pool[SYMBOL_INDEX[self.roll(RESOURCE_DIE)]] += 1
        pool[GOLD] = GOLD_VALUE_INDEX[self.roll(GOLD_DIE)]
        self.mule_roll = self.roll(MULE_DIE)
        pool[ADJUST] = ADJ_INDEX[self.roll(ADJ_DIE)]
        self.pool = pool
        self.marks = [0] * len(MARK_KINDS)
        self.emit("roll", self.first, f"Phase I: {seat_name(self.first)} rolls {dice_text(pool)}; "
                  f"Mule Die {self.mule_roll}.", {"dice": dice_json(pool), "mule_die": self.mule_roll})
        if self.vp[self.first] < REROLL_COST:
            self._advance_mule()

    def _cadfael_phase(self) -> None:
        """Phase 0 (2 players): 3 Resource Dice for Cadfael, his markers move up."""
        counts = [0] * NTRACKS
        faces = []
        for _ in range(CADFAEL.dice):
            face = self.roll(RESOURCE_DIE)
            faces.append(face)
            counts[SYMBOL_INDEX[face]] += 1
        self.emit("cadfael-roll", None, f"Phase 0: {seat_name(self.first)} rolls "
                  f"{CADFAEL.dice} Resource Dice for Cadfael: " + ", ".join(
                      SYMBOL_NAMES[SYMBOL_INDEX[f]] for f in faces) + ".", {"dice": faces})
        self.topped = 0
        for t in range(NTRACKS):
            if counts[t]:
                self._take_symbol(self.cad, t, counts[t])
        self.topped = 0

    def _advance_mule(self) -> None:
        """Phase II: the Mule moves the Mule Die's number, stopping on the final space."""
        self.mule = min(self.mule + self.mule_roll, MULE_FINAL)
        self.marks = [0] * len(MARK_KINDS)
        self.emit("mule", None, f"Phase II: the Mule advances {self.mule_roll} to space "
                  f"{self.mule + 1} of {MULE_FINAL + 1}.", {"mule": self.mule})
        if self.mule == MULE_FINAL:
            self._start_market()
        else:
            self.phase = SELECT
            self.current = self.first
            self.topped = 0

    def _end_round(self) -> None:
        """Phase IV: check both game-end conditions, else a new round."""
        nm = self.nm
        pos = self.pos
        bishop_top = TOP[BISHOP]
        bishop = any(pos[BISHOP * nm + m] == bishop_top for m in range(nm))
        tops = sum(1 for t in range(NRES) for m in range(nm) if pos[t * nm + m] == TOP[t])
        if (SCORING.bishop_top_ends and bishop) or tops >= SCORING.resource_tops_to_end:
            why = ("a marker reached the top of the Bishop Track" if bishop
                   else f"{tops} markers are on top spaces of Resource Tracks")
            self._finish(why)
        else:
            self._start_round()

    # ================================================================ moves
    def _advance(self, m: int, t: int, n: int) -> int:
        """Move marker ``m`` up to ``n`` spaces on track ``t``; tokens; return spaces moved."""
        nm = self.nm
        i = t * nm + m
        old = self.pos[i]
        new = min(old + n, TOP[t])
        if new == old:
            return 0
        self.pos[i] = new
        self.clock += 1
        self.stamp[i] = self.clock
        self.emit("move", m if m != self.cad else None,
                  f"{self.who(m)} moves up {new - old} on the {TRACK_NAMES[t]} to space {new}"
                  + (" (the top)." if new == TOP[t] else "."),
                  {"marker": m, "track": SYMBOLS[t], "from": old, "to": new})
        if new == TOP[t]:
            self.topped |= 1 << t
        if t < BISHOP:
            for k in range(NSTACKS):
                space = VP_STACKS[k][0]
                if old < space <= new:
                    j = t * NSTACKS + k
                    stack = self.vp_stacks[j]
                    if stack:
                        token = stack[0]
                        self.vp_stacks[j] = stack[1:]
                        if m == self.cad:
                            self.emit("vp-token", None, f"Cadfael takes the top VP token ({token} VP) "
                                      f"of the {TRACK_NAMES[t]}'s stack on space {space}; it leaves the game.",
                                      {"marker": m, "track": SYMBOLS[t], "vp": token})
                        else:
                            self.vp[m] += token
                            self.emit("vp-token", m, f"{self.who(m)} takes the top VP token ({token} VP) "
                                      f"of the stack on space {space} and puts it behind the shield.",
                                      {"marker": m, "track": SYMBOLS[t], "vp": token})
        else:
            pending = []
            for g, (space, _) in enumerate(TOKEN_SPOTS):
                if old < space <= new and self.bishop_stacks[g]:
                    stack = self.bishop_stacks[g]
                    tok = stack[0]
                    self.bishop_stacks[g] = stack[1:]
                    data = TOKENS[tok]
                    if m == self.cad:
                        self.emit("bishop-token", None, f"Cadfael takes the Bishop Token on space {space}: "
                                  f"{data.label}. It leaves the game without effect.",
                                  {"marker": m, "token": data.id, "space": space})
                        continue
                    self.gold[m] += data.gold
                    self.vp[m] += data.vp
                    self.emit("bishop-token", m, f"{self.who(m)} takes the Bishop Token on space {space}: "
                              f"{data.label}.", {"marker": m, "token": data.id, "space": space})
                    if data.advance:
                        pending.append(("advance", m, data.advance, 0))
            self.tasks.extend(reversed(pending))
        return new - old

    def _take_symbol(self, m: int, t: int, count: int) -> None:
        """Resolve ``count`` Resource Dice showing symbol ``t`` for marker ``m`` (rulebook A)."""
        nm = self.nm
        if t < BISHOP and self.pos[t * nm + m] == TOP[t]:
            if self.topped >> t & 1:
                self.emit("no-effect", m if m != self.cad else None,
                          f"{self.who(m)} reached the top of the {TRACK_NAMES[t]} this turn: "
                          f"the {count} {SYMBOL_NAMES[t]} dice have no effect.", {"track": SYMBOLS[t]})
            elif m == self.cad:
                self._convert(m, t, count)
            else:
                self.tasks.append(("convert", m, t, count))
            return
        moved = self._advance(m, t, count)
        if moved < count:
            self.emit("no-effect", m if m != self.cad else None,
                      f"{count - moved} {SYMBOL_NAMES[t]} dice have no effect: {self.who(m)} is at the top "
                      f"of the {TRACK_NAMES[t]}.", {"track": SYMBOLS[t], "lost": count - moved})

    def _convert(self, m: int, t: int, count: int) -> None:
        """Conversion Rule: re-roll each die until another resource shows, then move up there."""
        results = []
        for _ in range(count):
            while True:
                r = SYMBOL_INDEX[self.roll(RESOURCE_DIE)]
                if r != t and r != BISHOP:
                    break
            results.append(r)
        self.emit("convert", m if m != self.cad else None,
                  f"{self.who(m)} converts {count} {SYMBOL_NAMES[t]} dice: re-rolled to "
                  + ", ".join(SYMBOL_NAMES[r] for r in results) + ".",
                  {"track": SYMBOLS[t], "results": [SYMBOLS[r] for r in results]})
        for r in results:
            if self.pos[r * self.nm + m] == TOP[r]:
                self.emit("no-effect", m if m != self.cad else None,
                          f"{self.who(m)} is already at the top of the {TRACK_NAMES[r]}: no effect.",
                          {"track": SYMBOLS[r]})
            else:
                self._advance(m, r, 1)

    def _take(self, seat: int, kind: int, dice: list) -> None:
        """Take every die of ``kind`` from ``dice`` (the pool or a market group) and resolve it."""
        if kind < NTRACKS:
            count = dice[kind]
            dice[kind] = 0
            self.emit("take", seat, f"{seat_name(seat)} takes {count} {SYMBOL_NAMES[kind]} "
                      f"{'die' if count == 1 else 'dice'}.", {"kind": KINDS[kind], "count": count})
            self._take_symbol(seat, kind, count)
        elif kind == GOLD:
            g = GOLD_VALUES[dice[GOLD]]
            dice[GOLD] = -1
            if g == GOLD_FOR_ALL:
                amount = self.players - 1
                for s in range(self.players):
                    self.gold[s] += amount
                self.emit("gold-for-all", seat, f"{seat_name(seat)} takes the Gold Die (gold for all): "
                          f"every player takes {amount} Gold.", {"gold": amount})
            else:
                self.gold[seat] += g
                self.emit("gold", seat, f"{seat_name(seat)} takes the Gold Die and {g} Gold.", {"gold": g})
        else:
            face = dice[ADJUST]
            dice[ADJUST] = -1
            self.emit("take", seat, f"{seat_name(seat)} takes the Adjustment Die: "
                      f"{ADJ_FACES[face].label}.", {"kind": "adjustment", "face": ADJ_FACES[face].id})
            self.tasks.append(("adjust", seat, face, 0, 0))

    # ================================================================ tasks
    def _task_targets(self, task) -> list:
        """The legal targets of the top task (track or die indices; [] = it has no effect)."""
        kind = task[0]
        if kind == "adjust":
            _, _, face, step, used = task
            op = ADJ_STEPS[face][step]
            value = self.value
            if op == "raise":
                return [d for d in range(NRES) if value[d] < VALUE_MAX and not used >> d & 1]
            if op == "lower":
                return [d for d in range(NRES) if value[d] > VALUE_MIN and not used >> d & 1]
            return [d for d in range(NRES) if not used >> d & 1]
        if kind == "advance":
            _, m, _, excluded = task
            nm = self.nm
            return [t for t in range(NRES) if not excluded >> t & 1 and self.pos[t * nm + m] < TOP[t]]
        return [0, 1]  # convert / forgo

    def _settle(self) -> None:
        """Drop or step past tasks that have no legal target (their effect is lost)."""
        tasks = self.tasks
        while tasks and not self._task_targets(tasks[-1]):
            task = tasks.pop()
            if task[0] == "adjust":
                _, seat, face, step, used = task
                self.emit("no-effect", seat, "No Value Die can be "
                          + ("raised" if ADJ_STEPS[face][step] == "raise" else "lowered")
                          + ": that part of the adjustment has no effect.")
                if step + 1 < len(ADJ_STEPS[face]):
                    tasks.append(("adjust", seat, face, step + 1, used))
                else:
                    self._adjust_done(seat)
            else:
                self.emit("no-effect", task[1], f"{seat_name(task[1])} is at the top of every other "
                          "Resource Track: the rest of the Bishop Token's moves are lost.")

    def _adjust_done(self, seat: int) -> None:
        v = self.value
        if all(x == VALUE_MIN for x in v) or all(x == VALUE_MAX for x in v):
            self.value = [VALUE_RESET] * NRES
            self.emit("value-reset", seat, f"All Value Dice show {v[0]}: they are all reset to {VALUE_RESET}.")

    def _apply_task(self, action: Action, seat: int) -> None:
        task = self.tasks.pop()
        kind = task[0]
        if kind == "adjust":
            _, _, face, step, used = task
            d = action.payload
            op = ADJ_STEPS[face][step]
            old = self.value[d]
            new = old + 1 if op == "raise" else old - 1 if op == "lower" else VALUE_RESET
            self.value[d] = new
            self.emit("adjust", seat, f"{seat_name(seat)} turns the {SYMBOL_NAMES[d]} Value Die from {old} to {new}."
                      if old != new else f"{seat_name(seat)} keeps the {SYMBOL_NAMES[d]} Value Die at {new}.",
                      {"resource": RESOURCES[d], "from": old, "to": new})
            if step + 1 < len(ADJ_STEPS[face]):
                self.tasks.append(("adjust", seat, face, step + 1, used | 1 << d))
            else:
                self._adjust_done(seat)
        elif kind == "advance":
            _, m, left, excluded = task
            t = action.payload
            if left > 1:
                self.tasks.append(("advance", m, left - 1, excluded | 1 << t))
            self._advance(m, t, 1)
        else:
            _, m, t, count = task
            if action.id == "convert":
                self._convert(m, t, count)
            else:
                self.emit("forgo", m, f"{seat_name(m)} forgoes converting the {count} "
                          f"{SYMBOL_NAMES[t]} dice.", {"track": SYMBOLS[t]})

    def _continue(self) -> None:
        """After a take is fully resolved: next seat, next market step or round end."""
        if self.phase == SELECT:
            if dice_count(self.pool) == 0:
                self.first = (self.first + 1) % self.players
                self.emit("monastery", None, f"The dice pool is empty: the Monastery Card passes to "
                          f"{seat_name(self.first)}.", {"first": self.first})
                self._end_round()
            else:
                self.current = (self.current + 1) % self.players
                self.topped = 0
        elif self.phase == RESOLVE and dice_count(self.groups[self.grp]) == 0:
            self._next_market_step()

    # ================================================================ market
    def _start_market(self) -> None:
        pool = self.pool
        while GOLD_VALUES[pool[GOLD]] == GOLD_FOR_ALL:
            pool[GOLD] = GOLD_VALUE_INDEX[self.roll(GOLD_DIE)]
            self.emit("gold-reroll", None, "At the market the Gold Die showing gold for all is re-rolled: "
                      f"{GOLD_VALUES[pool[GOLD]]}.", {"gold": GOLD_VALUES[pool[GOLD]]})
        self.phase = SPLIT
        self.current = self.first
        self.small = list(EMPTY_SET)
        self.emit("market", None, f"The Mule is on the final space: go to the market. {seat_name(self.first)} "
                  f"splits {dice_text(pool)} into groups of {dice_count(pool) - SMALL_GROUP} and {SMALL_GROUP}.",
                  {"dice": dice_json(pool)})

    def _start_auction(self) -> None:
        n = self.players
        self.sitting = self.barred
        self.barred = 0
        self.penalized = 0
        self.hands = [FULL_HAND & ~1 if self.sitting >> s & 1 else FULL_HAND for s in range(n)]
        self.facedown = [-1] * n
        self.played = [()] * n
        self.cad_played = []
        self.active = sum(1 << s for s in range(n) if not self.sitting >> s & 1)
        self.waiting = tuple(s for s in range(n) if self.active >> s & 1)
        self.phase = BID
        out = [seat_name(s) for s in range(n) if self.sitting >> s & 1]
        self.emit("auction", None, "Auction: every bidder places a Bidding Card face down."
                  + (f" Sitting out (overbid last auction): {', '.join(out)}." if out else ""),
                  {"sitting_out": [s for s in range(n) if self.sitting >> s & 1]})
        if not self.active:
            self._end_bidding()

    def _cadfael_reveal(self) -> None:
        card = self.cad_deck.pop(0)
        self.cad_played.append(card)
        self.emit("cadfael-bid", None, f"Cadfael reveals a {card} from his deck (bid {sum(self.cad_played)}).",
                  {"card": card})

    def _reveal(self) -> None:
        parts = []
        for s in range(self.players):
            if self.active >> s & 1:
                v = self.facedown[s]
                self.facedown[s] = -1
                self.played[s] = self.played[s] + (v,)
                if v == PASS:
                    self.active &= ~(1 << s)
                parts.append(f"{seat_name(s)} {card_name(v)} (total {sum(self.played[s])})")
        self.emit("reveal", None, "Bidding Cards revealed: " + ", ".join(parts) + ".",
                  {"played": [list(p) for p in self.played]})
        self.waiting = tuple(s for s in range(self.players) if self.active >> s & 1)
        if self.cad >= 0 and len(self.cad_played) < CARDS_PER_BID:
            self._cadfael_reveal()
        if not self.active:
            self._end_bidding()

    def _end_bidding(self) -> None:
        if self.cad >= 0:
            while len(self.cad_played) < CARDS_PER_BID:
                self._cadfael_reveal()
        self._resolve_auction()

    def _total(self, m: int) -> int:
        return sum(self.cad_played) if m == self.cad else sum(self.played[m])

    def bishop_key(self, m: int) -> tuple:
        """Sort key: further up the Bishop Track first, then further left (earlier arrival)."""
        i = BISHOP * self.nm + m
        return (-self.pos[i], self.stamp[i])

    def _resolve_auction(self) -> None:
        """Auctions 4-7 and Penalty for Overbidding: rank, check payments, queue the groups."""
        n = self.players
        while True:
            cands = [s for s in range(n) if not (self.sitting | self.penalized) >> s & 1
                     and self._total(s) >= 1]
            if self.cad >= 0:
                cands.append(self.cad)
            cands.sort(key=lambda m: (-self._total(m),) + self.bishop_key(m))
            top = cands[:2]
            bad = -1
            for place, m in enumerate(top):
                if m == self.cad:
                    continue
                owe = self._total(m) if place == 0 else half_up(self._total(m))
                if owe > self.gold[m]:
                    bad = m
                    break
            if bad < 0:
                break
            self.emit("overbid", bad, f"{seat_name(bad)} cannot pay {owe} Gold: overbid! {seat_name(bad)} "
                      f"reveals {self.gold[bad]} Gold and {self.vp[bad]} VP, returns all Gold to the supply "
                      "and sits out the next auction.",
                      {"seat": bad, "owed": owe, "gold": self.gold[bad], "vp": self.vp[bad]})
            self.gold[bad] = 0
            self.penalized |= 1 << bad
            self.barred |= 1 << bad
        winner = top[0] if top else DISCARD
        second = top[1] if len(top) > 1 else DISCARD
        self.last_auction = {
            "totals": [self._total(s) if not self.sitting >> s & 1 else None for s in range(n)],
            "cadfael": sum(self.cad_played) if self.cad >= 0 else None,
            "winner": winner, "second": second,
            "penalized": [s for s in range(n) if self.penalized >> s & 1],
        }
        if winner == DISCARD:
            self.emit("auction-result", None, "Nobody bid: both groups are discarded.")
            self.queue = [(DISCARD, 0, 0), (DISCARD, 1, 0)]
        elif winner == self.cad:
            self.emit("auction-result", None, f"Cadfael wins the auction with {self._total(winner)} "
                      "and takes the larger group, denying it to the players.")
            pay = half_up(self._total(second)) if second >= 0 else 0
            self.queue = [(self.cad, 0, 0), (second, 1, pay)]
        else:
            total = self._total(winner)
            self.gold[winner] -= total
            self.emit("auction-result", winner, f"{seat_name(winner)} wins the auction with {total} "
                      f"and pays {total} Gold." + (f" Second: {self.who(second)} with {self._total(second)}."
                                                    if second >= 0 else " Nobody else bid."),
                      {"winner": winner, "second": second, "paid": total})
            pay = half_up(self._total(second)) if 0 <= second != self.cad else 0
            self.queue = [(winner, CHOOSER, 0), (second, OTHER, pay)]
        self._next_market_step()

    def _next_market_step(self) -> None:
        queue = self.queue
        while queue:
            who, g, pay = queue[0]
            if g == CHOOSER:
                self.phase = CHOOSE
                self.current = who
                return
            queue.pop(0)
            group = self.groups[g]
            size = dice_count(group)
            if who == DISCARD:
                self.emit("discard", None, f"The group of {size} dice ({dice_text(group)}) is discarded "
                          "without effect.")
                self.groups[g] = list(EMPTY_SET)
                continue
            if who == self.cad:
                self.emit("discard", None, f"Cadfael takes the group of {size} dice ({dice_text(group)}); "
                          "it has no effect.")
                self.groups[g] = list(EMPTY_SET)
                continue
            if pay:
                self.gold[who] -= pay
            self.emit("group", who, f"{seat_name(who)} " + (f"pays {pay} Gold and " if pay else "")
                      + f"takes the group of {size} dice: {dice_text(group)}.",
                      {"seat": who, "group": GROUP_NAMES[g], "paid": pay})
            self.phase = RESOLVE
            self.current = who
            self.grp = g
            self.topped = 0
            return
        self._finish_market()

    def _finish_market(self) -> None:
        n = self.players
        self.hands = [FULL_HAND & ~1 if self.barred >> s & 1 else FULL_HAND for s in range(n)]
        self.facedown = [-1] * n
        self.played = [()] * n
        self.active = 0
        self.waiting = ()
        self.sitting = 0
        self.penalized = 0
        self.groups = [list(EMPTY_SET), list(EMPTY_SET)]
        self.grp = -1
        self.auctions += 1
        if self.cad >= 0:
            self.cad_faceup = self.cad_faceup + self.cad_played
            self.cad_played = []
            if len(self.cad_faceup) >= RESHUFFLE_AT:
                self.cad_deck = list(CADFAEL_CARDS)
                self.shuffle(self.cad_deck)
                self.cad_faceup = []
                self.emit("cadfael-shuffle", None, "Cadfael's Bidding Cards are shuffled into a new draw pile.")
        self.mule = 0
        self.emit("market-end", None, f"Bidding Cards return to the hands; the Mule returns to the first "
                  f"space; {seat_name(self.first)} keeps the Monastery Card.", {"first": self.first})
        self._end_round()

    # ================================================================ end
    def breakdown(self) -> list:
        """Scoring (rulebook Scoring) per marker as if the game ended now.

        Returns one dict per marker (seats, then Cadfael): ``tracks`` (VPs per
        Resource Track place), ``penalty`` (VPs lost, positive), ``tokens``
        (VP tokens), ``gold_vp``, ``gold_left``, ``objective`` and ``total``.
        """
        nm = self.nm
        n = self.players
        track_vp = [[0] * NRES for _ in range(nm)]
        firsts = [-1] * NRES
        for t in range(NRES):
            ranked = sorted((m for m in range(nm) if self.pos[t * nm + m] >= PLACES_FROM),
                            key=lambda m: (-self.pos[t * nm + m], self.stamp[t * nm + m]))
            for place, m in enumerate(ranked[:len(SCORING.place_multipliers)]):
                track_vp[m][t] = place_points(place, self.value[t])
            if ranked:
                firsts[t] = ranked[0]
        out = []
        for m in range(nm):
            penalty = sum(PENALTY[t].get(self.pos[t * nm + m], 0) for t in range(NTRACKS))
            row = {"tracks": track_vp[m], "penalty": penalty, "tokens": 0, "gold_vp": 0,
                   "gold_left": 0, "objective": 0}
            if m < n:
                ratio = ratio_at(self.pos[BISHOP * nm + m])
                gold_vp = self.gold[m] // ratio if ratio else 0
                row["tokens"] = self.vp[m]
                row["gold_vp"] = gold_vp
                row["gold_left"] = self.gold[m] - gold_vp * ratio
                obj = self.objectives[m]
                if obj >= 0 and firsts[obj] == m:
                    row["objective"] = SCORING.objective_bonus
            row["total"] = (sum(row["tracks"]) - penalty + row["tokens"] + row["gold_vp"]
                            + row["objective"])
            out.append(row)
        return out

    def _finish(self, why: str) -> None:
        self.phase = OVER
        self.tasks = []
        self.final = self.breakdown()
        self.emit("game-end", None, f"The game ends: {why}.")
        text = "Final scores: " + ", ".join(f"{self.who(m)} {row['total']}" for m, row in enumerate(self.final))
        self.emit("game-over", None, text + ". Winner: " + ", ".join(seat_name(s) for s in self.winners) + ".",
                  {"scores": self.scores, "winners": list(self.winners),
                   "gold": list(self.gold), "vp_tokens": list(self.vp)})

    # ================================================================ protocol
    @property
    def to_move(self) -> tuple:
        if self.tasks:
            return (self.tasks[-1][1],)
        phase = self.phase
        if phase == BID:
            return self.waiting
        if phase == OVER:
            return ()
        return (self.current,)

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def scores(self) -> list:
        """VPs per seat: final once the game is over, else as if it ended now."""
        rows = self.final if self.final is not None else self.breakdown()
        return [rows[s]["total"] for s in range(self.players)]

    @property
    def cadfael_score(self) -> int | None:
        """Cadfael's VPs (track places and penalties; 2 players only), else None."""
        if self.cad < 0:
            return None
        rows = self.final if self.final is not None else self.breakdown()
        return rows[self.cad]["total"]

    @property
    def winners(self) -> tuple:
        """Most VPs; ties: most Gold left after conversion, then further up the Bishop Track."""
        if self.phase != OVER:
            return ()
        rows = self.final
        best = min(range(self.players), key=lambda s: (-rows[s]["total"], -rows[s]["gold_left"])
                   + self.bishop_key(s))
        return (best,)

    def decision(self, seat: int):
        if seat not in self.to_move:
            return None
        if self.tasks:
            task = self.tasks[-1]
            if task[0] == "adjust":
                face = ADJ_FACES[task[2]]
                op = ADJ_STEPS[task[2]][task[3]]
                other = " different" if task[3] else ""
                what = {"raise": f"choose a{other} Value Die to increase by 1 pip",
                        "lower": f"choose a{other} Value Die to decrease by 1 pip",
                        "set3": "choose a Value Die to show 3 pips"}[op]
                return Decision(seat, "adjust", f"Adjustment Die ({face.label}): {what}.",
                                "The adjustment is mandatory, even to your disadvantage. Value Dice stay "
                                "between 1 and 6; if all five show 1 or all show 6 afterwards, all are reset to 3.")
            if task[0] == "advance":
                return Decision(seat, "bishop-token", f"Bishop Token: move up 1 space in a Resource Track "
                                f"({task[2]} more, each a different track).",
                                "A Bishop Token never moves you on the Bishop Track. Passing a VP stack "
                                "takes its top token.")
            return Decision(seat, "convert", f"You are at the top of the {TRACK_NAMES[task[2]]}: convert the "
                            f"{task[3]} {SYMBOL_NAMES[task[2]]} dice into random resources?",
                            "Conversion Rule: each die is re-rolled until it shows a different resource, "
                            "then you move up on that track.")
        phase = self.phase
        if phase == REROLL:
            marked = sum(self.marks)
            return Decision(seat, REROLL, "Phase I: keep the dice, or mark dice and pay 1 VP to re-roll them"
                            + (f" ({marked} marked)." if marked else "."),
                            "Once per round the first player may re-roll any or all of the dice for 1 VP. "
                            "The Mule Die moves the Mule; on its final space everyone goes to the market.")
        if phase == SELECT:
            return Decision(seat, SELECT, "Phase III: choose one type of dice from the dice pool.",
                            "You take all dice showing that symbol and resolve them at once: Resource "
                            "Dice move you up their track, Bishop dice up the Bishop Track, the Gold Die "
                            "gives Gold, the Adjustment Die changes Value Dice.")
        if phase == SPLIT:
            have = dice_count(self.small)
            return Decision(seat, SPLIT, f"Market: choose a die for the group of {SMALL_GROUP} "
                            f"({have} of {SMALL_GROUP} chosen; the rest form the other group).",
                            "You may not change the dice; the players then bid for the two groups.")
        if phase == BID:
            total = sum(self.played[seat])
            return Decision(seat, BID, f"Auction: place a Bidding Card face down (your bid so far: {total}; "
                            f"your Gold: {self.gold[seat]}).",
                            "All bidders place a card at the same time, then all are revealed. The pass "
                            "card ends your bidding. The highest total wins and pays it all; second pays "
                            "half (rounded up). Owing more than your Gold loses all your Gold and the next "
                            "auction.")
        if phase == CHOOSE:
            return Decision(seat, CHOOSE, "You won the auction: choose a group of dice.",
                            "You take all the group's dice and resolve them; the second bidder takes the other.")
        if phase == RESOLVE:
            return Decision(seat, RESOLVE, "Market: choose the next type of dice of your group to resolve.",
                            "You resolve every die of the group, one type at a time, in any order.")
        return None

    def _legal_actions(self, seat: int) -> list:
        if self.tasks:
            task = self.tasks[-1]
            targets = self._task_targets(task)
            if task[0] == "adjust":
                op = ADJ_STEPS[task[2]][task[3]]
                out = []
                for d in targets:
                    old = self.value[d]
                    new = old + 1 if op == "raise" else old - 1 if op == "lower" else VALUE_RESET
                    out.append(_ADJ_ACTIONS[op][d][old][new])
                return out
            if task[0] == "advance":
                nm = self.nm
                return [_ADVANCE[t][self.pos[t * nm + seat] + 1] for t in targets]
            return [_CONVERT, _FORGO]
        phase = self.phase
        if phase == SELECT or phase == RESOLVE:
            dice = self.pool if phase == SELECT else self.groups[self.grp]
            out = [_take_action(k, dice, self.players) for k in range(NTRACKS) if dice[k]]
            if dice[GOLD] >= 0:
                out.append(_take_action(GOLD, dice, self.players))
            if dice[ADJUST] >= 0:
                out.append(_take_action(ADJUST, dice, self.players))
            return out
        if phase == BID:
            hand = self.hands[seat]
            return [_BIDS[v] for v in CARD_VALUES if hand >> v & 1]
        if phase == REROLL:
            marks = self.marks
            pool = self.pool
            out = [_MARK[k] for k in range(NTRACKS) if pool[k] > marks[k]]
            if not marks[MARK_GOLD]:
                out.append(_MARK[MARK_GOLD])
            if not marks[MARK_ADJUST]:
                out.append(_MARK[MARK_ADJUST])
            if not marks[MARK_MULE]:
                out.append(_MARK[MARK_MULE])
            if any(marks):
                out.append(_REROLL)
                out.append(_CLEAR)
            out.append(_KEEP)
            return out
        if phase == SPLIT:
            pool = self.pool
            out = [_SMALL[k] for k in range(NTRACKS) if pool[k]]
            if pool[GOLD] >= 0:
                out.append(_SMALL[GOLD])
            if pool[ADJUST] >= 0:
                out.append(_SMALL[ADJUST])
            return out
        if phase == CHOOSE:
            return [Action("group:large", f"Take the group of {dice_count(self.groups[0])} dice: "
                           f"{dice_text(self.groups[0])}", 0),
                    Action("group:small", f"Take the group of {dice_count(self.groups[1])} dice: "
                           f"{dice_text(self.groups[1])}", 1)]
        return []

    def _apply(self, action: Action, seat: int) -> None:
        if self.tasks:
            self._apply_task(action, seat)
            self._settle()
            if not self.tasks:
                self._continue()
            return
        phase = self.phase
        if phase == SELECT or phase == RESOLVE:
            dice = self.pool if phase == SELECT else self.groups[self.grp]
            self._take(seat, action.payload, dice)
            self._settle()
            if not self.tasks:
                self._continue()
        elif phase == BID:
            v = action.payload
            self.hands[seat] &= ~(1 << v)
            self.facedown[seat] = v
            self.emit("bid-secret", seat, _SECRET_BID_TEXT[seat][v], {"card": v}, visible=(seat,))
            self.emit("bid", seat, _BID_TEXT[seat])
            self.waiting = waiting = tuple(s for s in self.waiting if s != seat)
            if not waiting:
                self._reveal()
        elif phase == REROLL:
            self._apply_reroll(action, seat)
        elif phase == SPLIT:
            k = action.payload
            if k < NTRACKS:
                self.pool[k] -= 1
                self.small[k] += 1
            else:
                self.small[k] = self.pool[k]
                self.pool[k] = -1
            if dice_count(self.small) == SMALL_GROUP:
                self.groups = [self.pool, self.small]
                self.pool = list(EMPTY_SET)
                self.small = list(EMPTY_SET)
                self.emit("split", seat, f"{seat_name(seat)} splits the dice: large group "
                          f"{dice_text(self.groups[0])}; small group {dice_text(self.groups[1])}.",
                          {"large": dice_json(self.groups[0]), "small": dice_json(self.groups[1])})
                self._start_auction()
        elif phase == CHOOSE:
            g = action.payload
            self.queue = [(w, g if gg == CHOOSER else 1 - g if gg == OTHER else gg, p)
                          for w, gg, p in self.queue]
            self.emit("choose", seat, f"{seat_name(seat)} chooses the {GROUP_NAMES[g]} group.",
                      {"group": GROUP_NAMES[g]})
            self._next_market_step()

    def _apply_reroll(self, action: Action, seat: int) -> None:
        aid = action.id
        marks = self.marks
        if aid == "keep":
            self.emit("keep", seat, f"{seat_name(seat)} keeps the dice.")
            self._advance_mule()
        elif aid == "clear":
            self.marks = [0] * len(MARK_KINDS)
        elif aid == "reroll":
            self.vp[seat] -= REROLL_COST
            pool = self.pool
            count = 0
            for k in range(NTRACKS):
                pool[k] -= marks[k]
                count += marks[k]
            for _ in range(count):
                pool[SYMBOL_INDEX[self.roll(RESOURCE_DIE)]] += 1
            if marks[MARK_GOLD]:
                pool[GOLD] = GOLD_VALUE_INDEX[self.roll(GOLD_DIE)]
            if marks[MARK_MULE]:
                self.mule_roll = self.roll(MULE_DIE)
            if marks[MARK_ADJUST]:
                pool[ADJUST] = ADJ_INDEX[self.roll(ADJ_DIE)]
            what = [f"{marks[k]} {SYMBOL_NAMES[k]}" for k in range(NTRACKS) if marks[k]] + [
                name for name, i in (("Gold", MARK_GOLD), ("Mule", MARK_MULE), ("Adjustment", MARK_ADJUST))
                if marks[i]]
            self.emit("reroll", seat, f"{seat_name(seat)} pays {REROLL_COST} VP and re-rolls "
                      + ", ".join(what) + f": now {dice_text(pool)}; Mule Die {self.mule_roll}.",
                      {"dice": dice_json(pool), "mule_die": self.mule_roll})
            self._advance_mule()
        else:
            marks[action.payload] += 1

    # ================================================================ views
    def observation(self, seat: int | None) -> dict:
        """What ``seat`` sees (None: a spectator).

        Public: tracks with marker order, Value Dice, stacks (VP tokens in
        order; Bishop stacks as a count and the set of tokens left), the Mule,
        the dice, the auction's revealed cards and who has placed a card,
        Cadfael's revealed and face-up cards. Private to the seat: its Gold,
        VP tokens, face-down card and Hidden Objective. At the game's end all
        holdings are shown.
        """
        n = self.players
        nm = self.nm
        over = self.phase == OVER
        tracks = {}
        for t in range(NTRACKS):
            spaces = [[] for _ in range(TOP[t])]
            for m in sorted(range(nm), key=lambda m: self.stamp[t * nm + m]):
                spaces[self.pos[t * nm + m] - 1].append("cadfael" if m == self.cad else m)
            tracks[SYMBOLS[t]] = spaces
        players = []
        for s in range(n):
            mine = over or s == seat
            unrevealed = self.hands[s] | (1 << self.facedown[s] if self.facedown[s] >= 0 else 0)
            row = {
                "seat": s,
                "face_down_placed": self.facedown[s] >= 0,
                "revealed": list(self.played[s]),
                "bidding": bool(self.active >> s & 1),
                "sitting_out": bool(self.sitting >> s & 1),
                "pass_card_aside": bool((self.barred | self.sitting) >> s & 1),
                "cards_not_revealed": [v for v in CARD_VALUES if unrevealed >> v & 1],
                "gold": self.gold[s] if mine else None,
                "vp_tokens": self.vp[s] if mine else None,
                "objective": (RESOURCES[self.objectives[s]] if self.objectives[s] >= 0 else None)
                if mine else None,
            }
            if s == seat and not over:
                row["hand"] = [v for v in CARD_VALUES if self.hands[s] >> v & 1]
                row["face_down"] = self.facedown[s] if self.facedown[s] >= 0 else None
            players.append(row)
        obs = {
            "game": self.game_id,
            "seat": seat,
            "round": self.round_no,
            "phase": self.phase,
            "first_player": self.first,
            "current": self.current,
            "to_move": list(self.to_move),
            "value_dice": {RESOURCES[d]: self.value[d] for d in range(NRES)},
            "tracks": tracks,
            "vp_stacks": {RESOURCES[t]: [list(self.vp_stacks[t * NSTACKS + k]) for k in range(NSTACKS)]
                          for t in range(NRES)},
            "bishop_stacks": [{"space": TOKEN_SPOTS[g][0], "count": len(self.bishop_stacks[g]),
                               "tokens_left": sorted(TOKENS[i].id for i in self.bishop_stacks[g])}
                              for g in range(len(TOKEN_SPOTS))],
            "mule": self.mule,
            "mule_die": self.mule_roll,
            "pool": dice_json(self.pool),
            "marked": {MARK_KINDS[k]: c for k, c in enumerate(self.marks) if c},
            "small_group": dice_json(self.small),
            "groups": [dice_json(g) for g in self.groups],
            "resolving_group": GROUP_NAMES[self.grp] if self.grp >= 0 else None,
            "pending": list(self.tasks[-1]) if self.tasks else None,
            "players": players,
            "hidden_objectives": bool(self.options.get("hidden_objectives")),
            "auctions_held": self.auctions,
            "last_auction": self.last_auction,
            "is_over": over,
            "scores": self.scores if over else None,
            "winners": list(self.winners),
        }
        if self.cad >= 0:
            obs["cadfael"] = {"revealed": list(self.cad_played), "face_up": list(self.cad_faceup),
                              "draw_pile": len(self.cad_deck),
                              "score": self.cadfael_score if over else None}
        if seat is not None and seat < n and not over:
            obs["my_gold"] = self.gold[seat]
            obs["my_vp_tokens"] = self.vp[seat]
        # Scoring (rulebook Scoring) as if the game ended now. Track places and penalties
        # follow from public positions and Value Dice; a seat's full row also counts its
        # own shield (Gold, VP tokens, objective), so only that seat gets it.
        rows = self.final if over else self.breakdown()
        obs["standing"] = [{"tracks": list(r["tracks"]), "penalty": r["penalty"]} for r in rows]
        if over:
            obs["final"] = [dict(r) for r in rows]
        elif seat is not None and seat < n:
            obs["my_score"] = dict(rows[seat])
        return obs

    def _determinize(self, seat: int) -> None:
        # Bishop Token stacks: the remaining tokens of each group are known, their order is not.
        stacks = []
        for stack in self.bishop_stacks:
            tokens = sorted(stack)
            self.shuffle(tokens)
            stacks.append(tuple(tokens))
        self.bishop_stacks = stacks
        # Cadfael's draw pile: its cards are known (not face up), their order is not.
        if self.cad >= 0:
            self.cad_deck = sorted(self.cad_deck)
            self.shuffle(self.cad_deck)
        # Other seats' face-down bids: any of their unrevealed cards.
        for s in range(self.players):
            if s != seat and self.facedown[s] >= 0:
                unrevealed = self.hands[s] | 1 << self.facedown[s]
                cards = [v for v in CARD_VALUES if unrevealed >> v & 1]
                v = cards[self.randbelow(len(cards))]
                self.facedown[s] = v
                self.hands[s] = unrevealed & ~(1 << v)
        # Hidden Objectives of the others: any cards but the seat's own.
        # (Once the game is over every objective is shown, so nothing is resampled.)
        if self.phase != OVER and any(o >= 0 for o in self.objectives):
            own = self.objectives[seat] if seat is not None else -1   # a spectator sees no objective
            cards = [t for t in range(NRES) if t != own]
            self.shuffle(cards)
            self.objectives = [own if s == seat else cards.pop() for s in range(self.players)]
        # Gold and VP tokens are not resampled: every change to them is public (see module doc).

    # ================================================================ persistence
    def _dump(self) -> dict:
        return {
            "round": self.round_no, "first": self.first, "current": self.current, "phase": self.phase,
            "value": list(self.value), "pos": list(self.pos), "stamp": list(self.stamp),
            "clock": self.clock, "vp_stacks": [list(s) for s in self.vp_stacks],
            "bishop_stacks": [[TOKENS[i].id for i in s] for s in self.bishop_stacks],
            "gold": list(self.gold), "vp": list(self.vp), "mule": self.mule, "mule_roll": self.mule_roll,
            "pool": list(self.pool), "marks": list(self.marks), "small": list(self.small),
            "groups": [list(g) for g in self.groups], "grp": self.grp, "hands": list(self.hands),
            "facedown": list(self.facedown), "played": [list(p) for p in self.played],
            "active": self.active, "sitting": self.sitting, "barred": self.barred,
            "penalized": self.penalized, "cad_deck": list(self.cad_deck),
            "cad_faceup": list(self.cad_faceup), "cad_played": list(self.cad_played),
            "tasks": [list(t) for t in self.tasks], "topped": self.topped,
            "queue": [list(q) for q in self.queue], "objectives": list(self.objectives),
            "auctions": self.auctions, "last_auction": self.last_auction, "final": self.final,
        }

    def _restore(self, p: dict) -> None:
        n = self.players
        self.cad = n if n == 2 else -1
        self.nm = nm = n + (1 if n == 2 else 0)
        self.round_no = int(p["round"])
        self.first = int(p["first"])
        self.current = int(p["current"])
        self.phase = str(p["phase"])
        if self.phase not in PHASES:
            raise ValueError(f"unknown phase {self.phase!r}")
        self.value = [int(x) for x in p["value"]]
        self.pos = [int(x) for x in p["pos"]]
        self.stamp = [int(x) for x in p["stamp"]]
        if len(self.value) != NRES or len(self.pos) != NTRACKS * nm or len(self.stamp) != NTRACKS * nm:
            raise ValueError("value, pos or stamp has the wrong length")
        self.clock = int(p["clock"])
        self.vp_stacks = [tuple(int(x) for x in s) for s in p["vp_stacks"]]
        self.bishop_stacks = [tuple(TOKEN_INDEX[i] for i in s) for s in p["bishop_stacks"]]
        self.gold = [int(x) for x in p["gold"]]
        self.vp = [int(x) for x in p["vp"]]
        self.mule = int(p["mule"])
        self.mule_roll = int(p["mule_roll"])
        self.pool = [int(x) for x in p["pool"]]
        self.marks = [int(x) for x in p["marks"]]
        self.small = [int(x) for x in p["small"]]
        self.groups = [[int(x) for x in g] for g in p["groups"]]
        self.grp = int(p["grp"])
        self.hands = [int(x) for x in p["hands"]]
        self.facedown = [int(x) for x in p["facedown"]]
        self.played = [tuple(int(x) for x in q) for q in p["played"]]
        if not len(self.gold) == len(self.vp) == len(self.hands) == len(self.facedown) == len(self.played) == n:
            raise ValueError("per-seat lists need one entry per seat")
        self.active = int(p["active"])
        self.waiting = tuple(s for s in range(n) if self.active >> s & 1 and self.facedown[s] < 0)
        self.sitting = int(p["sitting"])
        self.barred = int(p["barred"])
        self.penalized = int(p["penalized"])
        self.cad_deck = [int(x) for x in p["cad_deck"]]
        self.cad_faceup = [int(x) for x in p["cad_faceup"]]
        self.cad_played = [int(x) for x in p["cad_played"]]
        self.tasks = [(str(t[0]),) + tuple(int(x) for x in t[1:]) for t in p["tasks"]]
        self.topped = int(p["topped"])
        self.queue = [tuple(int(x) for x in q) for q in p["queue"]]
        self.objectives = [int(x) for x in p["objectives"]]
        self.auctions = int(p["auctions"])
        self.last_auction = p["last_auction"]
        self.final = p["final"]

    def _copy_into(self, other: "BibliosDiceState") -> None:
        other.nm = self.nm
        other.cad = self.cad
        other.round_no = self.round_no
        other.first = self.first
        other.current = self.current
        other.phase = self.phase
        other.value = self.value[:]
        other.pos = self.pos[:]
        other.stamp = self.stamp[:]
        other.clock = self.clock
        other.vp_stacks = self.vp_stacks[:]
        other.bishop_stacks = self.bishop_stacks[:]
        other.gold = self.gold[:]
        other.vp = self.vp[:]
        other.mule = self.mule
        other.mule_roll = self.mule_roll
        other.pool = self.pool[:]
        other.marks = self.marks[:]
        other.small = self.small[:]
        other.groups = [self.groups[0][:], self.groups[1][:]]
        other.grp = self.grp
        other.hands = self.hands[:]
        other.facedown = self.facedown[:]
        other.played = self.played[:]
        other.active = self.active
        other.waiting = self.waiting
        other.sitting = self.sitting
        other.barred = self.barred
        other.penalized = self.penalized
        other.cad_deck = self.cad_deck[:]
        other.cad_faceup = self.cad_faceup          # replaced, never mutated
        other.cad_played = self.cad_played[:]
        other.tasks = self.tasks[:]
        other.topped = self.topped
        other.queue = self.queue[:]
        other.objectives = self.objectives          # replaced, never mutated after set-up
        other.auctions = self.auctions
        other.last_auction = self.last_auction      # never mutated once built
        other.final = self.final                    # never mutated once built


# Precomputed task actions: adjustments by step, die, old and new pips; Bishop Token moves.
_ADJ_ACTIONS = {
    op: [[{new: Action(f"{op}:{RESOURCES[d]}",
                       f"Turn the {SYMBOL_NAMES[d]} Value Die from {old} to {new}" if old != new
                       else f"Keep the {SYMBOL_NAMES[d]} Value Die at {new}", d)
           for new in range(VALUE_MIN, VALUE_MAX + 1)} for old in range(VALUE_MAX + 1)]
         for d in range(NRES)]
    for op in ("raise", "lower", "set3")
}
_SECRET_BID_TEXT = [{v: f"{seat_name(s)} secretly places the {card_name(v)} card face down."
                     for v in CARD_VALUES} for s in range(8)]
_BID_TEXT = [f"{seat_name(s)} places a Bidding Card face down." for s in range(8)]
_ADVANCE = [[Action(f"advance:{RESOURCES[t]}", f"Move up 1 space on the {TRACK_NAMES[t]} (to space {s})", t)
             for s in range(TOP[t] + 2)] for t in range(NRES)]
