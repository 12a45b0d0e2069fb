"""Research interfaces: PettingZoo and Gymnasium environments for every dicetable game.

Install with the ``rl`` extra (``pip install 'dicetable[rl]'``); without it importing this package
(or any module in it) raises :class:`dicetable.extras.MissingExtra` saying so.

- :func:`env` — a PettingZoo AEC environment (all seats are agents);
- :func:`parallel_env` — the PettingZoo Parallel API (every seat to move acts in one step);
- :func:`gym_env` — a Gymnasium environment for one learning seat against dicetable bots
  (solo modes as plain single-agent environments), registered as ``dicetable/<game-id>-v0``;
- :func:`batch_env` — N games of one configuration stepped together with auto-reset and per-game
  seeds (:class:`BatchEnv`; with ``workers=k`` a :class:`ShardedBatchEnv` on ``k`` processes;
  :class:`DicetableVectorEnv` is Gymnasium's vector API for solo modes);
- :func:`register_openspiel` — every game as a pyspiel Python game ``python_dicetable_<game>``;
- :class:`GameSpaces` — the fixed action catalogue, masks and feature vectors underneath.
"""

from __future__ import annotations

from ._extra import require_rl

require_rl("numpy", "gymnasium", "pettingzoo")  # MissingExtra naming the rl extra, not ModuleNotFoundError

import gymnasium


from .aec import DicetableAEC, env
from .gym import DicetableGym, gym_env
from .parallel import DicetableParallel, parallel_env
from .spaces import GameSpaces, placing_rewards, research_games
from .sharded import ShardedBatchEnv
from .vector import BatchEnv, DicetableVectorEnv, batch_env

__all__ = ["BatchEnv", "DicetableAEC", "DicetableGym", "DicetableParallel", "DicetableVectorEnv", "GameSpaces",
           "ShardedBatchEnv", "batch_env", "env", "gym_env", "parallel_env", "placing_rewards", "register_openspiel"]


def register_openspiel() -> list[str]:
    """Register every game with pyspiel (see :mod:`dicetable.rl.openspiel`); returns the names."""
    from .openspiel import register_openspiel as register

    return register()


def _register_gymnasium() -> None:
    for spec in research_games():
        env_id = f"dicetable/{spec.id}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="dicetable.rl.gym:DicetableGym",
                               kwargs={"game_id": spec.id, "players": max(spec.min_players, 2)
                                       if spec.max_players >= 2 else 1})


_register_gymnasium()
