"""Behaviour digest of Valeria: Card Kingdoms, to check that an optimisation changes nothing.

Plays seeded random games (``dicetable.engine.Rng``) for every player count (1-5) and every
setup option (each ``setup`` x ``citizens``), and hashes for each game: the final ``to_dict()``
(history, every event text and the whole table), every decision and legal action list (ids
and labels) on the way, and at some steps every seat's observation and a determinized copy.
A second part plays games with the greedy policy for every seat and hashes its choices.

    .venv/bin/python benchmarks/vck_digest.py            # print the digest
    .venv/bin/python benchmarks/vck_digest.py --save F   # write per-game digests to F (JSON)
    .venv/bin/python benchmarks/vck_digest.py --check F  # compare with F, list any mismatch
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time

from dicetable.engine import Rng, new_game

GAME = "valeria-card-kingdoms"
SETUPS = ("first-game", "glittering-gold", "mastery-over-magic", "monster-blood", "random")
CITIZENS = ("standard", "mixed")


def _h(obj) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()


def random_game(players: int, setup: str, citizens: str, seed: int) -> dict:
    """Digests of one seeded random game: final state and the stream of decisions/actions."""
    state = new_game(GAME, players, seed=seed, options={"setup": setup, "citizens": citizens})
    rng = Rng(seed * 7 + 3)
    stream = hashlib.sha256()
    step = 0
    while not state.is_over:
        seats = state.to_move
        seat = seats[rng.randbelow(len(seats))]
        d = state.decision(seat)
        acts = state.legal_actions(seat)
        stream.update(json.dumps([seat, list(d), [(a.id, a.label) for a in acts]]).encode())
        if step % 23 == 0:
            stream.update(json.dumps([state.observation(s) for s in (None, *range(players))],
                                     sort_keys=True).encode())
            det = state.determinize(seat, seed + step)
            stream.update(json.dumps(det.to_dict(), sort_keys=True).encode())
        if step % 31 == 0:
            c = state.clone()
            c.apply(acts[-1], seat)
            stream.update(json.dumps(c.to_dict(), sort_keys=True).encode())
        events = state.apply(acts[rng.randbelow(len(acts))], seat)
        stream.update(json.dumps([e.to_json() for e in events], sort_keys=True).encode())
        step += 1
    return {"final": _h(state.to_dict()), "stream": stream.hexdigest(), "steps": step}


def greedy_game(players: int, setup: str, citizens: str, seed: int) -> dict:
    """Digest of a game where every seat follows ``greedy`` on a determinized copy."""
    from dicetable.games.valeria_card_kingdoms.policy import greedy

    state = new_game(GAME, players, seed=seed, options={"setup": setup, "citizens": citizens})
    choices = []
    k = 0
    while not state.is_over:
        seats = state.to_move
        seat = seats[0]
        det = state.determinize(seat, seed * 1000 + k)
        a = greedy(det, seat)
        choices.append(a.id)
        state.apply(a.id, seat)
        k += 1
    return {"final": _h(state.to_dict()), "choices": _h(choices), "steps": k}


def run(quick: bool = False) -> dict:
    out = {}
    seeds = range(3) if quick else range(6)
    for players in range(1, 6):
        for setup in SETUPS:
            for citizens in CITIZENS:
                for seed in seeds:
                    out[f"random/{players}/{setup}/{citizens}/{seed}"] = random_game(players, setup, citizens, seed)
    for players in range(1, 6):
        for i, (setup, citizens) in enumerate((("first-game", "standard"), ("random", "mixed"),
                                                ("monster-blood", "standard"))):
            out[f"greedy/{players}/{setup}/{citizens}/{i}"] = greedy_game(players, setup, citizens, 100 + i)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--save")
    ap.add_argument("--check")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    result = run(args.quick)
    took = time.perf_counter() - t0
    total = _h(result)
    print(f"{len(result)} games, digest {total[:16]} ({took:.1f} s)")
    if args.save:
        with open(args.save, "w") as f:
            json.dump(result, f, indent=0, sort_keys=True)
    if args.check:
        with open(args.check) as f:
            ref = json.load(f)
        bad = [k for k in ref if k in result and ref[k] != result[k]]
        missing = [k for k in ref if k not in result]
        for k in bad[:20]:
            print("MISMATCH", k, ref[k], result[k])
        print(f"checked {len(ref) - len(missing)} games: {len(bad)} mismatches")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
