"""Valeria: Card Kingdoms's component tables that the compiled rules read at every step, as ``Final`` names.

The tables are built in ``components`` (Python, read once at import). A compiled module that
imported them from there looked each one up in its module dictionary at every read; read from
here, a compiled module loads it from a C global (mypyc keeps a ``Final`` name of a compiled
module in one). The objects are the components' own: the pure build reads the same values.
"""

from __future__ import annotations

from typing import Final

from ..components import (
    AREAS as _AREAS, AREA_SLUG as _AREA_SLUG, CHOOSE as _CHOOSE, CIT_COST as _CIT_COST,
    CIT_DISPLAY as _CIT_DISPLAY, CIT_NAME as _CIT_NAME, CIT_NAMEKEY as _CIT_NAMEKEY, CIT_OFF as _CIT_OFF,
    CIT_ON as _CIT_ON, CIT_POSITION as _CIT_POSITION, CIT_ROLE as _CIT_ROLE, CIT_SLOTS as _CIT_SLOTS,
    CIT_SLUG as _CIT_SLUG, COPIES as _COPIES, C_DOMAINS as _C_DOMAINS, C_NAME as _C_NAME, C_ROLE as _C_ROLE,
    DIE as _DIE, DOM_COST as _DOM_COST, DOM_DISCOUNT as _DOM_DISCOUNT, DOM_EFFECT as _DOM_EFFECT,
    DOM_NAME as _DOM_NAME, DOM_NO_SURCHARGE as _DOM_NO_SURCHARGE, DOM_REQ as _DOM_REQ,
    DOM_ROLE_ICONS as _DOM_ROLE_ICONS, DOM_ROLL as _DOM_ROLL, DOM_SLUG as _DOM_SLUG, DOM_VP as _DOM_VP,
    DOM_WHEN as _DOM_WHEN, DUKES as _DUKES, DUKE_NAME as _DUKE_NAME, DUKE_SCORING as _DUKE_SCORING,
    DUKE_SLUG as _DUKE_SLUG, EXCHANGE as _EXCHANGE, GAIN as _GAIN, MON_AREA as _MON_AREA, MON_MAG as _MON_MAG,
    MON_NAME as _MON_NAME, MON_REWARD as _MON_REWARD, MON_SLUG as _MON_SLUG, MON_STR as _MON_STR,
    MON_TYPE as _MON_TYPE, MON_VP as _MON_VP, N_CIT as _N_CIT, N_DOM as _N_DOM, PER as _PER,
    RESOURCE_WORD as _RESOURCE_WORD, RES_ID as _RES_ID, RETURN as _RETURN, RET_MONSTER as _RET_MONSTER,
    RULES as _RULES, SLAY as _SLAY, SLOT_TYPES as _SLOT_TYPES, STARTER_TYPES as _STARTER_TYPES,
    STEAL as _STEAL, STEAL_MON as _STEAL_MON, STEPS as _STEPS, TAKE_CIT as _TAKE_CIT, TIERS as _TIERS,
    W_AEND as _W_AEND, W_ASTART as _W_ASTART, W_BUILD as _W_BUILD, W_DOUBLES as _W_DOUBLES,
    W_GAINCIT as _W_GAINCIT, W_ROLL as _W_ROLL, W_SLAY as _W_SLAY,
)

AREAS: Final = _AREAS
AREA_SLUG: Final = _AREA_SLUG
CHOOSE: Final = _CHOOSE
CIT_COST: Final = _CIT_COST
CIT_DISPLAY: Final = _CIT_DISPLAY
CIT_NAME: Final = _CIT_NAME
CIT_NAMEKEY: Final = _CIT_NAMEKEY
CIT_OFF: Final = _CIT_OFF
CIT_ON: Final = _CIT_ON
CIT_POSITION: Final = _CIT_POSITION
CIT_ROLE: Final = _CIT_ROLE
CIT_SLOTS: Final = _CIT_SLOTS
CIT_SLUG: Final = _CIT_SLUG
COPIES: Final = _COPIES
C_DOMAINS: Final = _C_DOMAINS
C_NAME: Final = _C_NAME
C_ROLE: Final = _C_ROLE
DIE: Final = _DIE
DOM_COST: Final = _DOM_COST
DOM_DISCOUNT: Final = _DOM_DISCOUNT
DOM_EFFECT: Final = _DOM_EFFECT
DOM_NAME: Final = _DOM_NAME
DOM_NO_SURCHARGE: Final = _DOM_NO_SURCHARGE
DOM_REQ: Final = _DOM_REQ
DOM_ROLE_ICONS: Final = _DOM_ROLE_ICONS
DOM_ROLL: Final = _DOM_ROLL
DOM_SLUG: Final = _DOM_SLUG
DOM_VP: Final = _DOM_VP
DOM_WHEN: Final = _DOM_WHEN
DUKES: Final = _DUKES
DUKE_NAME: Final = _DUKE_NAME
DUKE_SCORING: Final = _DUKE_SCORING
DUKE_SLUG: Final = _DUKE_SLUG
EXCHANGE: Final = _EXCHANGE
GAIN: Final = _GAIN
MON_AREA: Final = _MON_AREA
MON_MAG: Final = _MON_MAG
MON_NAME: Final = _MON_NAME
MON_REWARD: Final = _MON_REWARD
MON_SLUG: Final = _MON_SLUG
MON_STR: Final = _MON_STR
MON_TYPE: Final = _MON_TYPE
MON_VP: Final = _MON_VP
N_CIT: Final = _N_CIT
N_DOM: Final = _N_DOM
PER: Final = _PER
RESOURCE_WORD: Final = _RESOURCE_WORD
RES_ID: Final = _RES_ID
RETURN: Final = _RETURN
RET_MONSTER: Final = _RET_MONSTER
RULES: Final = _RULES
SLAY: Final = _SLAY
SLOT_TYPES: Final = _SLOT_TYPES
STARTER_TYPES: Final = _STARTER_TYPES
STEAL: Final = _STEAL
STEAL_MON: Final = _STEAL_MON
STEPS: Final = _STEPS
TAKE_CIT: Final = _TAKE_CIT
TIERS: Final = _TIERS
W_AEND: Final = _W_AEND
W_ASTART: Final = _W_ASTART
W_BUILD: Final = _W_BUILD
W_DOUBLES: Final = _W_DOUBLES
W_GAINCIT: Final = _W_GAINCIT
W_ROLL: Final = _W_ROLL
W_SLAY: Final = _W_SLAY
