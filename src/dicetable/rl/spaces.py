"""The fixed action and observation spaces of one game configuration, as numpy arrays.

An action is an integer index into the game's action catalogue (``GameSpec.action_catalogue``);
the legal ones form a mask. An observation is the game's feature vector
(``GameSpec.observation_encoding``) of ``state.observation(seat)``. Both have a length that
depends only on (game, players, options).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._extra import require_rl

require_rl("numpy")

import numpy as np

import dicetable
from dicetable.engine import GameConfigError, GameSpec, GameState, registry
from dicetable.engine.rng import seed_problem

if TYPE_CHECKING:
    from gymnasium import spaces as gspaces

#: Upper bound of every feature (features are non-negative counts and shares, mostly in [0, 1]).
OBS_HIGH = 64.0


def started(state: GameState | None) -> GameState:
    """``state`` once an environment has one; before the first ``reset()`` raises
    ``gymnasium.error.ResetNeeded`` saying so (an environment has no game until it is reset)."""
    if state is None:
        raise no_game()
    return state


def no_game() -> Exception:
    """``gymnasium.error.ResetNeeded`` for a call before an environment's first ``reset()``."""
    from gymnasium.error import ResetNeeded

    return ResetNeeded("this environment has no game yet: call reset() before step(), observe() or last()")


def game_over() -> Exception:
    """``gymnasium.error.ResetNeeded`` for a step (or ``last()``) after the game ended."""
    from gymnasium.error import ResetNeeded

    return ResetNeeded("the game is over: call reset() to start the next one")


def checked_seed(seed: object) -> int | None:
    """``seed`` as a game seed (an int 0..2**64-1; a numpy integer is taken as its int), or None
    (a fresh random one). ValueError saying what a seed is otherwise (numpy's own messages named
    no seed, and a string was read as a list of seeds)."""
    if seed is None:
        return None
    if isinstance(seed, np.integer):
        seed = int(seed)
    problem = seed_problem(seed)
    if problem is not None:
        raise ValueError(f"{problem} (or None for a random game)")
    assert isinstance(seed, int)
    return seed


