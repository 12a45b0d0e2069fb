"""The Biblios Dice board on phones (docs/web.md, "Phones"): its HTML and board.css in headless chromium.

The board alone (assembled parts, the game's board.css, on an otherwise blank page as wide as the
phone's screen) is drawn at 390x844 and 360x740 portrait and 844x390 landscape, as a touch screen at
device scale 2, for states along seeded games: it never makes the page scroll sideways, every
``data-action`` target lies inside the screen's width and is at least 32 x 32 CSS px, and every piece of
text is at least 12 CSS px (SVG text counted at the scale its picture is drawn).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dicetable import get_game
from dicetable.engine.markup import assemble

from ..viewkit import sampled_states

pytestmark = pytest.mark.browser

GAME = "biblios-dice"
CSS = (Path(get_game(GAME).board_view.__code__.co_filename).parent / "static" / "board.css").read_text()

MEASURE = """() => {
  const board = document.querySelector('.board-biblios-dice');
  const out = {scroll: document.documentElement.scrollWidth - innerWidth, targets: [], tiny: []};
  for (const e of board.querySelectorAll('[data-action]')) {
    const r = e.getBoundingClientRect();
    if (r.width < 32 || r.height < 32 || r.left < 0 || r.right > innerWidth)
      out.targets.push([e.dataset.action, Math.round(r.left), Math.round(r.width), Math.round(r.height)]);
  }
  const walk = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode, el = node.parentElement;
    if (!node.textContent.trim() || el.closest('title') || !el.getBoundingClientRect().width) continue;
    let px = parseFloat(getComputedStyle(el).fontSize);
    const svg = el.closest('svg');
    if (svg) px *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    if (px < 11.95) out.tiny.push([node.textContent.trim().slice(0, 20), Math.round(px * 10) / 10]);
  }
  return out;
}"""


def _page(board: str) -> str:
    return (f'<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<style>body {{ margin: 0; padding: 8px; font: 14px system-ui, sans-serif; }}\n{CSS}</style></head>'
            f'<body><div id="board">{board}</div></body></html>')


@pytest.mark.parametrize("width,height,players", [(390, 844, 5), (360, 740, 2), (844, 390, 4)])
def test_board_fits_a_phone(browser, width, height, players):
    spec = get_game(GAME)
    ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True,
                               device_scale_factor=2)
    page = ctx.new_page()
    checked = 0
    try:
        for state in sampled_states(GAME, players, 81, {"hidden_objectives": True}, samples=8):
            seats = state.to_move or [0]
            for seat in seats[:1]:
                actions = [a.to_json() for a in state.legal_actions(seat)] if state.to_move else []
                page.set_content(_page(assemble(spec.board_view(state.observation(seat), actions, seat))))
                found = page.evaluate(MEASURE)
                where = f"{width}x{height} {players}p seat {seat} history {len(state.history)}"
                assert found["scroll"] <= 0, f"{where}: the page scrolls sideways by {found['scroll']} px"
                assert found["targets"] == [], f"{where}: targets too small or off screen {found['targets'][:5]}"
                assert found["tiny"] == [], f"{where}: text below 12 px {found['tiny'][:5]}"
                checked += 1
    finally:
        ctx.close()
    assert checked >= 8
