"""Biblios Dice rules (rulebook: Setup, Playing the Game, Market Rules, Auctions,
Game End, Scoring, Rules for 2 Players, Bishop Tokens, Hidden Objective Variant).

Turn structure
--------------
The whole turn is a stack of tasks on the engine's turn flow
(:class:`dicetable.engine.FlowState`): plain tuples ``(kind, seat, *args)``,
one handler per kind, so a state clones, saves and replays. The rules are
split by part of the round: :mod:`.round` (Phase 0-IV but the market),
:mod:`.dice` (taking dice: tracks, tokens, the Adjustment Die, the
Conversion Rule), :mod:`.market` (split, auction, groups), :mod:`.scoring`
(Game End, Scoring); :mod:`.fields` declares the fields on the base class of
the chain of these rule classes (so each sees them all, typed), and :mod:`.state`
combines them and adds set-up and views. Each module lists its task kinds. The phase (observation ``phase``) names what the round is at:

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

A take's follow-up decisions (top of the stack asks first, shown as
observation ``pending``): ``("adjust", seat, face, step, used)``,
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

from .common import (
    BID, CHOOSE, DISCARD, FOLLOW_UPS, GOLD_VALUE_INDEX, GOLD_VALUES, GROUP_NAMES, MARK_KINDS, OVER, PHASES, REROLL,
    RESOLVE, SELECT, SPLIT, card_name, dice_count, dice_json, dice_text, half_up,
)
from .state import BibliosDiceState

__all__ = [
    "BID", "CHOOSE", "DISCARD", "FOLLOW_UPS", "GOLD_VALUE_INDEX", "GOLD_VALUES", "GROUP_NAMES", "MARK_KINDS",
    "OVER", "PHASES", "REROLL", "RESOLVE", "SELECT", "SPLIT", "BibliosDiceState", "card_name", "dice_count",
    "dice_json", "dice_text", "half_up",
]
