"""Valeria: Card Kingdoms (Daily Magic Games), base set: 1-5 players, solo against the Dark Lord.

Game id ``valeria-card-kingdoms``. Options: ``setup`` (``first-game``, the rulebook's named
setups ``glittering-gold``, ``mastery-over-magic``, ``monster-blood``, or ``random``) and
``citizens`` (``standard`` stacks of one type, or the ``mixed`` Citizen variant, R13).
"""

from dicetable.engine import GameSpec, OptionSpec
from dicetable.engine.help import load_help

from .board import board_view
from .catalogue import action_catalogue
from .encoding import observation_encoding
from .components import DIE, SETUP_IDS
from .balance import balance_facts
from .policy import evaluate, greedy
from .rules import ValeriaState
from .text import render, text_view
from .viewdata import stage_words

SPEC = GameSpec(
    id="valeria-card-kingdoms",
    name="Valeria: Card Kingdoms",
    min_players=1,
    max_players=5,
    state_class=ValeriaState,
    summary="Roll two dice; every player's Citizens harvest; slay Monsters, recruit Citizens, build Domains.",
    options=(
        OptionSpec("setup", "first-game", "Center Stacks: the first game, a named setup of the rulebook, or random",
                   choices=(*SETUP_IDS, "random"),
                   label="Center Stacks setup",
                   explanation="Which Monsters, Citizens and Domains are on offer: the first-game set, "
                               "a named setup, or a random one.",
                   source="rulebook: Setup; suggested setups (p. 19)"),
        OptionSpec("citizens", "standard", "Citizen stacks: one type per slot, or the Mixed Citizen variant",
                   choices=("standard", "mixed"),
                   label="Mixed Citizen variant",
                   explanation="Each Citizen stack mixes every Citizen of its roll number, only the top card face up.",
                   source="rulebook: Mixed Citizen variant"),
    ),
    dice_faces=DIE.faces,
    render=render,
    text_view=text_view,
    board_view=board_view,
    stage_words=stage_words,
    help=load_help(__name__),
    action_catalogue=action_catalogue,
    observation_encoding=observation_encoding,
    greedy=greedy,
    evaluate=evaluate,
    balance_facts=balance_facts,
)
