"""dicetable: five tabletop dice games on one rules engine.

>>> import dicetable
>>> state = dicetable.new_game("kingdom-of-dice", players=3, seed=7)
>>> state.to_move
(0,)
>>> [spec.id for spec in dicetable.list_games()][:1]
['biblios-dice']

``dicetable.games`` is the package holding the games (its ``GAMES`` table
catalogues them); :func:`list_games` lists their specs. :func:`build_kind` says whether
the compiled build or the pure Python one runs (:mod:`dicetable.compiled`).
"""

from .compiled import build_kind  # first: DICETABLE_BUILD=pure must act before the engine loads
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
    "SaveFormatError", "SeatError", "build_kind", "get_game", "list_games", "load_state", "new_game",
    "run_replay",
]
__version__ = "0.1.0"


# Import the games package now: it hands its catalogue to the registry, so every way into the
# package (``import dicetable.engine.registry`` runs this file first) finds the games registered.
from . import games  # noqa: E402,F401  (a light import: the game packages load on first use)
