"""The Corsairs of Valeria board on a phone (headless chromium through Playwright, as tests/web does).

The assembled board with the page's and the game's CSS, at 360x740 and
390x844 portrait and 844x390 landscape (touch, ``is_mobile``): nothing wider
than the screen, every ``data-action`` target at least 32x32 CSS px and every
text of the board at least 12 CSS px (SVG text as drawn, its viewBox scaled).
"""

from __future__ import annotations

import pytest

from dicetable.engine.markup import assemble
from dicetable.games.corsairs_of_valeria.board import board_view

from ..viewkit import page_and_board_css

from .corsairs_views_kit import actions_of, find_state

MEASURE = """() => {
  const board = document.querySelector('.board-corsairs-of-valeria');
  const vw = window.innerWidth;
  const out = {scroll: document.documentElement.scrollWidth, vw, small: [], outside: [], tiny: []};
  for (const el of board.querySelectorAll('[data-action]')) {
    const r = el.getBoundingClientRect();
    if (r.width < 32 || r.height < 32) out.small.push([el.dataset.action, r.width, r.height]);
    if (r.left < 0 || r.right > vw) out.outside.push([el.dataset.action, r.left, r.right]);
  }
  const walker = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!walker.currentNode.textContent.trim() || el.closest('title')) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    const svg = el.closest('svg');
    if (svg && svg.viewBox.baseVal && svg.viewBox.baseVal.width)
      size *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    if (size < 11.95) out.tiny.push([walker.currentNode.textContent.trim(), size]);
  }
  return out;
}"""


def _css() -> str:
    return page_and_board_css("dicetable.games.corsairs_of_valeria")


STATES = {
    "reroll": dict(players=5, waiting_for="reroll", want=lambda s: len(s.observation(None)["marked"]) >= 1),
    "cannons": dict(players=5, waiting_for="cannons", want=lambda s: any(
        a.id.startswith("attack:") for a in s.legal_actions(s.to_move[0]))),
    "move": dict(players=3, waiting_for="move", tracks="T1B,T3A,T2A"),
    "captain": dict(players=3, waiting_for="captain-b"),
    "order": dict(players=4, waiting_for="order"),
}


@pytest.mark.parametrize("width,height", [(360, 740), (390, 844), (844, 390)])
def test_the_board_fits_a_phone_with_big_targets_and_readable_text(browser, width, height):
    ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True,
                              device_scale_factor=2)
    page = ctx.new_page()
    css = _css()
    try:
        for name, case in STATES.items():
            state = find_state(**case)
            seat = state.to_move[0]
            html = assemble(board_view(state.observation(seat), actions_of(state, seat), seat))
            page.set_content(f'<html><head><meta name="viewport" content="width=device-width, initial-scale=1">'
                             f'<style>{css}</style></head><body data-page="table"><main class="table-main">'
                             f'<section class="board-wrap"><div id="board">{html}</div></section></main></body></html>')
            got = page.evaluate(MEASURE)
            assert got["scroll"] <= got["vw"], (name, width, "the page scrolls sideways")
            assert got["small"] == [], (name, width, "tap targets under 32px")
            assert got["outside"] == [], (name, width, "targets off the screen")
            assert got["tiny"] == [], (name, width, "text under 12px")
    finally:
        ctx.close()
