"""The table page on a phone (390x844, touch), as a tester found it: the decision's controls in sight
without hunting for them, a cue on the Dice Kingdoms sheets that scroll sideways (and on its final
score sheet), the +n score badge kept below the top line, and "Key to the symbols", every other
disclosure's summary, the lobby's "How to play" link and every other control of the pages' own (lobby,
table, replay, account, leaderboard, player) a 44 px touch target, while a laptop keeps its compact
controls. Each test measures the page (boxes, scroll offsets, pixels); a few seconds each.
"""

from __future__ import annotations

import time

import pytest
import sqlalchemy

from dicetable.server import ratings
from dicetable.server.models import TableRow

from ..server.test_ratings import add_player, add_table, finish
from .helpers import api_until_to_move, wait_ready

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1366, "height": 768}}
HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "level": "greedy"}

#: Installed before the page's scripts: every scrollTo/scrollBy/scrollIntoView the page calls, as
#: [method, behavior] in window.__scrolls.
RECORD_SCROLLS = """(() => {
  window.__scrolls = [];
  for (const name of ['scrollTo', 'scrollBy', 'scrollIntoView']) {
    const was = Element.prototype[name];
    Element.prototype[name] = function (...args) {
      const o = args[0];
      window.__scrolls.push([name, o && typeof o === 'object' ? (o.behavior || 'auto') : 'auto']);
      return was.apply(this, args);
    };
  }
})()"""

#: JS: the data-action elements of the decision at least 90% in sight: inside the window, below the
#: top line, above the docked decision, and not cut off by any box that clips or scrolls them.
IN_SIGHT = """() => {
  const top = document.querySelector('.statusbar .topline').getBoundingClientRect().bottom;
  const dock = document.querySelector('.dock').getBoundingClientRect();
  const bottom = getComputedStyle(document.querySelector('.dock')).order === '3' ? dock.top : innerHeight;
  const out = [];
  for (const e of document.querySelectorAll('#board [data-action], #actionbar [data-action]')) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    let c = {l: 0, t: e.closest('#actionbar') ? 0 : top, r: innerWidth, b: e.closest('#actionbar') ? innerHeight : bottom};
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
      const b = a.getBoundingClientRect();
      c = {l: Math.max(c.l, b.left + a.clientLeft), t: Math.max(c.t, b.top + a.clientTop),
           r: Math.min(c.r, b.left + a.clientLeft + a.clientWidth), b: Math.min(c.b, b.top + a.clientTop + a.clientHeight)};
    }
    const w = Math.min(r.right, c.r) - Math.max(r.left, c.l), h = Math.min(r.bottom, c.b) - Math.max(r.top, c.t);
    if (w > 0 && h > 0 && w * h >= 0.9 * r.width * r.height) out.push(e.dataset.action);
  }
  return out;
}"""

#: JS: the scroll offsets of the page's scroll boxes (the phone's column, the board area, a sheet panel).
OFFSETS = """() => [document.querySelector('.table-main').scrollTop, document.querySelector('#board-wrap').scrollTop,
  ...[...document.querySelectorAll('#board .dkv-panel')].map(p => p.scrollLeft)]"""


#: JS: where the side tabs (log, rules, chat) begin in the phone's column, as a share of its height
#: (under 0.5: they fill most of it).
SIDE_TOP = """() => { const m = document.querySelector('.table-main').getBoundingClientRect();
  return (document.querySelector('.side').getBoundingClientRect().top - m.top) / m.height; }"""


def _settled(page) -> list:
    """The scroll offsets once they stopped changing (a smooth scroll has ended)."""
    last = None
    for _ in range(40):
        now = page.evaluate(OFFSETS)
        if now == last:
            return now
        last = now
        page.wait_for_timeout(120)
    raise AssertionError(f"the page kept scrolling: {last}")


def _open(browser, server, game: str, seats: list[dict], seed: int, size: dict, motion: str = "no-preference",
          seat: int = 0):
    """A context and a page on a new table's seat ``seat`` (pace 0), its scroll calls recorded."""
    made = server.create(game, seats, seed=seed)
    ctx = browser.new_context(**size, reduced_motion=motion)
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    page.add_init_script(RECORD_SCROLLS)
    token = made["seats"][seat]["token"]
    page.goto(f"{server.url}/tables/{made['table_id']}?token={token}&pace=0")
    return ctx, page, made


