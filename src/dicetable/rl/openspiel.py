"""OpenSpiel (pyspiel) Python games for every dicetable game.

``register_openspiel()`` registers ``python_dicetable_<game>`` (dashes as underscores) with
parameters ``players`` (int), ``options`` (a JSON object as a string, e.g.
``'{"sheets": "winter"}'``), ``seed`` (int: the first game's seed; each new initial state
takes the next one) and ``events`` (bool, default false: moves by the engine's quiet step, as the
AEC environment and ``BatchEnv`` make them, so no event is built or logged; true: by ``apply``,
every event logged). Dice and shuffles happen inside the engine's seeded step, so the games
are declared ``SAMPLED_STOCHASTIC``: no explicit chance nodes, and a state's future is fixed by
its seed. Simultaneous decisions (secret bids, the simultaneous Harvest) are asked one seat
after another in seat order, each seat seeing only its own observation. Observation and
information-state tensors are the game's feature vector of ``observation(seat)``; strings are
its JSON. Returns are the final placing rewards (the score in solo). States serialize to the
engine's save (``to_dict``, its log left empty) as JSON, and load back through ``load_state``'s full check
(OpenSpiel's own serializing simulation test needs the game's random-number state, which
pyspiel does not let a Python game provide; ``serialize``/``deserialize_state`` are tested
directly instead).
"""

from __future__ import annotations

import json
from typing import Any

from ._extra import require_rl

require_rl("numpy", "pyspiel")

import numpy as np
import pyspiel

import dicetable
from dicetable.engine import Action, GameState

from .spaces import GameSpaces, checked_seed, placing_rewards, research_games

#: A generous bound on actions in one game (random play stays far below it).
MAX_GAME_LENGTH = 20_000

_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def short_name(game_id: str) -> str:
    """The pyspiel name of a dicetable game: ``python_dicetable_<id with underscores>``."""
    return "python_dicetable_" + game_id.replace("-", "_")


class _Held:
    """Holds the engine state so that OpenSpiel's deep copy of a state is the engine's cheap clone,
    with what is worked out once per position: ``player`` (current_player(), None until asked) and
    ``offered`` (the mover's legal Actions and their catalogue indices, None until asked). A copy
    starts without them."""

    __slots__ = ("state", "player", "offered")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.player: int | None = None
        self.offered: tuple[tuple[Action, ...], list[int]] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Held":
        return _Held(self.state.clone())


class _Shared:
    """Holds what every state of a game shares (never copied): the spaces, and ``events`` (moves by
    ``apply``, every event logged; False: by the engine's quiet step)."""

    __slots__ = ("spaces", "events")

    def __init__(self, spaces: GameSpaces, events: bool) -> None:
        self.spaces = spaces
        self.events = events

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Shared":
        return self


