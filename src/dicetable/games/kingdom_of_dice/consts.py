"""Kingdom of Dice's component tables that the compiled rules read at every step, as ``Final`` names.

The tables are built in ``components`` (Python, read once at import). A compiled module that
imported them from there looked each one up in its module dictionary at every read; read from
here, a compiled module loads it from a C global (mypyc keeps a ``Final`` name of a compiled
module in one). The objects are the components' own: the pure build reads the same values.
"""

from __future__ import annotations

from typing import Final

from .components import (
    CARDS as _CARDS, CARD_INDEX as _CARD_INDEX, CARD_NAME as _CARD_NAME, CARD_VALUE as _CARD_VALUE,
    CAT_LEVELS as _CAT_LEVELS, FACE_INDEX as _FACE_INDEX, FACE_ORDER as _FACE_ORDER,
    KINGDOM_DIE as _KINGDOM_DIE, REGULAR_CARDS as _REGULAR_CARDS, SPACES as _SPACES,
    SPECIAL_BY_ROUND as _SPECIAL_BY_ROUND, TOP_SPACE as _TOP_SPACE,
)

CARDS: Final = _CARDS
CARD_INDEX: Final = _CARD_INDEX
CARD_NAME: Final = _CARD_NAME
CARD_VALUE: Final = _CARD_VALUE
CAT_LEVELS: Final = _CAT_LEVELS
FACE_INDEX: Final = _FACE_INDEX
FACE_ORDER: Final = _FACE_ORDER
KINGDOM_DIE: Final = _KINGDOM_DIE
REGULAR_CARDS: Final = _REGULAR_CARDS
SPACES: Final = _SPACES
SPECIAL_BY_ROUND: Final = _SPECIAL_BY_ROUND
TOP_SPACE: Final = _TOP_SPACE