# ---------------------------------------------------------------- 1. the decision's controls in sight

@pytest.mark.parametrize("game, motion", [("corsairs-of-valeria", "no-preference"),
                                          ("valeria-card-kingdoms", "reduce")])
def test_the_first_decisions_controls_come_into_sight_on_a_phone(browser, server, game, motion):
    """At the first decision (the dice of Corsairs, the two Dukes of Card Kingdoms, below the fold at
    the top of the page) the controls are brought into sight between the top line and the docked
    decision: smoothly, or at once with reduced motion. A push for the same decision (Corsairs: a die
    marked from another screen) after the player scrolled back up does not scroll the page again."""
    ctx, page, made = _open(browser, server, game, [HUMAN, BOT], seed=5, size=PHONE, motion=motion)
    try:
        wait_ready(page)
        page.wait_for_function(f"() => ({IN_SIGHT})().length > 0", timeout=5_000)
        offsets = _settled(page)
        assert offsets[0] > 100, f"the column was not scrolled: {offsets}"
        assert len(page.evaluate(IN_SIGHT)) >= 2
        behaviours = {b for _, b in page.evaluate("window.__scrolls")}
        assert behaviours == ({"smooth"} if motion == "no-preference" else {"instant"}), behaviours
        if game != "corsairs-of-valeria":
            return
        # the player scrolls back up to read the board; a die marked elsewhere is the same decision
        page.mouse.move(200, 300)
        page.mouse.wheel(0, -3000)
        page.wait_for_function("() => document.querySelector('.table-main').scrollTop === 0")
        page.wait_for_timeout(1_500)  # no longer scrolling
        calls = len(page.evaluate("window.__scrolls"))
        tid, token = made["table_id"], made["seats"][0]["token"]
        view = server.call("GET", f"/api/tables/{tid}", token=token)[1]
        assert server.call("POST", f"/api/tables/{tid}/actions", {"action": "mark:1", "version": view["version"]},
                           token=token)[0] == 200
        page.wait_for_function(f"() => document.querySelector('[data-version]').dataset.version === '{view['version'] + 1}'")
        page.wait_for_timeout(600)
        assert page.evaluate(OFFSETS)[0] == 0
        assert len(page.evaluate("window.__scrolls")) == calls
    finally:
        ctx.close()


def test_a_new_decision_after_a_tap_comes_into_sight_and_a_visible_one_stays_put(browser, server):
    """Dice Kingdoms (seed 2): the first decision has a Recruit pip in sight, so nothing scrolls; the
    player taps the Worker pip, whose Road Reward is marked on the Forest sheet, far below: that
    decision's pips are brought into sight."""
    ctx, page, _ = _open(browser, server, "dice-kingdoms-of-valeria", [HUMAN, BOT], seed=2, size=PHONE)
    try:
        wait_ready(page)
        page.wait_for_timeout(500)
        assert "yellow:1" in page.evaluate(IN_SIGHT)
        assert page.evaluate(OFFSETS)[0] == 0 and page.evaluate("window.__scrolls") == []
        before = int(page.get_attribute("[data-version]", "data-version"))
        page.locator('[data-action="yellow:5"]').tap()
        page.wait_for_function(f"() => document.querySelector('[data-version]').dataset.version !== '{before}'")
        page.wait_for_function("() => /Road Reward/.test(document.querySelector('#status').textContent)")
        page.wait_for_function(f"() => ({IN_SIGHT})().length > 0", timeout=5_000)
        _settled(page)
        assert all(a.startswith("green:") or ":R" in a or "@" in a for a in page.evaluate(IN_SIGHT))
        assert page.evaluate(OFFSETS)[0] > 300
    finally:
        ctx.close()


