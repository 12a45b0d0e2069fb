"""PettingZoo Parallel environments: every seat to move acts in the same step.

The Parallel API fits these games where the rules have seats decide at once (Biblios Dice's
secret bids, the simultaneous Harvest of Dice Kingdoms of Valeria) and is a plain turn-by-turn
loop elsewhere: each step takes an action from every live agent, applies those of the seats in
``to_move`` (in seat order; each decided on its own observation, so none sees another's choice)
and ignores the rest, whose masks are all zero. Observations, masks and rewards are those of
:mod:`dicetable.rl.aec`.
"""

from __future__ import annotations

from pettingzoo import ParallelEnv

from .spaces import GameSpaces, placing_rewards


class DicetableParallel(ParallelEnv):
    """One dicetable game as a PettingZoo Parallel environment (see the module docstring)."""

    metadata = {"render_modes": [], "name": "dicetable_parallel_v0"}

    def __init__(self, game_id: str, players: int, options: dict | None = None) -> None:
        self.spaces = GameSpaces(game_id, players, options)
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents = []
        self._obs_space, self._act_space = self.spaces.gym_spaces()
        self.state = None

    def observation_space(self, agent: str):
        """The Dict space of ``observation`` and ``action_mask``."""
        return self._obs_space

    def action_space(self, agent: str):
        """Discrete over the game's action catalogue."""
        return self._act_space

    def _observe(self) -> tuple[dict, dict]:
        obs, infos = {}, {}
        for s, agent in enumerate(self.possible_agents):
            mask = self.spaces.mask(self.state, s)
            obs[agent] = {"observation": self.spaces.observe(self.state, s), "action_mask": mask}
            infos[agent] = {"to_move": bool(mask.any())}
        return obs, infos

    def reset(self, seed: int | None = None, options: dict | None = None):
        """Start a new game (a given ``seed`` reproduces it); returns (observations, infos)."""
        self.state = self.spaces.new_game(self.spaces.next_seed(seed))
        self.agents = list(self.possible_agents)
        return self._observe()

    def step(self, actions: dict):
        """Apply the actions of the agents to move; returns (obs, rewards, terminations, truncations, infos).

        Raises ValueError naming the agent when an agent to move gives no action or an illegal one.
        """
        for s in sorted(self.state.to_move):
            agent = self.possible_agents[s]
            if actions.get(agent) is None:
                raise ValueError(f"{agent} is to move and gave no action")
            self.state.apply(self.spaces.action_id(actions[agent]), s)
        obs, infos = self._observe()
        over = self.state.is_over
        rewards = dict(zip(self.possible_agents, placing_rewards(self.state)))
        terminations = {a: over for a in self.agents}
        truncations = {a: False for a in self.agents}
        obs = {a: obs[a] for a in self.agents}
        infos = {a: infos[a] for a in self.agents}
        rewards = {a: rewards[a] for a in self.agents}
        if over:
            self.agents = []
        return obs, rewards, terminations, truncations, infos


def parallel_env(game_id: str, players: int = 2, options: dict | None = None) -> DicetableParallel:
    """A PettingZoo Parallel environment of ``game_id`` (see :class:`DicetableParallel`)."""
    return DicetableParallel(game_id, players, options)
