"""Look at the Valeria: Card Kingdoms views: a standalone board page and the terminal screens.

Run ``.venv/bin/python tests/games/valeria_card_kingdoms/vck_preview.py OUT_DIR [PLAYERS ...]``:
for each player count it plays a seeded game with greedy bots to mid-game and writes
``vck-<n>p.html`` (the board fragment, board.css and a page shaped like the table page:
a header, the board, an action bar with the actions the board does not place, a 320px log
column), ``vck-<n>p.png`` (headless chromium at 1366x768), and the terminal view at 120 and
80 columns (``vck-<n>p-120.txt``, ``vck-<n>p-80.txt``).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from html import escape
from importlib import resources
from pathlib import Path

from rich.console import Console

from dicetable.bots import make_bot
from dicetable.engine import new_game
from dicetable.engine.markup import assemble
from dicetable.games.valeria_card_kingdoms.board import board_view
from dicetable.games.valeria_card_kingdoms.text import text_view

GAME = "valeria-card-kingdoms"
PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>{title}</title>
<style>{css}
body {{ margin: 0; font-family: system-ui, sans-serif; background: #efe9dc; }}
.page {{ display: grid; grid-template-columns: 1fr 320px; height: 100vh; }}
.main {{ padding: 6px 10px; overflow: hidden; display: flex; flex-direction: column; gap: 6px; }}
.bar {{ display: flex; flex-wrap: wrap; gap: 4px; }} .bar button {{ font-size: 12px; }}
.prompt {{ font-weight: bold; }} .log {{ background: #fff; border-left: 1px solid #ccc; padding: 6px; font-size: 12px;
overflow: hidden; }}
</style></head><body><div class="page"><div class="main"><div class="prompt">{prompt}</div>{board}
<div class="bar">{bar}</div></div><div class="log">{log}</div></div></body></html>"""


def mid_game(players: int, seed: int = 3, steps: int = 0):
    """A greedy-bot game at mid-game (a third of the Monsters slain, or ``steps`` actions)."""
    state = new_game(GAME, players, seed=seed)
    bots = [make_bot("greedy", seed + s) for s in range(players)]
    done = 0
    while not state.is_over:
        mons = sum(len(m["cards"]) for m in state.observation(None)["monsters"])
        if (steps and done >= steps) or (not steps and mons <= (20 if players < 5 else 24) and
                                         state.decision(state.to_move[0]).kind == "action"):
            break
        seat = state.to_move[0]
        state.apply(bots[seat].choose(state, seat), seat)
        done += 1
    return state


def page(state, seat: int | None) -> str:
    """A standalone HTML page around the board fragment, shaped like the table page."""
    actions = [{"id": a.id, "label": a.label} for a in state.legal_actions(seat)] if seat is not None else []
    board = assemble(board_view(state.observation(seat), actions, seat))
    placed = set(re.findall(r'data-action="([^"]+)"', board))
    bar = "".join(f"<button>{escape(a['label'])}</button>" for a in actions if escape(a["id"]) not in placed)
    css = resources.files("dicetable.games.valeria_card_kingdoms").joinpath("static", "board.css").read_text()
    dec = state.decision(seat) if seat is not None else None
    log = "".join(f"<div>{escape(e.text)}</div>" for e in state.log_for(seat)[-30:])
    return PAGE.format(title=GAME, css=css, prompt=escape(dec.prompt if dec else "Watching"), board=board,
                       bar=bar, log=log)


def screenshot(html_path: Path, png_path: Path, size: str = "1366,768") -> None:
    """Headless chromium's screenshot of a local page."""
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--no-first-run",
                        f"--user-data-dir={profile}", f"--screenshot={png_path}", f"--window-size={size}",
                        html_path.resolve().as_uri()], check=True, capture_output=True, timeout=120)


def terminal(state, seat, width: int) -> str:
    """The terminal view as plain text at ``width`` columns."""
    console = Console(width=width, record=True, file=open("/dev/null", "w"), color_system=None)
    console.print(text_view(state.observation(seat), seat, width=width))
    return console.export_text()


def main(out: Path, counts: list[int]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for n in counts:
        state = mid_game(n)
        seat = state.to_move[0]
        html_path = out / f"vck-{n}p.html"
        html_path.write_text(page(state, seat), encoding="utf-8")
        screenshot(html_path, out / f"vck-{n}p.png")
        for width in (120, 80):
            (out / f"vck-{n}p-{width}.txt").write_text(terminal(state, seat, width), encoding="utf-8")
        print(f"{n} players: {html_path}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), [int(x) for x in sys.argv[2:]] or [1, 2, 3, 4, 5])
