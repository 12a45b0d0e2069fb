"""Dice Kingdoms of Valeria (Levi Mote, Daily Magic Games): 1-5 players; 1 = the solo game.

Game id ``dice-kingdoms-of-valeria``. Options: ``sheets`` (``summer`` or
``winter``: which pair of Castle and Forest sheets everyone uses) and, solo
only, ``solo_track_trigger`` (end the solo game after the turn in which a
third Guild Track is completed; off by default: only the 20 trees end it).
"""

from dicetable.engine import GameSpec, OptionSpec
from dicetable.engine.help import load_help

from .catalogue import action_catalogue
from .encoding import observation_encoding
from .components import D6
from .balance import balance_facts
from .policy import evaluate, greedy
from .rules import DiceKingdomsState
from .board import board_view
from .text import render, text_view

SPEC = GameSpec(
    id="dice-kingdoms-of-valeria",
    name="Dice Kingdoms of Valeria",
    min_players=1,
    max_players=5,
    state_class=DiceKingdomsState,
    summary="Roll-and-write: harvest your Citizens every roll, recruit, slay and build, "
            "chain Reward Pips, draft Statues. Summer or Winter sheets; solo with Events.",
    options=(
        OptionSpec("sheets", "summer", "which sheets everyone plays: summer or winter",
                   choices=("summer", "winter"),
                   label="Summer or Winter sheets",
                   explanation="Winter sheets have other rewards and roads, and most Monster Lairs must be "
                               "opened by claiming Trailhead Domains first.",
                   source="rulebook: Winter Rules"),
        OptionSpec("solo_track_trigger", False,
                   "solo: a third completed Guild Track also ends the game (after that turn)",
                   type=bool, players=(1,),
                   label="Third Guild Track ends the solo game",
                   explanation="Solo only: besides the 20 trees, completing a third Guild Track also ends the game "
                               "after that turn.",
                   source="rulebook: Game Flow (the multiplayer end); dicetable: offered as a solo choice"),
    ),
    dice_faces=D6.faces,
    render=render,
    action_catalogue=action_catalogue,
    observation_encoding=observation_encoding,
    text_view=text_view,
    board_view=board_view,
    help=load_help(__name__),
    greedy=greedy,
    evaluate=evaluate,
    balance_facts=balance_facts,
)