def test_a_decision_does_not_pull_a_reader_away_from_the_rules(browser, server):
    """Two humans at Corsairs of Valeria: Player 2's phone is scrolled down to the rules (the side
    tabs under the board: log, rules, chat) while Player 1 plays; when the decision comes to Player 2
    (its dice out of sight), the page stays where it is."""
    ctx, page, made = _open(browser, server, "corsairs-of-valeria", [HUMAN, HUMAN], seed=5, size=PHONE, seat=1)
    try:
        page.wait_for_selector("#log li")
        page.wait_for_function("() => document.body.dataset.styling === undefined")
        page.tap("#tab-rules")
        page.wait_for_selector("#rules-now .rule")
        page.evaluate("() => { const m = document.querySelector('.table-main'); m.scrollTop = m.scrollHeight; }")
        page.wait_for_timeout(1_500)
        assert page.evaluate(OFFSETS)[0] > 200 and page.evaluate(SIDE_TOP) < 0.5
        tid, token = made["table_id"], made["seats"][0]["token"]
        api_until_to_move(server, tid, token, 1)
        wait_ready(page)
        page.wait_for_timeout(800)
        assert page.evaluate(IN_SIGHT) == []  # the decision's dice are out of sight: kept so
        # still reading: the side tabs fill the column (the rules shrink to the decision's own sections)
        assert page.evaluate(SIDE_TOP) < 0.5
        assert page.evaluate("window.__scrolls") == []
    finally:
        ctx.close()


@pytest.mark.parametrize("game", ["corsairs-of-valeria", "valeria-card-kingdoms"])
def test_a_laptop_with_the_controls_in_sight_is_not_scrolled(browser, server, game):
    """At 1366x768 the first decision's controls are in sight already: nothing is scrolled."""
    ctx, page, _ = _open(browser, server, game, [HUMAN, BOT], seed=5, size=DESKTOP)
    try:
        wait_ready(page)
        page.wait_for_timeout(600)
        assert page.evaluate(IN_SIGHT)
        assert page.evaluate(OFFSETS)[:2] == [0, 0]
        assert page.evaluate("window.__scrolls") == []
    finally:
        ctx.close()


# ---------------------------------------------------------------- 2. sheets that scroll sideways

def _strip(page, panel, side: str, bare: bool) -> bytes:
    """A screenshot of the panel's 14 px strip on ``side`` (left/right) in sight; ``bare``: without its mask.
    The left strip starts after a column that stays put while the rest scrolls (the final sheet's player
    column, whose width is the box's ``--cue-skip``): the left fade begins there."""
    skip = panel.evaluate("p => parseFloat(getComputedStyle(p).getPropertyValue('--cue-skip')) || 0")
    if bare:
        panel.evaluate("p => { p.style.setProperty('mask-image', 'none', 'important'); p.style.setProperty('-webkit-mask-image', 'none', 'important'); }")
    box = panel.bounding_box()
    main = page.locator(".table-main").bounding_box()
    top = max(box["y"], main["y"]) + 4
    height = min(box["y"] + box["height"], main["y"] + main["height"]) - top - 4
    x = box["x"] + skip if side == "left" else box["x"] + box["width"] - 14
    shot = page.screenshot(clip={"x": x, "y": top, "width": 14, "height": height})
    if bare:
        panel.evaluate("p => { p.style.removeProperty('mask-image'); p.style.removeProperty('-webkit-mask-image'); }")
    return shot


def _faded(page, box, side: str) -> bool:
    """Whether ``box``'s strip on ``side`` differs from the same strip drawn without its mask (a cue shows)."""
    return _strip(page, box, side, False) != _strip(page, box, side, True)


def _assert_cue_follows_the_scroll(page, box) -> None:
    """At the start only the right edge of ``box`` fades, at the end only the left one."""
    assert _faded(page, box, "right"), "no cue on the right"
    assert not _faded(page, box, "left"), "a cue on the left at the start"
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    page.wait_for_timeout(300)
    assert _faded(page, box, "left"), "no cue on the left at the end"
    assert not _faded(page, box, "right"), "a cue on the right at the end"


