"""Biblios Dice's component tables that the compiled rules read at every step, as ``Final`` names.

The tables are built in ``components`` (Python, read once at import). A compiled module that
imported them from there looked each one up in its module dictionary at every read; read from
here, a compiled module loads it from a C global (mypyc keeps a ``Final`` name of a compiled
module in one). The objects are the components' own: the pure build reads the same values.
"""

from __future__ import annotations

from typing import Final

from ..components import (
    ADJUST as _ADJUST, ADJ_DIE as _ADJ_DIE, ADJ_FACES as _ADJ_FACES, ADJ_INDEX as _ADJ_INDEX,
    ADJ_STEPS as _ADJ_STEPS, BISHOP as _BISHOP, BONUSES as _BONUSES, CADFAEL as _CADFAEL,
    CADFAEL_CARDS as _CADFAEL_CARDS, CARD_VALUES as _CARD_VALUES, EMPTY_SET as _EMPTY_SET,
    FULL_HAND as _FULL_HAND, GOLD as _GOLD, GOLD_DIE as _GOLD_DIE, GOLD_FOR_ALL as _GOLD_FOR_ALL,
    KINDS as _KINDS, MULE_DIE as _MULE_DIE, MULE_FINAL as _MULE_FINAL, NRES as _NRES, NTRACKS as _NTRACKS,
    PASS as _PASS, PENALTY as _PENALTY, PLACES_FROM as _PLACES_FROM, RESOURCES as _RESOURCES,
    RESOURCE_DIE as _RESOURCE_DIE, RESOURCE_NAMES as _RESOURCE_NAMES, SCORING as _SCORING,
    SMALL_GROUP as _SMALL_GROUP, START as _START, SYMBOLS as _SYMBOLS, SYMBOL_INDEX as _SYMBOL_INDEX,
    SYMBOL_NAMES as _SYMBOL_NAMES, SYMBOL_ONE as _SYMBOL_ONE, TOKENS as _TOKENS, TOKEN_GROUPS as _TOKEN_GROUPS,
    TOKEN_INDEX as _TOKEN_INDEX, TOKEN_SPOTS as _TOKEN_SPOTS, TOP as _TOP, TRACK_NAMES as _TRACK_NAMES,
    VALUE_MAX as _VALUE_MAX, VALUE_MIN as _VALUE_MIN, VALUE_RESET as _VALUE_RESET,
    VALUE_START as _VALUE_START, VP_STACKS as _VP_STACKS, place_points as _place_points,
)

ADJUST: Final = _ADJUST
ADJ_DIE: Final = _ADJ_DIE
ADJ_FACES: Final = _ADJ_FACES
ADJ_INDEX: Final = _ADJ_INDEX
ADJ_STEPS: Final = _ADJ_STEPS
BISHOP: Final = _BISHOP
BONUSES: Final = _BONUSES
CADFAEL: Final = _CADFAEL
CADFAEL_CARDS: Final = _CADFAEL_CARDS
CARD_VALUES: Final = _CARD_VALUES
EMPTY_SET: Final = _EMPTY_SET
FULL_HAND: Final = _FULL_HAND
GOLD: Final = _GOLD
GOLD_DIE: Final = _GOLD_DIE
GOLD_FOR_ALL: Final = _GOLD_FOR_ALL
KINDS: Final = _KINDS
MULE_DIE: Final = _MULE_DIE
MULE_FINAL: Final = _MULE_FINAL
NRES: Final = _NRES
NTRACKS: Final = _NTRACKS
PASS: Final = _PASS
PENALTY: Final = _PENALTY
PLACES_FROM: Final = _PLACES_FROM
RESOURCES: Final = _RESOURCES
RESOURCE_DIE: Final = _RESOURCE_DIE
RESOURCE_NAMES: Final = _RESOURCE_NAMES
SCORING: Final = _SCORING
SMALL_GROUP: Final = _SMALL_GROUP
START: Final = _START
SYMBOLS: Final = _SYMBOLS
SYMBOL_INDEX: Final = _SYMBOL_INDEX
SYMBOL_NAMES: Final = _SYMBOL_NAMES
SYMBOL_ONE: Final = _SYMBOL_ONE
TOKENS: Final = _TOKENS
TOKEN_GROUPS: Final = _TOKEN_GROUPS
TOKEN_INDEX: Final = _TOKEN_INDEX
TOKEN_SPOTS: Final = _TOKEN_SPOTS
TOP: Final = _TOP
TRACK_NAMES: Final = _TRACK_NAMES
VALUE_MAX: Final = _VALUE_MAX
VALUE_MIN: Final = _VALUE_MIN
VALUE_RESET: Final = _VALUE_RESET
VALUE_START: Final = _VALUE_START
VP_STACKS: Final = _VP_STACKS

#: The places that score on a Resource Track (rulebook Scoring: first, second, third).
N_PLACES: Final = len(_SCORING.place_multipliers)
#: PLACE_VP[pips][place]: ``components.place_points(place, pips)`` for every Value Die face 0..VALUE_MAX,
#: made once (the function is Python, called from the compiled rules at every ranking).
PLACE_VP: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_place_points(place, pips) for place in range(N_PLACES)) for pips in range(_VALUE_MAX + 1))
