"""The live table in a real browser: every version shown in order at the table's pace, and a whole
game of each title played by tapping on a phone-sized screen.

Slow: marked ``slow`` and run once each by ``make test``. The pace is checked over the first turns
of a table of two seats (the page's and a greedy bot); the phone plays a whole game, the shortest
the title offers (the solo mode where there is one, else against a bot). A whole game at the
desktop's size is tests/web/test_browser.py's.
"""

from __future__ import annotations

import random
import time

import pytest

from dicetable.engine.testing import shipped_games

from .helpers import check_final_table, is_over, take_turn, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: ms: the ``pace`` URL parameter of these tables. Short, so a whole game is quick (about a third of the
#: test's time at 150), yet four frames: a page that did not pace would draw a bot's moves back to back.
PACE = 60
#: The pace test plays until the page has drawn this many versions the pace applies to (the bot's
#: moves and dice rolls; see ``_paced``), or to the end of the game.
PACED_VERSIONS = 12

#: Installed before the page's scripts: every value the data-version element shows, with the time
#: (performance.now(), ms) it was drawn, the version on screen at each click on an action, and the
#: versions the page's own actions made (``__made``: each posted version + 1 and the version each
#: accepted post answered with; the page may post a newer version than the one clicked on, when the
#: click drew the versions waiting their turn first, and an action followed by a roll ends later).
RECORD = """(() => {
  window.__shown = []; window.__clicked = []; window.__made = [];
  const fetch0 = window.fetch;
  window.fetch = async (path, init) => {
    const posted = init && init.method === 'POST' && String(path).endsWith('/actions') ? JSON.parse(init.body) : null;
    if (posted) window.__made.push(posted.version + 1);
    const resp = await fetch0(path, init);
    if (posted && resp.ok) resp.clone().json().then((d) => { if (typeof d.version === 'number') window.__made.push(d.version); });
    return resp;
  };
  const watch = () => {
    const v = document.querySelector('[data-version]');
    if (!v) { requestAnimationFrame(watch); return; }
    new MutationObserver(() => window.__shown.push([Number(v.dataset.version), performance.now()]))
      .observe(v, {attributes: true, attributeFilter: ['data-version']});
  };
  document.addEventListener('DOMContentLoaded', watch);
  document.addEventListener('click', (e) => {
    const v = document.querySelector('[data-version]');
    if (e.target.closest('[data-action]') && v) window.__clicked.push(Number(v.dataset.version));
  }, true);
})()"""

#: JS: what a phone screen gets wrong now, as [where ("board" or "page"), problem] pairs: a page
#: wider than the screen, an action outside the screen's width or smaller than 32 px either way,
#: visible text under 12 px.
PHONE_PROBLEMS = """() => {
  const out = [];
  const where = (e) => (e.closest('#board') ? 'board' : 'page');
  const seen = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0
    && getComputedStyle(e).visibility !== 'hidden' && !e.closest('[hidden]'); };
  const name = (e) => (e.dataset.action || e.id || e.className || e.tagName).toString().slice(0, 40);
  if (document.documentElement.scrollWidth > innerWidth)
    out.push(['page', `page ${document.documentElement.scrollWidth}px wide on a ${innerWidth}px screen`]);
  const scroller = (e) => { for (let a = e.parentElement; a && a.id !== 'board'; a = a.parentElement) {
    const o = getComputedStyle(a).overflowX; if ((o === 'auto' || o === 'scroll') && a.scrollWidth > a.clientWidth) return a; }
    return null; };
  for (const e of document.querySelectorAll('[data-action]')) {
    if (!seen(e)) continue;
    // inside a board area that scrolls sideways (a wide sheet drawn large): reachable by scrolling it there
    if (scroller(e)) e.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const r = e.getBoundingClientRect();
    if (r.left < -0.5 || r.right > innerWidth + 0.5) out.push([where(e), `action ${name(e)} outside the width (${Math.round(r.left)}..${Math.round(r.right)})`]);
    if (r.width < 31.5 || r.height < 31.5) out.push([where(e), `action ${name(e)} ${Math.round(r.width)}x${Math.round(r.height)} px`]);
  }
  for (const e of document.querySelectorAll('body *')) {
    if (!seen(e) || e.closest('svg') && e.tagName !== 'text' && e.tagName !== 'tspan') continue;
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    let size = parseFloat(getComputedStyle(e).fontSize);
    if (e.closest('svg')) size = e.getBoundingClientRect().height;  // SVG text: its drawn height
    const zoom = parseFloat(getComputedStyle(document.querySelector('#board') || document.body).zoom) || 1;
    if (e.closest('#board')) size *= e.closest('svg') ? 1 : zoom;
    if (size < 11.5) out.push([where(e), `text "${e.textContent.trim().slice(0, 24)}" at ${size.toFixed(1)} px`]);
  }
  return out;
}"""


#: JS: true when no piece tooltip is shown.
TIP_HIDDEN = "() => { const t = document.querySelector('#piece-tip'); return !t || t.hidden; }"


class BoardNotPhoneReady(AssertionError):
    """A board (the game's own markup and board.css, not the page) fails a phone check."""


def _summary(problems: set[str]) -> str:
    """Problems grouped by kind: how many, and a few examples of each."""
    kinds = {"outside the width": [], " px": [], "text": []}
    for p in sorted(problems):
        kind = "text" if p.startswith("text") else "outside the width" if "outside the width" in p else " px"
        kinds[kind].append(p)
    names = {"outside the width": "actions outside the width", " px": "actions under 32 px", "text": "texts under 12 px"}
    return "; ".join(f"{len(v)} {names[k]} (e.g. {', '.join(v[:3])})" for k, v in kinds.items() if v)


def _table(server, game: str, players: int, seed: int) -> tuple[str, str]:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "greedy"}] * (players - 1)
    made = server.create(game, seats, seed=seed)
    return made["table_id"], made["seats"][0]["token"]