def test_dice_kingdoms_sheets_show_that_they_scroll_sideways(browser, server):
    """On a phone the sheet panel (Castle and Forest sheets, 780 px wide) scrolls sideways inside the
    board: the edge with more content beyond it fades (its pixels differ from the panel drawn without
    the cue), the other edge does not; the cue follows the scroll."""
    ctx, page, _ = _open(browser, server, "dice-kingdoms-of-valeria", [HUMAN, BOT], seed=2, size=PHONE)
    try:
        wait_ready(page)
        panel = page.locator("#board .dkv-panel:visible").first
        sizes = panel.evaluate("p => [p.scrollWidth, p.clientWidth]")
        assert sizes[0] > sizes[1] + 200, sizes
        page.wait_for_timeout(300)
        _assert_cue_follows_the_scroll(page, panel)
        panel.evaluate("p => { p.scrollLeft = (p.scrollWidth - p.clientWidth) / 2; }")
        page.wait_for_timeout(300)
        assert _faded(page, panel, "left") and _faded(page, panel, "right"), "both edges fade mid-way"
    finally:
        ctx.close()


def _finished(server, game: str, seed: int) -> str:
    """A table of two greedy bots played to its end; its id."""
    tid = server.create(game, [BOT, BOT], seed=seed)["table_id"]
    deadline = time.time() + 60
    while not server.call("GET", f"/api/tables/{tid}")[1]["over"]:
        assert time.time() < deadline, "the bots did not finish"
        time.sleep(0.3)
    return tid


def test_dice_kingdoms_final_score_sheet_shows_that_it_scrolls_sideways(browser, server):
    """The final score sheet of Dice Kingdoms (six columns and the result) is wider than a phone: its
    box fades at the edge with more beyond it, as the live sheets do (the page's .scroll-cue), and
    follows the scroll (the left fade starts after the player column, which stays put); at 1366x768 it
    fits and nothing fades."""
    tid = _finished(server, "dice-kingdoms-of-valeria", seed=4)
    for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        ctx = browser.new_context(**size)
        try:
            page = ctx.new_page()
            page.goto(f"{server.url}/tables/{tid}?pace=0")
            page.wait_for_selector("#final-sheet[data-ready]")
            wrap = page.locator("#final .sheet-wrap")
            sizes = wrap.evaluate("w => [w.scrollWidth, w.clientWidth]")
            page.wait_for_timeout(300)
            if name == "desktop":
                assert sizes[0] == sizes[1], sizes
                assert not _faded(page, wrap, "right") and not _faded(page, wrap, "left"), "a cue with nothing beyond"
                continue
            assert sizes[0] > sizes[1] + 20, sizes
            _assert_cue_follows_the_scroll(page, wrap)
        finally:
            ctx.close()


def test_dice_kingdoms_sheets_do_not_fade_on_a_laptop(browser, server):
    """At 1366x768 the Castle and Forest sheets stand side by side and do not scroll: no mask on them."""
    ctx, page, _ = _open(browser, server, "dice-kingdoms-of-valeria", [HUMAN, BOT], seed=2, size=DESKTOP)
    try:
        wait_ready(page)
        panel = page.locator("#board .dkv-panel:visible").first
        assert panel.evaluate("p => [p.scrollWidth <= p.clientWidth, getComputedStyle(p).maskImage]") == [True, "none"]
    finally:
        ctx.close()


# ---------------------------------------------------------------- 3. the +n badge below the top line

#: JS (argument: a data-key): play a +2 count effect on that element with the page's animate.js and
#: return the badge's boxes [top, bottom, left, right] along its animation (none when no badge is shown).
BADGE_BOXES = """async (key) => {
  const fx = await import('/static/web/animate.js');
  for (const b of document.querySelectorAll('.fx-badge')) b.remove();
  fx.play([{type: 'count', key, delta: 2}], new Map(), {ms: 400, motion: true});
  const b = document.querySelector('.fx-badge');
  if (!b) return [];
  const a = b.getAnimations()[0];
  a.pause();
  const out = [];
  for (const f of [0, 0.25, 0.5, 0.75, 0.99]) {
    a.currentTime = f * a.effect.getTiming().duration;
    const r = b.getBoundingClientRect();
    out.push([r.top, r.bottom, r.left, r.right]);
  }
  a.cancel();
  return out;
}"""


