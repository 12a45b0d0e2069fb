"""Corsairs of Valeria rules (rulebook: Game Setup, Game Flow, phases A-D, Reaching
Skull Island, Ending the Game, Captain Cards).

Turn structure
--------------
A turn is the rulebook's phases A-D, written on the engine's turn flow
(:mod:`dicetable.engine.flow`): pending tasks are plain tuples ``(kind,
seat, ...)`` on ``state.tasks``, each kind with its handler. A task that
resolves on its own (``@auto``) decides whether its seat must choose; if so
it schedules the *decision* task of the same name with a ``?`` (``"reroll"``
-> ``"reroll?"``), whose prompt, legal actions and resolution are the
``@prompt``/``@choices``/``@resolve`` handlers. Observations name both
without the ``?`` (``waiting_for``, ``pending``).

* **A Roll Dice** (``roll``): Willem/Luthor may first pay 1 Grog to set one
  die to the Cannon/Map face; then the dice are rolled (kept sorted by
  symbol, Skulls first).
* **B Re-roll Dice** (``reroll``): mark dice one at a time (``mark:1`` ..
  ``mark:5`` toggle), then ``reroll`` them for 1 Grog (``reroll-silver``: 1
  Silver, Prince of Bella Ire) or ``lock``. Skipped when nothing can pay.
  Then (``captain-b``) Mistress of the Skull / Reo the Cartographer decide.
* **C Execute Dice Actions**: all Skull and Skull-and-Grog faces first
  (``skulls``; a 5-Skull roll first asks ``give``/``keep``; Mister Bones may
  ignore one Skull); then the player picks the next symbol group (``order``:
  ``grog``, ``silver``, ``maps``, ``cannons``; Lucky Jax'n's ``jaxn``) until
  all are done. Maps move step by step (``move``), asking ``forward:<lane>``
  on entering a split Track and, with 5 Maps, ``forward``/``backward`` at
  every step. Cannons ask ``cannons``: ``attack:pN``, ``steal:pN`` (5 Cannons),
  ``merchant``, ``hook:pN`` (Captain Hook) or ``hold``.
* **D End Your Turn**: Hasan's exchange, then the race reset after a first
  Skull Island visit or the game's end after a second, then the next player.

Silver always moves one coin at a time, and the 5-Silver-for-1-Treasure
exchange happens the moment a ship holds 5 (it interrupts anything); the
sixth Treasure ends the game at once (``_win_now`` drops every pending task,
and each rule that pays Silver stops there). The Silver supply is never
stored: it is 35 minus the Silver on the ships and on Skull Island.

Decisions where the rulebook is silent (each tested, see docs/games/corsairs-of-valeria.md)
------------------------------------------------------------------------------------------
* The starting player ("who most recently lost a game") is random, or set by
  the ``first_player`` option.
* A ship pushed back into a split Track: its owner picks the lane (the rule
  says the ship's player decides the side); the decision is asked of that
  seat in the middle of the attacker's turn.
* Knock-back stops at the Start space; a knock-back of 0 spaces (exactly 3
  Cannons) is no movement, so no hazard triggers.
* Empty supply: every gain from the supply pays out coin by coin as far as
  the supply allows (as the Skull rule does "as your Silver allows"); an
  exchange returns 5 coins first, so a gain may continue after it. Skull
  Island's refill and Hasan's conversion are limited the same way (Grog that
  cannot be turned into Silver stays on the dial).
* 5-Cannon bonus: ``steal`` is offered only against a player with at least 1
  Treasure; the ordinary attack stays available against everyone.
* Recipients of given Skull dice resolve them as their own Dice Actions:
  Skulls first, then Grog; no 5-of-a-kind bonus for them (they cannot pass
  the dice on, and a turn that is not theirs cannot begin again); Mister
  Bones may ignore one Skull; powers of phases A, B and D and Lucky Jax'n
  ("your last roll") do not apply. The giver's turn then ends without phase D.
* Willem's / Luthor's set die is an ordinary die in phase B (it may be re-rolled).
* A 5-Grog restart begins again at phase A without phase D in between (the
  turn has not ended); Captain powers of phase A apply again.
* Captain Hook's jump happens before the other Cannons are used (the rest
  then count as the Cannon total), at most once per Cannon action, only to a
  space of another ship; it is movement, so the hazard of the space it ends
  on triggers, but no island is passed.
* Jäger Knot's and Lucky Jax'n's single space forward are Map moves: islands
  pay, lanes are chosen, the hazard of the end space triggers, and reaching
  Skull Island counts. Lucky Jax'n moves, then gains the Grog.
* Hasan has no "may": with 2 or more Grog at the start of phase D he must pay
  1 and turn the rest into Silver; with 0 or 1 Grog nothing happens.
* Mister Bones is asked only when ignoring a Skull would save a coin (his
  Silver covers every Skull); otherwise the Skulls take what he has.
* Once a ship reaches Skull Island it stays there for the rest of that turn:
  remaining Maps, Jäger's and Jax'n's moves and Hook's jump are void.
"""

from __future__ import annotations

from dicetable.engine import (
    LIST, Action, Decision, Field, FlowState, GameConfigError, auto, choices, int_list, prompt, resolve, seat_name,
)

from .components import (
    BONES,
    CANNON,
    CAPTAIN_INDEX,
    CAPTAINS,
    COLOURS,
    CORSAIRS_DIE,
    CUTTHROAT,
    DICE,
    DIE_FACES,
    FACE_INDEX,
    FACE_WORD,
    GROG,
    GROG_MAX,
    GROG_START,
    HASAN,
    HAZARD_WORD,
    HOOK,
    ISLAND_REFILL,
    ISLAND_START,
    JAGER,
    JAXN,
    LUTHOR,
    MAP,
    MISTRESS,
    NO_CAPTAIN,
    PRINCE,
    REO,
    SEA_MONSTER,
    SILVER,
    SILVER_PER_TREASURE,
    SILVER_START,
    SILVER_TOTAL,
    SKULL,
    SKULL_GROG,
    TRACKS,
    TRACKS_USED,
    TREASURE_START,
    TREASURE_TO_WIN,
    WHIRLPOOL,
    WILLEM,
    flipped,
    layout_name,
    parse_layout,
    race_track,
)

OVER = "over"
ASK = "?"
"""The last character of every decision task kind (``"reroll?"``); observations show kinds without it."""
_NAME = tuple(seat_name(i) for i in range(len(COLOURS)))   # "Player 1".. for event texts

# flag bits of the current turn
F_MAP5 = 1          # 5 Maps: move forward or backward at will
F_CANNON5 = 2       # 5 Cannons: may steal a Treasure
F_GROG5 = 4         # 5 Grog-type faces: the turn begins again after phase C
F_ARRIVED = 8       # the current ship reached Skull Island this turn
F_HOOK_USED = 16    # Captain Hook jumped during this Cannon action
F_JAXN = 32         # Lucky Jax'n's move is still available this phase C

# symbol groups of phase C, in the order they are listed
G_GROG, G_SILVER, G_MAP, G_CANNON = range(4)
GROUP_IDS = ("grog", "silver", "maps", "cannons")


def faces_text(dice) -> str:
    """``[0, 2, 4]`` -> ``"Skull, Grog, Map"``."""
    return ", ".join(FACE_WORD[f] for f in dice) if dice else "no dice"


_DICE_INFO: dict = {}


def _dice_info(dice) -> tuple:
    """``(text, names)`` of a roll, cached: names is a shared list that nobody mutates."""
    key = tuple(dice)
    info = _DICE_INFO.get(key)
    if info is None:
        info = _DICE_INFO[key] = (faces_text(key), [DIE_FACES[f] for f in key])
    return info


