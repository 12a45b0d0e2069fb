"""Helpers for the Corsairs of Valeria view tests, and a preview of the browser board.

``python tests/games/corsairs_of_valeria/corsairs_views_kit.py [out-dir]``
writes a standalone HTML page (board fragment + board.css + a minimal page
style with a log column) for a few mid-game states, screenshots each at
1366x768 with headless chromium (``/usr/bin/chromium``), and prints the text
view at 120 and 80 columns (rich ``Console(record=True)``).
"""

from __future__ import annotations

import io
import subprocess
import sys
import tempfile
from html import escape
from importlib import resources
from pathlib import Path

from rich.console import Console

from dicetable.engine import Rng, new_game
from dicetable.engine.markup import assemble
from dicetable.engine.testing import random_step
from dicetable.games.corsairs_of_valeria.board import board_view
from dicetable.games.corsairs_of_valeria.text import text_view

GAME = "corsairs-of-valeria"


def whole_board(obs, actions, seat) -> str:
    """The assembled board (every keyed part in its slot), as the page shows it."""
    return assemble(board_view(obs, actions, seat))


def actions_of(state, seat):
    """The seat's legal actions in the board's argument shape ([] for a spectator)."""
    if seat is None:
        return []
    return [{"id": a.id, "label": a.label} for a in state.legal_actions(seat)]


def sampled_states(players: int, seed: int, every: int = 7, limit: int = 400, tracks: str = "random"):
    """States of one random game (seeded), every ``every`` steps and at the end."""
    state = new_game(GAME, players, seed=seed, options={"tracks": tracks})
    rng = Rng(seed * 7919 + players)
    step = 0
    while True:
        if step % every == 0 or state.is_over:
            yield state
        if state.is_over or step >= limit:
            return
        random_step(state, rng)
        step += 1


def find_state(players: int, waiting_for: str, seeds=range(1, 60), tracks: str = "random", min_turn: int = 0,
               want=None):
    """The first state of a random game waiting on decision ``waiting_for`` (optionally ``want(state)``)."""
    for seed in seeds:
        state = new_game(GAME, players, seed=seed, options={"tracks": tracks})
        rng = Rng(seed)
        for _ in range(600):
            if state.is_over:
                break
            obs = state.observation(None)
            if obs["waiting_for"] == waiting_for and obs["turn"] >= min_turn and (want is None or want(state)):
                return state
            random_step(state, rng)
    raise LookupError(f"no state waiting for {waiting_for!r}")


def text_screen(state, seat, width: int, focus=None) -> str:
    """The text view as a terminal of ``width`` columns shows it (plain text)."""
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None, emoji=False)
    console.print(text_view(state.observation(seat), seat, width=width, focus=focus))
    return console.export_text()


PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>{css}
body {{ margin: 0; font-family: "DejaVu Sans", sans-serif; background: #e9eef2; }}
.page {{ display: grid; grid-template-columns: 1fr 320px; height: 100vh; }}
.main {{ padding: 8px 12px; overflow: hidden; }}
.bar {{ background: #1d2630; color: #fff; padding: 6px 10px; margin: -8px -12px 8px; font-size: 14px; }}
.log {{ background: #fff; border-left: 1px solid #ccd; padding: 8px; font-size: 12px; overflow: auto; }}
.log p {{ margin: 0 0 4px; }}
</style></head><body><div class="page"><div class="main"><div class="bar">{prompt}</div>{board}</div>
<aside class="log">{log}</aside></div></body></html>"""


def preview_page(state, seat) -> str:
    """A standalone page: the board fragment, board.css, a status bar and the last log lines."""
    css = resources.files("dicetable.games.corsairs_of_valeria").joinpath("static", "board.css").read_text()
    board = whole_board(state.observation(seat), actions_of(state, seat), seat)
    decision = state.decision(seat) if seat is not None else None
    prompt = escape(decision.prompt) if decision else "Watching"
    log = "".join(f"<p>{escape(e.text)}</p>" for e in state.log_for(seat)[-30:])
    return PAGE.format(title="Corsairs of Valeria", css=css, prompt=prompt, board=board, log=log)


def screenshot(html: str, png: Path) -> None:
    """Write ``html`` to a temporary file and screenshot it at 1366x768 with headless chromium."""
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "board.html"
        page.write_text(html, encoding="utf-8")
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--no-first-run",
                        f"--user-data-dir={tmp}/profile", f"--screenshot={png}", "--window-size=1366,768",
                        page.as_uri()], check=True, capture_output=True, timeout=120)


def main(out: Path) -> None:
    """Screenshots and text screens of a few mid-game states into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    cases = {
        "reroll": find_state(4, "reroll", tracks="T1B,T3A,T2A", min_turn=9,
                             want=lambda s: len(s.observation(None)["marked"]) >= 2),
        "cannons": find_state(5, "cannons", tracks="T1B,T3A,T2A", want=lambda s: any(
            a.id.startswith("attack:") for a in s.legal_actions(s.to_move[0]))),
        "captain": find_state(4, "captain-b", tracks="T3B,T1A,T4A"),
        "order": find_state(3, "order", tracks="T4B,T1B,T2A", min_turn=6),
        "move": find_state(3, "move", tracks="T1B,T3A,T2A"),
    }
    for name, state in cases.items():
        seat = state.to_move[0]
        (out / f"{name}.html").write_text(preview_page(state, seat), encoding="utf-8")
        screenshot(preview_page(state, seat), out / f"{name}.png")
        for width in (120, 80):
            screen = text_screen(state, seat, width)
            (out / f"{name}-{width}.txt").write_text(screen, encoding="utf-8")
            print(f"--- {name} at {width} columns: {len(screen.splitlines())} lines")
            print(screen)


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/cov-preview"))