def test_the_score_badge_stays_below_the_top_line(browser, server):
    """A +2 badge for a counter scrolled up under the phone's top line is not drawn over the top
    line (at no point of its float); one for a counter in sight floats over the counter, inside the
    board's column."""
    ctx, page, _ = _open(browser, server, "corsairs-of-valeria", [HUMAN, BOT], seed=5, size=PHONE,
                         motion="no-preference")
    try:
        wait_ready(page)
        page.wait_for_timeout(300)
        key = page.evaluate("() => document.querySelector('#board [data-key]').dataset.key")
        main = page.locator(".table-main").bounding_box()
        line = page.locator(".statusbar .topline").bounding_box()
        assert line["y"] + line["height"] <= main["y"] + 0.5
        # the counter scrolled 40 px above the column's top: out of sight, under the top line
        page.evaluate("""(key) => { const m = document.querySelector('.table-main');
          const e = document.querySelector(`[data-key="${key}"]`);
          m.scrollTop += e.getBoundingClientRect().bottom - m.getBoundingClientRect().top + 40; }""", key)
        page.wait_for_timeout(100)
        for top, bottom, left, right in page.evaluate(BADGE_BOXES, key):
            assert top >= main["y"], f"the badge reaches {top:.0f} px, over the top line (ends at {main['y']:.0f})"
        # the counter in sight, in the middle of the column: its badge is shown there
        page.evaluate("""(key) => { const m = document.querySelector('.table-main');
          const e = document.querySelector(`[data-key="${key}"]`);
          m.scrollTop += e.getBoundingClientRect().top - m.getBoundingClientRect().top - 300; }""", key)
        page.wait_for_timeout(100)
        e = page.locator(f'[data-key="{key}"]').first.bounding_box()
        boxes = page.evaluate(BADGE_BOXES, key)
        assert boxes, "no badge for a counter in sight"
        for top, bottom, left, right in boxes:
            assert main["y"] <= top and bottom <= main["y"] + main["height"]
            assert e["y"] - 40 <= top <= e["y"] + e["height"]
            assert 0 <= left and right <= 390
    finally:
        ctx.close()


# ---------------------------------------------------------------- 4. the key to the symbols and every summary

@pytest.mark.parametrize("game", ["dice-kingdoms-of-valeria", "kingdom-of-dice"])
def test_the_key_to_the_symbols_is_a_44px_touch_target(browser, server, game):
    """Its summary is at least 44x44 px on a touch phone; on a laptop it stays one compact line."""
    made = server.create(game, [HUMAN, BOT], seed=3)
    url = f"{server.url}/tables/{made['table_id']}?token={made['seats'][0]['token']}&pace=0"
    heights = {}
    for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        ctx = browser.new_context(**size)
        try:
            page = ctx.new_page()
            page.goto(url)
            wait_ready(page)
            box = page.locator("#board .board-legend summary").bounding_box()
            assert box and box["width"] >= 44, box
            heights[name] = box["height"]
            # the arrow (the summary's list-item marker) is kept
            assert page.evaluate("() => getComputedStyle(document.querySelector('#board .board-legend summary')).display") == "list-item"
        finally:
            ctx.close()
    assert heights["phone"] >= 44, heights
    assert heights["desktop"] <= 24, heights


#: JS: every summary in sight on the page: [its text, its height, its display].
SUMMARIES = """() => [...document.querySelectorAll('summary')].filter(s => s.getClientRects().length)
  .map(s => [s.textContent.trim(), s.getBoundingClientRect().height, getComputedStyle(s).display])"""


