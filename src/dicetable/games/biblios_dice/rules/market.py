"""The market (rulebook: The Market, Auctions, Penalty for Overbidding, Rules for 2 Players):
a rule class of :class:`~.state.BibliosDiceState` (on :mod:`.dice`).

Tasks (``None``: no seat concerned):

``("market", None)``                     automatic: the Gold Die is re-rolled off gold for all;
                                         the first player's ``split``, then ``market-end``;
``("split", seat)``                      decision: put a die into the group of 3 (``small:<kind>``);
``("auction", None)``                    automatic: hands are made up; every bidder's ``bid``;
``("bid", seat)``                        decision, one lane per bidder (all at once): a Bidding
                                         Card face down (``bid:<n>``, ``bid:pass``);
``("reveal", None)``                     automatic: the cards are revealed; another bid round,
                                         or the auction is ranked and the groups handed out;
``("choose-group", seat, second, pay)``  decision: the winner picks ``group:large`` or
                                         ``group:small``; ``second`` (a seat, Cadfael's marker or
                                         -1) takes the other, paying ``pay`` Gold;
``("group", seat, g, pay)``              automatic: ``seat`` pays and takes group ``g`` (0 large,
                                         1 small), then ``resolve``s it;
``("deny", None, g)`` / ``("discard", None, g)``  automatic: Cadfael takes group ``g`` / nobody does;
``("resolve", seat)``                    decision: resolve the next type of dice of the group;
``("resolve-end", seat)``                automatic: once that take's own choices are made (at once
                                         when it leaves none), the next type;
``("market-end", None)``                 automatic: hands return, the Mule goes home.
"""

from __future__ import annotations

from dicetable.engine import Action, Decision, auto, choices, prompt, resolve, seat_name
from dicetable.engine import effects as fx
from dicetable.engine.flow import Task

from .consts import (
    ADJUST, CADFAEL_CARDS, CARD_VALUES, EMPTY_SET, FULL_HAND, GOLD, GOLD_DIE, GOLD_FOR_ALL, MULE_FINAL,
    NTRACKS, PASS, SMALL_GROUP,
)
from ..keys import dice_faces
from .common import (
    BID, BID_ACTIONS, BID_TEXT, CARDS_PER_BID, CHOOSE, DISCARD, GOLD_VALUE_INDEX, GOLD_VALUES, GROUP_NAMES,
    RESHUFFLE_AT, RESOLVE, SECRET_BID_TEXT, SMALL_ACTIONS, SPLIT, card_name, dice_count, dice_json, dice_text, group_text,
    half_up, replaced, take_actions,
)
from .dice import DiceRules



