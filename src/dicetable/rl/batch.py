"""Batched environments: N games of one configuration stepped together, with auto-reset.

:class:`BatchEnv` is the one batched API, for solo and multiplayer configurations alike. Each of
its ``num_envs`` games has, at every step, one *acting seat* (the lowest seat in ``to_move``, as in
the AEC environment: simultaneous decisions are asked one seat after another, each seeing only its
own observation). The batch keeps preallocated arrays and fills them in place:

- ``obs``: float32 ``[num_envs, observation_size]``, each row the acting seat's feature vector
  (written straight from the state by the game's direct fill, no observation dictionary);
- ``mask``: int8 ``[num_envs, num_actions]``, the acting seat's legal actions;
- ``seat``: int64 ``[num_envs]``, the acting seat of each game.

``step(actions)`` takes one catalogue index per game, for its acting seat, and returns
``(obs, mask, seat, rewards, terminated)``: ``rewards`` is float32 ``[num_envs, players]``, zero
except on the step a game ends, when it holds every seat's final reward
(:func:`~dicetable.rl.spaces.placing_rewards`; the score in solo), and ``terminated`` is bool
``[num_envs]``. A game that ended is reset at once with its next seed (auto-reset), so the row of
``obs`` already shows the new game's first decision; its last observation is kept in
``final_obs`` (float32 ``[num_envs, observation_size]``): on the step a game ends, its row is the
feature vector of the seat that moved, at the game's end (the rows of games that did not end are
zero). The returned arrays are the batch's own buffers, overwritten by the next step: copy them to
keep them.

Seeds: ``reset(seed=S)`` gives game ``i`` its own reproducible stream of game seeds (spawned from
``S``; a list gives one seed per game), so the same seed and actions replay the same games, and
every auto-reset takes that game's next seed. Games are set up and moved the engine's quiet way (no
event text, no log), which is what search and training need; ``events=True`` sets them up with
their events and moves by ``apply`` instead.

:mod:`dicetable.rl.vector` builds on it: :func:`~dicetable.rl.vector.batch_env` (one batch, or a
:class:`~dicetable.rl.sharded.ShardedBatchEnv` on several processes) and Gymnasium's vector API.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Sequence

from ._extra import require_rl

require_rl("numpy", "gymnasium")

import numpy as np

from dicetable.engine import Action, GameState
from dicetable.engine.batchstep import pick, show, step_and_show

from .spaces import GameSpaces, checked_seed, placing_rewards

#: What ``BatchEnv.reset`` returns: (obs, mask, seat).
Batch = tuple[np.ndarray, np.ndarray, np.ndarray]
#: What ``BatchEnv.step`` returns: (obs, mask, seat, rewards, terminated).
BatchStep = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def check_num_envs(num_envs: object) -> None:
    """Raise ValueError unless ``num_envs`` is a whole number of games, at least 1."""
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
        raise ValueError(f"num_envs {num_envs!r} is not a whole number of games, at least 1")


def check_action_count(actions: object, num_envs: int) -> None:
    """Raise ValueError unless ``actions`` holds one action per game (a list or a 1-d array of
    ``num_envs`` catalogue indices): a single int or None raised TypeError "has no len()"."""
    try:
        count = len(actions)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"step takes one catalogue index per game ({num_envs} of them, a list or array), "
                         f"got {type(actions).__name__} {actions!r}"[:200]) from None
    if count != num_envs:
        raise ValueError(f"step got {count} actions for {num_envs} games: give one per game")


def refused_action(i: int, action: object, seat: int, legal: Sequence[int], num_actions: int) -> Exception:
    """The error for game ``i``'s ``action`` when it is not in the mask of ``seat`` (whose legal
    catalogue indices are ``legal``): TypeError for anything but an int or a numpy integer, ValueError
    naming the catalogue's range for an index outside it (the AEC environment's words), else ValueError
    listing the legal indices."""
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        return TypeError(f"game {i}: action {action!r} is a {type(action).__name__}, not a catalogue index: "
                         f"give an int (or a numpy integer) 0..{num_actions - 1}")
    if not 0 <= action < num_actions:
        return ValueError(f"game {i}: action {action!r} is not an index of this game's actions: 0..{num_actions - 1}")
    shown = sorted(legal)
    return ValueError(f"game {i}: action {action!r} is not legal for seat {seat} now; "
                      f"legal indices: {shown[:12]}{' ...' if len(shown) > 12 else ''}")


def seed_streams(seed: int | Sequence[int] | None, num_envs: int) -> list[np.random.SeedSequence]:
    """Each game's stream of game seeds for :meth:`BatchEnv.reset`'s ``seed``: an int spawns
    ``num_envs`` child streams from it, None fresh random ones, a list one stream per given seed.
    Raises ValueError when a list does not hold exactly ``num_envs`` seeds, or for a seed that is not
    an int 0..2**64-1 (:func:`~dicetable.rl.spaces.checked_seed`)."""
    if isinstance(seed, np.ndarray):
        seed = seed.tolist()  # a 1-d array: a list of ints; a 0-d one: an int
    if not isinstance(seed, (list, tuple)):  # one seed (a string too: not a list of seeds)
        return list(np.random.SeedSequence(checked_seed(seed)).spawn(num_envs))
    seeds = [checked_seed(s) for s in seed]
    if len(seeds) != num_envs:
        raise ValueError(f"seed lists {len(seeds)} seeds for {num_envs} games: give one per game")
    return [np.random.SeedSequence(s) for s in seeds]


class BatchBuffers(NamedTuple):
    """The six arrays a :class:`BatchEnv` fills in place (shapes as in the module docstring).

    A batch allocates its own (:meth:`allocate`); a sharded batch's worker is given rows of arrays
    in shared memory instead (:mod:`dicetable.rl.sharded`), so its games write where the caller reads.
    """

    obs: np.ndarray  #: float32 [num_envs, observation_size]
    mask: np.ndarray  #: int8 [num_envs, num_actions]
    seat: np.ndarray  #: int64 [num_envs]
    rewards: np.ndarray  #: float32 [num_envs, players]
    terminated: np.ndarray  #: bool [num_envs]
    final_obs: np.ndarray  #: float32 [num_envs, observation_size]: the ended games' last observations

    @staticmethod
    def shapes(num_envs: int, spaces: GameSpaces, players: int) -> list[tuple[tuple[int, ...], type]]:
        """(shape, dtype) of each array, in field order."""
        return [((num_envs, spaces.observation_size), np.float32), ((num_envs, spaces.num_actions), np.int8),
                ((num_envs,), np.int64), ((num_envs, players), np.float32), ((num_envs,), np.bool_),
                ((num_envs, spaces.observation_size), np.float32)]

    @classmethod
    def allocate(cls, num_envs: int, spaces: GameSpaces, players: int) -> BatchBuffers:
        """Fresh zeroed arrays for ``num_envs`` games of ``spaces``' configuration."""
        return cls(*(np.zeros(shape, dtype=dtype) for shape, dtype in cls.shapes(num_envs, spaces, players)))

    def check(self, num_envs: int, spaces: GameSpaces, players: int) -> BatchBuffers:
        """These buffers, after checking each array's shape and dtype and that it is C-contiguous
        (rows are written through memoryviews); ValueError naming the first that is not."""
        for name, array, (shape, dtype) in zip(self._fields, self, self.shapes(num_envs, spaces, players)):
            if array.shape != shape or array.dtype != dtype or not array.flags.c_contiguous:
                raise ValueError(f"buffer {name} is {array.dtype}{list(array.shape)}, not a C-contiguous "
                                 f"{np.dtype(dtype)}{list(shape)}")
        return self


