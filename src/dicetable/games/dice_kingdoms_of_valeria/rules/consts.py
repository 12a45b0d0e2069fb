"""Dice Kingdoms of Valeria's component tables that the compiled rules read at every step, as ``Final`` names.

The tables are built in ``components`` (Python, read once at import). A compiled module that
imported them from there looked each one up in its module dictionary at every read; read from
here, a compiled module loads it from a C global (mypyc keeps a ``Final`` name of a compiled
module in one). The objects are the components' own: the pure build reads the same values.
"""

from __future__ import annotations

from typing import Final

from ..components import (
    BLACK_DIE as _BLACK_DIE, CARD_BACK as _CARD_BACK, CARD_ID as _CARD_ID, CARD_INDEX as _CARD_INDEX,
    CARD_KIND as _CARD_KIND, COLOUR_DIE as _COLOUR_DIE, DRAFT_LINE as _DRAFT_LINE, END_TRACKS as _END_TRACKS,
    EVENTS as _EVENTS, EVENT_IDS as _EVENT_IDS, EVENT_INDEX as _EVENT_INDEX, MAX_STATUES as _MAX_STATUES,
    N_CARDS as _N_CARDS, N_KINDS as _N_KINDS, SOLO_RESULTS as _SOLO_RESULTS, STATUES as _STATUES,
    STATUE_INSTANT as _STATUE_INSTANT, STATUE_STARS as _STATUE_STARS, STATUE_TIMES as _STATUE_TIMES,
)

BLACK_DIE: Final = _BLACK_DIE
CARD_BACK: Final = _CARD_BACK
CARD_ID: Final = _CARD_ID
CARD_INDEX: Final = _CARD_INDEX
CARD_KIND: Final = _CARD_KIND
COLOUR_DIE: Final = _COLOUR_DIE
DRAFT_LINE: Final = _DRAFT_LINE
END_TRACKS: Final = _END_TRACKS
EVENTS: Final = _EVENTS
EVENT_IDS: Final = _EVENT_IDS
EVENT_INDEX: Final = _EVENT_INDEX
MAX_STATUES: Final = _MAX_STATUES
N_CARDS: Final = _N_CARDS
N_KINDS: Final = _N_KINDS
SOLO_RESULTS: Final = _SOLO_RESULTS
STATUES: Final = _STATUES
STATUE_INSTANT: Final = _STATUE_INSTANT
STATUE_STARS: Final = _STATUE_STARS
STATUE_TIMES: Final = _STATUE_TIMES
