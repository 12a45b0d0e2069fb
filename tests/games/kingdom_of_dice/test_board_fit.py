"""The Kingdom of Dice board with its board.css fits a phone (docs/web.md: phones), in headless chromium.

The assembled board is put in a box as wide as the table page gives it at
390x844 and 360x740 portrait and 844x390 landscape (and at 1366x768): it
must not be wider than that box, every ``data-action`` target must be at
least 32x32 CSS px, and every text at least 12 CSS px (SVG text at the size
it is drawn).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dicetable import new_game
from dicetable.bots import make_bot
from dicetable.engine.markup import assemble
from dicetable.games.kingdom_of_dice.board import board_view


pytestmark = pytest.mark.browser

CSS = (Path(__file__).resolve().parents[3] / "src/dicetable/games/kingdom_of_dice/static/board.css").read_text()
C = "crown"

# (viewport width, height, the board box's width on the table page at that size)
SIZES = [(390, 844, 360), (360, 740, 330), (844, 390, 516), (1366, 768, 1040)]

MEASURE = """() => {
  const box = document.getElementById('box'), b = box.firstElementChild;
  const out = {wide: b.scrollWidth - box.clientWidth, small: [], targets: []};
  for (const el of b.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (!r.width) continue;
    for (const n of el.childNodes) {
      if (n.nodeType !== 3 || !n.textContent.trim()) continue;
      let size = parseFloat(getComputedStyle(el).fontSize);
      if (el instanceof SVGGraphicsElement) size *= el.getScreenCTM().a;
      if (size < 11.95) out.small.push(`${el.tagName}.${el.getAttribute('class')} ${size.toFixed(1)}px "${n.textContent.trim()}"`);
    }
  }
  for (const el of b.querySelectorAll('[data-action]')) {
    const r = el.getBoundingClientRect();
    out.targets.push([el.dataset.action, Math.round(r.width * 10) / 10, Math.round(r.height * 10) / 10]);
  }
  return out;
}"""


def _states():
    """A roll to set aside, a result to place, a solo game with the Cat, a finished game."""
    rolled = new_game("kingdom-of-dice", 4, seed=1, dice=[C, C, 1, 2, 2, 5])
    rolled.apply("keep:crown", 0)
    place = new_game("kingdom-of-dice", 4, seed=1, dice=[C, C, 1, 2, 2, 5])
    for face in ("crown", "crown", "1", "2", "2"):
        place.apply(f"keep:{face}", 0)
    place.apply("stop", 0)
    solo = new_game("kingdom-of-dice", 1, seed=3, options={"cat_level": 6})
    over = new_game("kingdom-of-dice", 4, seed=2)
    bot = make_bot("greedy", 2)
    while not over.is_over:
        seat = over.to_move[0]
        over.apply(bot.choose(over, seat), seat)
    return [rolled, place, solo, over]


@pytest.fixture(scope="module")
def page(browser):
    """A phone-like page (touch, device scale 2) in the browser tests' chromium."""
    ctx = browser.new_context(is_mobile=True, has_touch=True, device_scale_factor=2)
    yield ctx.new_page()
    ctx.close()


@pytest.mark.parametrize("width,height,box", SIZES)
def test_board_fits_the_box_with_readable_text_and_big_targets(page, width, height, box):
    page.set_viewport_size({"width": width, "height": height})
    for state in _states():
        seat = state.to_move[0] if state.to_move else 0
        actions = [a.to_json() for a in state.legal_actions(seat)] if state.to_move else []
        board = assemble(board_view(state.observation(seat), actions, seat))
        page.set_content(f"<!doctype html><html><head><style>body {{ margin: 0; font-size: 16px; }}\n{CSS}</style>"
                         f'</head><body><div id="box" style="width: {box}px">{board}</div></body></html>')
        got = page.evaluate(MEASURE)
        where = f"{width}x{height}, phase {state.observation(seat)['phase']}"
        assert got["wide"] <= 0, f"{where}: the board is {got['wide']}px wider than its {box}px box"
        assert not got["small"], f"{where}: text under 12px: {got['small'][:5]}"
        assert all(w >= 32 and h >= 32 for _, w, h in got["targets"]), f"{where}: {got['targets']}"
        assert {a["id"] for a in actions} == {t[0] for t in got["targets"]}