def test_every_disclosure_summary_is_a_44px_touch_target(browser, server):
    """How to play, the rules sections (a spectator has nothing to decide: every section folded),
    Component reference and the Key to the symbols on the table page, the bot levels in the lobby and
    the account page's note: each summary at least 44 px tall on a touch phone, still a list item (its
    arrow kept); on a laptop each stays one compact line."""
    made = server.create("kingdom-of-dice", [HUMAN, BOT], seed=3)
    seen = {}
    for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        ctx = browser.new_context(**size)
        try:
            page = ctx.new_page()
            page.goto(f"{server.url}/tables/{made['table_id']}?pace=0")
            page.wait_for_selector("#log li")
            page.locator("#tab-rules").tap() if name == "phone" else page.click("#tab-rules")
            page.wait_for_selector("#rules-now details.rule summary")
            rows = page.evaluate(SUMMARIES)
            page.goto(f"{server.url}/")
            page.wait_for_selector("#bot-levels summary")
            rows += page.evaluate(SUMMARIES)
            page.goto(f"{server.url}/account")
            page.wait_for_selector("details.account-intro summary")
            rows += page.evaluate(SUMMARIES)
            seen[name] = rows
        finally:
            ctx.close()
    names = [r[0] for r in seen["phone"]]
    for must in ("How to play", "Component reference", "Key to the symbols", "Goal of the Game",
                 "What the bot levels do", "What this server keeps about you"):
        assert must in names, names
    assert len(names) >= 9 and names == [r[0] for r in seen["desktop"]]
    assert all(h >= 44 and d == "list-item" for _, h, d in seen["phone"]), seen["phone"]
    assert all(h <= 24 and d == "list-item" for _, h, d in seen["desktop"]), seen["desktop"]


def test_the_lobbys_how_to_play_link_is_a_44px_touch_target(browser, server):
    """The lobby's "How to play <game>" link stands alone on its line as a control: at least 44 px tall
    on a touch phone, as every summary is (the same rule), its words still spaced; on a laptop it stays
    one compact line."""
    heights, texts = {}, {}
    for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        ctx = browser.new_context(**size)
        try:
            page = ctx.new_page()
            page.goto(f"{server.url}/")
            link = page.locator(".howto-link a")
            page.wait_for_function("() => document.querySelector('#howto-game-link').textContent !== ''")
            heights[name] = link.bounding_box()["height"]
            texts[name] = link.inner_text()
        finally:
            ctx.close()
    assert heights["phone"] >= 44, heights
    assert heights["desktop"] <= 24, heights
    assert texts == {"phone": "How to play Biblios Dice", "desktop": "How to play Biblios Dice"}


# ---------------------------------------------------------------- 5. every control of the pages' own

#: JS: the page's own controls in sight (outside the board; the skip link shows on focus only) as
#: [name, width, height, tall_only]: a checkbox or radio by its label's box (the label is what a
#: finger taps), a text field or the replay's slider by its height alone (as wide as the line is);
#: whether the page scrolls sideways; and, apart (``inline``: their names), the links inside a sentence
#: (a paragraph with words besides the link's), which WCAG 2.5.5 leaves at the size of their text.
PAGE_CONTROLS = """() => {
  const rows = [], inline = [];
  for (const e of document.querySelectorAll('button, a[href], select, summary, input')) {
    const r0 = e.getBoundingClientRect();
    if (!r0.width || !r0.height || e.closest('#board') || e.matches('.skip-link')
        || getComputedStyle(e).visibility === 'hidden') continue;
    const check = e.matches('input[type=checkbox], input[type=radio]');
    const box = check ? (e.closest('label') || document.querySelector(`label[for="${e.id}"]`) || e) : e;
    const r = box.getBoundingClientRect();
    const words = (n) => (n.textContent || '').trim().replace(/\\s+/g, ' ');
    const text = (words(e) || e.getAttribute('aria-label') || '').trim().slice(0, 24);
    const name = `${e.tagName.toLowerCase()}${e.type && e.tagName !== 'BUTTON' && e.tagName !== 'SELECT' ? `[${e.type}]` : ''}`
      + (e.id ? `#${e.id}` : ` "${text}"`) + (check ? ' (its label)' : '');
    const p = e.tagName === 'A' && e.closest('p');
    if (p && words(p) !== words(e)) { inline.push(name); continue; }
    rows.push([name, Math.round(r.width * 10) / 10, Math.round(r.height * 10) / 10, e.matches('input') && !check]);
  }
  return {wide: document.documentElement.scrollWidth > innerWidth, rows, inline};
}"""

