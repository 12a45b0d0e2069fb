"""dicetable: five tabletop dice games on one rules engine.

>>> import dicetable
>>> state = dicetable.new_game("kingdom-of-dice", players=3, seed=7)
>>> state.to_move
(0,)
>>> [spec.id for spec in dicetable.list_games()][:1]
['biblios-dice']

``dicetable.games`` is the package holding the games; calling it as
``dicetable.games()`` still lists them but is deprecated (a
DeprecationWarning): use :func:`list_games`.
"""

from .engine import (
    Action,
    Decision,
    DicetableError,
    Event,
    GameConfigError,
    IllegalActionError,
    SaveFormatError,
    SeatError,
    get_game,
    list_games,
    load_state,
    new_game,
    run_replay,
)

__all__ = [
    "Action", "Decision", "DicetableError", "Event", "GameConfigError", "IllegalActionError",
    "SaveFormatError", "SeatError", "get_game", "list_games", "load_state", "new_game", "run_replay",
]
__version__ = "0.1.0"

# Import the games package now, so that ``dicetable.games`` is always the same object (the package,
# callable for the deprecated ``dicetable.games()``), not a function until the first game is loaded.
from . import games  # noqa: E402,F401  (a light import: the game packages load on first use)
