"""Kingdom of Dice (Reiner Knizia): 1-4 players; solo against the Mischievous Cat.

Game id ``kingdom-of-dice``. Option ``cat_level`` (1-6, solo only).
"""

from dicetable.engine import GameSpec, OptionSpec
from dicetable.engine.help import load_help

from .board import board_view
from .catalogue import action_catalogue
from .encoding import observation_encoding
from .components import CAT_LEVELS, KINGDOM_DIE
from .balance import balance_facts
from .policy import evaluate, greedy, plan_turn, throws_turn_away, turn_key, turn_outcomes
from .rules import KingdomOfDiceState
from .text import render, text_view

SPEC = GameSpec(
    id="kingdom-of-dice",
    name="Kingdom of Dice",
    min_players=1,
    max_players=4,
    state_class=KingdomOfDiceState,
    summary="Roll six dice, set dice aside, place Crown markers, win Influence cards over three rounds.",
    options=(
        OptionSpec("cat_level", 1, "solo: the Mischievous Cat's difficulty level",
                   choices=tuple(sorted(CAT_LEVELS)), type=int, players=(1,),
                   label="Level of the Mischievous Cat",
                   explanation="Solo only: the Cat's three markers start higher at each level (level 1: spaces 5, "
                               "10 and 15), so it takes better cards.",
                   source="rulebook: Solo Mode (level 1; levels 2-6 reconstructed)"),
    ),
    dice_faces=KINGDOM_DIE.faces,
    render=render,
    text_view=text_view,
    board_view=board_view,
    help=load_help(__name__),
    action_catalogue=action_catalogue,
    observation_encoding=observation_encoding,
    greedy=greedy,
    evaluate=evaluate,
    balance_facts=balance_facts,
    # throws_turn_away: front ends ask before a choice that scores nothing when another would
    # (GameSpec.confirm_warnings) and show a forced one; turn_key/turn_outcomes/plan_turn:
    # the search's exact planner for the rest of a turn (SearchParams.turn_plan)
    extras={"throws_turn_away": throws_turn_away, "turn_key": turn_key,
            "turn_outcomes": turn_outcomes, "plan_turn": plan_turn},
)
