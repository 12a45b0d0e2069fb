"""PettingZoo Parallel environments: every seat to move acts in the same step.

The Parallel API fits these games where the rules have seats decide at once (Biblios Dice's
secret bids, the simultaneous Harvest of Dice Kingdoms of Valeria) and is a plain turn-by-turn
loop elsewhere: each step takes an action from every live agent, applies those of the seats in
``to_move`` (in seat order; each decided on its own observation, so none sees another's choice)
and ignores the rest, whose masks are all zero. Observations, masks and rewards are those of
:mod:`dicetable.rl.aec`.
"""

from __future__ import annotations

from typing import Any

from ._extra import require_rl

require_rl("numpy", "gymnasium", "pettingzoo")

import numpy as np
from gymnasium import spaces as gspaces
from pettingzoo import ParallelEnv

from dicetable.engine import GameState

from .spaces import GameSpaces, game_over, placing_rewards, started

#: Per-agent observations (``{"observation", "action_mask"}``) and infos (``{"to_move": bool}``).
Observations = dict[str, dict[str, np.ndarray]]
Infos = dict[str, dict[str, Any]]


class DicetableParallel(ParallelEnv):
    """One dicetable game as a PettingZoo Parallel environment (see the module docstring)."""

    metadata = {"render_modes": [], "name": "dicetable_parallel_v0"}

    def __init__(self, game_id: str, players: int, options: dict[str, Any] | None = None) -> None:
        self.spaces = GameSpaces(game_id, players, options)
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents: list[str] = []
        self._obs_space, self._act_space = self.spaces.gym_spaces()
        self.state: GameState | None = None  # None until the first reset()

    def observation_space(self, agent: str) -> gspaces.Dict:
        """The Dict space of ``observation`` and ``action_mask``."""
        return self._obs_space

    def action_space(self, agent: str) -> gspaces.Discrete:
        """Discrete over the game's action catalogue."""
        return self._act_space

    def _observe(self, state: GameState) -> tuple[Observations, Infos]:
        obs: Observations = {}
        infos: Infos = {}
        for s, agent in enumerate(self.possible_agents):
            mask = self.spaces.mask(state, s)
            obs[agent] = {"observation": self.spaces.observe(state, s), "action_mask": mask}
            infos[agent] = {"to_move": bool(mask.any())}
        return obs, infos

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observations, Infos]:
        """Start a new game (a given ``seed`` reproduces it); returns (observations, infos)."""
        self.state = self.spaces.new_game(self.spaces.next_seed(seed))
        self.agents = list(self.possible_agents)
        return self._observe(self.state)

    def step(self, actions: dict[str, int | None]) -> tuple[Observations, dict[str, float], dict[str, bool],
                                                             dict[str, bool], Infos]:
        """Apply the actions of the agents to move; returns (obs, rewards, terminations, truncations, infos).

        Raises ValueError naming the agent when an agent to move gives no action or an illegal one
        (:class:`~dicetable.engine.IllegalActionError` for an action the rules refuse, its message
        the agent and then the engine's words), before any seat moves: a refused step changes
        nothing. Raises ``gymnasium.error.ResetNeeded`` before the first ``reset()`` and after the
        game ended.
        """
        state = started(self.state)
        if state.is_over:
            raise game_over()
        if not isinstance(actions, dict):
            raise ValueError(f"step takes a dict of agent name: action, got {type(actions).__name__}")
        unknown = [a for a in actions if a not in self.possible_agents]
        if unknown:
            raise ValueError(f"{unknown[0]!r} is not an agent of this game: {', '.join(self.possible_agents)}")
        chosen = []
        for s in sorted(state.to_move):  # every action is checked before any seat moves
            agent = self.possible_agents[s]
            action = actions.get(agent)
            if action is None:
                raise ValueError(f"{agent} is to move and gave no action")
            try:
                aid = self.spaces.action_id(action)
                if not any(a.id == aid for a in state.legal_actions(s)):
                    state.clone().apply(aid, s)  # raises the engine's refusal, naming what is legal
            except ValueError as exc:  # the same class, the agent first (the engine counts from Player 1)
                raise type(exc)(f"{agent}: {exc}") from None
            chosen.append((s, aid))
        for s, aid in chosen:
            state.apply(aid, s)
        obs, infos = self._observe(state)
        over: bool = state.is_over  # this step may have ended it
        rewards = dict(zip(self.possible_agents, placing_rewards(state)))
        terminations = {a: over for a in self.agents}
        truncations = {a: False for a in self.agents}
        obs = {a: obs[a] for a in self.agents}
        infos = {a: infos[a] for a in self.agents}
        rewards = {a: rewards[a] for a in self.agents}
        if over:
            self.agents = []
        return obs, rewards, terminations, truncations, infos


def parallel_env(game_id: str, players: int = 2, options: dict[str, Any] | None = None) -> DicetableParallel:
    """A PettingZoo Parallel environment of ``game_id`` (see :class:`DicetableParallel`)."""
    return DicetableParallel(game_id, players, options)