class BatchEnv:
    """``num_envs`` games of ``game_id`` at ``players`` seats with ``options`` (see the module docstring).

    Raises :class:`dicetable.GameConfigError` for an unknown game, player count or option, and
    ValueError when ``num_envs`` is not a whole number of at least 1 (or ``buffers``, arrays to fill
    instead of its own, do not have the shapes of :class:`BatchBuffers`).
    """

    def __init__(self, game_id: str, num_envs: int, players: int = 2, options: dict[str, Any] | None = None,
                 events: bool = False, *, buffers: BatchBuffers | None = None) -> None:
        check_num_envs(num_envs)
        self.spaces = GameSpaces(game_id, players, options)
        self.num_envs = num_envs
        self.players = players
        self.events = events
        if buffers is None:
            buffers = BatchBuffers.allocate(num_envs, self.spaces, players)
        # obs, mask, seat, rewards, terminated, final_obs: the arrays every step fills (a worker's are
        # shared, sharded.py)
        (self.obs, self.mask, self.seat, self.rewards, self.terminated,
         self.final_obs) = buffers.check(num_envs, self.spaces, players)
        self.states: list[GameState] = []
        self._streams: list[np.random.SeedSequence] = []
        # each game's offered Actions and their catalogue indices (what its mask row shows)
        self._legal: list[tuple[tuple[Action, ...], list[int]]] = [((), []) for _ in range(num_envs)]
        self._ended = False  # some game ended in the last step (its rewards and terminated are set)
        # memoryviews of the rows, made once: their item and slice writes cost half of numpy's
        self._obs_rows = [row.data for row in self.obs]
        self._mask_rows = [row.data for row in self.mask]
        direct = self.spaces.encoding.direct
        encode = self.spaces.encoding.encode_state
        # the game's direct fill (the acting seat is always a seat, so no check is needed); else the
        # dictionary's encoding, written through a numpy view of the row
        self._fill = direct if direct is not None else (lambda state, seat, row: encode(state, seat, np.asarray(row)))

    # -- seeds and games
    def _new_game(self, i: int) -> GameState:
        seed = int(self._streams[i].spawn(1)[0].generate_state(1, np.uint64)[0])
        return self.spaces.new_game(seed, quiet=not self.events)  # quiet: no set-up event built either

    def _show(self, i: int, state: GameState) -> int:
        """Fill row ``i`` of obs and mask (both zeroed before) from ``state``'s acting seat; returns the seat."""
        seat = min(state.to_move)
        self._legal[i] = show(state, seat, self._fill, self._obs_rows[i], self._mask_rows[i], self.spaces.index)
        return seat

    def reset(self, seed: int | Sequence[int] | None = None) -> Batch:
        """Start every game afresh; returns (obs, mask, seat).

        ``seed``: an int (each game gets its own stream spawned from it), one int per game, or
        None (fresh random streams). Raises ValueError when a list has the wrong length.
        """
        return self.start(seed_streams(seed, self.num_envs))

    def start(self, streams: Sequence[np.random.SeedSequence]) -> Batch:
        """Start every game afresh, game ``i`` drawing its game seeds from ``streams[i]`` (one per game,
        as :func:`seed_streams` makes them); returns (obs, mask, seat). :meth:`reset` with a seed is
        this with the seed's streams; a sharded batch hands each worker its games' streams."""
        if len(streams) != self.num_envs:
            raise ValueError(f"{len(streams)} seed streams for {self.num_envs} games: give one per game")
        self._streams = list(streams)
        self.states = [self._new_game(i) for i in range(self.num_envs)]
        self.obs.fill(0.0)
        self.mask.fill(0)
        self.rewards.fill(0.0)
        self.terminated.fill(False)
        self.final_obs.fill(0.0)
        self._ended = False
        self.seat[:] = [self._show(i, state) for i, state in enumerate(self.states)]
        return self.obs, self.mask, self.seat

    def step(self, actions: Sequence[int] | np.ndarray) -> BatchStep:
        """Play ``actions[i]`` (a catalogue index) for game ``i``'s acting seat, for every game.

        Returns (obs, mask, seat, rewards, terminated); ended games are reset at once (see the
        module docstring). Raises, before any game moves, naming the first game whose action is
        refused: ValueError for an index outside the catalogue (``not an index of this game's
        actions: 0..N-1``) or outside the game's mask (listing the legal indices), TypeError for an
        action that is not an int or a numpy integer; RuntimeError before the first ``reset()``.
        """
        if not self.states:
            raise RuntimeError("this batch has no games yet: call reset() before step()")
        check_action_count(actions, self.num_envs)
        wanted = actions.tolist() if isinstance(actions, np.ndarray) else list(actions)
        chosen, bad = pick(self._legal, wanted)  # the common case: every action an offered int
        for i in range(len(chosen) if bad >= 0 else self.num_envs, self.num_envs):
            a = wanted[i]
            legal, ks = self._legal[i]
            try:
                if type(a) is not int:  # numpy integers pass; a bool, a float or text does not
                    if isinstance(a, bool) or not isinstance(a, np.integer):
                        raise ValueError
                    a = int(a)
                chosen.append(legal[ks.index(a)])
            except ValueError:
                raise refused_action(i, a, int(self.seat[i]), ks, self.spaces.num_actions) from None
        if self._ended:  # the last step's rewards and ends: cleared only when some game ended
            self.rewards.fill(0.0)
            self.terminated.fill(False)
            self.final_obs.fill(0.0)
            self._ended = False
        # every row is written again below: the whole arrays are zeroed at once (a row at a time
        # cost a slice copy per game)
        self.obs.fill(0.0)
        self.mask.fill(0)
        seats = self.seat.tolist()
        # the per-game loop (the batch's own cost) is the engine's, compiled with it in the compiled build
        ended = step_and_show(self.states, chosen, seats, self.events, self._fill, self._obs_rows,
                              self._mask_rows, self.spaces.index, self._legal)
        if ended:
            self._ended = True
            for i in ended:  # over: its rewards and last observation, and its next game shown in its row at once
                self.rewards[i] = placing_rewards(self.states[i])
                self.terminated[i] = True
                self.spaces.observe(self.states[i], seats[i], self.final_obs[i])  # the seat that moved
                state = self.states[i] = self._new_game(i)
                seats[i] = self._show(i, state)
        self.seat[:] = seats
        return self.obs, self.mask, self.seat, self.rewards, self.terminated

    def close(self) -> None:
        """Nothing to stop (the games are in this process); there so that code written for
        ``batch_env(..., workers=k)`` (:class:`~dicetable.rl.sharded.ShardedBatchEnv`) runs with ``workers=1``."""

    def __enter__(self) -> BatchEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