class DicetableSpielState(pyspiel.State):
    """A dicetable state seen through OpenSpiel's API (see the module docstring)."""

    def __init__(self, game: "DicetableSpielGame", state: GameState) -> None:
        super().__init__(game)
        self._shared = game.shared
        self._held = _Held(state)  # the engine state changes only through _apply_action, which clears the rest

    @property
    def spaces(self) -> GameSpaces:
        """The game's action catalogue and encoding."""
        return self._shared.spaces

    @property
    def state(self) -> GameState:
        """The dicetable engine state underneath (read it; change it only through ``apply_action``,
        which keeps this state's answers in step)."""
        return self._held.state

    def current_player(self) -> int:
        """The lowest seat to move, or TERMINAL (worked out once per position)."""
        held = self._held
        player = held.player
        if player is None:  # pyspiel asks several times a step: worked out once per position
            to_move = held.state.to_move
            player = held.player = min(to_move) if to_move else _TERMINAL
        return player

    def _legal_actions(self, player: int) -> list[int]:
        index = self._shared.spaces.index
        legal = self._held.state.legal_actions(player)
        ks = [index[a.id] for a in legal]
        if player == self.current_player():
            self._held.offered = (legal, ks)
        return sorted(ks)

    # pyspiel's own answers to the next three reach Python again through its C++ trampolines
    # (several calls a step); answered here for Python callers such as rl_environment, with the
    # same values (tests compare them with pyspiel.State's)
    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted catalogue indices of ``player``'s legal actions (default: the player to move);
        empty once over and for a player who is not the one to move, as pyspiel answers."""
        current = self.current_player()
        if current == _TERMINAL or (player is not None and player != current):
            return []
        offered = self._held.offered
        if offered is None:
            return self._legal_actions(current)
        return sorted(offered[1])

    def rewards(self) -> list[float]:
        """The rewards of the last action: the returns once over (the rewards come at the end), else zeros."""
        if self.current_player() == _TERMINAL:
            return self.returns()
        return [0.0] * self._shared.spaces.players

    def is_chance_node(self) -> bool:
        """False: dice are sampled inside the engine's step (the games have no chance nodes)."""
        return False

    def _apply_action(self, action: int) -> None:
        player = self.current_player()
        if player == _TERMINAL:  # the TERMINAL id is no seat to apply for
            raise ValueError("the game is over: no player may act")
        held = self._held
        shared = self._shared
        offered = held.offered
        if offered is None and type(action) is int:  # legal actions not asked since the last action
            self._legal_actions(player)
            offered = held.offered
        chosen: Action | None = None
        if offered is not None and type(action) is int:
            try:
                chosen = offered[0][offered[1].index(action)]
            except ValueError:  # not offered: apply below refuses it by id, saying what is legal
                pass
        if chosen is not None and not shared.events:
            held.state.step(chosen, player)  # the very Action legal_actions(player) offered: the quiet step
        else:  # apply looks the id up and refuses an illegal one, naming what is legal
            held.state.apply(chosen if chosen is not None else shared.spaces.action_id(action), player)
        held.player = None
        held.offered = None

    def _action_to_string(self, player: int, action: int) -> str:
        return self.spaces.action_id(action)

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.current_player() == _TERMINAL

    def returns(self) -> list[float]:
        """Final placing rewards (zeros before the end)."""
        return placing_rewards(self.state)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s feature vector (default: the player to move), as the observer's tensor.

        Answered here for Python callers such as ``rl_environment``, which ask for every player's
        tensor at every step: pyspiel's generic path builds a new initial state to learn the
        tensor's shape on each call. Raises :class:`dicetable.engine.SeatError` for a player
        that is no seat of this game.
        """
        seat = self.current_player() if player is None else player
        # a list of Python floats written by the game's direct fill (no float32 array to convert)
        return self._shared.spaces.encoding.encode_state(self._held.state, seat)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s feature vector (see :meth:`information_state_tensor`: the same here)."""
        return self.information_state_tensor(player)

    def __str__(self) -> str:
        return json.dumps(self.state.observation(None), sort_keys=True)

    def serialize(self) -> str:
        """The engine's save of this state as JSON, its log left empty: loading plays the moves
        again and draws the log afresh (``load_state`` does not compare it), and the quiet step
        these states move by (unless the game's ``events`` is true) logs no event."""
        return json.dumps({**self.state.to_dict(log=False), "log": []}, sort_keys=True)


class DicetableObserver:
    """Tensor and string observer: the feature vector and JSON of ``observation(player)``."""

    def __init__(self, spaces: GameSpaces) -> None:
        self.spaces = spaces
        self.tensor = np.zeros(spaces.observation_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: DicetableSpielState, player: int) -> None:
        """Fill ``tensor`` in place from ``player``'s observation."""
        self.spaces.observe(state.state, player, self.tensor)

    def string_from(self, state: DicetableSpielState, player: int) -> str:
        """``player``'s observation as JSON."""
        return json.dumps(state.state.observation(player), sort_keys=True)


