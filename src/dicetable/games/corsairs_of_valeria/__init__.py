"""Corsairs of Valeria (Wouter van Strien, Daily Magic Games, 2020): 2-5 players race
their Ships to Skull Island with five dice; the first to 6 Treasure wins.

Game id ``corsairs-of-valeria``. Options: ``captains`` ("random", "none", or
one Captain id per seat, e.g. "hook,bones"), ``tracks`` ("random" or three
Tracks with sides from Start Island upwards, e.g. "T1A,T3B,T2A"),
``first_player`` ("random" or a player number, 1 to the number of players). See docs/games/corsairs-of-valeria.md.
"""

from dicetable.engine import GameSpec, OptionSpec, first_player_option
from dicetable.engine.help import load_help

from .board import board_view
from .catalogue import action_catalogue
from .encoding import observation_encoding
from .components import CAPTAINS, CORSAIRS_DIE
from .balance import balance_facts
from .planner import plan_turn, turn_key, turn_outcomes
from .policy import evaluate, greedy
from .rules import CorsairsState, check_captains, check_tracks
from .text import render, text_view

SPEC = GameSpec(
    id="corsairs-of-valeria",
    name="Corsairs of Valeria",
    min_players=2,
    max_players=5,
    state_class=CorsairsState,
    summary="Push-your-luck pirate race: roll five dice, re-roll for Grog, sail to Skull Island, "
            "collect Silver for Treasure; first to 6 Treasure wins.",
    options=(
        OptionSpec("captains", "random",
                   "Captain cards: 'random' (dealt), 'none', or one id per seat in seat order: "
                   + ", ".join(c.id for c in CAPTAINS), check=check_captains,
                   examples=("none", "willem,luthor", "mistress,prince", "reo,hook", "jager,bones", "jaxn,hasan"),
                   label="Captain Cards",
                   explanation="Each Captain gives its ship one special power; 'random' deals one to each player, "
                               "'none' plays without powers.",
                   source="rulebook: Game Setup; Captain Cards"),
        OptionSpec("tracks", "random",
                   "race track: 'random' (3 of the 4 Tracks, random order and sides) or e.g. 'T1A,T3B,T2A' "
                   "from Start Island upwards", check=check_tracks, examples=("T1A,T2A,T3A", "T1B,T2B,T3B"),
                   label="Tracks",
                   explanation="Which 3 of the 4 double-sided Tracks form the race from Start Island to Skull Island, "
                               "and in what order.",
                   source="rulebook: Game Setup"),
        first_player_option(
            explanation="Who takes the first turn; the rulebook gives it to whoever lost a game most recently.",
            source="rulebook: Game Setup (first player); dicetable: random or a chosen player"),
    ),
    dice_faces=CORSAIRS_DIE.faces,
    render=render,
    text_view=text_view,
    board_view=board_view,
    help=load_help(__name__),
    action_catalogue=action_catalogue,
    observation_encoding=observation_encoding,
    greedy=greedy,
    evaluate=evaluate,
    balance_facts=balance_facts,
    # the search's exact planner for a turn's dice (SearchParams.turn_plan; see planner.py)
    extras={"turn_key": turn_key, "turn_outcomes": turn_outcomes, "plan_turn": plan_turn},
)
