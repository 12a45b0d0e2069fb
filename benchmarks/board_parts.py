"""How big the board's changed parts are per change, and what drawing them costs (docs/web.md, "Live updates").

Plays one greedy-bot game of each title at its largest player count and,
after every action, draws the board of every seat and of a spectator as
keyed parts (``board_view``), then counts the bytes of the parts whose HTML
changed since that viewer's previous version, and the CPU time of drawing
all the viewers' boards. This is the board's share of a WebSocket change
message (the events, log lines and decision come on top).

    python benchmarks/board_parts.py [GAME ...] [--seed N]

Prints, per title: parts per board, changed-part bytes per viewer and
change (median, p95, max), the whole board's bytes, and drawing ms per
action for all viewers (median).
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time

from dicetable.bots import make_bot
from dicetable.engine import get_game, list_games, new_game
from dicetable.engine.markup import as_parts, assemble


def _q(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else 0.0


def measure(game_id: str, seed: int) -> dict:
    """Play one greedy game of ``game_id`` at its most players; the changed-part figures (see module docstring)."""
    spec = get_game(game_id)
    players = spec.max_players
    state = new_game(game_id, players, seed=seed)
    bot = make_bot("greedy", seed)
    viewers: list[int | None] = [*range(players), None]
    seen: dict[int | None, dict[str, str]] = {v: {} for v in viewers}
    changed: list[int] = []
    whole: list[int] = []
    counts: list[int] = []
    draw_ms: list[float] = []
    while not state.is_over:
        seat = state.to_move[0]
        state.apply(bot.choose(state, seat), seat)
        t0 = time.process_time()
        boards = {}
        for v in viewers:
            acts = [a.to_json() for a in state.legal_actions(v)] if v is not None and v in state.to_move else []
            boards[v] = as_parts(spec.board_view(state.observation(v), acts, v))
        draw_ms.append((time.process_time() - t0) * 1000)
        for v, parts in boards.items():
            hashes = {k: hashlib.blake2b(h.encode(), digest_size=8).hexdigest() for k, h in parts.items()}
            changed.append(sum(len(parts[k].encode()) for k, h in hashes.items() if seen[v].get(k) != h))
            seen[v] = hashes
            counts.append(len(parts))
        whole.append(len(assemble(boards[None]).encode()))
    return {"game": game_id, "players": players, "changes": len(draw_ms),
            "parts": statistics.median(counts), "changed_median": statistics.median(changed),
            "changed_p95": _q(changed, 0.95), "changed_max": max(changed), "whole_median": statistics.median(whole),
            "draw_ms_median": statistics.median(draw_ms)}


def main() -> None:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game ids (default: all five)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    games = args.games or [s.id for s in list_games()]
    print(f"{'game':28} pl changes parts  changed-bytes med/p95/max  whole-board  draw ms/action")
    for game_id in games:
        r = measure(game_id, args.seed)
        print(f"{r['game']:28} {r['players']:2} {r['changes']:7} {r['parts']:5.0f}  "
              f"{r['changed_median']:8.0f} {r['changed_p95']:8.0f} {r['changed_max']:8.0f}  "
              f"{r['whole_median']:10.0f}  {r['draw_ms_median']:8.2f}")


if __name__ == "__main__":
    main()
