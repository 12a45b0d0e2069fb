"""What a new players' test found in the phone layout and the replay viewer (2026-12-07), measured in a
real browser at 390x844 with touch (and 1366x768 where the laptop must not change): the replay viewer's
controls take at most a sixth of a phone's height and the page scrolls as one (the board and the log by
the page's own scroll); My tables comes before the New table form on a phone when it lists a table; a
turn-based table's top line is two rows at most; no glyph the pages ship is drawn as an empty box by
Debian's chromium with its default fonts (DejaVu, Liberation). A few seconds each.
"""

from __future__ import annotations

import re

from pathlib import Path

import pytest

from .helpers import finished_by_bots

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
#: Seat 0 a person (a random bot plays it), seat 1 a random bot.
RANDOM_PAIR = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
SRC = Path(__file__).resolve().parents[2] / "src" / "dicetable"


# ------------------------------------------------------------------ the replay viewer on a phone

#: JS: the replay page's scrolling as a player meets it: the sticky controls' height, every box that
#: scrolls (its own content taller than its box, overflow not visible) other than the page itself,
#: and where the board and the log end up in the page's own scroll.
REPLAY_LAYOUT = """() => {
  const box = (s) => document.querySelector(s).getBoundingClientRect();
  const inner = [];
  for (const e of document.querySelectorAll('body *')) {
    const cs = getComputedStyle(e);
    if (!/(auto|scroll|hidden)/.test(cs.overflowY) || e.scrollHeight <= e.clientHeight + 1 || e.closest('#board')) continue;
    if (e.matches('select') || e.clientHeight <= 1) continue;  // a menu's list; text for screen readers only
    inner.push(`${e.tagName}#${e.id}.${e.className} ${e.clientHeight}/${e.scrollHeight}`);
  }
  const page = document.scrollingElement;
  return {bar: box('.replay-bar').height, board: box('#board').height, wrap: box('#board-wrap').height,
          logBottom: box('#log').bottom + page.scrollTop, pageHeight: page.scrollHeight, inner,
          buttons: [...document.querySelectorAll('.replay-bar button')].map((b) => [b.id, b.getBoundingClientRect().height])};
}"""


@pytest.mark.parametrize("game", ["corsairs-of-valeria", "dice-kingdoms-of-valeria"])
def test_replay_on_a_phone_scrolls_as_one_page_under_compact_controls(browser, server, game):
    """At 390x844 the sticky controls take at most a sixth of the screen (they took 336 px: two rows of
    worded buttons, the menus and the prompt); nothing scrolls inside the page (the board sat in a
    460 px box of its own, the log under it), so the whole board and the log's last line are reached
    by the page's own scroll, and the controls stay in sight there. Each button keeps a 44 px target."""
    tid = finished_by_bots(server, game, RANDOM_PAIR, seed=4)
    ctx = browser.new_context(**PHONE)
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/tables/{tid}/replay#step=20")
        page.wait_for_function("() => document.querySelector('#step').dataset.version === '20'")
        got = page.evaluate(REPLAY_LAYOUT)
        assert got["bar"] <= 844 / 6, got
        assert got["inner"] == [], got
        assert got["wrap"] >= got["board"], got  # the board's box holds it whole
        assert all(h >= 44 for _, h in got["buttons"]), got
        # the page's own scroll reaches the log's end, the controls still in sight at the top
        page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
        page.wait_for_timeout(100)
        bottom = page.evaluate("() => ({log: document.querySelector('#log').getBoundingClientRect().bottom,"
                               " bar: document.querySelector('.replay-bar').getBoundingClientRect().top})")
        assert bottom["log"] <= 844 + 1 and bottom["bar"] == 0, bottom
        # still a working viewer: forward by a tap, the step line says so
        page.tap("#step-fwd")
        page.wait_for_function("() => document.querySelector('#step').dataset.version === '21'")
        assert page.locator("#play").get_attribute("aria-label") in ("play", "play again")
    finally:
        ctx.close()


