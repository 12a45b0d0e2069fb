"""Write a standalone page showing a game's browser board, and optionally screenshot it.

Usage::

    .venv/bin/python scripts/board_preview.py kingdom-of-dice --players 3 --seed 9 --steps 145 \
        --then 2 --seat 0 --out /tmp/kod.html --png docs/screenshots/kingdom-of-dice.png

The game is played by the game's greedy policy for ``--steps`` actions (then on
until ``--seat`` is to move, so its actions show), from ``--seed``. The page
imitates the table page around the board: a status line with the decision
prompt, the board fragment (``GameSpec.board_view``) with its ``board.css``
inlined, an action bar holding every legal action the board did not place,
and a 320px log column. ``--png`` screenshots it with headless chromium at
``--size`` (default 1366x768). Only views and public data are used: the page
shows what ``observation(seat)`` shows.
"""

from __future__ import annotations

import argparse
import html
import re
import subprocess
import sys
import tempfile
from importlib import resources
from pathlib import Path

from dicetable import get_game, new_game
from dicetable.engine.markup import as_parts, assemble

PAGE_STYLE = """
body { margin: 0; font: 14px/1.35 system-ui, sans-serif; background: #faf7f0; color: #222; }
.page { display: grid; grid-template-columns: 1fr 320px; grid-template-rows: auto 1fr auto; height: 100vh; }
.status { grid-column: 1 / 3; padding: 8px 14px; background: #37474f; color: #fff; font-weight: 600; }
.main { padding: 10px 14px; overflow: hidden; }
.log { grid-row: 2 / 4; grid-column: 2; border-left: 1px solid #ccc; padding: 8px; font-size: 12px;
       overflow: hidden; background: #fff; }
.log p { margin: 0 0 4px; }
.bar { padding: 6px 14px; border-top: 1px solid #ccc; background: #eceff1; display: flex; gap: 6px; flex-wrap: wrap; }
.bar button { font: 600 13px system-ui, sans-serif; padding: 4px 10px; }
"""


def build_state(game: str, players: int, seed: int, steps: int, seat: int | None, options: dict, then: int = 0,
                kind: str | None = None):
    """A state after ``steps`` greedy actions, continued until ``seat`` is to move (or the game ends).

    ``then`` more greedy actions of ``seat`` follow while it stays to move (e.g. dice already set aside);
    ``kind`` continues until ``seat`` faces a decision of that kind (e.g. ``bid``).
    """
    spec = get_game(game)
    state = new_game(game, players, seed=seed, options=options)
    done = 0
    def waiting() -> bool:
        if seat is None:
            return False
        if seat not in state.to_move:
            return True
        return kind is not None and state.decision(seat).kind != kind

    while not state.is_over and (done < steps or waiting()):
        mover = state.to_move[0]
        action = spec.greedy(state, mover) if spec.greedy else state.legal_actions(mover)[0]
        state.apply(action, mover)
        done += 1
        if done > steps + 2000:
            break
    for _ in range(then):
        if state.is_over or seat not in state.to_move:
            break
        state.apply(spec.greedy(state, seat), seat)
    return state


def page_html(state, seat: int | None) -> str:
    """The standalone page (board fragment, its CSS, action bar, log) for ``seat``."""
    spec = get_game(state.game_id)
    pkg = spec.state_class.__module__.rsplit(".", 1)[0]
    css = resources.files(pkg).joinpath("static", "board.css").read_text(encoding="utf-8")
    obs = state.observation(seat)
    acting = seat is not None and seat in state.to_move
    actions = [{"id": a.id, "label": a.label} for a in state.legal_actions(seat)] if acting else []
    fragment = assemble(as_parts(spec.board_view(obs, actions, seat)))
    placed = set(re.findall(r'data-action="([^"]*)"', fragment))
    placed = {html.unescape(p) for p in placed}
    bar = "".join(f'<button data-action="{html.escape(a["id"])}">{html.escape(a["label"])}</button>'
                  for a in actions if a["id"] not in placed)
    decision = state.decision(seat) if acting else None
    status = decision.prompt if decision else ("Game over" if state.is_over else "Waiting for another player")
    log = "".join(f"<p>{html.escape(e.text)}</p>" for e in state.log_for(seat)[-24:])
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(spec.name)}</title>"
            f"<style>{PAGE_STYLE}</style><style>{css}</style></head><body><div class='page'>"
            f"<div class='status'>{html.escape(status)}</div><div class='main'>{fragment}</div>"
            f"<div class='log'>{log}</div><div class='bar'>{bar}</div></div></body></html>")


def screenshot(page: Path, png: Path, size: str = "1366,768") -> None:
    """Screenshot ``page`` with Debian's headless chromium into ``png``."""
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--no-first-run",
                        "--hide-scrollbars", f"--user-data-dir={profile}", f"--screenshot={png}",
                        f"--window-size={size}", page.resolve().as_uri()],
                       check=True, capture_output=True, timeout=120)


def main(argv=None) -> int:
    """Command line entry: see the module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--then", type=int, default=0, help="greedy actions of --seat after it is to move")
    ap.add_argument("--kind", help="go on until --seat faces a decision of this kind")
    ap.add_argument("--seat", default="0", help="viewer seat, or 'none' for a spectator")
    ap.add_argument("-o", "--option", action="append", default=[], help="NAME=VALUE")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--png", type=Path)
    ap.add_argument("--size", default="1366,768")
    args = ap.parse_args(argv)
    seat = None if args.seat == "none" else int(args.seat)
    options = dict(o.split("=", 1) for o in args.option)
    state = build_state(args.game, args.players, args.seed, args.steps, seat, options, args.then, args.kind)
    args.out.write_text(page_html(state, seat), encoding="utf-8")
    if args.png:
        screenshot(args.out, args.png, args.size)
    print(args.out, args.png or "")
    return 0


if __name__ == "__main__":
    sys.exit(main())