class MarketRules(DiceRules):
    """The market (see the module docstring); needs the state's fields."""

    __slots__ = ()

    @auto("market")
    def _start_market(self, task: Task) -> None:
        pool = self.pool
        while GOLD_VALUES[pool[GOLD]] == GOLD_FOR_ALL:
            pool[GOLD] = GOLD_VALUE_INDEX[self.roll(GOLD_DIE)]
            self.emit("gold-reroll", None, "At the market the Gold Die showing gold for all is re-rolled: "
                      f"{GOLD_VALUES[pool[GOLD]]}.", {"gold": GOLD_VALUES[pool[GOLD]]},
                      effects=[fx.roll("dice", [GOLD_VALUES[pool[GOLD]]])])
        self.phase = SPLIT
        self.current = self.first
        self.small = list(EMPTY_SET)
        if not self.quiet:
            self.emit("market", None, f"The Mule is on the final space: go to the market. "
                      f"{seat_name(self.first)} splits {dice_text(pool)} into groups of "
                      f"{dice_count(pool) - SMALL_GROUP} and {SMALL_GROUP}.", {"dice": dice_json(pool)})
        self.then((SPLIT, self.first), ("market-end", None))

    # ------------------------------------------------------------ the split
    @prompt(SPLIT)
    def _split_prompt(self, task: Task) -> Decision:
        have = dice_count(self.small)
        return Decision(task[1], SPLIT, f"Market: choose a die for the group of {SMALL_GROUP} "
                        f"({have} of {SMALL_GROUP} chosen; the rest form the other group).",
                        "You may not change the dice; the players then bid for the two groups.")

    @choices(SPLIT)
    def _split_choices(self, task: Task) -> list[Action]:
        pool = self.pool
        out = [SMALL_ACTIONS[k] for k in range(NTRACKS) if pool[k]]
        if pool[GOLD] >= 0:
            out.append(SMALL_ACTIONS[GOLD])
        if pool[ADJUST] >= 0:
            out.append(SMALL_ACTIONS[ADJUST])
        return out

    @resolve(SPLIT)
    def _split(self, task: Task, action: Action) -> None:
        seat = task[1]
        k = action.payload
        if k < NTRACKS:
            self.pool[k] -= 1
            self.small[k] += 1
        else:
            self.small[k] = self.pool[k]
            self.pool[k] = -1
        if dice_count(self.small) < SMALL_GROUP:
            self.tasks.append(task)
            return
        self.groups = (tuple(self.pool), tuple(self.small))
        self.pool = list(EMPTY_SET)
        self.small = list(EMPTY_SET)
        if not self.quiet:
            large, small = dice_json(self.groups[0]), dice_json(self.groups[1])
            self.emit("split", seat, f"{seat_name(seat)} splits the dice: large group "
                      f"{dice_text(self.groups[0])}; small group {dice_text(self.groups[1])}.",
                      {"large": large, "small": small},
                      effects=[fx.set_aside("group-large", dice_faces(large), seat),
                               fx.set_aside("group-small", dice_faces(small), seat)])
        self.tasks.append(("auction", None))

    # ------------------------------------------------------------ the auction
    @auto("auction")
    def _start_auction(self, task: Task) -> None:
        n = self.players
        self.sitting = self.barred
        self.barred = 0
        self.penalized = 0
        self.hands = [FULL_HAND & ~1 if self.sitting >> s & 1 else FULL_HAND for s in range(n)]
        self.facedown = [-1] * n
        self.played = [()] * n
        self.cad_played = []
        self.active = sum(1 << s for s in range(n) if not self.sitting >> s & 1)
        self.phase = BID
        if not self.quiet:
            out = [seat_name(s) for s in range(n) if self.sitting >> s & 1]
            self.emit("auction", None, "Auction: every bidder places a Bidding Card face down."
                      + (f" Sitting out (overbid last auction): {', '.join(out)}." if out else ""),
                      {"sitting_out": [s for s in range(n) if self.sitting >> s & 1]})
        if self.active:
            self._bid_round()
        else:
            self._end_bidding()

    def _bid_round(self) -> None:
        """Every seat still bidding places a card face down, all at once (a lane each); then ``reveal``."""
        active = self.active
        self.split([[(BID, s)] if active >> s & 1 else [] for s in range(self.players)])
        self.tasks.append(("reveal", None))

    @prompt(BID)
    def _bid_prompt(self, task: Task) -> Decision:
        seat = task[1]
        total = sum(self.played[seat])
        large, small = self.groups
        return Decision(seat, BID, f"Auction for the {group_text(large)} and the {group_text(small)} (the winner "
                        f"chooses one): place a Bidding Card face down (your bid so far: {total}; "
                        f"your Gold: {self.gold[seat]}).",
                        "All bidders place a card at the same time, then all are revealed. The pass "
                        "card ends your bidding. The highest total wins and pays it all; second pays "
                        "half (rounded up). Owing more than your Gold loses all your Gold and the next "
                        "auction.")

    @choices(BID)
    def _bid_choices(self, task: Task) -> list[Action]:
        hand = self.hands[task[1]]
        return [BID_ACTIONS[v] for v in CARD_VALUES if hand >> v & 1]

    @resolve(BID)
    def _bid(self, task: Task, action: Action) -> None:
        seat = task[1]
        v = action.payload
        self.hands[seat] &= ~(1 << v)
        self.facedown[seat] = v
        if not self.quiet:
            self.emit("bid-secret", seat, SECRET_BID_TEXT[seat][v], {"card": v}, visible=(seat,))
            self.emit("bid", seat, BID_TEXT[seat], effects=[fx.move(f"p-{seat}-bid", f"p-{seat}", f"p-{seat}-bid")])

    def _cadfael_reveal(self) -> None:
        card = self.cad_deck.pop(0)
        self.cad_played.append(card)
        if not self.quiet:
            self.emit("cadfael-bid", None, f"Cadfael reveals a Bidding Card of {card} from his deck "
                      f"(his bid now {sum(self.cad_played)}).", {"card": card},
                      effects=[fx.reveal("cf-bid", "cadfael")])

    @auto("reveal")
    def _reveal(self, task: Task) -> None:
        parts = []
        shown = []
        quiet = self.quiet
        for s in range(self.players):
            if self.active >> s & 1:
                v = self.facedown[s]
                self.facedown[s] = -1
                self.played[s] = self.played[s] + (v,)
                if v == PASS:
                    self.active &= ~(1 << s)
                if not quiet:
                    parts.append(f"{seat_name(s)} " + (f"passes (bid stays {sum(self.played[s])})" if v == PASS else
                                 f"plays a {card_name(v)} (bid now {sum(self.played[s])})"))
                    shown.append(fx.reveal(f"p-{s}-bid", f"p-{s}"))
        if not quiet:
            self.emit("reveal", None, "Bidding Cards revealed: " + ", ".join(parts) + ".",
                      {"played": [list(p) for p in self.played]}, effects=shown)
        if self.cad >= 0 and len(self.cad_played) < CARDS_PER_BID:
            self._cadfael_reveal()
        if self.active:
            self._bid_round()
        else:
            self._end_bidding()

    def _end_bidding(self) -> None:
        if self.cad >= 0:
            while len(self.cad_played) < CARDS_PER_BID:
                self._cadfael_reveal()
        self._resolve_auction()

    def bid_total(self, m: int) -> int:
        """Marker ``m``'s bid in this auction: the sum of its revealed cards (Cadfael's too)."""
        return sum(self.cad_played) if m == self.cad else sum(self.played[m])

    def _resolve_auction(self) -> None:
        """Auctions 4-7 and Penalty for Overbidding: rank, check payments, hand out the groups."""
        n = self.players
        total = self.bid_total
        while True:
            cands = [s for s in range(n) if not (self.sitting | self.penalized) >> s & 1 and total(s) >= 1]
            if self.cad >= 0:
                cands.append(self.cad)
            # highest bid first, ties by the Bishop Track (a decorated sort: no closure in a state method)
            ranked = sorted([((-total(m),) + self.bishop_key(m), i) for i, m in enumerate(cands)])
            cands = [cands[i] for _, i in ranked]
            top = cands[:2]
            bad = -1
            for place, m in enumerate(top):
                if m == self.cad:
                    continue
                owe = total(m) if place == 0 else half_up(total(m))
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
            "totals": [total(s) if not self.sitting >> s & 1 else None for s in range(n)],
            "cadfael": sum(self.cad_played) if self.cad >= 0 else None,
            "winner": winner, "second": second,
            "penalized": [s for s in range(n) if self.penalized >> s & 1],
        }
        if winner == DISCARD:
            self.emit("auction-result", None, "Nobody bid: both groups are discarded.")
            self.then(("discard", None, 0), ("discard", None, 1))
        elif winner == self.cad:
            if not self.quiet:
                self.emit("auction-result", None, f"Cadfael wins the auction with {total(winner)} "
                          "and takes the larger group, denying it to the players.")
            pay = half_up(total(second)) if second >= 0 else 0
            self.then(("deny", None, 0), self._group_task(second, 1, pay))
        else:
            paid = total(winner)
            self.gold[winner] -= paid
            if not self.quiet:
                self.emit("auction-result", winner, f"{seat_name(winner)} wins the auction with {paid} "
                          f"and pays {paid} Gold." + (f" Second: {self.who(second)} with {total(second)}."
                                                      if second >= 0 else " Nobody else bid."),
                          {"winner": winner, "second": second, "paid": paid}, effects=[fx.turn(winner)])
            pay = half_up(total(second)) if 0 <= second != self.cad else 0
            self.phase = CHOOSE
            self.current = winner
            self.tasks.append((CHOOSE, winner, second, pay))

    def _group_task(self, who: int, g: int, pay: int) -> Task:
        """The task handing market group ``g`` to ``who`` (a seat, Cadfael's marker or DISCARD)."""
        if who == DISCARD:
            return ("discard", None, g)
        if who == self.cad:
            return ("deny", None, g)
        return ("group", who, g, pay)

    # ------------------------------------------------------------ the groups
    @prompt(CHOOSE)
    def _choose_prompt(self, task: Task) -> Decision:
        return Decision(task[1], CHOOSE, "You won the auction: choose a group of dice.",
                        "You take all the group's dice and resolve them; the second bidder takes the other.")

    @choices(CHOOSE)
    def _choose_choices(self, task: Task) -> list[Action]:
        groups = self.groups
        return [Action("group:large", f"Take the {group_text(groups[0])}", 0),
                Action("group:small", f"Take the {group_text(groups[1])}", 1)]

    @resolve(CHOOSE)
    def _choose(self, task: Task, action: Action) -> None:
        _, seat, second, pay = task
        g = action.payload
        if not self.quiet:
            self.emit("choose", seat, f"{seat_name(seat)} chooses the {GROUP_NAMES[g]} group.",
                      {"group": GROUP_NAMES[g]})
        self.then(("group", seat, g, 0), self._group_task(second, 1 - g, pay))

    @auto("discard")
    def _discard_group(self, task: Task) -> None:
        group = self.groups[task[2]]
        if not self.quiet:
            self.emit("discard", None, f"Nobody takes the {group_text(group)}; it is discarded without effect.")
        self.groups = replaced(self.groups, task[2], EMPTY_SET)

    @auto("deny")
    def _deny_group(self, task: Task) -> None:
        group = self.groups[task[2]]
        if not self.quiet:
            self.emit("discard", None, f"Cadfael takes the {group_text(group)}; it has no effect.")
        self.groups = replaced(self.groups, task[2], EMPTY_SET)

    @auto("group")
    def _take_group(self, task: Task) -> None:
        _, seat, g, pay = task
        if pay:
            self.gold[seat] -= pay
        if not self.quiet:
            group = self.groups[g]
            self.emit("group", seat, f"{seat_name(seat)} " + (f"pays {pay} Gold and " if pay else "")
                      + f"takes the {group_text(group)}.",
                      {"seat": seat, "group": GROUP_NAMES[g], "paid": pay},
                      effects=[fx.turn(seat), fx.take(f"group-{GROUP_NAMES[g]}", f"group-{GROUP_NAMES[g]}", f"p-{seat}",
                                                      seat)])
        self.phase = RESOLVE
        self.current = seat
        self.grp = g
        self.topped = 0                         # a group is one turn (the same-turn exception)
        self.tasks.append((RESOLVE, seat))

    @prompt(RESOLVE)
    def _resolve_prompt(self, task: Task) -> Decision:
        return Decision(task[1], RESOLVE, "Market: choose the next type of dice of your group to resolve.",
                        "You resolve every die of the group, one type at a time, in any order.")

    @choices(RESOLVE)
    def _resolve_choices(self, task: Task) -> list[Action]:
        return take_actions(self.groups[self.grp], self.players)

    @resolve(RESOLVE)
    def _resolve_group(self, task: Task, action: Action) -> None:
        kind = action.payload
        group = self.groups[self.grp]
        left = list(group)
        left[kind] = 0 if kind < NTRACKS else -1
        self.groups = replaced(self.groups, self.grp, tuple(left))   # the taken dice leave the group
        self._take_then(task, kind, list(group), "resolve-end", self._resolve_end)

    @auto("resolve-end")
    def _resolve_end(self, task: Task) -> None:
        if dice_count(self.groups[self.grp]):
            self.tasks.append((RESOLVE, task[1]))

    # ------------------------------------------------------------ after the market
    @auto("market-end")
    def _finish_market(self, task: Task) -> None:
        n = self.players
        self.hands = [FULL_HAND & ~1 if self.barred >> s & 1 else FULL_HAND for s in range(n)]
        self.facedown = [-1] * n
        self.played = [()] * n
        self.active = 0
        self.sitting = 0
        self.penalized = 0
        self.groups = (EMPTY_SET, EMPTY_SET)
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
        if not self.quiet:
            self.emit("market-end", None, f"Bidding Cards return to the hands; the Mule returns to the first "
                      f"space; {seat_name(self.first)} keeps the Monastery Card.", {"first": self.first},
                      effects=[fx.move("mule", f"mule-{MULE_FINAL + 1}", "mule-1")])