def count_faces(dice) -> list:
    """The 6 face counts of a roll (index = face code)."""
    out = [0] * 6
    for f in dice:
        out[f] += 1
    return out


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s" if not word.endswith("s") else f"{n} {word}"


def _pn(seat: int) -> str:
    """The id fragment for a seat: ``p1`` is seat 0 (people count players from 1)."""
    return f"p{seat + 1}"


def race_number(state: "CorsairsState") -> int:
    """1 or 2: the race being sailed (a Skull Island arrival still belongs to its race until the turn ends)."""
    arrived = 1 if state.flags & F_ARRIVED else 0
    return max(1, min(2, state.visits + 1 - arrived))


def captain_name(index: int) -> str:
    """The Captain card's name, or "no Captain"."""
    return CAPTAINS[index].name if index >= 0 else "no Captain"


# ---------------------------------------------------------------- static actions

_MARK = tuple(
    tuple(
        (Action(f"mark:{i + 1}", f"Mark die {i + 1} ({FACE_WORD[f]}) to re-roll it", i),
         Action(f"mark:{i + 1}", f"Unmark die {i + 1} ({FACE_WORD[f]}): keep it", i))
        for f in range(6)
    )
    for i in range(DICE)
)
_REROLL_GROG = tuple(Action("reroll", f"Re-roll the {k} marked {'die' if k == 1 else 'dice'} for 1 Grog")
                     for k in range(DICE + 1))
_REROLL_SILVER = tuple(Action("reroll-silver", f"Re-roll the {k} marked {'die' if k == 1 else 'dice'} "
                              "for 1 Silver (Prince of Bella Ire)") for k in range(DICE + 1))
_LOCK = Action("lock", "Lock the dice: this is your last roll")


def reroll_menu(dice: tuple, marked: int, grog: bool, silver: bool) -> tuple:
    """Phase B's choices (rulebook: B Re-roll Dice): toggle each die's mark, re-roll the marked dice
    for 1 Grog (``grog``: the seat has Grog) or 1 Silver (``silver``: Prince of Bella Ire with
    Silver), or lock. ``marked`` has bit ``i`` set for die ``i``; re-rolls need a marked die."""
    acts = [_MARK[i][f][(marked >> i) & 1] for i, f in enumerate(dice)]
    if marked:
        k = bin(marked).count("1")
        if grog:
            acts.append(_REROLL_GROG[k])
        if silver:
            acts.append(_REROLL_SILVER[k])
    acts.append(_LOCK)
    return tuple(acts)


_REROLL_MENUS: dict = {}  # (dice, marked, grog, silver) -> reroll_menu(...): at most 252 rolls x 32 marks x 3
_ROLL = Action("roll", "Roll all 5 dice")
_SET_CANNON = Action("set-cannon", "Willem the Artificer: pay 1 Grog to set 1 die to the Cannon face, then roll 4")
_SET_MAP = Action("set-map", "Luthor the Sea Artist: pay 1 Grog to set 1 die to the Map face, then roll 4")
_MISTRESS = Action("mistress", "Mistress of the Skull: turn all Skull-and-Grog faces into Grog faces")
_KEEP = Action("keep", "Keep the dice as they are")
_REO = tuple(Action(f"reo:{k}", f"Reo the Cartographer: change {k} Map{'s' if k > 1 else ''} into Silver faces", k)
             for k in range(4))
_GIVE_ALL = Action("give", "5-of-a-kind: hand the 5 dice out to the other players")
_KEEP_SKULLS = Action("keep", "Keep the dice: lose 1 Silver for each of the 5 Skulls")
_BONES_IGNORE = Action("bones:ignore", "Mister Bones: ignore one Skull and keep that Silver")
_BONES_PAY = Action("bones:pay", "Lose 1 Silver for every Skull")
_JAXN = Action("jaxn", "Lucky Jax'n: move 1 space forward and gain 1 Grog")
_PASS = Action("pass", "Do not use Lucky Jax'n; finish the Dice Actions")
_HOLD = Action("hold", "Hold your fire: attack nobody")
_JAGER_MOVE = Action("jager:move", "Jäger Knot: move 1 space forward (as with a Map)")
_JAGER_STAY = Action("jager:stay", "Stay where you are")


def order_menu(left, flags: int) -> tuple:
    """Phase C's choice of the next symbol group (rulebook: C Execute Dice Actions): one action per
    group with faces ``left`` (Grog, Silver, Maps, Cannons counts), then Lucky Jax'n's move while
    ``flags`` has F_JAXN (and a pass when no group is left)."""
    acts = [_group_action(g, n, flags) for g, n in enumerate(left) if n > 0]
    if flags & F_JAXN:
        acts.append(_JAXN)
        if len(acts) == 1:
            acts.append(_PASS)
    return tuple(acts)


_ORDER_MENUS: dict = {}  # (*left, flags) -> order_menu(...)


def _group_action(g: int, n: int, flags: int) -> Action:
    if g == G_GROG:
        label = f"Acquire Grog ({_plural(n, 'Grog face')}; dial max {GROG_MAX})"
        if flags & F_GROG5:
            label += "; 5-of-a-kind: fill the dial, then begin your turn again"
    elif g == G_SILVER:
        label = f"Collect Silver coins ({_plural(n, 'Silver face')})"
    elif g == G_MAP:
        label = f"Move your Ship ({_plural(n, 'Map')})"
        if flags & F_MAP5:
            label += "; 5-of-a-kind: forward or backward at each step"
    else:
        label = f"Use your Cannons ({_plural(n, 'Cannon')})"
    return Action(GROUP_IDS[g], label, g)


def _captains_in(value) -> tuple:
    return tuple(CAPTAIN_INDEX[c] if c is not None else NO_CAPTAIN for c in value)


def _captains_out(value: tuple) -> list:
    return [CAPTAINS[c].id if c >= 0 else None for c in value]


def _dice_in(value) -> list:
    return [FACE_INDEX[f] for f in value]


def _dice_out(value: list) -> list:
    return [DIE_FACES[f] for f in value]


def shown_kind(kind: str) -> str:
    """The name a task kind has in observations: a decision kind without its ``?`` (``"reroll?"`` -> ``"reroll"``)."""
    return kind[:-1] if kind.endswith(ASK) else kind


