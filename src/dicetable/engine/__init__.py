"""The engine kernel shared by every game.

Import from here: :class:`GameState` (the State protocol), :class:`Action`,
:class:`Decision`, :class:`Event`, :class:`Die`, the registry functions
(:func:`new_game`, :func:`load_state`, :func:`list_games`, :func:`get_game`),
replays (:func:`run_replay`) and the errors; for writing a game, the turn
flow (:class:`FlowState` and its handler decorators ``auto``, ``prompt``,
``choices``, ``resolve``) and declared fields (:class:`Field`).
"""

from .core import Action, Decision, Die, Event, seat_name
from .data import ComponentDataError, Sourced, load_data
from .errors import (
    DicetableError,
    GameConfigError,
    IllegalActionError,
    SaveFormatError,
    ScriptedDiceError,
    SeatError,
)
from .registry import (
    GameSpec, OptionSpec, check_save_header, first_player_choices, first_player_option, games, get_game,
    list_games, new_game, register, spec_of,
)
from .replay import (
    MAX_FILE_BYTES, load_game_file, load_saved_game, load_state, new_file_path, read_json, run_replay, write_json,
)
from .fields import LIST, ROWS, VALUE, Field, declare, int_list, int_rows, int_tuple
from .flow import FlowState, Task, auto, choices, prompt, resolve, task_list
from .rng import SEED_LIMIT, SEED_RANGE, TABLE_SEED_MAX, Rng, series_seed
from .scoresheet import ScoreLine, ScoreSheet, TieMeasure, outcome_text, places
from .state import GameState
from .words import asked_now, asked_of, counted, names_text, plural_of

__all__ = [
    "MAX_FILE_BYTES", "SEED_LIMIT", "SEED_RANGE", "TABLE_SEED_MAX", "SeatError", "list_games", "series_seed",
    "Action", "ComponentDataError", "Decision", "DicetableError", "Die", "Event",
    "GameConfigError", "GameSpec", "GameState", "IllegalActionError", "OptionSpec",
    "first_player_choices", "first_player_option",
    "Rng", "SaveFormatError", "ScriptedDiceError", "Sourced", "check_save_header", "games", "get_game",
    "load_data", "load_game_file", "load_saved_game", "load_state", "new_game", "read_json", "register",
    "new_file_path", "run_replay", "seat_name", "spec_of", "write_json",
    "Field", "FlowState", "declare", "LIST", "ROWS", "VALUE", "auto", "choices", "int_list", "int_rows", "int_tuple",
    "prompt", "resolve", "task_list", "Task", "asked_now", "asked_of", "counted", "names_text", "plural_of",
    "ScoreLine", "ScoreSheet", "TieMeasure", "outcome_text", "places",
]
