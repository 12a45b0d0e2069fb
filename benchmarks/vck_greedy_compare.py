"""Valeria: Card Kingdoms: the greedy policy against the original greedy (before optimisation).

``original_greedy`` below is the greedy bot as first written (clone, apply through the kernel,
follow the seat's continuation two levels deep, score with ``value``), kept here as the
reference. Games are seat-rotated (every seating of the two policies is played with the same
seed), and each policy decides on a determinized view, as the GreedyBot does.

    .venv/bin/python benchmarks/vck_greedy_compare.py --games 60 --players 2
"""

from __future__ import annotations

import argparse
import math
import time

from dicetable.engine import Rng, new_game
from dicetable.simulate import t95
from dicetable.games.valeria_card_kingdoms.policy import CONTINUATIONS, duke_prior, greedy, value
from dicetable.games.valeria_card_kingdoms.rules import P_DUKES, P_OVER

GAME = "valeria-card-kingdoms"


def _half(sd: float, n: int) -> float:
    """Half the 95% interval of a mean of ``n`` values (Student's t, as ``dicetable.simulate.mean_interval``;
    0 for one value)."""
    return t95(n - 1) * sd / math.sqrt(n) if n > 1 else 0.0

def _original_best(state, seat: int, depth: int) -> float:
    task = state.pending(seat) if state.phase not in (P_OVER, P_DUKES) else None
    if depth <= 0 or task is None or task[0] not in CONTINUATIONS:
        return value(state, seat)
    best = None
    for action in state.legal_actions(seat):
        child = state.clone()
        child.apply(action, seat)
        v = _original_best(child, seat, depth - 1)
        if best is None or v > best:
            best = v
    return best


def original_greedy(state, seat: int):
    """The greedy policy as first written (``value`` is bit-identical to the original formula)."""
    actions = state.legal_actions(seat)
    if state.phase == P_DUKES:
        return max(actions, key=lambda a: duke_prior(a.payload))
    if len(actions) == 1:
        return actions[0]
    best_action, best = actions[0], None
    for action in actions:
        child = state.clone()
        child.apply(action, seat)
        v = _original_best(child, seat, 2)
        if best is None or v > best:
            best_action, best = action, v
    return best_action


POLICIES = {"greedy": greedy, "original": original_greedy}


def play(players: int, seed: int, seating: list[str], options: dict) -> tuple[list, dict]:
    """One game; returns (scores, seconds spent per policy name, calls per policy name)."""
    state = new_game(GAME, players, seed=seed, options=options)
    rngs = [Rng(seed * 131 + s) for s in range(players)]
    spent = {name: 0.0 for name in POLICIES}
    calls = {name: 0 for name in POLICIES}
    while not state.is_over:
        seat = state.to_move[0]
        name = seating[seat]
        view = state.determinize(seat, rngs[seat].next64())
        t0 = time.perf_counter()
        action = POLICIES[name](view, seat)
        spent[name] += time.perf_counter() - t0
        calls[name] += 1
        state.apply(action.id, seat)
    return state, spent, calls


def solo(args) -> None:
    """Solo: each policy plays the same seeds against the Dark Lord; compare wins and scores."""
    out = {}
    for name in POLICIES:
        wins, margins, spent, calls = 0, [], 0.0, 0
        for g in range(args.games):
            state, sp, ca = play(1, args.seed + g, [name], {"setup": args.setup})
            wins += bool(state.winners)
            margins.append(state.scores[0] - state.dark_lord_score())
            spent += sp[name]
            calls += ca[name]
        out[name] = (wins, margins, spent / max(1, calls))
    diff = [a - b for a, b in zip(out["greedy"][1], out["original"][1])]
    mean = sum(diff) / len(diff)
    sd = math.sqrt(sum((d - mean) ** 2 for d in diff) / max(1, len(diff) - 1))
    print(f"solo: paired margin difference greedy - original {mean:+.2f} +- {_half(sd, len(diff)):.2f} VP")
    for name, (wins, margins, per) in out.items():
        mean = sum(margins) / len(margins)
        sd = math.sqrt(sum((m - mean) ** 2 for m in margins) / max(1, len(margins) - 1))
        print(f"solo, {args.games} seeds, setup {args.setup}: {name:8s} wins {wins}, score - Dark Lord "
              f"{mean:+.2f} +- {_half(sd, len(margins)):.2f}, {per * 1e6:.0f} us per decision")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="seeds (each played in every seating)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--setup", default="random")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    n = args.players
    if n == 1:
        solo(args)
        return
    seatings = [["greedy" if (s + k) % n == 0 else "original" for s in range(n)] for k in range(n)]
    wins = {"greedy": 0.0, "original": 0.0}
    margin = []
    spent = {name: 0.0 for name in POLICIES}
    calls = {name: 0 for name in POLICIES}
    played = 0
    for g in range(args.games):
        for seating in seatings:
            state, sp, ca = play(n, args.seed + g, seating, {"setup": args.setup})
            for k in POLICIES:
                spent[k] += sp[k]
                calls[k] += ca[k]
            scores = state.scores
            winners = state.winners
            for s in winners:
                wins[seating[s]] += 1 / len(winners)
            mine = [scores[s] for s in range(n) if seating[s] == "greedy"]
            theirs = [scores[s] for s in range(n) if seating[s] == "original"]
            margin.append(sum(mine) / len(mine) - sum(theirs) / len(theirs))
            played += 1
    share = wins["greedy"] / played
    se = math.sqrt(max(share * (1 - share), 1e-9) / played)
    mean = sum(margin) / len(margin)
    sd = math.sqrt(sum((m - mean) ** 2 for m in margin) / max(1, len(margin) - 1))
    print(f"{played} games, {n} players, setup {args.setup}: greedy (new) wins {wins['greedy']:.1f}, "
          f"original wins {wins['original']:.1f}")
    print(f"  new greedy's win share {share:.3f} +- {1.96 * se:.3f} (95% CI; fair share {1 / n:.3f}); "
          f"score margin new - original {mean:+.2f} +- {_half(sd, len(margin)):.2f} VP")
    for k in POLICIES:
        if calls[k]:
            print(f"  {k}: {calls[k]} decisions, {spent[k] / calls[k] * 1e6:.0f} us per decision")


if __name__ == "__main__":
    main()