TWO_SEATS = [(spec.id, max(2, spec.min_players)) for spec in shipped_games()]


def _paced(page, upto: int | None = None) -> tuple[list[int], list[tuple[int, float]]]:
    """What the page drew so far (up to version ``upto``): the versions in the order drawn, one per
    run of equal values, and (version, ms on screen) of each the pace applies to: not the last drawn,
    not the viewer's own nor followed by its own (made by its action: drawn at once), not clicked on
    (a click draws what waits its turn at once)."""
    shown = [(v, t) for v, t in page.evaluate("window.__shown") if upto is None or v <= upto]
    clicked = set(page.evaluate("window.__clicked"))
    own = set(page.evaluate("window.__made")) | {v + 1 for v in clicked}
    runs: list[tuple[int, float]] = []  # (version, first drawn) per run of equal values
    for v, t in shown:
        if not runs or runs[-1][0] != v:
            runs.append((int(v), t))
    paced = [(v, t2 - t) for (v, t), (_, t2) in zip(runs, runs[1:])
             if not {v, v + 1} & own and v not in clicked]
    return [v for v, _ in runs], paced


@pytest.mark.parametrize("game,players", TWO_SEATS, ids=[g for g, _ in TWO_SEATS])
def test_every_version_is_shown_at_the_pace(context, server, game, players):
    """Turns against a greedy bot at pace ``PACE`` until ``PACED_VERSIONS`` of its versions were
    drawn: the data-version element shows every version from the first to the server's current one,
    none skipped, none twice apart, and each version stays on screen at least 80% of the pace unless
    it or the next is the viewer's own or the viewer clicked while it was shown (``_paced``)."""
    tid, token = _table(server, game, players, seed=3)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.add_init_script(RECORD)
    page.goto(f"{server.url}/tables/{tid}?token={token}&pace={PACE}")
    rng = random.Random(7)
    while True:
        wait_ready(page, timeout=30_000)
        if is_over(page) or len(_paced(page)[1]) >= PACED_VERSIONS:
            break
        take_turn(page, rng)
    final = server.call("GET", f"/api/tables/{tid}")[1]
    page.wait_for_function(f"() => Number(document.querySelector('[data-version]').dataset.version) === {final['version']}")
    # a bot's move in flight when the version was asked may be drawn since: the check ends at that version
    versions, paced = _paced(page, final["version"])
    assert versions == list(range(versions[0], final["version"] + 1)), f"versions skipped or repeated: {versions}"
    short = [(v, round(ms)) for v, ms in paced if ms < 0.8 * PACE]
    assert short == [], f"versions on screen less than {0.8 * PACE:.0f} ms (version, ms): {short}"
    assert len(paced) >= PACED_VERSIONS or is_over(page), f"{len(paced)} versions were paced: {versions}"
    assert errors == []