class DicetableSpielGame(pyspiel.Game):
    """One dicetable game configuration as a pyspiel Game."""

    game_type = None
    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        spec = dicetable.get_game(self.game_id)
        players = int(params.get("players", max(2, spec.min_players) if spec.max_players > 1 else 1))
        text = params.get("options", "{}") or "{}"
        try:
            options = json.loads(text)
        except (TypeError, ValueError):
            raise ValueError(f"options must be a JSON object as text, e.g. '{{\"sheets\": \"winter\"}}', "
                             f"got {text!r}") from None
        self.spaces = GameSpaces(self.game_id, players, options)
        # pyspiel refuses an events parameter that is not a bool before it reaches here
        self.shared = _Shared(self.spaces, bool(params.get("events", False)))  # what every state of this game holds
        self.next_seed = int(params.get("seed", 0))
        checked_seed(self.next_seed)  # the first game's seed: refused now, not at new_initial_state
        score_bound = 1000.0
        info = pyspiel.GameInfo(
            num_distinct_actions=self.spaces.num_actions, max_chance_outcomes=0, num_players=players,
            min_utility=-1.0 if players > 1 else -score_bound, max_utility=1.0 if players > 1 else score_bound,
            utility_sum=None, max_game_length=MAX_GAME_LENGTH)
        super().__init__(self.game_type, info, params)
        self._players = players

    # rl_environment asks the game's type two or three times a step and its player count once;
    # pyspiel's answers copy the C++ GameType (with its parameter specification) into a new Python
    # object each time (about 1.5 microseconds), these give the registered one
    def get_type(self) -> Any:
        """The registered ``pyspiel.GameType`` of this game (the one object: read it, do not change it)."""
        return self.game_type

    def num_players(self) -> int:
        """The number of players (seats) of this configuration."""
        return self._players

    def new_initial_state(self) -> DicetableSpielState:
        """A new game with the next seed of this game's stream."""
        seed, self.next_seed = self.next_seed, self.next_seed + 1
        # set up quietly too unless events are wanted: no set-up event built (the same game)
        return DicetableSpielState(self, self.spaces.new_game(seed, quiet=not self.shared.events))

    def from_engine_state(self, state: GameState) -> DicetableSpielState:
        """Wrap a dicetable state of this game's configuration (e.g. a position to analyse).

        Raises ValueError when the state belongs to another game or player count.
        """
        if state.game_id != self.game_id or state.players != self.spaces.players:
            raise ValueError(f"a {state.players}-player {state.game_id} state does not fit "
                             f"{self.spaces.players}-player {self.game_id}")
        if dict(state.options) != self.spaces.options:  # the catalogue and encoding depend on them
            raise ValueError(f"the state's options {dict(state.options)} do not fit this game's "
                             f"{self.spaces.options}")
        return DicetableSpielState(self, state)

    def deserialize_state(self, text: str) -> DicetableSpielState:
        """A state from :meth:`DicetableSpielState.serialize` (validated by ``load_state``).

        Raises ValueError for text that is no such save, or a save of another game, player count
        or options (as :meth:`from_engine_state`)."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"not a serialized dicetable state (the engine's save as JSON): {exc}") from None
        return self.from_engine_state(dicetable.load_state(data))

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> DicetableObserver:
        """The observer (the same tensor for observation and information state)."""
        return DicetableObserver(self.spaces)


def register_openspiel() -> list[str]:
    """Register every dicetable game with pyspiel; returns the short names (idempotent)."""
    names = []
    for spec in research_games():
        name = short_name(spec.id)
        names.append(name)
        if name in pyspiel.registered_names():
            continue
        default_players = max(2, spec.min_players) if spec.max_players > 1 else 1
        fields: dict[str, Any] = dict(
            short_name=name, long_name=f"dicetable {spec.name}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.GENERAL_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=spec.max_players, min_num_players=spec.min_players,
            provides_information_state_string=False, provides_information_state_tensor=True,
            provides_observation_string=True, provides_observation_tensor=True,
            parameter_specification={"players": default_players, "options": "{}", "seed": 0, "events": False},
        )
        # a GameType whose fields read as plain values: pyspiel's properties make a new Python
        # object (an enum, a dict) on every read, and rl_environment reads the type's dynamics
        # twice a step (its is_turn_based)
        plain = type(f"GameType_{spec.id.replace('-', '_')}", (pyspiel.GameType,), fields)
        game_type = plain(**fields)
        cls = type(f"Spiel_{spec.id.replace('-', '_')}", (DicetableSpielGame,),
                   {"game_id": spec.id, "game_type": game_type})
        pyspiel.register_game(game_type, cls)
    return names