#: The first letters of the account whose rated tables put it on a leaderboard (see ``rated_player``).
RATED = "rated"

#: Controls the walk through the pages must have met (the check measures what it is meant to).
MUST_MEET = ("a#account-link", "a#sign-up-link", "button#sign-out", "button#create", "input[checkbox]#listed (its label)",
             "input[text]#seed",
             "summary", "select#game", "button#watch-copy", "input[text]#watch-link", "a#open-table",
             'a "invite link"', 'button "let a bot play for me"', "button#tab-rules", "input[text]#chat-text",
             "button#chat-send", "a#replay-link", "button#final-close", "button#step-fwd", "select#speed",
             "a#step-link", "input[range]#step-range", "input[password]#sign-in-password", "button#new-token",
             "input[email]#notice-email", "input[checkbox]#notice-on (its label)", 'a "dicetable"',
             # the leaderboard and a player's page: the leaderboards bar, a player's name and a replay in a table
             'a "Corsairs of Valeria"', f'a "{RATED}', 'a "replay"',
             # the 404 pages: no such table (its status line's link), no such player (a link on its own line)
             'a "Go to the lobby"', 'a "Back to the lobby"')
#: The links inside a sentence the walk meets (measured apart: WCAG's inline exception), each on purpose:
#: a player's rating line ("6 rated games, 2 won · mu 25.3, sigma 6.8 · leaderboard").
INLINE = {'a "leaderboard"'}


def _walk_the_pages(page, server, solo: str, rated: str, phone: bool) -> tuple[dict[str, list], set[str]]:
    """Every page and its states a player meets, measured (PAGE_CONTROLS) at each: the lobby, with a
    table just created (an invite to copy), that table (its players, its rules), a finished table's final
    scores, its replay, the account page signed out and signed in, a game's leaderboard, the profile
    of ``rated``, a player on it, and the 404 pages of a table and of a player that do not exist. ``({where: rows}, the names of the links met inside a sentence)``."""
    tap = page.tap if phone else page.click
    seen: dict[str, list] = {}
    inline: set[str] = set()

    def measure(where: str) -> None:
        got = page.evaluate(PAGE_CONTROLS)
        assert not got["wide"], f"{where}: the page scrolls sideways"
        seen[where] = got["rows"]
        inline.update(got["inline"])

    page.goto(f"{server.url}/")
    page.wait_for_selector("#open-tables [data-table-row]", state="attached")
    page.wait_for_function("() => document.querySelector('#howto-game-link').textContent !== ''")
    measure("lobby")
    page.select_option("#seat-1", "human:away")
    tap("#create")
    page.wait_for_selector("#created:not([hidden]) .invite .copy")
    measure("lobby, a table created")
    tap("#open-table")
    wait_ready(page)
    measure("table")
    if phone:
        tap("#tab-players")
    page.wait_for_selector("#players .seat-btn")
    measure("table, players")
    tap("#tab-rules")
    page.wait_for_selector("#rules-pane #howto summary")
    measure("table, rules")
    page.goto(f"{server.url}/tables/{solo}?pace=0")
    page.wait_for_selector("#final:not([hidden])")
    measure("final scores")
    page.goto(f"{server.url}/tables/{solo}/replay?step=5")
    page.wait_for_function("() => document.querySelector('#step').dataset.version === '5'")
    measure("replay")
    page.goto(f"{server.url}/account")
    page.wait_for_selector("#sign-in-form")
    measure("account, signed out")
    page.fill("#sign-up-name", f"touch{time.time_ns() % 10**9}")
    page.fill("#sign-up-password", "a few good words here")
    tap("#create-account")
    page.wait_for_selector("#signed-in:not([hidden])")
    measure("account, signed in")
    page.goto(f"{server.url}/leaderboard/corsairs-of-valeria")
    page.wait_for_selector(f'table.plain a[href="/players/{rated}"]')
    measure("leaderboard")
    page.goto(f"{server.url}/players/{rated}")
    page.wait_for_selector("svg.rating-chart")
    measure("player page")
    page.goto(f"{server.url}/tables/nosuchtable")  # the table page of no table: its status line's way out
    page.wait_for_selector('#status a[href="/"]')
    measure("no such table (404)")
    page.goto(f"{server.url}/players/nosuchplayer")  # the 404 page: a link on a line of its own
    page.wait_for_selector('main a[href="/"]')
    measure("no such player (404)")
    return seen, inline


