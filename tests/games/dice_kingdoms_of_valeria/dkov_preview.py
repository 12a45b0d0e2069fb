"""Look at the Dice Kingdoms of Valeria views: a standalone board page and terminal captures.

Run ``.venv/bin/python tests/games/dice_kingdoms_of_valeria/dkov_preview.py [out_dir]``: it plays a
seeded random game to mid-game, writes ``dkov-board.html`` (the fragment, the game's board.css
and a minimal page style), screenshots it at 1366x768 with headless chromium when present, and
writes the text_view at 120 and 80 columns (``dkov-text-120.txt``, ``dkov-text-80.txt``).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from importlib import resources
from pathlib import Path

from rich.console import Console

from dicetable.engine import Rng, new_game
from dicetable.games.dice_kingdoms_of_valeria.board import board_view
from dicetable.games.dice_kingdoms_of_valeria.text import text_view

GAME = "dice-kingdoms-of-valeria"
PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{margin:0;display:flex;font-family:system-ui,sans-serif;background:#e9e4d8}}
main{{flex:1;padding:8px;overflow:hidden}} aside{{width:320px;background:#fff;border-left:1px solid #ccc;
padding:8px;font-size:12px}} .bar{{margin-top:6px}} .bar button{{margin:2px}}</style>
<style>{css}</style></head><body><main>{board}<div class="bar">{bar}</div></main>
<aside><b>Log</b><p>(the page's log column)</p></aside></body></html>"""


def mid_game(players: int = 3, sheets: str = "summer", seed: int = 7, steps: int = 60,
             stop=lambda s: True):
    """A seeded random game played ``steps`` moves, then on until ``stop(state)`` (or its end)."""
    state = new_game(GAME, players, seed=seed, options={"sheets": sheets})
    rng = Rng(seed)
    n = 0
    while not state.is_over and (n < steps or not stop(state)):
        seat = state.to_move[0]
        acts = state.legal_actions(seat)
        state.apply(acts[rng.randbelow(len(acts))], seat)
        n += 1
    return state


def page(state, seat) -> str:
    """A standalone HTML page of ``seat``'s board (the actions not placed go in a bar)."""
    acts = [{"id": a.id, "label": a.label} for a in state.legal_actions(seat)] if seat in state.to_move else []
    html = board_view(state.observation(seat), acts, seat)
    placed = {a["id"] for a in acts if f'data-action="{a["id"]}"' in html}
    bar = "".join(f"<button>{a['label']}</button>" for a in acts if a["id"] not in placed)
    css = resources.files("dicetable.games.dice_kingdoms_of_valeria").joinpath("static", "board.css").read_text()
    return PAGE.format(title="Dice Kingdoms of Valeria", css=css, board=html, bar=bar)


def screenshot(html_path: Path, png: Path) -> bool:
    """Screenshot ``html_path`` at 1366x768 with headless chromium; False when chromium is absent."""
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        return False
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--no-first-run",
                        f"--user-data-dir={profile}", f"--screenshot={png}", "--window-size=1366,768",
                        html_path.resolve().as_uri()], check=True, capture_output=True, timeout=120)
    return True


def main(out: Path, players: int = 3, sheets: str = "summer") -> None:
    out.mkdir(parents=True, exist_ok=True)
    state = mid_game(players, sheets, steps=20 * players, stop=lambda s: s.phase == "action" and bool(s.to_move))
    seat = state.to_move[0]
    html = out / f"dkov-board-{players}-{sheets}.html"
    html.write_text(page(state, seat), encoding="utf-8")
    screenshot(html, out / f"dkov-board-{players}-{sheets}.png")
    for width in (120, 80):
        console = Console(width=width, record=True, color_system=None, file=open("/dev/null", "w"))
        console.print(text_view(state.observation(seat), seat, width=width))
        (out / f"dkov-text-{players}-{sheets}-{width}.txt").write_text(console.export_text(), encoding="utf-8")


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/dkov-preview")
    main(target, int(sys.argv[2]) if len(sys.argv) > 2 else 3, sys.argv[3] if len(sys.argv) > 3 else "summer")
    print(target)
