"""Names, small helpers and the fixed actions shared by the Biblios Dice rule modules.

Dice sets use the layout of :mod:`..components` (six symbol counts, then the
Gold Die's and the Adjustment Die's face index, -1 when absent).
"""

from __future__ import annotations

import re
from typing import Final, Literal, Sequence, TypeVar

from dicetable.engine import Action, counted, seat_name

from ..components import (
    CADFAEL, CARD_VALUES, GOLD_DIE, NRES, RESOURCES, SCORING, SMALL_GROUP, TOP, VALUE_MAX, VP_STACKS,
)
from .consts import (
    ADJUST, ADJ_FACES, GOLD, GOLD_FOR_ALL, KINDS, NTRACKS, PASS, SYMBOLS, SYMBOL_NAMES, SYMBOL_ONE,
    TRACK_NAMES,    VALUE_RESET,
)

# Phases of a round (shown in observations as ``phase``); the decision tasks of the
# same names (see :mod:`.`) ask for the choices of that phase.
REROLL: Final = "reroll"
SELECT: Final = "select"
SPLIT: Final = "split"
BID: Final = "bid"
CHOOSE: Final = "choose-group"
RESOLVE: Final = "resolve"
OVER: Final = "over"
PHASES: Final = (REROLL, SELECT, SPLIT, BID, CHOOSE, RESOLVE, OVER)

#: Follow-up decisions of a take, asked before the turn goes on (rulebook: Adjustment Die,
#: Bishop Tokens, the Conversion Rule); ``observation["pending"]`` shows them.
FOLLOW_UPS: Final = frozenset(("adjust", "advance", "convert"))

DISCARD: Final = -1                 # a market group nobody takes

Marker = int | Literal["cadfael"]
"""A marker as observations show it on the tracks: a seat, or ``"cadfael"``."""

T = TypeVar("T")

GOLD_VALUES: Final = tuple(dict.fromkeys(GOLD_DIE.faces))
GOLD_VALUE_INDEX: Final = {f: i for i, f in enumerate(GOLD_VALUES)}
MARK_KINDS: Final = SYMBOLS + ("gold", "adjustment", "mule")
MARK_GOLD: Final = NTRACKS
MARK_ADJUST: Final = NTRACKS + 1
MARK_MULE: Final = NTRACKS + 2
NSTACKS: Final = len(VP_STACKS)
REROLL_COST: Final = SCORING.reroll_cost_vp
CARDS_PER_BID: Final = CADFAEL.cards_per_bid
RESHUFFLE_AT: Final = CADFAEL.cards_per_bid * CADFAEL.reshuffle_after_auctions
GROUP_NAMES: Final = ("large", "small")


def card_name(value: int) -> str:
    """``0`` -> ``"pass"``, ``5`` -> ``"5"``."""
    return "pass" if value == PASS else str(value)