@pytest.fixture(scope="module")
def finished_solo(server) -> str:
    """A finished solo table (a random bot's game of Kingdom of Dice)."""
    tid = server.create("kingdom-of-dice", [{"kind": "bot", "level": "random"}], seed=6)["table_id"]
    deadline = time.time() + 60
    while not server.call("GET", f"/api/tables/{tid}")[1]["over"]:
        assert time.time() < deadline, "the bot did not finish its solo game"
        time.sleep(0.2)
    return tid


@pytest.fixture(scope="module")
def rated_player(server) -> str:
    """An account with :data:`~dicetable.server.ratings.MIN_GAMES` finished rated tables of Corsairs of
    Valeria against another account, so that it is on that game's leaderboard and its page shows a
    rating, its chart and its recent tables; the rows are written into the server's database, as
    test_player_pages.py does (playing that many rated games would cost a minute). Its name."""
    stamp = time.time_ns() % 10**9
    engine = sqlalchemy.create_engine(server.database)
    try:
        me, other = add_player(engine, f"{RATED}{stamp}"), add_player(engine, f"other{stamp}")
        for n in range(ratings.MIN_GAMES):
            tid = f"rated{stamp}x{n}"
            add_table(engine, tid, "corsairs-of-valeria", [("human", me), ("human", other)])
            finish(engine, tid, "corsairs-of-valeria", [1 + n % 2, 2 - n % 2], [10, 8])
            with engine.begin() as conn:  # over, as a finished table is: no lobby lists it as running
                conn.execute(sqlalchemy.update(TableRow).where(TableRow.id == tid).values(status="over"))
    finally:
        engine.dispose()
    return f"{RATED}{stamp}"


@pytest.mark.parametrize("name", ["phone", "desktop"])
def test_every_control_of_the_pages_is_a_44px_touch_target(browser, server, finished_solo, rated_player, name):
    """On a touch phone every control of the pages' own (outside the board, whose pieces each game's
    board.css sizes) is at least 44x44 px (WCAG 2.5.5 target size): buttons, links, menus, summaries,
    a checkbox by its label; a text field or the slider at least 44 px tall; a link that stands alone
    (in a bar, a table cell, on its line), a link inside a sentence left at its text's size (WCAG's
    inline exception). Walked through the lobby (a table created), the table (players, rules), the
    final scores, the replay, the account page (signed out and in), a leaderboard, a player's page and
    the 404 pages (no such table, no such player), none scrolling sideways. A laptop with a mouse keeps the compact look: no control taller than
    36 px, a summary or a checkbox's label one line (24 px)."""
    ctx = browser.new_context(**(PHONE if name == "phone" else DESKTOP))
    ctx.set_default_timeout(15_000)
    try:
        seen, inline = _walk_the_pages(ctx.new_page(), server, finished_solo, rated_player, phone=name == "phone")
    finally:
        ctx.close()
    met = {row[0] for rows in seen.values() for row in rows}
    missing = [m for m in MUST_MEET if not any(n.startswith(m) for n in met)]
    assert not missing, f"never met: {missing}"
    assert inline == INLINE, f"links inside a sentence: {sorted(inline)}"
    offenders = {}  # a control's name and size: the pages it is met on
    for where, rows in seen.items():
        for what, w, h, tall_only in rows:
            if name == "phone":
                bad = h < 44 or (not tall_only and w < 44)
            else:
                bad = h > (24 if what.startswith("summary") or what.endswith("(its label)") else 36)
            if bad:
                offenders.setdefault(f"{what} {w:g}x{h:g}", []).append(where)
    size = "under 44x44 px on a touch phone" if name == "phone" else "taller than the laptop's compact look"
    assert not offenders, f"{len(offenders)} controls {size}:\n" + "\n".join(
        f"{what} ({'; '.join(wheres)})" for what, wheres in offenders.items())