def test_replay_on_a_laptop_keeps_the_board_and_log_side_by_side(browser, server):
    """At 1366x768 the viewer stays one screen: the board and the log side by side, the log scrolling
    in its own pane, the controls and their words in one bar above them."""
    tid = finished_by_bots(server, "kingdom-of-dice", RANDOM_PAIR, seed=4)
    ctx = browser.new_context(**LAPTOP)
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/tables/{tid}/replay#step=30")
        page.wait_for_function("() => document.querySelector('#step').dataset.version === '30'")
        assert page.evaluate("document.scrollingElement.scrollHeight") <= 768
        board, side = page.locator("#board-wrap").bounding_box(), page.locator(".replay-main .side").bounding_box()
        assert side["x"] >= board["x"] + board["width"] and abs(side["y"] - board["y"]) < 20, (board, side)
        assert page.locator("#step-first").inner_text().strip() == "start"
        assert page.locator("#play").inner_text().strip() == "play"
    finally:
        ctx.close()


# ------------------------------------------------------------------ My tables on a phone

def test_my_tables_comes_before_the_new_table_form_on_a_phone(browser, server):
    """A returning player's phone shows My tables (their "your move") above the New table form, which
    took some 1,500 px before it; with no table to list, the form comes first. A laptop keeps My
    tables in the right-hand column."""
    made = server.create("kingdom-of-dice", [{"kind": "human", "name": "alice"}, {"kind": "human", "name": "bob"}], seed=2)
    tid, token = made["table_id"], made["seats"][0]["token"]
    ctx = browser.new_context(**PHONE)
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/")
        page.wait_for_selector("#my-tables li:not(:has-text('loading'))")
        top = lambda s: page.locator(s).bounding_box()["y"]  # noqa: E731
        assert top("#new-h") < top("#mine-h")  # nothing to list: the form first
        page.evaluate("([id, t]) => localStorage.setItem(`dicetable.tokens.${id}`, JSON.stringify({0: t}))", [tid, token])
        page.reload()
        page.wait_for_selector(f'[data-my-table="{tid}"]')
        assert top("#mine-h") < top("#new-h")
        assert top(f'[data-my-table="{tid}"] a.button') < 844, "the Play button is on the first screen"
        # the reading order is the order seen (a screen reader and the Tab key meet My tables first)
        assert page.evaluate("() => !!(document.querySelector('#mine-h').compareDocumentPosition("
                             "document.querySelector('#new-h')) & Node.DOCUMENT_POSITION_FOLLOWING)")
        page.set_viewport_size(LAPTOP["viewport"])
        page.wait_for_timeout(200)
        mine, form = page.locator("#my-tables-panel").bounding_box(), page.locator(".new-table").bounding_box()
        assert mine["x"] >= form["x"] + form["width"], "a laptop: My tables in the right-hand column"
    finally:
        ctx.close()


# ------------------------------------------------------------------ a turn-based table's top line

#: JS: the rows the phone's top line takes (its visible items' distinct tops) and its height.
TOPLINE_ROWS = """() => {
  const line = document.querySelector('.topline');
  const tops = new Set();
  for (const e of line.querySelectorAll('.home, #clock, .tools > button, .tools > .version')) {
    const r = e.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) tops.add(Math.round(r.top + r.height / 2));
  }
  const rows = [...tops].sort((a, b) => a - b).filter((t, i, a) => i === 0 || t - a[i - 1] > 12);
  return {rows: rows.length, height: line.getBoundingClientRect().height, clock: document.querySelector('#clock').innerText};
}"""