class GameSpaces:
    """Catalogue, encoding and masks of ``game_id`` at ``players`` seats with ``options``.

    Raises :class:`dicetable.GameConfigError` for an unknown game, a bad player count or option,
    or a game that declares no catalogue or encoding.
    """

    def __init__(self, game_id: str, players: int, options: dict[str, Any] | None = None) -> None:
        self.spec = dicetable.get_game(game_id)
        probe = dicetable.new_game(game_id, players, seed=0, options=options)  # checks players and options
        self.players = players
        self.options = dict(probe.options)
        if self.spec.action_catalogue is None or self.spec.observation_encoding is None:
            raise GameConfigError(f"{game_id} declares no action catalogue or observation encoding")
        self.catalogue: tuple[str, ...] = tuple(self.spec.action_catalogue(players, self.options))
        self.index = {aid: i for i, aid in enumerate(self.catalogue)}
        self.encoding = self.spec.observation_encoding(players, self.options)
        self._stream: np.random.SeedSequence | None = None

    @property
    def num_actions(self) -> int:
        """Size of the action space (the catalogue's length)."""
        return len(self.catalogue)

    @property
    def observation_size(self) -> int:
        """Length of the feature vector."""
        return self.encoding.size

    def new_game(self, seed: int | None, quiet: bool = False) -> GameState:
        """A new game of this configuration (seed None: a fresh random one); ``quiet``: set up
        without building its events (the log starts empty; the same game), for games moved by
        the engine's quiet step."""
        return dicetable.new_game(self.spec.id, self.players, seed=seed, options=self.options, quiet=quiet)

    def legal_indices(self, state: GameState, seat: int) -> list[int]:
        """Catalogue indices of ``seat``'s legal actions, in the engine's order (empty if it is not to move).

        The cheap path of masks: it reads the action ids of ``state.legal_actions(seat)``
        (cached by the engine until the next ``apply``) and builds no label or decision text.
        Raises KeyError naming the id if the game offers an action outside its catalogue (a bug
        the catalogue tests guard against).
        """
        index = self.index
        return [index[action.id] for action in state.legal_actions(seat)]

    def mask(self, state: GameState, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """int8 array, 1 at the index of each legal action of ``seat`` (all zero if it is not to move).

        ``out``: an int8 buffer of ``num_actions`` to fill in place (it is zeroed first); None: a
        new array. Raises KeyError as :meth:`legal_indices` does.
        """
        if out is None:
            out = np.zeros(len(self.catalogue), dtype=np.int8)
        else:
            out.fill(0)
        index = self.index
        for action in state.legal_actions(seat):  # item by item: cheaper than fancy indexing for short lists
            out[index[action.id]] = 1
        return out

    def observe(self, state: GameState, seat: int | None, out: np.ndarray | None = None) -> np.ndarray:
        """float32 feature vector of ``state.observation(seat)`` (None: a spectator).

        Written straight from the state by the game's direct fill where it has one (the
        observation dictionary is not built); ``out``: a C-contiguous float32 buffer of
        ``observation_size`` to fill in place (zeroed first), e.g. a row of a batch; None: a new
        array. Raises :class:`~dicetable.engine.SeatError` for a seat that is neither a seat nor None.
        """
        if out is None:
            out = np.zeros(self.encoding.size, dtype=np.float32)
        else:
            out.fill(0.0)
        direct = self.encoding.direct
        if direct is not None and (seat is None or type(seat) is int and 0 <= seat < state.players):
            view = out.data
            if view.format == "f":
                # through a memoryview: its item and slice writes cost half of numpy's (the values
                # are the same float32 roundings)
                direct(state, seat, view)
                return out
        return self.encoding.encode_state(state, seat, out)  # checks the seat, or encodes the dictionary

    def gym_spaces(self) -> tuple[gspaces.Dict, gspaces.Discrete]:
        """(observation space, action space) as Gymnasium spaces: a Dict of ``observation``
        (float32, length ``observation_size``) and ``action_mask`` (int8, ``num_actions``),
        and Discrete over the catalogue. Shared by every environment class."""
        from gymnasium import spaces as gspaces

        observation = gspaces.Dict({
            "observation": gspaces.Box(0.0, OBS_HIGH, (self.observation_size,), np.float32),
            "action_mask": gspaces.Box(0, 1, (self.num_actions,), np.int8),
        })
        return observation, gspaces.Discrete(self.num_actions)

    def next_seed(self, seed: int | None) -> int:
        """The next game's seed: ``seed`` restarts a reproducible stream; None continues it
        (a fresh random stream the first time)."""
        seed = checked_seed(seed)
        if seed is not None or self._stream is None:
            self._stream = np.random.SeedSequence(seed)
        return int(self._stream.spawn(1)[0].generate_state(1, np.uint64)[0])

    def text(self, state: GameState, seat: int | None) -> str:
        """The game's terminal view of ``state`` for ``seat`` as plain text, 120 columns wide."""
        import io

        from rich.console import Console

        console = Console(file=io.StringIO(), width=120, color_system=None, record=True)
        if self.spec.text_view is not None:
            console.print(self.spec.text_view(state.observation(seat), seat, width=120))
        elif self.spec.render is not None:
            console.print(self.spec.render(state, seat))
        return console.export_text()

    def action_id(self, index: int | np.integer[Any]) -> str:
        """The action id at ``index``; ValueError naming the allowed range otherwise."""
        if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)) \
                or not 0 <= int(index) < len(self.catalogue):
            shown = int(index) if isinstance(index, np.integer) else index  # 60, not np.int64(60)
            raise ValueError(f"action {shown!r} is not an index of this game's actions: 0..{len(self.catalogue) - 1}")
        return self.catalogue[int(index)]


def research_games() -> list[GameSpec]:
    """The registered games that declare an action catalogue and an observation encoding."""
    return [spec for spec in registry.list_games()
            if spec.action_catalogue is not None and spec.observation_encoding is not None]


def placing_rewards(state: GameState) -> list[float]:
    """Final rewards by placing: +1 for first place down to -1 for last, linear in between.

    Winners (after the rulebook's tie-breaks, ``state.winners``) share first place; the other
    seats are ranked by score, tied seats sharing the average of their places. With one player
    the reward is the final score (solo games are played for points). Before the end: zeros.
    """
    n = state.players
    if not state.is_over:
        return [0.0] * n
    scores = list(state.scores)
    if n == 1:
        return [float(scores[0])]
    winners = set(state.winners)
    place = {}
    w = len(winners)
    for s in winners:
        place[s] = (w - 1) / 2
    others = sorted((s for s in range(n) if s not in winners), key=lambda s: -scores[s])
    i = 0
    while i < len(others):
        j = i
        while j + 1 < len(others) and scores[others[j + 1]] == scores[others[i]]:
            j += 1
        for s in others[i:j + 1]:
            place[s] = w + (i + j) / 2
        i = j + 1
    return [1.0 - 2.0 * place[s] / (n - 1) for s in range(n)]
