"""Dice Kingdoms of Valeria: the fixed codes of the game and the offsets of a seat's flat sheet.

Plain constants, no data: the four Guilds and die colours in the rulebook's
order, the Reward Pip codes (rulebook: Reward Pips), the fixed offsets of a
seat's sheet (a flat list of ints; its Range Blocks and Roads follow at
:data:`LB0`, laid out per season by :class:`~.layout.Layout`) and the Monster
Lair results. They are ``Final`` so the compiled build reads each as a number
in place rather than looking a name up (docs/compiled.md).
"""

from __future__ import annotations

from typing import Final

GUILDS: Final = ("Holy", "Worker", "Shadow", "Soldier")
HOLY: Final = 0
WORKER: Final = 1
SHADOW: Final = 2
SOLDIER: Final = 3
COLOURS: Final = ("yellow", "red", "green", "blue")
YELLOW: Final = 0
RED: Final = 1
GREEN: Final = 2
BLUE: Final = 3

#: Reward Pip kinds, in the rulebook's order; code 0 is a plain pip.
REWARDS: Final = ("Recruit", "Gold", "Road", "Knight", "Slay", "Plinth", "Star")
PLAIN: Final = 0
RECRUIT: Final = 1
GOLD: Final = 2
ROAD: Final = 3
KNIGHT: Final = 4
SLAY: Final = 5
PLINTH: Final = 6
STAR: Final = 7
#: The code of each pip kind as the data files write it ("-" and "START" are plain pips).
REWARD_CODE: Final[dict[str, int]] = {"-": PLAIN, "START": PLAIN, **{k: i + 1 for i, k in enumerate(REWARDS)}}
REWARD_NAME: Final = ("plain",) + REWARDS

# Fixed offsets of the per-seat sheet.
CIT: Final = 0        # 10 Citizen sections: pips marked (or crossed out) from the left, 0..2
CITV: Final = 10      # 10 Citizen void masks (solo Exodus): bit i = pip i crossed out
TRK: Final = 20       # 4 Guild Tracks: pips marked
GOLDC: Final = 24     # Gold Chart pips marked
WALLC: Final = 25     # Wall pips marked
DOM: Final = 26       # claimed Domains (bit mask)
STAT: Final = 27      # Statue kinds held (bit mask, bit k = Statue k+1)
NSTAT: Final = 28     # number of Statues held
PLP: Final = 29       # Plinth Reward Pips marked in this Harvest, not yet drafted
VDOM: Final = 30      # voided Domains (bit mask)
VBRIDGE: Final = 31   # voided Bridges (bit mask)
VTRK: Final = 32      # 4 masks: voided Reward Pips of each Guild Track (bit i = pip i)
LST: Final = 36       # 4 lair results: 0 open, 1 high VP, 2 low VP, 3 completed in this Harvest
ACC: Final = 40       # lairs this seat may slay in (bit mask)
LB0: Final = 41       # lair Range Blocks: pips marked in each (then roads)

# A Monster Lair's result (rulebook: Monster Lairs): open, completed first (the higher VP),
# completed later (the lower VP), completed in this Harvest (settled when the Harvest ends, in
# turn order from the Active Player).
LAIR_OPEN: Final = 0
LAIR_HIGH: Final = 1
LAIR_LOW: Final = 2
LAIR_PENDING: Final = 3