class CorsairsState(FlowState):
    """A game of Corsairs of Valeria for 2-5 players.

    Fields (seats index the lists): ``pos`` node of each Ship on ``track``
    (a compiled :class:`~.components.RaceTrack`, shared, rebuilt from
    ``layout`` on restore), ``grog`` 0-4, ``silver`` coins on each Ship
    Board, ``treasure`` 0-6, ``captain`` index into ``CAPTAINS`` (-1 none);
    ``island`` Silver on Skull Island; ``visits`` Skull Island arrivals so
    far; ``current`` the seat whose turn it is; ``turn`` turns begun;
    ``phase`` "A"-"D" or "over"; ``dice`` the 5 face codes (sorted),
    ``marked`` a bit per die to re-roll, ``rerolls`` re-rolls this turn;
    ``left`` the symbol counts of phase C not yet executed (Grog, Silver,
    Maps, Cannons); ``flags`` bits of the turn (F_*); ``winner6`` the seat
    that gained the 6th Treasure (-1: none); ``tasks`` the pending tasks
    (see the module docstring).
    """

    layout = Field(parse_layout, save="tracks", encode=layout_name)
    track = Field(save=False)  # derived from layout: _after_restore
    captain = Field(_captains_in, save="captains", encode=_captains_out)
    pos = Field(int_list, copy=LIST)
    grog = Field(int_list, copy=LIST)
    silver = Field(int_list, copy=LIST)
    treasure = Field(int_list, copy=LIST)
    island = Field(int)
    visits = Field(int)
    current = Field(int)
    turn = Field(int)
    phase = Field(str)
    dice = Field(_dice_in, copy=LIST, encode=_dice_out)
    marked = Field(int)
    rerolls = Field(int)
    left = Field(int_list, copy=LIST)
    flags = Field(int)
    winner6 = Field(int)

    # ============================================================ set-up
    def _setup(self) -> None:
        n = self.players
        self.captain = self._deal_captains(str(self.options["captains"]))
        tracks = str(self.options["tracks"]).strip()
        if tracks == "random":
            order = list(range(len(TRACKS)))
            self.shuffle(order)
            layout = tuple((t, self.randbelow(2)) for t in order[:TRACKS_USED])
        else:
            try:
                layout = parse_layout(tracks)
            except ValueError as exc:
                raise GameConfigError(f"option 'tracks': {exc}; or 'random'") from None
        self._set_layout(layout)
        self.pos = [self.track.start] * n
        self.grog = [GROG_START] * n
        self.silver = [SILVER_START] * n
        self.treasure = [TREASURE_START] * n
        self.island = ISLAND_START
        self.visits = 0
        self.turn = 0
        self.dice = []
        self.marked = 0
        self.rerolls = 0
        self.left = [0, 0, 0, 0]
        self.flags = 0
        self.winner6 = -1
        first = str(self.options["first_player"])
        if first == "random":
            self.current = self.randbelow(n)
        else:
            if not (first.isascii() and first.isdigit()) or not 1 <= int(first) <= n:
                raise GameConfigError(f"option 'first_player' must be 'random' or 1..{n}, got {first!r}")
            self.current = int(first) - 1
        self.phase = "A"
        self.emit("setup", None, "The race track: Start Island, " + ", ".join(
            title for title, _ in self.track.segments[1:-1]) + f", Skull Island ({ISLAND_START} Silver).",
            {"tracks": layout_name(layout)})
        for s in range(n):
            self.emit("captain", s, f"{_NAME[s]} ({COLOURS[s]} ship) is {captain_name(self.captain[s])}.",
                      {"captain": CAPTAINS[self.captain[s]].id if self.captain[s] >= 0 else None})
        self.emit("first", self.current, f"{_NAME[self.current]} starts.")
        self.tasks = [("turn", self.current)]
        self.lanes = None
        self.run()

    def _deal_captains(self, text: str) -> tuple:
        chosen = parse_captains(text, self.players)
        if chosen is None:  # "random": deal from the shuffled Captain cards
            deck = list(range(len(CAPTAINS)))
            self.shuffle(deck)
            return tuple(deck[:self.players])
        return chosen

    def _set_layout(self, layout: tuple) -> None:
        self.layout = layout
        self.track = race_track(layout)

    def _after_restore(self) -> None:
        """Rebuild the compiled race track; refuse a table no game can reach (ValueError)."""
        self.track = race_track(self.layout)
        n = self.players
        if not all(len(x) == n for x in (self.captain, self.pos, self.grog, self.silver, self.treasure)):
            raise ValueError("captains, pos, grog, silver and treasure need one entry per seat")
        if any(not 0 <= x < len(self.track) for x in self.pos):
            raise ValueError("a ship is off the race track")
        if self.phase not in ("A", "B", "C", "D", OVER):
            raise ValueError(f"unknown phase {self.phase!r}")
        for t in self.tasks:
            if not t or t[0] not in self.TASK_KINDS:
                raise ValueError(f"unknown task {list(t)!r}")
        if self.lanes is not None:
            raise ValueError("Corsairs of Valeria has no simultaneous decisions (lanes must be null)")
        if (self.phase == OVER) != (not self.tasks):
            raise ValueError("a game in progress needs pending tasks, a finished one none")
        if SILVER_TOTAL - sum(self.silver) - self.island < 0:
            raise ValueError("more Silver on the table than the game has")

    # ============================================================ public queries
    @property
    def scores(self) -> list:
        """Treasure per seat (the rulebook's measure; ties broken in ``winners``)."""
        return list(self.treasure)

    @property
    def winners(self) -> tuple:
        """The 6th-Treasure winner; else most Treasure, then Silver, then Grog; still tied: all share."""
        if self.phase != OVER:
            return ()
        if self.winner6 >= 0:
            return (self.winner6,)
        keys = [(self.treasure[s], self.silver[s], self.grog[s]) for s in range(self.players)]
        best = max(keys)
        return tuple(s for s, k in enumerate(keys) if k == best)

    @property
    def supply(self) -> int:
        """Silver coins in the general supply: 35 minus those on ships and Skull Island."""
        return SILVER_TOTAL - sum(self.silver) - self.island

    @property
    def waiting_for(self) -> str | None:
        """The kind of decision the game waits on (``"reroll"``, ``"move"``...; see TASK_KINDS), None when over."""
        tasks = self.tasks
        return shown_kind(tasks[-1][0]) if tasks else None

    # ------------------------------------------------------------ coins and dials
    def _exchange(self, seat: int) -> bool:
        """The immediate 5 Silver -> 1 Treasure exchange; True when it gave the 6th Treasure (the game is over)."""
        while self.silver[seat] >= SILVER_PER_TREASURE:
            self.silver[seat] -= SILVER_PER_TREASURE
            self.treasure[seat] += 1
            if not self.quiet:
                self.emit("treasure", seat, f"{_NAME[seat]} returns {SILVER_PER_TREASURE} Silver to the "
                          f"supply and gains a Treasure ({self.treasure[seat]}).",
                          {"treasure": self.treasure[seat]})
            if self.treasure[seat] >= TREASURE_TO_WIN:
                self._win_now(seat)
                return True
        return False

    def _gain_silver(self, seat: int, n: int, why: str, faces: str = "") -> None:
        """Take up to ``n`` Silver from the supply, coin by coin (each may complete a Treasure and end the game).

        The event says ``why`` (followed by ``n`` ``faces`` when given: "collects 2 Silver faces").
        """
        if n <= 0:
            return
        if not self.quiet:
            if faces:
                why = f"{why} {_plural(n, faces)}"
            short = self.supply < n
            self.emit("silver", seat, f"{_NAME[seat]} {why}: +{n} Silver"
                      + (f" (the supply holds only {self.supply} now)" if short else "") + ".",
                      {"silver": n})
        silver = self.silver
        for got in range(n):
            if SILVER_TOTAL - sum(silver) - self.island <= 0:
                if not self.quiet:
                    self.emit("supply-empty", seat, f"The Silver supply is empty: {_NAME[seat]} "
                              f"gets {got} of {n}.", {"got": got, "wanted": n})
                return
            silver[seat] += 1
            if silver[seat] >= SILVER_PER_TREASURE and self._exchange(seat):
                return

    def _gain_grog(self, seat: int, n: int, why: str, faces: str = "") -> None:
        """Fill the Grog dial by up to ``n`` (max 4); the rest is wasted. The event as for :meth:`_gain_silver`."""
        gain = min(n, GROG_MAX - self.grog[seat])
        self.grog[seat] += gain
        if not self.quiet:
            if faces:
                why = f"{why} {_plural(n, faces)}"
            wasted = n - gain
            self.emit("grog", seat, f"{_NAME[seat]} {why}: +{gain} Grog (dial {self.grog[seat]}/{GROG_MAX})"
                      + (f", {wasted} wasted" if wasted else "") + ".", {"grog": gain, "wasted": wasted})

    # ------------------------------------------------------------ movement
    def _step_to(self, seat: int, node: int, forward: bool) -> None:
        """Move one space; forwards pays the island on the crossed line; may reach Skull Island or end the game."""
        here = self.pos[seat]
        track = self.track
        silver = grog = 0
        if forward:
            for m, s, g in track.fwd[here]:
                if m == node:
                    silver, grog = s, g
                    break
        self.pos[seat] = node
        if not self.quiet:
            self.emit("move", seat, f"{_NAME[seat]} sails {'forward' if forward else 'backward'} to "
                      f"{track.label[node]}.", {"to": node, "forward": forward})
        if forward:
            if grog:
                self._gain_grog(seat, grog, "passes an island")
            if silver:
                self._gain_silver(seat, silver, "passes an island")
                if self.winner6 >= 0:
                    return
            if node == track.skull:
                self._arrive(seat)

    def _arrive(self, seat: int) -> None:
        """Reaching Skull Island: take its Silver (rulebook: Reaching Skull Island); the rest of the Maps is void."""
        self.flags = (self.flags | F_ARRIVED) & ~F_JAXN
        self.visits += 1
        ignored = self.left[G_MAP]
        self.left[G_MAP] = 0
        loot = self.island
        if not self.quiet:
            self.emit("skull-island", seat, f"{_NAME[seat]} reaches Skull Island "
                      f"({'first' if self.visits == 1 else 'second'} time) and takes its {loot} Silver"
                      + ("; the remaining Maps are ignored" if ignored else "") + ".",
                      {"visit": self.visits, "silver": loot})
        for _ in range(loot):
            self.island -= 1
            self.silver[seat] += 1
            if self._exchange(seat):
                return

    def _hazard(self, seat: int) -> None:
        """Trigger the hazard of the space where ``seat``'s movement ended."""
        node = self.pos[seat]
        h = self.track.hazard[node]
        if h == WHIRLPOOL:
            self.pos[seat] = self.track.start
            if not self.quiet:
                self.emit("whirlpool", seat, f"{_NAME[seat]} ends on a Whirlpool and returns to the Start space.")
        elif h == SEA_MONSTER:
            lost = self.silver[seat]
            self.silver[seat] = 0
            if not self.quiet:
                self.emit("sea-monster", seat, f"{_NAME[seat]} ends on a Sea Monster and returns all "
                          f"{lost} Silver to the supply." if lost else
                          f"{_NAME[seat]} ends on a Sea Monster (no Silver to lose).", {"lost": lost})
        elif h == CUTTHROAT:
            lost = self.grog[seat]
            self.grog[seat] = 0
            if not self.quiet:
                self.emit("cutthroat", seat, f"{_NAME[seat]} ends on a Cutthroat space and loses all "
                          f"{lost} Grog." if lost else
                          f"{_NAME[seat]} ends on a Cutthroat space (no Grog to lose).", {"lost": lost})

    # ------------------------------------------------------------ end of game
    def _win_now(self, seat: int) -> None:
        """A 6th Treasure: the game ends at once, whatever was still pending (rulebook: Ending the Game)."""
        self.phase = OVER
        self.end_game()
        self.winner6 = seat
        if not self.quiet:
            self.emit("game-over", seat, f"{_NAME[seat]} has {TREASURE_TO_WIN} Treasures and wins the game!",
                      {"winners": [seat], "treasure": list(self.treasure)})

    def _end_by_second_visit(self) -> None:
        self.phase = OVER
        self.end_game()
        if not self.quiet:
            win = self.winners
            text = "Skull Island has been reached a second time: the game ends. " + ", ".join(
                f"{_NAME[s]} {self.treasure[s]} Treasure/{self.silver[s]} Silver/{self.grog[s]} Grog"
                for s in range(self.players))
            text += ". " + ("Winner: " if len(win) == 1 else "Shared victory: ") + ", ".join(map(seat_name, win)) + "."
            self.emit("game-over", None, text, {"winners": list(win), "treasure": list(self.treasure)})

    # ============================================================ the turn
    @auto("turn")
    def _begin_turn(self, task) -> None:
        seat = task[1]
        self.current = seat
        self.turn += 1
        self.flags = 0
        self._begin_phases(seat)

    def _begin_phases(self, seat: int) -> None:
        """Phases A, B, end-of-B Captains and C of ``seat`` (also a 5-Grog restart)."""
        self.dice = []
        self.marked = 0
        self.rerolls = 0
        self.left = [0, 0, 0, 0]
        self.flags &= F_ARRIVED
        self.then(("roll", seat), ("reroll", seat), ("captain-b", seat), ("execute", seat))

    def _roll(self, count: int, preset: tuple = ()) -> None:
        dice = list(preset)
        dice += [FACE_INDEX[f] for f in self.roll_many(CORSAIRS_DIE, count)]
        dice.sort()
        self.dice = dice
        self.marked = 0

    # --- A: Roll Dice
    @auto("roll")
    def _phase_a(self, task) -> None:
        seat = task[1]
        self.phase = "A"
        if self.captain[seat] in (WILLEM, LUTHOR) and self.grog[seat] >= 1:
            self.then(("roll?", seat))
            return
        self._roll(DICE)
        if not self.quiet:
            text, names = _dice_info(self.dice)
            self.emit("roll", seat, f"Turn {self.turn}: {_NAME[seat]} rolls {text}.",
                      {"dice": names, "turn": self.turn})

    @prompt("roll?")
    def _roll_prompt(self, task) -> Decision:
        cap = self.captain[task[1]]
        face = "Cannon" if cap == WILLEM else "Map"
        return Decision(task[1], "roll", f"Phase A: roll the dice, or first pay 1 Grog to set one die to "
                        f"the {face} face ({captain_name(cap)}).",
                        f"{CAPTAINS[cap].text}")

    @choices("roll?")
    def _roll_choices(self, task) -> list:
        return [_ROLL, _SET_CANNON if self.captain[task[1]] == WILLEM else _SET_MAP]

    @resolve("roll?")
    def _roll_chosen(self, task, action) -> None:
        seat = task[1]
        if action.id == "roll":
            self._roll(DICE)
            if not self.quiet:
                text, names = _dice_info(self.dice)
                self.emit("roll", seat, f"Turn {self.turn}: {_NAME[seat]} rolls {text}.",
                          {"dice": names, "turn": self.turn})
            return
        face = CANNON if action.id == "set-cannon" else MAP
        self.grog[seat] -= 1
        self._roll(DICE - 1, (face,))
        if not self.quiet:
            text, names = _dice_info(self.dice)
            self.emit("roll", seat, f"Turn {self.turn}: {_NAME[seat]} ({captain_name(self.captain[seat])}) pays "
                      f"1 Grog to set a die to the {FACE_WORD[face]} face and rolls the rest: {text}.",
                      {"dice": names, "set": DIE_FACES[face], "turn": self.turn})

    # --- B: Re-roll Dice
    def _can_pay_reroll(self, seat: int) -> bool:
        return self.grog[seat] >= 1 or (self.captain[seat] == PRINCE and self.silver[seat] >= 1)

    @auto("reroll")
    def _phase_b(self, task) -> None:
        seat = task[1]
        self.phase = "B"
        if self._can_pay_reroll(seat):
            self.then(("reroll?", seat))
            return
        self.marked = 0
        if not self.quiet:
            text, names = _dice_info(self.dice)
            self.emit("lock", seat, f"{_NAME[seat]} cannot pay for a re-roll: the dice are locked ({text}).",
                      {"dice": names})

    @prompt("reroll?")
    def _reroll_prompt(self, task) -> Decision:
        seat = task[1]
        pay = f"{self.grog[seat]} Grog"
        if self.captain[seat] == PRINCE:
            pay += f", {self.silver[seat]} Silver (Prince of Bella Ire)"
        marked = [str(i + 1) for i in range(len(self.dice)) if (self.marked >> i) & 1]
        prompt = (f"Phase B: your dice show {faces_text(self.dice)}. Mark dice to re-roll"
                  + (f" (marked: {', '.join(marked)})" if marked else "") + f", then re-roll or lock. You have {pay}.")
        return Decision(seat, "reroll", prompt,
                        "You may re-roll any or all of your dice by spending 1 Grog; every re-roll costs 1 Grog. "
                        "When you stop (lock) or can no longer pay, the dice are your last roll. Tip: type "
                        "several choices at once, e.g. '1 3 reroll' marks dice 1 and 3 and re-rolls them (numbers "
                        "refer to the list as shown, which has no re-roll choice until a die is marked).")

    @choices("reroll?")
    def _reroll_choices(self, task) -> tuple:
        seat = task[1]
        grog = self.grog[seat] >= 1
        silver = self.captain[seat] == PRINCE and self.silver[seat] >= 1
        key = (tuple(self.dice), self.marked, grog, silver)
        menu = _REROLL_MENUS.get(key)
        if menu is None:
            menu = _REROLL_MENUS[key] = reroll_menu(*key)
        return menu

    @resolve("reroll?")
    def _reroll_chosen(self, task, action) -> None:
        seat = task[1]
        aid = action.id
        if aid == "lock":
            self.marked = 0
            if not self.quiet:
                text, names = _dice_info(self.dice)
                self.emit("lock", seat, f"{_NAME[seat]} locks the dice: {text}.", {"dice": names})
            return
        if aid.startswith("mark:"):
            self.marked ^= 1 << action.payload
            self.tasks.append(task)  # still deciding; marking pays nothing, so the re-roll stays payable
            return
        if aid == "reroll":
            self.grog[seat] -= 1
        else:
            self.silver[seat] -= 1
        marked = self.marked
        keep = [f for i, f in enumerate(self.dice) if not (marked >> i) & 1]
        again = [f for i, f in enumerate(self.dice) if (marked >> i) & 1]
        self._roll(len(again), tuple(keep))
        self.rerolls += 1
        self.then(("reroll", seat))  # another re-roll, if one can still be paid
        if not self.quiet:
            again_text, again_names = _dice_info(again)
            text, names = _dice_info(self.dice)
            paid = "1 Grog" if aid == "reroll" else "1 Silver"
            self.emit("reroll", seat, f"{_NAME[seat]} pays {paid} to re-roll {again_text}: now {text}.",
                      {"rerolled": again_names, "dice": names, "paid": "silver" if aid == "reroll-silver" else "grog"})

    # --- end of B: Mistress of the Skull, Reo the Cartographer
    @auto("captain-b")
    def _end_of_b(self, task) -> None:
        seat = task[1]
        cap = self.captain[seat]
        if (cap == MISTRESS and SKULL_GROG in self.dice) or (cap == REO and MAP in self.dice):
            self.then(("captain-b?", seat))

    @prompt("captain-b?")
    def _captain_b_prompt(self, task) -> Decision:
        seat = task[1]
        cap = self.captain[seat]
        if cap == MISTRESS:
            prompt = f"End of phase B ({faces_text(self.dice)}): turn all Skull-and-Grog faces into Grog faces?"
        else:
            prompt = f"End of phase B ({faces_text(self.dice)}): change up to three Maps into Silver faces?"
        return Decision(seat, "captain-b", prompt, CAPTAINS[cap].text)

    @choices("captain-b?")
    def _captain_b_choices(self, task) -> list:
        if self.captain[task[1]] == MISTRESS:
            return [_MISTRESS, _KEEP]
        maps = self.dice.count(MAP)
        return [_REO[k] for k in range(1, min(3, maps) + 1)] + [_KEEP]

    @resolve("captain-b?")
    def _captain_b_chosen(self, task, action) -> None:
        seat = task[1]
        if action.id == "keep":
            return
        if action.id == "mistress":
            n = self.dice.count(SKULL_GROG)
            self.dice = sorted(GROG if f == SKULL_GROG else f for f in self.dice)
            if not self.quiet:
                self.emit("mistress", seat, f"{_NAME[seat]} (Mistress of the Skull) turns {n} Skull-and-Grog "
                          f"{'face' if n == 1 else 'faces'} into Grog: {faces_text(self.dice)}.", {"changed": n})
            return
        k = action.payload
        dice = list(self.dice)
        for _ in range(k):
            dice[dice.index(MAP)] = SILVER
        self.dice = sorted(dice)
        if not self.quiet:
            self.emit("reo", seat, f"{_NAME[seat]} (Reo the Cartographer) changes {k} "
                      f"Map{'s' if k > 1 else ''} into Silver: {faces_text(self.dice)}.", {"changed": k})

    # --- C: Execute Dice Actions
    @auto("execute")
    def _phase_c(self, task) -> None:
        seat = task[1]
        self.phase = "C"
        c = count_faces(self.dice)
        skulls = c[SKULL] + c[SKULL_GROG]
        self.left = [c[GROG] + c[SKULL_GROG], c[SILVER], c[MAP], c[CANNON]]
        flags = self.flags
        if c[MAP] == DICE:
            flags |= F_MAP5
        if c[CANNON] == DICE:
            flags |= F_CANNON5
        if self.left[G_GROG] == DICE:
            flags |= F_GROG5
        if flags & F_ARRIVED:
            self.left[G_MAP] = 0
        elif self.captain[seat] == JAXN and c[MAP] == 0:
            flags |= F_JAXN
        self.flags = flags
        if skulls == DICE and self.players > 1:
            first = ("skull5?", seat)
        else:
            first = ("skulls", seat, skulls, 1)
        self.then(first, ("order", seat), ("end-c", seat))

    @prompt("skull5?")
    def _skull5_prompt(self, task) -> Decision:
        return Decision(task[1], "skull5", "5-of-a-kind Skulls: hand all the dice out to the other players, "
                        "or keep them and lose Silver as usual?",
                        "If you have all 5 Skulls or Skull-and-Grog faces you may distribute all the dice to the "
                        "other players as you wish. They execute the dice as if it were their turn (Skull first, "
                        "then Grog). You lose no Silver and gain no Grog, and your turn is over.")

    @choices("skull5?")
    def _skull5_choices(self, task) -> list:
        return [_GIVE_ALL, _KEEP_SKULLS]

    @resolve("skull5?")
    def _skull5_chosen(self, task, action) -> None:
        seat = task[1]
        if action.id == "give":
            self.then(("give?", seat, ""))
            if not self.quiet:
                self.emit("skull5", seat, f"{_NAME[seat]} has 5 Skulls and hands the dice out.")
        else:
            self.then(("skulls", seat, DICE, 1))

    @prompt("give?")
    def _give_prompt(self, task) -> Decision:
        i = len(task[2])
        return Decision(task[1], "give", f"Who gets die {i + 1} ({FACE_WORD[self.dice[i]]})?",
                        "Hand out all 5 dice among the other players as you wish; each executes the dice "
                        "they get as if it were their turn.")

    @choices("give?")
    def _give_choices(self, task) -> list:
        seat, given = task[1], task[2]
        i = len(given)
        face = FACE_WORD[self.dice[i]]
        return [Action(f"give:{_pn(r)}", f"Give die {i + 1} ({face}) to {_NAME[r]}", r)
                for r in range(self.players) if r != seat]

    @resolve("give?")
    def _give_chosen(self, task, action) -> None:
        seat, given = task[1], task[2] + str(action.payload)
        if len(given) < DICE:
            self.then(("give?", seat, given))
            return
        tasks = self.tasks
        while tasks:  # the giver's turn is over: drop the rest of phase C and phase D
            if tasks.pop()[0] == "end-c":
                break
        self.left = [0, 0, 0, 0]
        n = self.players
        todo = []
        parts = []
        for k in range(1, n):
            r = (seat + k) % n
            mine = [self.dice[i] for i in range(DICE) if int(given[i]) == r]
            if not mine:
                continue
            parts.append(f"{_NAME[r]} {faces_text(mine)}")
            todo.append(("skulls", r, len(mine), 0))
            sg = mine.count(SKULL_GROG)
            if sg:
                todo.append(("gain-grog", r, sg))
        self.then(*todo, ("turn", (seat + 1) % n))
        if not self.quiet:
            self.emit("give", seat, f"{_NAME[seat]} gives the dice: " + "; ".join(parts) + ". "
                      f"{_NAME[seat]}'s turn is over.", {"given": [int(x) for x in given]})

    @auto("skulls")
    def _skulls(self, task) -> None:
        _, seat, n, own = task
        if self.captain[seat] == BONES:
            if n == 0:
                if own:
                    self._gain_silver(seat, 1, "(Mister Bones) rolled no Skulls")
                return
            if self.silver[seat] >= n:
                self.then(("skulls?", seat, n, own))
                return
        self._pay_skulls(seat, n)

    def _pay_skulls(self, seat: int, n: int) -> None:
        if n == 0:
            return
        pay = min(n, self.silver[seat])
        self.silver[seat] -= pay
        self.island += pay
        if not self.quiet:
            self.emit("skulls", seat, f"{_NAME[seat]}: {_plural(n, 'Skull')}, places {pay} Silver on Skull "
                      f"Island (now {self.island})" + (f"; {n - pay} ignored (no Silver left)" if pay < n else "")
                      + ".", {"skulls": n, "paid": pay})

    @prompt("skulls?")
    def _skulls_prompt(self, task) -> Decision:
        _, seat, n, _own = task
        return Decision(seat, "skulls", f"Skulls first: {_plural(n, 'Skull')} cost you {n} Silver. "
                        "Mister Bones may ignore one of them.", CAPTAINS[BONES].text)

    @choices("skulls?")
    def _skulls_choices(self, task) -> list:
        return [_BONES_IGNORE, _BONES_PAY]

    @resolve("skulls?")
    def _skulls_chosen(self, task, action) -> None:
        _, seat, n, _own = task
        if action.id == "bones:ignore":
            if not self.quiet:
                self.emit("bones", seat, f"{_NAME[seat]} (Mister Bones) ignores one Skull.")
            self._pay_skulls(seat, n - 1)
        else:
            self._pay_skulls(seat, n)

    @auto("gain-grog")
    def _given_grog(self, task) -> None:
        _, seat, n = task
        self._gain_grog(seat, n, "executes", "Skull-and-Grog face")

    # --- choosing the next symbol group
    def _order_options(self) -> list:
        left = self.left
        return [g for g in range(4) if left[g] > 0]

    @auto("order")
    def _next_group(self, task) -> None:
        seat = task[1]
        groups = self._order_options()
        jaxn = self.flags & F_JAXN
        if not groups and not jaxn:
            return
        if len(groups) == 1 and not jaxn:
            self.then(task)  # asked again once the group is done (then nothing is left)
            self._execute_group(seat, groups[0])
            return
        self.then(("order?", seat))

    @prompt("order?")
    def _order_prompt(self, task) -> Decision:
        names = [GROUP_IDS[g] for g in self._order_options()]
        prompt = "Phase C: which Dice Action next? (" + (", ".join(names) or "only Lucky Jax'n is left") + ")"
        return Decision(task[1], "order", prompt,
                        "After the Skulls you choose the order of the Dice Actions; all faces of one symbol "
                        "are executed together. Grog: +1 per face, dial max 4. Silver: +1 per face from the "
                        "supply. Maps: 1 space per Map towards Skull Island; hazards apply where the movement "
                        "ends. Cannons: 3+ attack a player, or attack the Merchant ship on your space.")

    @choices("order?")
    def _order_choices(self, task) -> tuple:
        key = (*self.left, self.flags & (F_GROG5 | F_MAP5 | F_JAXN))
        menu = _ORDER_MENUS.get(key)
        if menu is None:
            menu = _ORDER_MENUS[key] = order_menu(self.left, key[-1])
        return menu

    @resolve("order?")
    def _order_chosen(self, task, action) -> None:
        seat = task[1]
        self.then(("order", seat))  # the next group is chosen once this one is done
        if action.id == "jaxn":
            self.flags &= ~F_JAXN
            if not self.quiet:
                self.emit("jaxn", seat, f"{_NAME[seat]} (Captain Lucky Jax'n) had no Maps: moves 1 space "
                          "forward and gains 1 Grog.")
            self.then(("move", seat, 1, 0, 0), ("jaxn-grog", seat))
        elif action.id == "pass":
            self.flags &= ~F_JAXN
        else:
            self._execute_group(seat, action.payload)

    def _execute_group(self, seat: int, g: int) -> None:
        n = self.left[g]
        self.left[g] = 0
        if g == G_GROG:
            self._gain_grog(seat, n, "executes", "Grog face")
            if self.flags & F_GROG5 and not self.quiet:
                self.emit("grog5", seat, f"5-of-a-kind Grog: {_NAME[seat]} begins the turn again after "
                          "the Dice Actions.")
        elif g == G_SILVER:
            self._gain_silver(seat, n, "collects", "Silver face")
        elif g == G_MAP:
            free = 1 if self.flags & F_MAP5 else 0
            if free and not self.quiet:
                self.emit("map5", seat, f"5-of-a-kind Maps: {_NAME[seat]} may move forward or backward "
                          "at each step.")
            self.then(("move", seat, n, free, 0))
        else:
            self.flags &= ~F_HOOK_USED
            self.then(("cannons", seat, n))

    @auto("jaxn-grog")
    def _jaxn_grog(self, task) -> None:
        self._gain_grog(task[1], 1, "(Captain Lucky Jax'n) gains")

    @auto("end-c")
    def _end_of_c(self, task) -> None:
        seat = task[1]
        if self.flags & F_GROG5:
            if not self.quiet:
                self.emit("restart", seat, f"{_NAME[seat]} begins the turn again from the Roll Dice phase.")
            self._begin_phases(seat)
        else:
            self.then(("end-turn", seat))

    # --- movement (Maps, Jäger Knot, Lucky Jax'n)
    def _move_options(self, seat: int, free: int) -> tuple:
        """Per-node cached Actions ``(id, label, (node, forward))`` for the next step."""
        here = self.pos[seat]
        track = self.track
        key = ("move", here, free)
        acts = track.cache.get(key)
        if acts is None:
            acts = []
            fwd = track.fwd[here]
            for m, s, g in fwd:
                aid = "forward" + (f":{track.lane[m]}" if len(fwd) > 1 else "")
                label = f"Sail forward to {track.label[m]}"
                if s or g:
                    label += "; pass an island: " + " ".join(
                        x for x in (f"+{s} Silver" if s else "", f"+{g} Grog" if g else "") if x)
                label += _space_note(track, m)
                acts.append(Action(aid, label, (m, True)))
            if free:
                back = track.back[here]
                for m in back:
                    aid = "backward" + (f":{track.lane[m]}" if len(back) > 1 else "")
                    acts.append(Action(aid, f"Sail backward to {track.label[m]}{_space_note(track, m)}",
                                       (m, False)))
            acts = track.cache[key] = tuple(acts)
        return acts

    @auto("move")
    def _move(self, task) -> None:
        _, seat, steps, free, moved = task
        track = self.track
        while steps > 0 and not self.flags & F_ARRIVED:
            here = self.pos[seat]
            fwd = track.fwd[here]
            if len(fwd) + (len(track.back[here]) if free else 0) != 1:
                if not fwd and not (free and track.back[here]):  # pragma: no cover - only Skull Island
                    break
                self.then(("move?", seat, steps, free, moved))
                return
            steps -= 1
            moved = 1
            self._step_to(seat, fwd[0][0], True)
            if self.winner6 >= 0:
                return
        if moved and not self.flags & F_ARRIVED:
            self._hazard(seat)

    @prompt("move?")
    def _move_prompt(self, task) -> Decision:
        _, seat, steps, free, _ = task
        here = self.track.label[self.pos[seat]]
        if free:
            prompt = f"5 Maps: {steps} left. From {here}, sail forward or backward?"
        else:
            prompt = f"{_plural(steps, 'move')} left. From {here}, which side of the island do you sail?"
        return Decision(seat, "move", prompt,
                        "Islands that stretch the length of a Track split it: on entering such a Track, forwards "
                        "or backwards, you decide which side to sail, and cannot cross over. Islands on a "
                        "dividing line pay their Silver/Grog when you cross it forwards. With 5 Maps you may "
                        "move forward or backward as you wish (an island may pay more than once). Hazards "
                        "apply only where the movement ends.")

    @choices("move?")
    def _move_choices(self, task) -> list:
        return list(self._move_options(task[1], task[3]))

    @resolve("move?")
    def _move_chosen(self, task, action) -> None:
        _, seat, steps, free, _moved = task
        node, forward = action.payload
        self.then(("move", seat, steps - 1, free, 1))
        self._step_to(seat, node, forward)

    # --- knock-back (attacked ship moves backward; its owner picks lanes)
    @auto("back")
    def _knock_back(self, task) -> None:
        _, target, steps, moved = task
        track = self.track
        while steps > 0:
            prev = track.back[self.pos[target]]
            if not prev:
                if not self.quiet:
                    self.emit("at-start", target, f"{_NAME[target]} is at the Start space and cannot move back "
                              "further.")
                break
            if len(prev) > 1:
                self.then(("back?", target, steps, moved))
                return
            steps -= 1
            moved = 1
            self._step_to(target, prev[0], False)
        if moved:
            self._hazard(target)

    @prompt("back?")
    def _back_prompt(self, task) -> Decision:
        _, target, steps, _ = task
        return Decision(target, "back", f"You were attacked: your Ship moves back {_plural(steps, 'space')}. "
                        "Which side of the island do you enter?",
                        "When entering a split Track, forwards or backwards, you decide which side of the "
                        "island your Ship goes. Hazards apply where the backward movement ends; no Silver or "
                        "Grog is collected moving backwards.")

    @choices("back?")
    def _back_choices(self, task) -> list:
        target = task[1]
        track = self.track
        here = self.pos[target]
        key = ("back", here)
        acts = track.cache.get(key)
        if acts is None:
            acts = track.cache[key] = tuple(
                Action(f"backward:{track.lane[m]}", f"Move back to {track.label[m]}{_space_note(track, m)}",
                       (m, False)) for m in track.back[here])
        return list(acts)

    @resolve("back?")
    def _back_chosen(self, task, action) -> None:
        _, target, steps, _moved = task
        self.then(("back", target, steps - 1, 1))
        self._step_to(target, action.payload[0], False)

    # --- Cannons
    def _cannon_actions(self, seat: int, n: int) -> list:
        acts = []
        others = [r for r in range(self.players) if r != seat]
        track = self.track
        here = self.pos[seat]
        arrived = self.flags & F_ARRIVED
        if (self.captain[seat] == HOOK and n >= 2 and not self.flags & F_HOOK_USED and not arrived):
            for r in others:
                there = self.pos[r]
                if there != here and there != track.skull:
                    acts.append(Action(f"hook:{_pn(r)}", f"Captain Hook: use 2 Cannons to move to "
                                       f"{_NAME[r]}'s space ({track.label[there]})", ("hook", r)))
        if n >= 3:
            back = n - 3
            for r in others:
                label = f"Attack {_NAME[r]}: take their {self.silver[r]} Silver"
                if back:
                    label += f", they move back {_plural(back, 'space')}"
                acts.append(Action(f"attack:{_pn(r)}", label, ("attack", r)))
            if n == DICE:
                for r in others:
                    if self.treasure[r] >= 1:
                        acts.append(Action(f"steal:{_pn(r)}", f"5-of-a-kind: steal 1 Treasure from {_NAME[r]} "
                                           f"(they have {self.treasure[r]})", ("steal", r)))
        merchant = track.merchant[here]
        if merchant is not None:
            s, g = merchant
            gain = " ".join(x for x in (f"+{s * n} Silver" if s else "", f"+{g * n} Grog" if g else "") if x)
            acts.append(Action("merchant", f"Attack the Merchant ship on your space: {gain}", ("merchant", -1)))
        return acts

    @auto("cannons")
    def _cannons(self, task) -> None:
        _, seat, n = task
        if n > 0 and self._cannon_actions(seat, n):
            self.then(("cannons?", seat, n))
            return
        if n > 0 and not self.quiet:
            self.emit("cannons", seat, f"{_NAME[seat]}'s {_plural(n, 'Cannon')}: nothing to attack "
                      "(3 Cannons attack a player; a Merchant ship must be on your space).", {"cannons": n})

    @prompt("cannons?")
    def _cannons_prompt(self, task) -> Decision:
        _, seat, n = task
        return Decision(seat, "cannons", f"{_plural(n, 'Cannon')}: attack a player (3+ Cannons), the Merchant ship "
                        "on your space, or nobody?",
                        "With at least 3 Cannons you may attack one other player anywhere: they give you all "
                        "their Silver and move back 1 space per Cannon above 3. With 5 Cannons you may steal 1 "
                        "Treasure instead. Or attack a Merchant ship on your space: its reward once per Cannon. "
                        "You may not attack a player and a Merchant ship in the same turn.")

    @choices("cannons?")
    def _cannons_choices(self, task) -> list:
        return self._cannon_actions(task[1], task[2]) + [_HOLD]

    @resolve("cannons?")
    def _cannons_chosen(self, task, action) -> None:
        _, seat, n = task
        if action.id == "hold":
            if not self.quiet:
                self.emit("hold", seat, f"{_NAME[seat]} holds fire.")
            return
        kind, r = action.payload
        if kind == "hook":
            self.flags |= F_HOOK_USED
            self.then(("cannons", seat, n - 2))
            self.pos[seat] = self.pos[r]
            if not self.quiet:
                self.emit("hook", seat, f"{_NAME[seat]} (Captain Hook) uses 2 Cannons to move to "
                          f"{_NAME[r]}'s space, {self.track.label[self.pos[seat]]}.", {"to": self.pos[seat]})
            self._hazard(seat)
            return
        if kind == "merchant":
            s, g = self.track.merchant[self.pos[seat]]
            if not self.quiet:
                self.emit("merchant", seat, f"{_NAME[seat]} attacks the Merchant ship with "
                          f"{_plural(n, 'Cannon')}.", {"cannons": n})
            if g:
                self._gain_grog(seat, g * n, "plunders the Merchant ship")
            if s:
                self._gain_silver(seat, s * n, "plunders the Merchant ship")
            return
        if self.captain[seat] == JAGER and not self.flags & F_ARRIVED:
            self.then(("jager", seat))
        if kind == "steal":
            self.treasure[r] -= 1
            self.treasure[seat] += 1
            if not self.quiet:
                self.emit("steal", seat, f"{_NAME[seat]} fires 5 Cannons at {_NAME[r]} and steals a Treasure "
                          f"({self.treasure[seat]} vs {self.treasure[r]}).", {"target": r})
            if self.treasure[seat] >= TREASURE_TO_WIN:
                self._win_now(seat)
            return
        back = n - 3
        if back:
            self.then(("back", r, back, 0))
        loot = self.silver[r]
        if not self.quiet:
            self.emit("attack", seat, f"{_NAME[seat]} attacks {_NAME[r]} with {_plural(n, 'Cannon')} and takes "
                      f"{loot} Silver" + (f"; {_NAME[r]} moves back {_plural(back, 'space')}" if back else "")
                      + ".", {"target": r, "silver": loot, "back": back})
        for _ in range(loot):
            self.silver[r] -= 1
            self.silver[seat] += 1
            if self._exchange(seat):
                return

    # --- Jäger Knot after an attack
    @auto("jager")
    def _jager(self, task) -> None:
        if not self.flags & F_ARRIVED:
            self.then(("jager?", task[1]))

    @prompt("jager?")
    def _jager_prompt(self, task) -> Decision:
        return Decision(task[1], "jager", "Jäger Knot: after attacking a player you may move one space forward.",
                        CAPTAINS[JAGER].text)

    @choices("jager?")
    def _jager_choices(self, task) -> list:
        return [_JAGER_MOVE, _JAGER_STAY]

    @resolve("jager?")
    def _jager_chosen(self, task, action) -> None:
        seat = task[1]
        if action.id == "jager:move":
            if not self.quiet:
                self.emit("jager", seat, f"{_NAME[seat]} (Jäger Knot) moves 1 space forward after the attack.")
            self.then(("move", seat, 1, 0, 0))

    # --- D: End Your Turn
    @auto("end-turn")
    def _phase_d(self, task) -> None:
        seat = task[1]
        self.phase = "D"
        if self.captain[seat] == HASAN and self.grog[seat] >= 2:
            self.grog[seat] -= 1
            left = self.grog[seat]
            if not self.quiet:
                self.emit("hasan", seat, f"{_NAME[seat]} (Hasan the Merchant) pays 1 Grog and turns the other "
                          f"{left} Grog into Silver.", {"grog": left})
            for _ in range(left):
                if self.supply <= 0:
                    if not self.quiet:
                        self.emit("supply-empty", seat, f"The Silver supply is empty: {self.grog[seat]} Grog stay.")
                    break
                self.grog[seat] -= 1
                self.silver[seat] += 1
                if self._exchange(seat):
                    return
        if self.flags & F_ARRIVED:
            if self.visits >= 2:
                self._end_by_second_visit()
                return
            self._new_race()
        self.then(("turn", (seat + 1) % self.players))

    def _new_race(self) -> None:
        self._set_layout(flipped(self.layout))
        start = self.track.start
        for s in range(self.players):
            self.pos[s] = start
        add = min(ISLAND_REFILL, self.supply)
        self.island += add
        if not self.quiet:
            self.emit("new-race", None, "All Ships return to Start, the Tracks are flipped ("
                      + ", ".join(title for title, _ in self.track.segments[1:-1])
                      + f") and {add} Silver go on Skull Island. Another race starts!",
                      {"tracks": layout_name(self.layout), "island": self.island})

    # ============================================================ views
    def _observation(self, seat: int | None) -> dict:
        """Everything is public in Corsairs of Valeria: the whole table, dice and pending tasks."""
        track = self.track
        return {
            "game": self.game_id,
            "seat": seat,
            "turn": self.turn,
            "current": self.current,
            "phase": self.phase,
            "race": race_number(self),
            "skull_island_visits": self.visits,
            "tracks": layout_name(self.layout),
            "skull_island_silver": self.island,
            "supply": self.supply,
            "ships": [
                {"seat": s, "colour": COLOURS[s],
                 "captain": CAPTAINS[self.captain[s]].id if self.captain[s] >= 0 else None,
                 "node": self.pos[s], "space": track.label[self.pos[s]],
                 "to_skull_island": track.dist[self.pos[s]],
                 "grog": self.grog[s], "silver": self.silver[s], "treasure": self.treasure[s]}
                for s in range(self.players)
            ],
            "dice": [DIE_FACES[f] for f in self.dice],
            "marked": [i + 1 for i in range(len(self.dice)) if (self.marked >> i) & 1],
            "rerolls": self.rerolls,
            "to_execute": {GROUP_IDS[g]: self.left[g] for g in range(4)},
            "flags": self.flags,
            "pending": [[shown_kind(t[0]), *t[1:]] for t in self.tasks],
            "waiting_for": self.waiting_for,
            "is_over": self.phase == OVER,
            "winners": list(self.winners),
        }