def half_up(n: int) -> int:
    """Half of ``n`` rounded up (the second bidder's payment, third place's VPs)."""
    return -(-n // 2)


def dice_count(dice: Sequence[int]) -> int:
    """Number of dice in a dice set (see components: 6 symbol counts, Gold, Adjustment)."""
    return sum(dice[:NTRACKS]) + (dice[GOLD] >= 0) + (dice[ADJUST] >= 0)


def adjustment_words(face: str) -> str:
    """An Adjustment Die face as read aloud: ``"+1-1"`` -> ``"+1 and −1"``, ``"+1"`` and ``"=3"`` stay."""
    return " and ".join(re.findall(r"[+=-]\d+", face)).replace("-", "−")


def ordinal(n: int) -> str:
    """``1`` -> ``"first"`` ... ``8`` -> ``"eighth"`` (turn order positions)."""
    return ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")[n - 1]


def group_text(dice: Sequence[int]) -> str:
    """A market group in words: ``"group of 3 dice (2 Ink, Gold 3)"``, ``"group of 1 die (Gold 3)"``."""
    return f"group of {counted(dice_count(dice), 'die')} ({dice_text(dice)})"


def dice_text(dice: Sequence[int]) -> str:
    """A dice set in words: ``"3 Ink, 1 Manuscript, Gold 3, Adjustment +1"``."""
    parts = [symbol_count(dice[k], k) for k in range(NTRACKS) if dice[k]]
    if dice[GOLD] >= 0:
        g = GOLD_VALUES[dice[GOLD]]
        parts.append("Gold: gold for all" if g == GOLD_FOR_ALL else f"Gold {g}")
    if dice[ADJUST] >= 0:
        parts.append(f"Adjustment {adjustment_words(ADJ_FACES[dice[ADJUST]].id)}")
    return ", ".join(parts) if parts else "no dice"


def symbol_count(n: int, k: int) -> str:
    """``n`` of symbol ``k`` (a track index) in words, in the rulebook's number (Example of Phase III):
    ``"1 Pigment"``, ``"2 Manuscripts"``, ``"3 Ink"``."""
    return counted(n, SYMBOL_ONE[k], SYMBOL_NAMES[k])


def symbol_dice(n: int, k: int, word_only: bool = False) -> str:
    """``n`` dice of symbol ``k`` in words: ``"1 Pigment die"``, ``"2 Scrolls dice"`` (the rulebook's
    Example of Phase III); ``word_only`` drops the number, as :func:`counted` does."""
    return counted(n, f"{SYMBOL_ONE[k]} die", f"{SYMBOL_NAMES[k]} dice", word_only=word_only)


def dice_json(dice: Sequence[int]) -> dict[str, int | str | None]:
    """A dice set as a JSON-able dict (kind -> count; gold/adjustment -> face or None)."""
    out: dict[str, int | str | None] = {SYMBOLS[k]: dice[k] for k in range(NTRACKS) if dice[k]}
    out["gold"] = GOLD_VALUES[dice[GOLD]] if dice[GOLD] >= 0 else None
    out["adjustment"] = ADJ_FACES[dice[ADJUST]].id if dice[ADJUST] >= 0 else None
    return out


def replaced(items: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """``items`` with item ``i`` replaced by ``value`` (the fields kept as tuples are replaced, never mutated)."""
    return items[:i] + (value,) + items[i + 1:]


def a_or_an(word: str) -> str:
    """``"an Ink"``, ``"a Scroll"``: the article for a die's name in action labels."""
    return ("an " if word[0] in "AEIOU" else "a ") + word


# ------------------------------------------------------------ fixed actions (built once)
MARK_ACTIONS: Final = tuple(Action(f"mark:{k}", f"Mark {a_or_an(SYMBOL_ONE[i])} die to re-roll" if i < NTRACKS
                                   else f"Mark the {k.capitalize()} Die to re-roll", i) for i, k in enumerate(MARK_KINDS))
REROLL_ACTION: Final = Action("reroll", f"Pay {REROLL_COST} VP and re-roll the marked dice (once per round)")
CLEAR_ACTION: Final = Action("clear", "Unmark all dice")
KEEP_ACTION: Final = Action("keep", "Keep the dice as they are (end Phase I)")
SMALL_ACTIONS: Final = tuple(Action(f"small:{k}", (f"Put {a_or_an(SYMBOL_ONE[i])} die" if i < NTRACKS
                                                   else f"Put the {k.capitalize()} Die")
                             + f" into the group of {SMALL_GROUP}", i)
                      for i, k in enumerate(KINDS))
BID_ACTIONS: Final = {v: Action(f"bid:{card_name(v)}",
                                "Play the pass card face down (stop bidding)" if v == PASS
                                else f"Play your {v} Bidding Card face down", v) for v in CARD_VALUES}
CONVERT_ACTION: Final = Action("convert", "Re-roll each die until it shows another resource and move up there")
FORGO_ACTION: Final = Action("forgo", "Forgo the conversion (the dice have no effect)")

def adjusted(op: str, pips: int) -> int:
    """The pips a Value Die showing ``pips`` shows after the Adjustment step ``op`` (raise, lower, set3)."""
    return pips + 1 if op == "raise" else pips - 1 if op == "lower" else VALUE_RESET


#: Adjustment actions by step (``raise``/``lower``/``set3``), Value Die and the pips it shows now.
ADJ_ACTIONS: Final = {
    op: [[Action(f"{op}:{RESOURCES[d]}",
                 f"Turn the {SYMBOL_NAMES[d]} Value Die from {old} to {adjusted(op, old)}" if adjusted(op, old) != old
                 else f"Keep the {SYMBOL_NAMES[d]} Value Die at {old}", d)
          for old in range(VALUE_MAX + 1)] for d in range(NRES)]
    for op in ("raise", "lower", "set3")
}
#: Bishop Token moves by Resource Track and the space reached.
ADVANCE_ACTIONS: Final = [[Action(f"advance:{RESOURCES[t]}", f"Move up 1 space on the {TRACK_NAMES[t]} (to space {s})", t)
                           for s in range(TOP[t] + 2)] for t in range(NRES)]
SECRET_BID_TEXT: Final = [{v: f"{seat_name(s)} secretly places the Bidding Card {card_name(v)} face down."
                           for v in CARD_VALUES} for s in range(8)]
BID_TEXT: Final = [f"{seat_name(s)} places a Bidding Card face down." for s in range(8)]

#: Take actions by ``(face or count * 16 + kind) * 8 + players`` (players only for the Gold Die):
#: an int key, not a tuple built and hashed at every dice set (kinds < 16, players < 8).
_TAKE_CACHE: Final[dict[int, Action]] = {}


def take_action(kind: int, dice: Sequence[int], players: int) -> Action:
    """The action taking every die of ``kind`` (a dice-set slot) from ``dice``; built once per label."""
    if kind < NTRACKS:
        key = (dice[kind] * 16 + kind) * 8
    elif kind == GOLD:
        key = (dice[GOLD] * 16 + kind) * 8 + players
    else:
        key = (dice[ADJUST] * 16 + kind) * 8
    action = _TAKE_CACHE.get(key)
    if action is None:
        if kind < NTRACKS:
            c = dice[kind]
            what = f"the {symbol_dice(c, kind, word_only=True)}" if c == 1 else f"the {symbol_dice(c, kind)}"
            label = f"Take {what}: move up {c} on the {TRACK_NAMES[kind]}"
        elif kind == GOLD:
            g = GOLD_VALUES[dice[GOLD]]
            label = (f"Take the Gold Die (gold for all): every player gains {players - 1} Gold"
                     if g == GOLD_FOR_ALL else f"Take the Gold Die: {g} Gold")
        else:
            label = f"Take the Adjustment Die: {ADJ_FACES[dice[ADJUST]].label}"
        action = _TAKE_CACHE[key] = Action(f"take:{KINDS[kind]}", label, kind)
    return action


def take_actions(dice: Sequence[int], players: int) -> list[Action]:
    """The actions taking each type of dice present in ``dice``, symbols first, then Gold, Adjustment."""
    out = [take_action(k, dice, players) for k in range(NTRACKS) if dice[k]]
    if dice[GOLD] >= 0:
        out.append(take_action(GOLD, dice, players))
    if dice[ADJUST] >= 0:
        out.append(take_action(ADJUST, dice, players))
    return out
