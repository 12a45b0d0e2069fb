"""Corsairs of Valeria's component tables that the compiled rules read at every step, as ``Final`` names.

The tables are built in ``components`` (Python, read once at import). A compiled module that
imported them from there looked each one up in its module dictionary at every read; read from
here, a compiled module loads it from a C global (mypyc keeps a ``Final`` name of a compiled
module in one). The objects are the components' own: the pure build reads the same values.
"""

from __future__ import annotations

from typing import Final

from ..components import (
    BONES as _BONES, CANNON as _CANNON, CAPTAINS as _CAPTAINS, CAPTAIN_INDEX as _CAPTAIN_INDEX,
    COLOURS as _COLOURS, CORSAIRS_DIE as _CORSAIRS_DIE, CUTTHROAT as _CUTTHROAT, DICE as _DICE,
    DIE_FACES as _DIE_FACES, FACE_INDEX as _FACE_INDEX, FACE_WORD as _FACE_WORD, GROG as _GROG,
    GROG_MAX as _GROG_MAX, GROG_START as _GROG_START, HASAN as _HASAN, HAZARD_WORD as _HAZARD_WORD,
    HOOK as _HOOK, ISLAND_REFILL as _ISLAND_REFILL, ISLAND_START as _ISLAND_START, JAGER as _JAGER,
    JAXN as _JAXN, LUTHOR as _LUTHOR, MAP as _MAP, MISTRESS as _MISTRESS, NO_CAPTAIN as _NO_CAPTAIN,
    PRINCE as _PRINCE, REO as _REO, SEA_MONSTER as _SEA_MONSTER, SILVER as _SILVER,
    SILVER_PER_TREASURE as _SILVER_PER_TREASURE, SILVER_START as _SILVER_START, SILVER_TOTAL as _SILVER_TOTAL,
    SKULL as _SKULL, SKULL_GROG as _SKULL_GROG, TRACKS as _TRACKS, TRACKS_USED as _TRACKS_USED,
    TREASURE_START as _TREASURE_START, TREASURE_TO_WIN as _TREASURE_TO_WIN, WHIRLPOOL as _WHIRLPOOL,
    WILLEM as _WILLEM,
)

BONES: Final = _BONES
CANNON: Final = _CANNON
CAPTAINS: Final = _CAPTAINS
CAPTAIN_INDEX: Final = _CAPTAIN_INDEX
COLOURS: Final = _COLOURS
CORSAIRS_DIE: Final = _CORSAIRS_DIE
CUTTHROAT: Final = _CUTTHROAT
DICE: Final = _DICE
DIE_FACES: Final = _DIE_FACES
FACE_INDEX: Final = _FACE_INDEX
FACE_WORD: Final = _FACE_WORD
GROG: Final = _GROG
GROG_MAX: Final = _GROG_MAX
GROG_START: Final = _GROG_START
HASAN: Final = _HASAN
HAZARD_WORD: Final = _HAZARD_WORD
HOOK: Final = _HOOK
ISLAND_REFILL: Final = _ISLAND_REFILL
ISLAND_START: Final = _ISLAND_START
JAGER: Final = _JAGER
JAXN: Final = _JAXN
LUTHOR: Final = _LUTHOR
MAP: Final = _MAP
MISTRESS: Final = _MISTRESS
NO_CAPTAIN: Final = _NO_CAPTAIN
PRINCE: Final = _PRINCE
REO: Final = _REO
SEA_MONSTER: Final = _SEA_MONSTER
SILVER: Final = _SILVER
SILVER_PER_TREASURE: Final = _SILVER_PER_TREASURE
SILVER_START: Final = _SILVER_START
SILVER_TOTAL: Final = _SILVER_TOTAL
SKULL: Final = _SKULL
SKULL_GROG: Final = _SKULL_GROG
TRACKS: Final = _TRACKS
TRACKS_USED: Final = _TRACKS_USED
TREASURE_START: Final = _TREASURE_START
TREASURE_TO_WIN: Final = _TREASURE_TO_WIN
WHIRLPOOL: Final = _WHIRLPOOL
WILLEM: Final = _WILLEM