def _space_note(track, node: int) -> str:
    """`` [Sea Monster]`` / `` [Merchant ship (1 Silver)]`` for a space, or ``""``."""
    h = track.hazard[node]
    if h:
        return f" [{HAZARD_WORD[h]}]"
    m = track.merchant[node]
    if m is not None:
        return " [Merchant ship: " + " ".join(
            x for x in (f"{m[0]} Silver" if m[0] else "", f"{m[1]} Grog" if m[1] else "") if x) + " per Cannon]"
    return ""


#: The task kinds as observations name them (``waiting_for``, ``pending``), in a fixed order (encodings use it).
TASK_KINDS = ("turn", "roll", "reroll", "captain-b", "execute", "skull5", "give", "skulls", "gain-grog", "order",
              "jaxn-grog", "end-c", "move", "back", "cannons", "jager", "end-turn")
assert {shown_kind(k) for k in CorsairsState.TASK_KINDS} == set(TASK_KINDS)


# ================================================================ options (checked by GameSpec.resolve_options)
def parse_captains(text: str, n: int) -> tuple | None:
    """Captain indices (``NO_CAPTAIN`` for none) of option ``captains`` for ``n`` seats.

    None for "random" (dealt in set-up); GameConfigError naming a bad part.
    """
    text = text.strip().lower()
    if text == "random":
        return None
    if text == "none":
        return (NO_CAPTAIN,) * n
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != n:
        raise GameConfigError(
            f"option 'captains' needs one Captain per player ({n}), got {len(parts)}: "
            "use 'random', 'none', or ids like " + ",".join(c.id for c in CAPTAINS[:n]))
    out = []
    for p in parts:
        if p in ("none", "-", ""):
            out.append(NO_CAPTAIN)
        elif p in CAPTAIN_INDEX:
            out.append(CAPTAIN_INDEX[p])
        else:
            raise GameConfigError(
                f"option 'captains': unknown Captain {p!r}; Captains: "
                + ", ".join(c.id for c in CAPTAINS) + " (or 'none')")
    real = [c for c in out if c >= 0]
    if len(set(real)) != len(real):
        raise GameConfigError("option 'captains': each Captain card exists once")
    return tuple(out)


def check_captains(value: str, players: int) -> str:
    """Option ``captains``: 'random', 'none' or one Captain id per seat (GameConfigError otherwise)."""
    parse_captains(value, players)
    return value


def check_tracks(value: str, players: int) -> str:
    """Option ``tracks``: 'random' or three Tracks with sides, e.g. 'T1A,T3B,T2A' (ValueError otherwise)."""
    if value.strip() != "random":
        parse_layout(value.strip())
    return value


def check_first_player(value: str, players: int) -> str:
    """Option ``first_player``: 'random' or a player number 1..players in ASCII digits (ValueError otherwise)."""
    text = value.strip()
    if text == "random":
        return text
    if text.isascii() and text.isdigit() and 1 <= int(text) <= players:
        return str(int(text))
    raise ValueError(f"must be 'random' or a player number 1..{players}, got {value!r}")
