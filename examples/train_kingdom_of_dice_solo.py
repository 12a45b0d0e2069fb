"""Train a small masked policy on Kingdom of Dice solo (against the Mischievous Cat) with numpy.

The policy is linear softmax over the game's action catalogue, restricted to the legal actions
by the mask; it learns by REINFORCE with a running-mean baseline from the final score (the
solo reward of ``dicetable.rl.gym_env``). No GPU and no deep-learning library: numpy only, so
it runs anywhere dicetable's ``rl`` extra installs. At the end it plays evaluation games against
the same Cat as the random and greedy bots and prints the three mean scores; with ``--plot`` it
draws the learning curve (matplotlib); with ``--save FILE`` it saves the policy (``numpy.savez``:
``W``, actions x features, and ``b``, actions), which ``examples/agent_against_people.py --weights
FILE`` plays at a server table.

Run: ``.venv/bin/python examples/train_kingdom_of_dice_solo.py --minutes 3 --plot curve.png --save kod.npz``
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import dicetable
from dicetable.bots import make_bot
from dicetable.rl import gym_env


class LinearPolicy:
    """Masked softmax over ``W @ x + b``; ``W`` is (actions, features)."""

    def __init__(self, n_obs: int, n_act: int, rng: np.random.Generator) -> None:
        self.W = np.zeros((n_act, n_obs))
        self.b = np.zeros(n_act)
        self.rng = rng

    def probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Action probabilities: zero outside the mask."""
        logits = self.W @ x + self.b
        logits = np.where(mask.astype(bool), logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, x: np.ndarray, mask: np.ndarray, greedy: bool = False) -> tuple[int, np.ndarray]:
        """A sampled (or the most likely) action and the probabilities it came from."""
        p = self.probs(x, mask)
        a = int(np.argmax(p)) if greedy else int(self.rng.choice(len(p), p=p))
        return a, p


def play_episode(env, policy: LinearPolicy, seed: int, greedy: bool = False):
    """One game: the (features, mask, action) steps and the final reward."""
    obs, _ = env.reset(seed=seed)
    steps = []
    while True:
        x, mask = obs["observation"].astype(np.float64), obs["action_mask"]
        a, _ = policy.act(x, mask, greedy)
        steps.append((x, mask, a))
        obs, reward, done, _, _ = env.step(a)
        if done:
            return steps, reward


def train(minutes: float, max_steps: int | None, lr: float, cat_level: int, seed: int):
    """REINFORCE until the time or step budget runs out; returns (policy, curve, steps taken)."""
    env = gym_env("kingdom-of-dice", players=1, options={"cat_level": cat_level})
    rng = np.random.default_rng(seed)
    policy = LinearPolicy(env.observation_space["observation"].shape[0], env.action_space.n, rng)
    baseline, curve, total = None, [], 0
    deadline = time.monotonic() + minutes * 60
    episode = 0
    while time.monotonic() < deadline and (max_steps is None or total < max_steps):
        steps, reward = play_episode(env, policy, seed * 100_003 + episode)
        episode += 1
        total += len(steps)
        baseline = reward if baseline is None else 0.95 * baseline + 0.05 * reward
        advantage = (reward - baseline) / 50.0
        for x, mask, a in steps:
            p = policy.probs(x, mask)
            grad = -p
            grad[a] += 1.0
            policy.W += lr * advantage * np.outer(grad, x)
            policy.b += lr * advantage * grad
        curve.append(reward)
    return policy, curve, total


def evaluate(policy: LinearPolicy | None, bot: str | None, games: int, cat_level: int) -> float:
    """Mean final score over ``games`` seeded games (the policy played greedily, or a bot)."""
    scores = []
    for g in range(games):
        seed = 9_000_000 + g
        if policy is not None:
            env = gym_env("kingdom-of-dice", players=1, options={"cat_level": cat_level})
            _, reward = play_episode(env, policy, seed, greedy=True)
            scores.append(reward)
        else:
            state = dicetable.new_game("kingdom-of-dice", 1, seed=seed, options={"cat_level": cat_level})
            b = make_bot(bot, seed)
            while not state.is_over:
                state.apply(b.choose(state, 0), 0)
            scores.append(state.scores[0])
    return float(np.mean(scores))


def save(policy: LinearPolicy, path: str) -> None:
    """Write the policy's arrays to ``path`` (``numpy.savez``: ``W`` and ``b``, what the agent example loads)."""
    np.savez(path, W=policy.W, b=policy.b)


def main() -> None:
    """Train, evaluate against random and greedy, optionally plot the curve."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="training time budget")
    parser.add_argument("--max-steps", type=int, default=None, help="stop after this many agent steps")
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--cat-level", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--eval-games", type=int, default=50)
    parser.add_argument("--plot", default=None, help="write the learning curve to this PNG")
    parser.add_argument("--save", default=None, metavar="FILE",
                        help="save the trained policy (W and b, numpy.savez) for examples/agent_against_people.py")
    args = parser.parse_args()
    t0 = time.monotonic()
    policy, curve, steps = train(args.minutes, args.max_steps, args.lr, args.cat_level, args.seed)
    print(f"trained {len(curve)} games, {steps} steps in {time.monotonic() - t0:.0f} s")
    for name, pol, bot in (("policy", policy, None), ("random", None, "random"), ("greedy", None, "greedy")):
        print(f"mean score over {args.eval_games} games, {name}: "
              f"{evaluate(pol, bot, args.eval_games, args.cat_level):.1f}")
    if args.save:
        save(policy, args.save)
        print(f"policy saved to {args.save} (W {policy.W.shape}, b {policy.b.shape}); play it at a server table: "
              f"examples/agent_against_people.py --game kingdom-of-dice --people 0 --weights {args.save}")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        window = max(1, len(curve) // 20)
        smooth = np.convolve(curve, np.ones(window) / window, mode="valid")
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.plot(curve, alpha=0.3, label="score per training game")
        ax.plot(range(window - 1, len(curve)), smooth, label=f"mean of {window}")
        ax.set_xlabel("training game")
        ax.set_ylabel("final score (solo vs the Cat)")
        ax.set_title("Kingdom of Dice solo: linear masked policy, REINFORCE")
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.plot, dpi=100)
        print(f"learning curve: {args.plot}")


if __name__ == "__main__":
    main()