def test_a_turn_based_top_line_on_a_phone_is_two_rows_at_most(browser, server):
    """One player watches the other's turn at a turn-based Dice Kingdoms table (3 days a turn) on a
    phone: the top line ("dicetable", the mover's clock, Fast, the round and turn) takes two rows at
    most; it took three."""
    status, made = server.call("POST", "/api/tables", {
        "game": "dice-kingdoms-of-valeria", "players": 2, "options": {}, "seed": 3,
        "seats": [{"kind": "human", "name": "alexandra_t25"}, {"kind": "human", "name": "bartholomew_t25"}],
        "bank": 259200, "increment": 259200, "bank_max": 604800})
    assert status in (200, 201), made
    tid = made["table_id"]
    mover = server.call("GET", f"/api/tables/{tid}")[1]["to_move"][0]
    watcher = made["seats"][1 - mover]["token"]  # the seat not to move: the clock names the mover
    ctx = browser.new_context(**PHONE)
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/tables/{tid}#token={watcher}")
        page.wait_for_selector("#clock:not([hidden])")
        got = page.evaluate(TOPLINE_ROWS)
        assert ["alexandra_t25", "bartholomew_t25"][mover] in got["clock"] and re.search(r"\b[23] d \d+ h\b", got["clock"]), got  # 3 days less what has run
        assert got["rows"] <= 2 and got["height"] <= 100, got
        # the mover's own phone: "you", and the Hint button among the tools
        page.goto(f"{server.url}/tables/{tid}#token={made['seats'][mover]['token']}")
        page.wait_for_selector("#hint-btn:not([hidden])")
        page.wait_for_selector("#clock:not([hidden])")
        got = page.evaluate(TOPLINE_ROWS)
        assert got["clock"].startswith("you:") and got["rows"] <= 2 and got["height"] <= 100, got
        # the stopwatch is the page's own drawing, in the clock's colour
        icon = page.evaluate("() => { const s = getComputedStyle(document.querySelector('#clock'), '::before');"
                             " return [s.maskImage || s.webkitMaskImage, s.width]; }")
        assert icon[0].startswith('url("data:image/svg+xml') and icon[1] != "auto", icon
    finally:
        ctx.close()


# ------------------------------------------------------------------ glyphs that need a system font

#: JS: each character drawn with the pages' fonts, compared with the empty box chromium draws for
#: code points no installed font has (an unassigned one, a private-use one): true where it is a box.
BOXES = """(chars) => {
  const c = document.createElement('canvas'); c.width = 40; c.height = 40;
  const g = c.getContext('2d', {willReadFrequently: true});
  const font = getComputedStyle(document.body).fontFamily;
  const px = (ch) => { g.clearRect(0, 0, 40, 40); g.font = `24px ${font}`; g.fillText(ch, 4, 30);
                       return Array.from(g.getImageData(0, 0, 40, 40).data).join(','); };
  const box = [px('\\u0378'), px('\\uE000')];
  return chars.filter((ch) => box.includes(px(ch)));
}"""

#: Typographic punctuation every font has; the scan looks at the symbols past it.
PUNCTUATION = set("\u2018\u2019\u201c\u201d\u2013\u2014\u2026\u2212\u2009\u202f")


def _shipped_symbols() -> dict[str, list[str]]:
    """Every character from U+2000 up in what the server may put on a page: the pages' scripts, styles
    and templates, the games' board markup, board styles and texts (log lines, prompts, rules), the
    engine's and the server's words; the terminal's own (``cli``) aside. ``{character: [files]}``."""
    found: dict[str, list[str]] = {}
    for f in sorted(SRC.rglob("*")):
        if f.suffix not in (".js", ".css", ".html", ".py") or "cli" in f.relative_to(SRC).parts:
            continue
        for ch in set(f.read_text(encoding="utf-8")):
            if ord(ch) >= 0x2000 and ch not in PUNCTUATION:
                found.setdefault(ch, []).append(str(f.relative_to(SRC)))
    return found


def test_no_glyph_the_pages_ship_is_an_empty_box(browser, server):
    """Debian's chromium with its default fonts draws no symbol of the pages, the boards or the games'
    texts as an empty box (the clock's stopwatch, U+23F1, was one: no emoji font); the clock's icon is
    the page's own."""
    found = _shipped_symbols()
    assert len(found) > 10, "the scan reads the sources"
    page = browser.new_page()
    try:
        page.goto(f"{server.url}/")
        boxes = page.evaluate(BOXES, sorted(found))
        assert boxes == [], {ch: (f"U+{ord(ch):04X}", found[ch]) for ch in boxes}
        assert page.evaluate(BOXES, ["\u23f1", "a"]) == ["\u23f1"], "the check sees a box where there is one"
    finally:
        page.close()
