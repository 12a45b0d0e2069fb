"""Dice Kingdoms of Valeria rules, on the engine's turn flow (a phase plus a stack of tasks).

Rulebook sections implemented: Game Setup, Player Sheets (marking rules),
Game Flow (Roll, Harvest, Action), Dice Actions, Reward Pips, Statue Cards,
Domain Powers, Scoring, Solo Rules and the Winter Rules.

Modules, by phase: ``fields`` (the declared fields, in the root class of
the one chain of phase classes, so each sees every field with its type),
``state`` (set-up, public queries and views; the class extending the
last of the chain), ``turn`` (Roll Phase, end of a turn and of the game), ``harvest``
(Harvest Phase, Statue draft), ``actions`` (Action Phase menu and actions),
``rewards`` (Reward chains and marking, shared by every phase), ``solo``
(Events), ``scoring`` (Score Tally and sheet views) and ``tables`` (phases,
task kinds, per-season tables).

State in brief
--------------
Each seat's two sheets are one flat list of ints (``sheets[seat]``; offsets in
``sheet``, per-season tables in ``layout``): pips marked per section, counted from the section's start
(so a pip can never be skipped), claimed Domains and Statues as bit masks,
and each Road's marked count and direction. Pending work is the engine's
stack of plain ``(kind, seat, arg)`` tasks (``tasks``): the steps of the turn
(``harvest``, ``end-harvest``, ``draft``, ``action``, ``end-action``), the
Active Player's ``act`` decision and each seat's Reward chain (Reward Pips to
resolve, the Harvest fallback, Statue picks, the Guild Strike choice). In a
Harvest every seat decides at once, each on its own lane (``lanes``). A
Reward task resolves itself when there is nothing to choose (or only one
way), otherwise it becomes the seat's ``choose-...`` decision. Phases:
``event`` (solo), ``harvest`` (every seat at once), ``draft`` (Statue picks
after a Harvest, one seat at a time), ``action`` (the Active Player), ``over``.

Orders (deterministic, documented)
----------------------------------
* Harvest: activated Citizens are counted before anything is marked
  (Citizens gained during the Harvest harvest from the next one on), then
  resolved from the lowest Citizen value to the highest, each die and the sum
  separately (doubles activate a Citizen twice). Their Guild Track pips are
  marked and the Reward Pips on them resolve in marking order, each chain to
  its end (depth first) before the next.
* Several pips marked at once (a Build, a Harvest) resolve their Rewards in
  marking order; a Domain claimed by the last pip of a Build resolves its
  instant Citizen after that pip's Reward.
* The Slay action's extra Gold comes after the marked pip's Reward chain.
* A Reward with nowhere to go is lost (a full section, no usable Road, no
  open or accessible lair, no Statue you may take).

Rule decisions where the rulebook is silent (each tested)
---------------------------------------------------------
* The Build marks *up to* the Green (+Blue) value: the player chooses how
  many pips (1 to the value), and must stop at a Domain or dead end.
* Domain powers are chosen together with the action: the legal actions list
  every Recruit / Slay / Build target some combination of unused powers
  (each once, no wrap, flip = 7 - x) and the optional Blue die can reach; the
  label says how. The result is the same as applying the powers one by one.
* An action that can mark nothing is not offered; when no action can mark a
  pip the Active Player takes none. (The Slay action's +1 Gold needs a
  marked lair pip.)
* Roads (layout reading 2.2): a start Road continues from its starting pip, a
  spur from its Domain, a link Road from either claimed end; once begun, a
  Road is only continued from where it began. Reaching a claimed Domain
  claims nothing new (a Road Reward's label then says "already claimed").
* An instant Citizen marks the leftmost open pip of that guild (the lowest
  valued section with an open pip), as in the rulebook's example.
* Harvest Statue draft: after every seat has harvested, first-Lair priority
  is settled in turn order from the Active Player, then each seat that
  marked Plinths takes all its Statues in turn order from the Active Player;
  Statues 12-14 taken then resolve at once, and a Plinth they mark is taken
  at once. The draft line is refilled after the draft.
* A Plinth that cannot give a Statue (4 held, or only duplicates in the line)
  is lost; the pip still counts for Statues 3 and 7.
* Harvest marks are public as they are made (sheets lie open; the first to
  complete a lair announces it). Because priority goes by turn order, not by
  who decides first, the order in which seats decide changes nothing.
* Solo: only the trees end the game, unless option ``solo_track_trigger``;
  a solo game counts as won (``winners == (0,)``) with 60 or more points.
* Solo Events (reconstructed) resolve before the first Harvest; Heavy Rain
  and Drought last for the turn. A Trailhead on a voided Domain still opens
  its lair (Wildfire takes the power and the Domain point only).
* The first player is drawn at random from the seed.
"""

from .scoring import (
    STATUE_SCORING, bridge_complete, citizen_pips, marked_pips, road_marked_positions, score_sheet, score_total,
    sheet_view, solo_result, star_pips,
)
from .state import DiceKingdomsState
from .tables import (
    ACTION, ACTIONS, CHOOSE, DRAFT, EVENT, HARVEST, KIND_CODE, OVER, PASS, PHASES, REWARD_AUTOS, REWARD_KIND,
    STAGE_ACTION, STAGE_EVENT, STAGE_HARVEST1, STAGE_HARVEST2, T_CITIZEN, T_FALLBACK, T_PICK, T_STRIKE, TASK_NAMES,
    power_text,
)

__all__ = [
    "ACTION", "ACTIONS", "CHOOSE", "DRAFT", "EVENT", "HARVEST", "KIND_CODE", "OVER", "PASS", "PHASES",
    "REWARD_AUTOS", "REWARD_KIND", "STAGE_ACTION", "STAGE_EVENT", "STAGE_HARVEST1", "STAGE_HARVEST2",
    "STATUE_SCORING", "T_CITIZEN", "T_FALLBACK", "T_PICK", "T_STRIKE", "TASK_NAMES", "DiceKingdomsState",
    "bridge_complete", "citizen_pips", "marked_pips", "power_text", "road_marked_positions", "score_sheet",
    "score_total", "sheet_view", "solo_result", "star_pips",
]
