"""dicetable: five tabletop dice games on one rules engine.

>>> import dicetable
>>> state = dicetable.new_game("kingdom-of-dice", players=3, seed=7)
>>> state.to_move
(0,)
"""

from .engine import (
    Action,
    Decision,
    DicetableError,
    Event,
    GameConfigError,
    IllegalActionError,
    SaveFormatError,
    games,
    get_game,
    load_state,
    new_game,
    run_replay,
)

__all__ = [
    "Action", "Decision", "DicetableError", "Event", "GameConfigError", "IllegalActionError",
    "SaveFormatError", "games", "get_game", "load_state", "new_game", "run_replay",
]
__version__ = "0.1.0"