PHONE = [(spec.id, spec.min_players) for spec in shipped_games()]


@pytest.mark.parametrize("game,players", PHONE, ids=[g for g, _ in PHONE])
def test_a_whole_game_by_tapping_on_a_phone(browser, server, game, players):
    """At 390x844 with touch: a full game played by tapping data-action elements. Before every tap:
    no horizontal page scroll, every action inside the screen's width and at least 32x32 px, no
    visible text under 12 px (an action in a board area that scrolls sideways is measured once scrolled
    to). The page's own problems fail at once; a board's are reported as BoardNotPhoneReady (the game's
    board.css) after the game has been played to its end. At the end, the final score sheet as at the
    desktop (tests/web/test_browser.py plays every title's two-seat game whole there; the solo modes are
    played whole here only)."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                              device_scale_factor=2)
    ctx.set_default_timeout(15_000)
    try:
        tid, token = _table(server, game, players, seed=5)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{server.url}/tables/{tid}?token={token}&pace=0")
        rng = random.Random(11)
        board_problems: set[str] = set()
        deadline = time.time() + 240
        taps = 0
        while not is_over(page):
            assert time.time() < deadline, f"the game did not end in 240 s ({taps} taps)"
            wait_ready(page, timeout=30_000)
            if is_over(page):
                break
            problems = page.evaluate(PHONE_PROBLEMS)
            assert [p for where, p in problems if where == "page"] == [], f"after {taps} taps"
            # a piece's tooltip is for keyboard focus: the focus the page moves to after a tap shows none
            assert page.evaluate(TIP_HIDDEN), f"a tooltip covers the board after {taps} taps"
            board_problems.update(p for where, p in problems if where == "board")
            if take_turn(page, rng, tap=True):
                taps += 1
        final = server.call("GET", f"/api/tables/{tid}", token=token)[1]
        assert taps > 0 and final["over"]
        check_final_table(page, game, final)
        problems = page.evaluate(PHONE_PROBLEMS)
        assert [p for where, p in problems if where == "page"] == [], "with the final scores up"
        assert errors == []
        if board_problems:
            raise BoardNotPhoneReady(f"{game}'s board on a 390 px phone: {_summary(board_problems)}")
    finally:
        ctx.close()


#: Installed before the page's scripts: counts Web Animations started (window.__animated).
COUNT_ANIMATIONS = """(() => {
  window.__animated = 0;
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) { window.__animated++; return animate.apply(this, args); };
})()"""


def _watch_bots(browser, server, seed: int, **context_args):
    """A spectator's page (pace 700) on a Kingdom of Dice table of two random bots; (context, page, table id)."""
    made = server.create("kingdom-of-dice", [{"kind": "bot", "level": "random"}] * 2, seed=seed)
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, **context_args)
    page = ctx.new_page()
    page.add_init_script(RECORD)
    page.add_init_script(COUNT_ANIMATIONS)
    page.goto(f"{server.url}/tables/{made['table_id']}?pace=700")
    page.wait_for_function("() => window.__shown.length >= 3", timeout=20_000)
    return ctx, page, made["table_id"]


def test_moves_are_animated_and_the_changed_parts_stay_marked(browser, server):
    """Bots' moves at pace 700: the page animates what each did (dice rolled, markers placed) and the
    board parts the last version changed stay outlined while it is on screen."""
    ctx, page, _ = _watch_bots(browser, server, seed=21)
    try:
        page.wait_for_function("() => window.__shown.length >= 6", timeout=20_000)
        assert page.evaluate("window.__animated") > 0
        # the version on screen at one instant may have changed no part (a bot's pass): wait for one that did
        page.wait_for_selector("#board [data-part][data-changed]", state="attached", timeout=20_000)
        assert page.locator("#board [data-part][data-changed]").count() >= 1
    finally:
        ctx.close()


