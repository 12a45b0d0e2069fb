"""Batched environments for training loops: :func:`batch_env` and Gymnasium's vector API.

:func:`batch_env` gives ``num_envs`` games of one configuration stepped together with auto-reset:
a :class:`~dicetable.rl.batch.BatchEnv` in this process (its arrays, seeds and errors are described
there), or with ``workers`` above 1 a :class:`~dicetable.rl.sharded.ShardedBatchEnv` splitting the
games among that many processes, the same games for the same seed.

:class:`DicetableVectorEnv` puts a solo configuration (one seat) behind Gymnasium's vector API.
"""

from __future__ import annotations

from typing import Any

from ._extra import require_rl

require_rl("numpy", "gymnasium")

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from dicetable.engine import GameConfigError, get_game

from .batch import Batch, BatchBuffers, BatchEnv, BatchStep, check_num_envs, seed_streams
from .sharded import ShardedBatchEnv
from .spaces import research_games

__all__ = ["Batch", "BatchBuffers", "BatchEnv", "BatchStep", "DicetableVectorEnv", "ShardedBatchEnv", "batch_env",
           "check_num_envs", "seed_streams"]


class DicetableVectorEnv(VectorEnv):
    """A solo configuration's :class:`BatchEnv` behind Gymnasium's vector API (auto-reset in the same step).

    Observations are ``{"observation": float32 [num_envs, size], "action_mask": int8 [num_envs,
    num_actions]}``; the reward is the final score on the step a game ends (zero before);
    ``infos["action_mask"]`` repeats the mask (``infos["_action_mask"]``: every game has one). On
    the step a game ends, ``infos`` holds what Gymnasium's ``SyncVectorEnv`` gives in
    ``AutoresetMode.SAME_STEP``: ``final_obs`` (an object array, the finished game's last
    observation dictionary in its row, None elsewhere), ``final_info`` (the finished games' last
    infos, ``{"action_mask": int8 [num_envs, num_actions], "_action_mask": bool [num_envs]}``: a
    finished game's mask is all zero), and the bool masks ``_final_obs`` and ``_final_info`` of the
    games that ended. The arrays are the batch's buffers (copy to keep).
    ``workers`` above 1 splits the games among that many processes (a
    :class:`~dicetable.rl.sharded.ShardedBatchEnv`; ``close()`` stops them).
    Raises :class:`dicetable.GameConfigError` when the game has no solo mode.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, game_id: str, num_envs: int, options: dict[str, Any] | None = None, workers: int = 1) -> None:
        check_solo(game_id)
        self.batch = batch_env(game_id, num_envs, players=1, options=options, workers=workers)
        self.num_envs = num_envs
        single_obs, single_act = self.batch.spaces.gym_spaces()
        self.single_observation_space = single_obs
        self.single_action_space = single_act
        self.observation_space = gymnasium.vector.utils.batch_space(single_obs, num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(single_act, num_envs)

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start every game (``seed``: an int or one per game); returns (observations, infos)."""
        obs, mask, _ = self.batch.reset(seed)
        return {"observation": obs, "action_mask": mask}, {"action_mask": mask,
                                                          "_action_mask": np.ones(self.num_envs, dtype=np.bool_)}

    def step(self, actions: np.ndarray) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray,
                                                 dict[str, Any]]:
        """One action per game; returns (observations, rewards, terminations, truncations, infos).

        Raises as :meth:`BatchEnv.step` does for an action outside a game's mask.
        """
        obs, mask, _, rewards, terminated = self.batch.step(actions)
        ended = terminated.copy()
        infos: dict[str, Any] = {"action_mask": mask, "_action_mask": np.ones(self.num_envs, dtype=np.bool_)}
        if ended.any():  # Gymnasium's SAME_STEP keys, as SyncVectorEnv fills them
            final_obs = np.full(self.num_envs, None, dtype=object)
            final_masks = np.zeros((self.num_envs, self.batch.spaces.num_actions), dtype=np.int8)
            for i in np.flatnonzero(ended).tolist():
                final_obs[i] = {"observation": self.batch.final_obs[i].copy(), "action_mask": final_masks[i].copy()}
            infos.update(final_obs=final_obs, _final_obs=ended.copy(),
                         final_info={"action_mask": final_masks, "_action_mask": ended.copy()},
                         _final_info=ended.copy())
        return ({"observation": obs, "action_mask": mask}, rewards[:, 0].astype(np.float64), ended,
                np.zeros(self.num_envs, dtype=bool), infos)


    def close_extras(self, **kwargs: Any) -> None:
        """Stop a sharded batch's worker processes (Gymnasium's ``close()`` calls this)."""
        close = getattr(self.batch, "close", None)
        if close is not None:
            close()


def check_solo(game_id: str) -> None:
    """GameConfigError unless ``game_id`` has a solo mode: the message says :class:`DicetableVectorEnv`
    takes solo games only, names them, and points a multiplayer game to :func:`batch_env`."""
    spec = get_game(game_id)
    if spec.min_players == 1:
        return
    solo = ", ".join(f"{s.id} ({s.name})" for s in research_games() if s.min_players == 1)
    raise GameConfigError(
        f"DicetableVectorEnv takes solo games only (one seat; its reward is the final score): {solo}. "
        f"{spec.name} is for {spec.min_players}-{spec.max_players} players: step its games together with "
        f"dicetable.rl.batch_env({spec.id!r}, num_envs, players={spec.min_players}) "
        f"(players {spec.min_players}-{spec.max_players})")


def batch_env(game_id: str, num_envs: int, players: int = 2, options: dict[str, Any] | None = None,
              events: bool = False, workers: int = 1) -> BatchEnv | ShardedBatchEnv:
    """``num_envs`` games of ``game_id`` stepped together: a :class:`BatchEnv` in this process, or with
    ``workers`` above 1 a :class:`~dicetable.rl.sharded.ShardedBatchEnv` splitting them among that
    many processes (the same games for the same seed). Raises as those classes do."""
    if workers == 1:
        return BatchEnv(game_id, num_envs, players, options, events)
    return ShardedBatchEnv(game_id, num_envs, players, options, events, workers=workers)
