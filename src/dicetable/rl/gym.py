"""Gymnasium environments: one learning seat, the other seats played by dicetable bots.

``gym_env(game_id, players=2, options=None, opponents="greedy", seat=0)``: the learner plays
``seat``; every other seat is a bot of the named level (``random``, ``greedy``, ``easy``,
``medium``, ``hard``...), or ``opponents`` is a list of ``players - 1`` levels, one for each other
seat in seat order (``["greedy", "random"]``: the first seat that is not the learner's is greedy);
a bot decides on a determinized copy and never reads the learner's secrets. With ``players=1``
(Kingdom of Dice against the Cat, Dice Kingdoms solo, Card Kingdoms against the Dark Lord) it is a
plain single-agent environment. The observation is
``{"observation", "action_mask"}`` and ``info["action_mask"]`` repeats the mask; the reward comes
at the end, by placing (the final score in solo); an action outside the mask changes nothing and
earns ``illegal_reward`` (or raises, with ``on_illegal="raise"``); see :func:`~dicetable.rl.spaces.placing_rewards`.
Registered ids: ``dicetable/<game-id>-v0``.
"""

from __future__ import annotations

from typing import Any, Sequence

from ._extra import require_rl

require_rl("numpy", "gymnasium")

import gymnasium
import numpy as np

from dicetable.bots import Bot, make_bot
from dicetable.engine import GameState

from .spaces import GameSpaces, checked_seed, game_over, placing_rewards, started

#: The observation: ``{"observation": float32 features, "action_mask": int8 mask}``.
Observation = dict[str, Any]


class DicetableGym(gymnasium.Env[dict[str, Any], np.int64]):
    """One learning seat of a dicetable game (see the module docstring)."""

    # render_fps: Gymnasium's check_env warns when an environment with render modes declares none;
    # a text view has no frame rate of its own, 1 is what a reader of it can follow
    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, game_id: str, players: int = 2, options: dict[str, Any] | None = None,
                 opponents: str | Sequence[str] = "greedy", seat: int = 0, render_mode: str | None = None,
                 on_illegal: str = "penalize", illegal_reward: float = -1.0) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} is not offered; allowed: None, 'ansi'")
        self.spaces = GameSpaces(game_id, players, options)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat {seat!r} is not a seat of a {players}-player game: 0..{players - 1}")
        self.levels = opponent_levels(opponents, players, seat)  # an unknown level refused now, not at a step
        if on_illegal not in ("penalize", "raise"):
            raise ValueError(f"on_illegal {on_illegal!r} is not offered; allowed: 'penalize', 'raise'")
        self.on_illegal = on_illegal
        self.illegal_reward = float(illegal_reward)
        self.seat = seat
        self.opponents = opponents
        self.render_mode = render_mode
        self.observation_space, self.action_space = self.spaces.gym_spaces()
        self.state: GameState | None = None  # None until the first reset()
        self.bots: dict[int, Bot] = {}

    def _obs(self) -> tuple[Observation, np.ndarray]:
        state = started(self.state)
        mask = self.spaces.mask(state, self.seat)
        return {"observation": self.spaces.observe(state, self.seat), "action_mask": mask}, mask

    def _play_bots(self) -> None:
        state = started(self.state)
        while not state.is_over and self.seat not in state.to_move:
            other = min(state.to_move)
            state.apply(self.bots[other].choose(state, other), other)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """Start a new game (``seed``, an int 0..2**64-1 or a numpy integer, reproduces it, bots
        included); returns (observation, info). ValueError as the other environments say it for a
        seed that is not one."""
        super().reset(seed=checked_seed(seed))
        game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self.state = self.spaces.new_game(game_seed)
        # clock=False: the search levels run their iteration budgets without the wall-clock caps,
        # so the seed alone decides what they play (docs/research.md "Seeds")
        self.bots = {s: make_bot(level, game_seed + s, clock=False) for s, level in self.levels.items()}
        self._play_bots()
        obs, mask = self._obs()
        return obs, {"action_mask": mask}

    def step(self, action: int | np.integer[Any]) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play catalogue action ``action`` for the learner, then the bots until its next decision.

        Returns (observation, reward, terminated, truncated, info). An action outside the mask
        changes nothing: with ``on_illegal="penalize"`` (the default) it earns ``illegal_reward``
        and ``info["illegal_action"]`` says why; with ``"raise"`` it raises ValueError naming it.
        Before the first ``reset()`` and after the game ended raises ``gymnasium.error.ResetNeeded``.
        """
        state = started(self.state)
        if state.is_over:  # not an illegal action of a game going on: no game goes on
            raise game_over()
        try:
            state.apply(self.spaces.action_id(action), self.seat)
        except ValueError as exc:
            if self.on_illegal == "raise":
                raise
            obs, mask = self._obs()
            return obs, self.illegal_reward, False, False, {"action_mask": mask, "illegal_action": str(exc)}
        self._play_bots()
        over = state.is_over
        reward = placing_rewards(state)[self.seat] if over else 0.0
        obs, mask = self._obs()
        return obs, float(reward), over, False, {"action_mask": mask}

    def render(self) -> str | None:
        """The learner's terminal view as plain text (render_mode "ansi"); without a render mode
        None and a warning, as Gymnasium's environments do."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render mode: make the environment with "
                                  "render_mode='ansi'")
            return None
        if self.state is None:
            return None
        return self.spaces.text(self.state, self.seat)


def opponent_levels(opponents: str | Sequence[str], players: int, seat: int) -> dict[int, str]:
    """The bot level of every seat but the learner's ``seat``: ``opponents`` is one level for all of them,
    or a list or tuple of ``players - 1`` levels in seat order; ValueError (GameConfigError for an
    unknown level) naming what is taken otherwise."""
    others = [s for s in range(players) if s != seat]
    takes = (f"opponents is a bot level for every other seat (e.g. 'greedy') or a list of {len(others)} "
             f"levels, one per other seat in seat order (seats {', '.join(map(str, others)) or 'none'})")
    if isinstance(opponents, str):
        given = [opponents]  # checked even in a solo game, which has no other seat
        names = given * len(others)
    elif isinstance(opponents, (list, tuple)):
        if len(opponents) != len(others):
            raise ValueError(f"{takes}; got {len(opponents)} levels: {list(opponents)!r}")
        given = names = list(opponents)
    else:
        raise ValueError(f"{takes}; got {opponents!r}")
    for name in given:  # an unknown level: GameConfigError naming the levels
        make_bot(name, 0)
    return dict(zip(others, names))


def gym_env(game_id: str, players: int = 2, options: dict[str, Any] | None = None,
            opponents: str | Sequence[str] = "greedy", seat: int = 0, render_mode: str | None = None,
            **kwargs: Any) -> DicetableGym:
    """A Gymnasium environment of ``game_id`` for one learning seat (see :class:`DicetableGym`;
    ``kwargs``: ``on_illegal``, ``illegal_reward``)."""
    return DicetableGym(game_id, players, options, opponents, seat, render_mode, **kwargs)