def test_reduced_motion_and_fast_show_moves_without_moving_anything(browser, server):
    """With prefers-reduced-motion nothing is animated, the changes are only marked; "Fast" (kept in
    localStorage across a reload) shows the moves the page is behind on without the pace."""
    ctx, page, tid = _watch_bots(browser, server, seed=22, reduced_motion="reduce")
    try:
        page.wait_for_function("() => window.__shown.length >= 6", timeout=20_000)
        assert page.evaluate("window.__animated") == 0
        assert page.locator("#board [data-part][data-changed], #board [data-hit]").count() >= 1
        before = len(page.evaluate("window.__shown"))
        page.click("#fast-btn")  # the bots are far ahead of the page: the queue empties at once
        assert page.get_attribute("#fast-btn", "aria-pressed") == "true"
        page.wait_for_timeout(2000)
        final = server.call("GET", f"/api/tables/{tid}")[1]["version"]
        caught_up = page.evaluate("Number(document.querySelector('[data-version]').dataset.version)") == final
        assert caught_up or len(page.evaluate("window.__shown")) - before > 2000 / 700 + 5
        page.reload()
        page.wait_for_selector("#fast-btn[aria-pressed='true']")
    finally:
        ctx.close()


#: JS: the page's own controls (outside the board) smaller than 32 px either way (a checkbox by its
#: label, the target a finger taps), and its own visible text under 12 px; a page wider than the screen.
CHROME_PROBLEMS = """() => {
  const out = [];
  if (document.documentElement.scrollWidth > innerWidth) out.push(`page ${document.documentElement.scrollWidth}px wide`);
  const seen = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && !e.closest('[hidden], #board'); };
  for (const e of document.querySelectorAll('button, a[href], select, input')) {
    if (!seen(e) || e.matches('.skip-link') || e.closest('.log, .rule, #rules-now, #component-list')) continue;  // the skip link shows on focus
    const r = (e.matches('input[type=checkbox], input[type=radio]') && e.closest('label') || e).getBoundingClientRect();
    if (r.width < 31.5 || r.height < 31.5) out.push(`${e.tagName} "${(e.textContent || e.id).trim().slice(0, 20)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
    if (r.right > innerWidth + 0.5 || r.left < -0.5) out.push(`${e.tagName} "${(e.textContent || e.id).trim().slice(0, 20)}" outside the width`);
  }
  for (const e of document.querySelectorAll('body *')) {
    if (!seen(e) || e.closest('svg')) continue;
    if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const size = parseFloat(getComputedStyle(e).fontSize);
    if (size < 11.5) out.push(`text "${e.textContent.trim().slice(0, 20)}" at ${size} px`);
  }
  return out;
}"""


@pytest.mark.parametrize("size", ["360x740", "390x844", "844x390"])
def test_lobby_table_and_replay_fit_a_phone(browser, server, size):
    """At each phone size (touch): the lobby, a finished table (final scores closed) and its replay
    have no horizontal page scroll, no control of the page's own under 32 px, no text under 12 px."""
    width, height = (int(x) for x in size.split("x"))
    made = server.create("kingdom-of-dice", [{"kind": "bot", "level": "random"}], seed=6)
    tid = made["table_id"]
    deadline = time.time() + 60
    while not server.call("GET", f"/api/tables/{tid}")[1]["over"]:
        assert time.time() < deadline, "the bot did not finish its solo game"
        time.sleep(0.2)
    ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True)
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/")
        page.wait_for_selector("#open-tables [data-table-row]", state="attached")
        assert page.evaluate(CHROME_PROBLEMS) == [], "lobby"
        page.goto(f"{server.url}/tables/{tid}")
        page.wait_for_selector("#final:not([hidden])")
        page.tap("#final-close")
        assert page.evaluate(CHROME_PROBLEMS) == [], "table"
        page.tap("#tab-players")
        assert page.locator("#players .player").count() == 1
        assert page.evaluate(CHROME_PROBLEMS) == [], "table, players tab"
        page.goto(f"{server.url}/tables/{tid}/replay?step=5")
        page.wait_for_function("() => document.querySelector('#step').dataset.version === '5'")
        assert page.evaluate(CHROME_PROBLEMS) == [], "replay"
    finally:
        ctx.close()
