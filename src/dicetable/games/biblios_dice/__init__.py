"""Biblios Dice (Steve Finn, Dr. Finn's Games): 2-5 players; 2 players add Cadfael.

Game id ``biblios-dice``. Option ``hidden_objectives`` (the Hidden Objective
Variant: each player is dealt a secret Resource Track worth +3 VPs for first
place there). Rules: :mod:`.rules`; components: :mod:`.components` and
``data/components.toml``; decisions and reconstructions: docs/games/biblios-dice.md.
"""

from dicetable.engine import GameSpec, OptionSpec
from dicetable.engine.help import load_help

from .board import board_view
from .catalogue import action_catalogue
from .encoding import observation_encoding
from .components import ALL_FACES
from .balance import balance_facts
from .policy import evaluate, greedy
from .rules import BibliosDiceState
from .text import render, text_view

SPEC = GameSpec(
    id="biblios-dice",
    name="Biblios Dice",
    min_players=2,
    max_players=5,
    state_class=BibliosDiceState,
    summary="Draft dice to climb five resource tracks, bid secretly at the market, sway the Bishop.",
    options=(
        OptionSpec("hidden_objectives", False, "Hidden Objective Variant: a secret track worth +3 VPs "
                   "for first place", choices=(False, True), type=bool,
                   label="Hidden Objective Variant",
                   explanation="Each player secretly gets one Resource Track; finishing first on it is worth 3 more VPs.",
                   source="rulebook: Hidden Objective Variant"),
    ),
    dice_faces=ALL_FACES,
    render=render,
    text_view=text_view,
    board_view=board_view,
    help=load_help(__name__),
    action_catalogue=action_catalogue,
    observation_encoding=observation_encoding,
    greedy=greedy,
    evaluate=evaluate,
    balance_facts=balance_facts,
)
