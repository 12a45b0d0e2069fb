"""The browser table in a real browser: full games by clicking, two players, a spectator, reload,
replay, keyboard only, hot-seat hand-over, hints, undo, clock, play again.

Every move is made by clicking (or keyboard-activating) an element carrying
``data-action``; the page's ``data-version`` must agree with the API.
"""

from __future__ import annotations

import random
import re
import time

import pytest

from dicetable import get_game, new_game
from dicetable.engine import TABLE_SEED_MAX
from dicetable.engine.testing import shipped_games

from .helpers import (
    OVER as OVER_JS, accessible_problems, check_final_table, is_over, open_lobby_table, play_to_end, take_turn,
    version, wait_ready,
)

pytestmark = pytest.mark.browser

#: (game, seats, options): every shipped title against a greedy bot. Every solo mode is played whole on
#: a phone-sized screen, its score sheet checked the same way (tests/web/test_live_table.py).
FULL_GAMES = [(spec.id, ["human"] + ["bot:greedy"] * (max(2, spec.min_players) - 1), {}) for spec in shipped_games()]


def _table_id(page) -> str:
    return re.search(r"/tables/([^/?]+)", page.url).group(1)


def _token(page) -> str | None:
    m = re.search(r"[?&#]token=([^&]+)", page.url)
    return m.group(1) if m else None


def _errors(page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


@pytest.mark.parametrize("game,seats,options", FULL_GAMES,
                         ids=[f"{g}-{len(s)}p" for g, s, _ in FULL_GAMES])
def test_full_game_by_clicking_actions(context, server, game, seats, options):
    """A whole game from the lobby to the final scores, clicking only data-action elements."""
    page = context.new_page()
    errors = _errors(page)
    open_lobby_table(page, server.url, game, seats, options)
    taken = play_to_end(page, random.Random(len(game) * 7 + len(seats)))
    assert taken > 0
    status, view = server.call("GET", f"/api/tables/{_table_id(page)}", token=_token(page))
    assert status == 200 and view["over"] is True
    page.wait_for_function(f"() => document.querySelector('[data-version]').dataset.version === '{view['version']}'")
    assert version(page) == view["version"]
    # The final dialog: the rulebook's score sheet, one row per seat (and solo opponent) whose
    # categories add up to the engine's final score, the winners marked, the outcome, how it ended.
    check_final_table(page, game, view)
    # The final board is not scaled down to fit (it scrolls in its place): readable after the dialog.
    assert page.evaluate("document.querySelector('#board').style.zoom") == ""
    assert errors == []


def test_two_players_in_two_browsers_and_a_spectator(browser, server):
    """Two contexts hold the two seats of one Card Kingdoms table and play it in turn, each seeing the
    other's moves live; a third context watches. After ten moves each both seats are handed to their
    bots (the API's hand-over), and all three pages follow the game to its end."""
    made = server.create("valeria-card-kingdoms", [{"kind": "human"}, {"kind": "human"}], seed=11)
    tid = made["table_id"]
    tokens = [made["seats"][seat]["token"] for seat in (0, 1)]
    contexts = [browser.new_context(viewport={"width": 1366, "height": 768}) for _ in range(3)]
    try:
        pages = [c.new_page() for c in contexts]
        errors = [_errors(p) for p in pages]
        for seat in (0, 1):
            pages[seat].goto(f"{server.url}/tables/{tid}?token={tokens[seat]}&pace=0")
        watcher = pages[2]
        watcher.goto(f"{server.url}/tables/{tid}?pace=0")
        for p in pages:
            p.wait_for_selector("[data-version]")
        assert pages[0].locator(".player.me .pname").inner_text() == "Player 1 (you)"
        assert pages[1].locator(".player.me .pname").inner_text() == "Player 2 (you)"
        assert "watching" in watcher.locator(".spectator").inner_text()
        # A spectator has nothing to decide: the Rules tab offers the rules summary of this table instead,
        # without the sections of other player counts and options (Card Kingdoms: Solo, 5 players, Mixed).
        watcher.click("#tab-rules")
        watcher.wait_for_selector("#rules-now details.rule summary")
        titles = watcher.locator("#rules-now details.rule summary").all_inner_texts()
        spec = get_game("valeria-card-kingdoms")
        applies = spec.help.for_table(2, spec.resolve_options(2, None)).section
        assert titles == [s.title for s in applies] and len(applies) < len(spec.help.section)
        assert "Solo variant" not in titles and "5-player variant" not in titles
        rng = random.Random(5)
        deadline = time.time() + 90
        moves = {0: 0, 1: 0}
        while min(moves.values()) < 10 and not is_over(pages[0]):
            assert time.time() < deadline, f"two-player moves too slow ({moves})"
            for seat in (0, 1):
                p = pages[seat]
                if p.locator("#board [data-action], #actionbar [data-action]").count():
                    v = version(p)
                    if take_turn(p, rng) and version(p) > v:
                        moves[seat] += 1
                        # The other seat and the spectator see the move without reloading.
                        for other in (pages[1 - seat], watcher):
                            other.wait_for_function(
                                f"() => Number(document.querySelector('[data-version]').dataset.version) >= {version(p)}")
            assert watcher.locator("[data-action]").count() == 0  # a spectator never has an action
        for seat in (0, 1):
            status, _ = server.call("POST", f"/api/tables/{tid}/seats/{seat}/bot", {"level": "greedy"},
                                    token=tokens[seat])
            assert status == 200
        for p in pages:
            p.wait_for_function(OVER_JS, timeout=60_000)
        status, view = server.call("GET", f"/api/tables/{tid}")
        assert view["over"] is True
        for p in pages:
            p.wait_for_function(
                f"() => document.querySelector('[data-version]').dataset.version === '{view['version']}'")
        assert all(e == [] for e in errors)
    finally:
        for c in contexts:
            c.close()


def test_reload_rejoins_the_seat_and_the_clock_runs(context, server):
    """A reload mid-game shows the same seat, version and decision; a table with a clock shows it."""
    made = server.create("kingdom-of-dice", [{"kind": "bot", "level": "greedy"}, {"kind": "human"}], seed=3)
    tid, token = made["table_id"], made["seats"][1]["token"]
    page = context.new_page()
    page.goto(f"{server.url}/tables/{tid}?token={token}&pace=0")
    rng = random.Random(2)
    for _ in range(4):
        wait_ready(page)
        take_turn(page, rng)
    wait_ready(page)
    deadline = time.time() + 20  # let a click still in flight on a busy machine land first
    while True:
        status, view = server.call("GET", f"/api/tables/{tid}", token=token)
        if page.evaluate("document.body.dataset.busy === undefined") and version(page) == view["version"]:
            break
        assert time.time() < deadline, "the page never caught up with the table"
        time.sleep(0.1)
    before = view["version"]
    ids = sorted(a["id"] for a in view["legal_actions"])
    page.reload()
    page.wait_for_function(f"() => document.querySelector('[data-version]').dataset.version === '{before}'")
    assert page.locator(".player.me .pname").inner_text().startswith("Player 2")
    # one action may sit on several pieces (Kingdom of Dice puts keep:<face> on every die showing it)
    shown = sorted(set(page.locator("#board [data-action], #actionbar [data-action]").evaluate_all(
        "els => els.map(e => e.dataset.action)")))
    assert shown == ids and ids
    assert accessible_problems(page) == []
    # An action the engine refuses (422) shows its message and changes nothing.
    # Added and clicked in one step: a push that redraws the action bar in between (a slow
    # machine) would otherwise detach the button before the click lands.
    page.evaluate("""() => { const b = document.createElement('button'); b.dataset.action = 'fly-away';
        b.textContent = 'Fly away'; b.id = 'bogus'; document.querySelector('#actionbar').append(b);
        b.click(); }""")
    page.wait_for_selector("#error:not([hidden])")
    assert "fly-away" in page.locator("#error").inner_text()
    assert server.call("GET", f"/api/tables/{tid}", token=token)[1]["version"] == before == version(page)

    clocked = server.call("POST", "/api/tables", {"game": "kingdom-of-dice", "players": 1, "options": {},
                                                   "seats": [{"kind": "human"}], "clock": 60})[1]
    page.goto(f"{server.url}/tables/{clocked['table_id']}?token={clocked['seats'][0]['token']}")
    page.wait_for_selector("#clock:not([hidden])")
    assert re.search(r"[01]:\d\d", page.locator("#clock").inner_text())


def test_replay_viewer_steps_through_a_finished_game(context, server):
    """A finished table's replay: forward and back through every action, the board as it was."""
    made = server.create("dice-kingdoms-of-valeria", [{"kind": "bot", "level": "greedy"}], seed=4)
    tid = made["table_id"]
    deadline = time.time() + 60
    while True:
        status, view = server.call("GET", f"/api/tables/{tid}")
        if view["over"]:
            break
        assert time.time() < deadline
        time.sleep(0.2)
    record = server.call("GET", f"/api/tables/{tid}/record")[1]
    total = len(record["actions"])
    page = context.new_page()
    errors = _errors(page)
    page.goto(f"{server.url}/tables/{tid}/replay")
    page.wait_for_function("() => Number(document.querySelector('#total').textContent) > 0")
    assert int(page.locator("#total").inner_text()) == total == view["version"]
    assert version(page) == 0
    assert "as set up" in page.locator("#last-move").inner_text()
    # The decision is put to the reader as the question Player 1 was asked, never as "You ..." to them.
    asked = page.locator("#status").inner_text()
    assert asked.startswith("Player 1 is asked: “") and asked.endswith("”"), asked
    start_board = page.locator("#board").inner_html()
    log0 = page.locator("#log li").count()
    page.click("#step-fwd")
    page.wait_for_function("() => document.querySelector('#step').dataset.version === '1'")
    assert page.locator("#last-move").inner_text().startswith("Step 1: Player 1")
    assert page.locator("#log li").count() > log0
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('#step').dataset.version === '2'")
    page.click("#step-back")
    page.wait_for_function("() => document.querySelector('#step').dataset.version === '1'")
    page.click("#step-first")
    page.wait_for_function("() => document.querySelector('#step').dataset.version === '0'")
    assert page.locator("#board").inner_html() == start_board
    page.click("#step-last")
    page.wait_for_function(f"() => document.querySelector('#step').dataset.version === '{total}'")
    status_text = page.locator("#status").inner_text()
    assert status_text.startswith("Game over") and str(view["scores"][0]) in status_text
    # A running table's replay is refused with the reason.
    running = server.create("kingdom-of-dice", [{"kind": "human"}])
    page.goto(f"{server.url}/tables/{running['table_id']}/replay")
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('still running')")
    # The live seat keeps the game's words to it: "Player 1 (you): You rolled ...".
    page.goto(f"{server.url}/tables/{running['table_id']}?token={running['seats'][0]['token']}")
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('You rolled')")
    assert page.locator("#status").inner_text().startswith("Player 1 (you): You rolled ")
    assert errors == []


def _finished_bot_table(server, game: str, seats: int, seed: int) -> tuple[str, dict, dict]:
    """A table of greedy bots played to its end: (table id, its final view, its record)."""
    made = server.create(game, [{"kind": "bot", "level": "greedy"}] * seats, seed=seed)
    tid = made["table_id"]
    deadline = time.time() + 60
    while not (view := server.call("GET", f"/api/tables/{tid}")[1])["over"]:
        assert time.time() < deadline
        time.sleep(0.2)
    return tid, view, server.call("GET", f"/api/tables/{tid}/record")[1]


def test_a_step_link_opens_that_step_and_auto_play_reaches_the_end(context, server):
    """#step=N opens step N: the board the engine draws after N actions; the step line stays in sight
    at a phone's size; auto-play from near the end steps on to the end and stops; the jump list's
    round start opens that round."""
    from dicetable.web.render import board_or_none

    tid, view, record = _finished_bot_table(server, "kingdom-of-dice", 2, seed=6)
    total = len(record["actions"])
    n = total // 2
    state = new_game("kingdom-of-dice", 2, seed=record["seed"], options=record.get("options") or {})
    for seat, action in record["actions"][:n]:
        state.apply(action, seat)
    page = context.new_page()
    errors = _errors(page)
    page.goto(f"{server.url}/tables/{tid}/replay#step={n}")
    page.wait_for_function(f"() => document.querySelector('#step').dataset.version === '{n}'")
    expected = page.evaluate("(html) => { const d = document.createElement('div'); d.innerHTML = html; "
                             "return d.innerHTML; }", board_or_none("kingdom-of-dice", state.observation(None)))
    assert page.locator("#board").inner_html() == expected
    assert page.locator("#step-link").get_attribute("href") == f"#step={n}"
    assert page.url.endswith(f"#step={n}")
    # Jump to the start of round 3: the first position of its group in the list.
    page.wait_for_function("() => document.querySelectorAll('#jump option').length > 3")
    value = page.locator('#jump optgroup[label="Round 3"] option').first.get_attribute("value")
    page.select_option("#jump", value=value)
    page.wait_for_function(f"() => document.querySelector('#step').dataset.version === '{value}'")
    assert "Round 3" in page.locator("#jump option:checked").inner_text()
    # Auto-play from 12 steps before the end, at the fastest speed, reaches the end and stops.
    page.evaluate(f"location.hash = '#step={total - 12}'")
    page.wait_for_function(f"() => document.querySelector('#step').dataset.version === '{total - 12}'")
    page.select_option("#speed", value="60")
    page.click("#play")
    assert page.locator("#play").get_attribute("aria-pressed") == "true"
    page.wait_for_function(f"() => document.querySelector('#step').dataset.version === '{total}'", timeout=20_000)
    page.wait_for_function("() => document.querySelector('#play').getAttribute('aria-pressed') === 'false'")
    assert page.locator("#status").inner_text().startswith("Game over")
    # At a phone's size, with the log and the page scrolled to their ends, the step line is in sight.
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("document.querySelectorAll('.pane, .table-main').forEach((e) => { e.scrollTop = e.scrollHeight; }); "
                  "window.scrollTo(0, document.body.scrollHeight)")
    box = page.locator("#step").bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 844
    assert errors == []


#: JS: the jump list's positions as [step, text, the label of its group or null].
JUMPS = """() => [...document.querySelectorAll('#jump option')].filter(o => o.value !== '')
  .map(o => [Number(o.value), o.textContent, o.parentElement.tagName === 'OPTGROUP' ? o.parentElement.label : null])"""


@pytest.mark.parametrize("game, rounds", [("dice-kingdoms-of-valeria", True), ("valeria-card-kingdoms", False)])
def test_the_jump_list_names_each_position_as_the_counter_does(context, server, game, rounds):
    """Each position of the replay's jump list is named by the words the page's counter shows once
    there (the table page's top line: Dice Kingdoms "Round 2 · Turn 4", Card Kingdoms "Turn 4": it
    counts turns, not rounds), then whose turn begins and the step; grouped by round only for a title
    whose counter has rounds, each position in its own round's group (a Dice Kingdoms round's first
    turn too)."""
    tid, _, record = _finished_bot_table(server, game, 2, seed=4)
    page = context.new_page()
    errors = _errors(page)
    page.goto(f"{server.url}/tables/{tid}/replay")
    page.wait_for_function("() => document.querySelectorAll('#jump option').length > 5")
    jumps = page.evaluate(JUMPS)
    for step, text, group in jumps[:4] + jumps[len(jumps) // 2:len(jumps) // 2 + 2] + jumps[-2:]:
        page.select_option("#jump", value=str(step))
        page.wait_for_function(f"() => document.querySelector('#step').dataset.version === '{step}'")
        counter = page.locator("#counter").inner_text()
        assert re.fullmatch(re.escape(counter) + rf": Player [1-2] \(step {step}\)", text), (text, counter)
        assert counter.startswith("Round ") == rounds and "Turn " in counter, counter
        assert group == (counter.split(" · ")[0] if rounds else None), (group, counter)
    # one position a step, in order (a round and its first turn begin at the same step)
    assert [j[0] for j in jumps] == sorted({j[0] for j in jumps})
    assert errors == []


def test_the_first_tab_stop_is_a_skip_to_the_board(context, server):
    made = server.create("kingdom-of-dice", [{"kind": "human"}, {"kind": "bot", "level": "random"}], seed=4)
    page = context.new_page()
    page.goto(f"{server.url}/tables/{made['table_id']}?token={made['seats'][0]['token']}&pace=0")
    page.wait_for_selector("#board [data-action]")
    # It is the first thing Tab reaches on the page (the page may already have put focus on a piece).
    assert page.evaluate("document.querySelector('a[href], button, [tabindex]:not([tabindex=\"-1\"])').className") \
        == "skip-link"
    page.focus(".skip-link")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    # The next Tab after the jump lands on a piece of the board, not back in the status bar.
    assert page.evaluate("!!document.activeElement.closest('#board') && "
                         "document.activeElement.hasAttribute('data-action')")


def test_one_full_game_with_the_keyboard_alone_then_play_again(context, server):
    """Kingdom of Dice solo played with Tab, Enter and Space only; "play again" opens a new table, same seats."""
    page = context.new_page()
    errors = _errors(page)
    open_lobby_table(page, server.url, "kingdom-of-dice", ["human"], {"cat_level": 2})
    first = _table_id(page)
    taken = play_to_end(page, random.Random(9), keyboard=True)
    assert taken > 0
    page.click("#again-btn")
    page.wait_for_url(re.compile(r"/tables/(?!" + first + r")[^/?#]+[?#].*token="))
    page.wait_for_selector("#board [data-action], #actionbar [data-action]")
    assert version(page) == 0
    status, view = server.call("GET", f"/api/tables/{_table_id(page)}", token=_token(page))
    assert status == 200 and view["game"] == "kingdom-of-dice" and view["players"] == 1
    assert view["observation"]["cat"]["level"] == 2
    assert errors == []


def test_hot_seat_hands_over_only_when_the_next_seat_has_secrets(context, server):
    """Two human seats in one browser: Biblios Dice (secret Gold and cards) shows a hand-over screen;
    Kingdom of Dice (nothing hidden) switches seats without one."""
    page = context.new_page()
    errors = _errors(page)
    rng = random.Random(4)
    open_lobby_table(page, server.url, "kingdom-of-dice", ["human", "human"])
    seats_seen = set()
    for _ in range(60):
        wait_ready(page)
        assert page.evaluate("document.body.dataset.handover === undefined")
        seats_seen.add(page.locator(".player.me .pname").inner_text().split(" (")[0])
        if len(seats_seen) == 2:
            break
        take_turn(page, rng)
    assert seats_seen == {"Player 1", "Player 2"}

    open_lobby_table(page, server.url, "biblios-dice", ["human", "human"])
    tid = _table_id(page)
    handed = False
    for _ in range(60):
        wait_ready(page)
        if page.evaluate("document.body.dataset.handover !== undefined"):
            nxt = int(page.evaluate("document.body.dataset.handover"))
            # Nothing of the previous seat is left on screen: the board behind is a spectator's, covered.
            assert page.locator("#board.covered").count() == 1
            assert page.locator(".player.me").count() == 0
            page.click("#handover-btn")
            page.wait_for_function("() => document.body.dataset.handover === undefined")
            assert page.locator(".player.me .pname").inner_text().startswith(f"Player {nxt + 1}")
            status, view = server.call("GET", f"/api/tables/{tid}", token=_token(page))
            assert view["seat"] == nxt
            handed = True
            break
        take_turn(page, rng)
    assert handed
    assert errors == []


def test_hint_and_undo(context, server):
    """The hint lists the hard bot's top choices with their share; a set-aside die can be taken back
    (and a watching page follows the table back)."""
    made = server.create("kingdom-of-dice", [{"kind": "human"}], seed=21)
    page = context.new_page()
    page.goto(f"{server.url}/tables/{made['table_id']}?token={made['seats'][0]['token']}&pace=0")
    wait_ready(page)
    page.click("#hint-btn")
    page.wait_for_selector("#hints li", timeout=60_000)
    items = page.locator("#hints li")
    assert 1 <= items.count() <= 3
    assert all(re.search(r"\d+% of the search", items.nth(i).inner_text()) for i in range(items.count()))
    before = version(page)
    actions = page.locator("#board [data-action], #actionbar [data-action]").evaluate_all(
        "els => els.map(e => e.dataset.action)")
    keep = next(a for a in actions if a.startswith("keep"))
    page.locator(f'[data-action="{keep}"]').first.click()
    page.wait_for_function(f"() => document.querySelector('[data-version]').dataset.version === '{before + 1}'")
    page.wait_for_selector("#undo-btn:not([hidden])")
    watcher = context.new_page()
    watcher.goto(f"{server.url}/tables/{made['table_id']}?pace=0")
    watcher.wait_for_function(f"() => document.querySelector('[data-version]').dataset.version === '{before + 1}'")
    page.click("#undo-btn")
    page.wait_for_function(f"() => document.querySelector('[data-version]').dataset.version === '{before}'")
    # A watcher sees the table go back too.
    watcher.wait_for_function(f"() => document.querySelector('[data-version]').dataset.version === '{before}'")
    again = page.locator("#board [data-action], #actionbar [data-action]").evaluate_all(
        "els => els.map(e => e.dataset.action)")
    assert sorted(again) == sorted(actions)


def test_the_sheet_a_watcher_looks_at_stays_while_others_move(context, server):
    """Dice Kingdoms: a spectator who switched to another player's sheet keeps it through the pushes.

    The three seats are people whose moves the test makes through the API once the tab is
    chosen, so the pushes come when the test says (a table of bots could end, or re-render the
    tab under the click, before the click landed on a loaded machine)."""
    made = server.create("dice-kingdoms-of-valeria", [{"kind": "human"}] * 3, seed=8)
    tid, tokens = made["table_id"], [seat["token"] for seat in made["seats"]]
    page = context.new_page()
    page.goto(f"{server.url}/tables/{tid}?pace=0")
    page.wait_for_selector("#dkv-tab-2")
    page.locator('label[for="dkv-tab-2"]').click()
    assert page.locator("#dkv-tab-2").is_checked()
    v = version(page)
    moves = 0
    while moves < 3:
        for token in tokens:
            view = server.call("GET", f"/api/tables/{tid}", token=token)[1]
            if view["legal_actions"]:
                status, _ = server.call("POST", f"/api/tables/{tid}/actions",
                                        {"action": view["legal_actions"][0]["id"], "version": view["version"]},
                                        token=token)
                assert status == 200
                moves += 1
                break
        else:
            raise AssertionError("no seat has a move")
    page.wait_for_function(
        f"() => Number(document.querySelector('[data-version]').dataset.version) >= {v + 3}", timeout=30_000)
    assert page.locator("#dkv-tab-2").is_checked()
    assert page.locator(".dkv-panel-2").is_visible() and not page.locator(".dkv-panel-0").is_visible()


def test_a_seat_handed_to_its_bot_and_taken_back(context, server):
    """The seat's holder lets its stand-in bot play, sees it move, and takes the seat back."""
    made = server.create("kingdom-of-dice", [{"kind": "human", "level": "medium"}], seed=12)
    tid, token = made["table_id"], made["seats"][0]["token"]
    page = context.new_page()
    page.goto(f"{server.url}/tables/{tid}?token={token}&pace=0")
    wait_ready(page)
    before = version(page)
    page.click("[data-seat-bot]")
    page.wait_for_function(
        f"() => Number(document.querySelector('[data-version]').dataset.version) > {before}", timeout=30_000)
    assert "bot" in page.locator("#status").inner_text()
    page.click("[data-seat-take]")
    page.wait_for_selector("[data-seat-bot]")
    status, view = server.call("GET", f"/api/tables/{tid}", token=token)
    assert view["seats"][0]["autoplay"] is False
    wait_ready(page, timeout=30_000)
    assert is_over(page) or page.locator("#board [data-action], #actionbar [data-action]").count() > 0


def test_a_lost_solo_game_says_so_and_no_page_asks_for_a_missing_file(context, server):
    """Kingdom of Dice solo lost to the Mischievous Cat (level 6, a random stand-in): the status line
    says the player did not win (winners is empty), and neither the lobby nor the table page meets a
    404 (a browser asks for /favicon.ico unless the page names its icon)."""
    made = server.create("kingdom-of-dice", [{"kind": "human", "level": "random"}], {"cat_level": 6}, seed=5)
    tid, token = made["table_id"], made["seats"][0]["token"]
    assert server.call("POST", f"/api/tables/{tid}/seats/0/bot", {"level": "random"}, token=token)[0] == 200
    deadline = time.time() + 60
    while not (view := server.call("GET", f"/api/tables/{tid}", token=token)[1])["over"]:
        assert time.time() < deadline, "the stand-in bot did not finish the solo game"
        time.sleep(0.1)
    assert view["winners"] == [] and view["observation"]["cat"]["score"] > view["scores"][0]
    page = context.new_page()
    missing: list[str] = []
    page.on("console", lambda m: missing.append(m.text) if m.type == "error" else None)
    page.goto(f"{server.url}/")
    page.wait_for_selector("#game")
    page.goto(f"{server.url}/tables/{tid}?token={token}")
    page.wait_for_function(OVER_JS)
    status = page.locator("#status").inner_text()
    assert status.startswith("Game over.") and "Player 1 (you) did not win" in status, status
    page.wait_for_timeout(300)
    assert missing == []


def test_a_table_link_that_leads_nowhere_points_to_the_lobby(context, server):
    """A mistyped or unknown table link: a sentence for a person (no API endpoint) and a lobby link."""
    page = context.new_page()
    page.goto(f"{server.url}/tables/nosuchtable")
    page.wait_for_function("() => document.querySelector('#status a[href=\"/\"]')", timeout=10_000)
    status = page.locator("#status").inner_text()
    assert "no table nosuchtable" in status and "lobby" in status and "/api/" not in status, status


def test_chosen_seat_names_stand_beside_the_player_numbers(context, server):
    """Seats named Ann and Bob: the players list and the prompt say "Player 1 · Ann", so the log's
    "Player 1" (the rules' words) still matches the person (the prompt said "Bob", the list "Player 2")."""
    made = server.create("kingdom-of-dice", [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
                         seed=4)
    page = context.new_page()
    page.goto(f"{server.url}/tables/{made['table_id']}?token={made['seats'][0]['token']}")
    wait_ready(page)
    names = [page.locator(f'#players [data-seat="{s}"] .pname').inner_text() for s in (0, 1)]
    assert names == ["Player 1 · Ann (you)", "Player 2 · Bob"], names
    assert page.locator("#status").inner_text().startswith("Player 1 · Ann (you):")


def _send_a_seat_to_a_friend(host, friend, server, game: str, players: int, seat: int) -> str:
    """Create an all-human table from ``host``'s lobby, open ``seat``'s "seat link" on ``friend`` and
    wait until the host's page shows that seat connected; the table id."""
    open_lobby_table(host, server.url, game, ["human"] * players)
    link = host.locator(f'#players [data-seat="{seat}"] a.invite').get_attribute("href")
    friend.goto(f"{server.url}{link}&pace=0")
    friend.wait_for_selector("[data-version]")
    host.wait_for_function(f"() => /Player {seat + 1}/.test(document.querySelector('#players').innerText) && "
                           f"document.querySelector('#players [data-seat=\"{seat}\"] .meta').innerText"
                           ".split(' · ').includes('connected')")  # not "not connected"
    return _table_id(host)


def test_a_seat_link_sent_to_a_friend_is_not_taken_back_by_the_creators_page(browser, server):
    """The lobby's browser holds both human seats of a Kingdom of Dice table; Player 2's link is opened
    on another screen. When Player 2 is to move, the creator's page stays Player 1's (it used to switch
    to Player 2 and play the friend's turn from the creator's screen) and the friend has the decision."""
    contexts = [browser.new_context(viewport={"width": 1366, "height": 768}) for _ in range(2)]
    try:
        mine, friend = (c.new_page() for c in contexts)
        rng = random.Random(2)
        tid = _send_a_seat_to_a_friend(mine, friend, server, "kingdom-of-dice", 2, 1)
        deadline = time.time() + 60
        while server.call("GET", f"/api/tables/{tid}")[1]["to_move"] != [1]:
            assert time.time() < deadline, "Player 1's turn did not end"
            wait_ready(mine)
            take_turn(mine, rng)
        wait_ready(friend)
        assert friend.locator("#board [data-action], #actionbar [data-action]").count() > 0
        mine.wait_for_timeout(1500)  # time for a (wrong) switch to Player 2
        assert mine.locator(".player.me .pname").inner_text() == "Player 1 (you)"
        assert mine.locator("#board [data-action], #actionbar [data-action]").count() == 0
        assert server.call("GET", f"/api/tables/{tid}", token=_token(mine))[1]["seat"] == 0
    finally:
        for c in contexts:
            c.close()


def test_the_lobby_keeps_a_64_bit_seed_exact_and_refuses_a_larger_one(context, server):
    """Records show 20-digit seeds; typed into the lobby, one must start that very game (a JS Number
    would round it to another seed), and a seed past 2**64 - 1 gets the lobby's own message."""
    page = context.new_page()
    page.goto(server.url + "/?pace=0")
    page.select_option("#game", "kingdom-of-dice")
    page.select_option("#players", "2")
    page.select_option("#seat-0", "bot:random")
    page.select_option("#seat-1", "bot:random")
    page.fill("#seed", "18446744073709551616")
    page.click("#create")
    assert "from 0 to 18446744073709551615" in page.locator("#create-error").inner_text()
    assert "/tables/" not in page.url
    seed = 13729193726644583001  # above 2**63: stored as a negative BIGINT, read back as this
    page.fill("#seed", str(seed))
    page.click("#create")
    page.wait_for_url("**/tables/**")
    tid = _table_id(page)
    deadline = time.time() + 60
    while not server.call("GET", f"/api/tables/{tid}")[1]["over"]:
        assert time.time() < deadline, "two random bots did not finish"
        time.sleep(0.2)
    status, record = server.call("GET", f"/api/tables/{tid}/record")
    assert status == 200 and record["seed"] == seed


def test_the_lobby_checks_a_seed_against_the_bound_the_server_gives_it(context, server):
    """The largest seed comes with the page (the seed field's data-max: the server's MAX_SEED, which is
    the engine's TABLE_SEED_MAX), not from a number written in lobby.js: served as the engine's, and
    when the page is served another bound (1000 here), the lobby refuses 1001 with that bound in its
    message and asks the server nothing."""
    page = context.new_page()
    page.goto(server.url + "/?pace=0")
    assert page.locator("#seed").get_attribute("data-max") == str(TABLE_SEED_MAX) == str(2**64 - 1)

    def smaller_bound(route):
        html = route.fetch().text()
        assert f'data-max="{TABLE_SEED_MAX}"' in html
        route.fulfill(body=html.replace(f'data-max="{TABLE_SEED_MAX}"', 'data-max="1000"'),
                      headers={"content-type": "text/html; charset=utf-8"})

    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.route(server.url + "/?pace=0", smaller_bound)
    page.goto(server.url + "/?pace=0")
    page.select_option("#game", "kingdom-of-dice")
    page.fill("#seed", "1001")
    page.click("#create")
    page.wait_for_function("() => document.querySelector('#create-error').textContent !== ''")
    assert page.locator("#create-error").inner_text() == (
        "the seed is a whole number from 0 to 1000 (or leave it empty for a random one)")
    assert "/tables/" not in page.url and not [u for u in posts if u.endswith("/api/tables")]


def test_every_card_kingdoms_monster_name_shows_whole_on_top_of_its_stack(context):
    """Each Monster of the catalogue on top of the Forest stack, the board drawn at 1366x768 with the
    real style sheets: neither its name line nor its card overflows (a two-line cost such as the
    Spider Queen's "Str 10 + 3 Magic" clipped the name to half its height)."""
    from pathlib import Path

    import dicetable.web
    from dicetable.engine import new_game
    from dicetable.engine.markup import assemble
    from dicetable.games.valeria_card_kingdoms import board as vck_board
    from dicetable.games.valeria_card_kingdoms.components import MON_NAME

    web = Path(dicetable.web.__file__).parent / "static" / "dicetable.css"
    game_css = Path(vck_board.__file__).parent / "static" / "board.css"
    css = web.read_text(encoding="utf-8") + game_css.read_text(encoding="utf-8")
    obs = new_game("valeria-card-kingdoms", 3, seed=1).observation(0)
    page = context.new_page()
    squeezed = []
    for name in MON_NAME:
        obs["monsters"][2]["cards"] = [name]
        html = assemble(vck_board.board_view(obs, [], 0))
        page.set_content(f'<html><head><style>{css}</style></head><body class="page-table"><main class="table-main">'
                         f'<section class="board-wrap"><div id="board">{html}</div></section></main></body></html>')
        cut = page.evaluate("""() => [...document.querySelectorAll('.vck-mstack .vck-name, .vck-mstack .vck-card')]
            .filter(e => e.scrollHeight > e.clientHeight + 1).map(e => e.className + ': ' + e.textContent)""")
        squeezed += cut
    assert squeezed == [], sorted(set(squeezed))


#: JS: every 50 ms, note which seat's private panel the page shows (".player.me"), any hand-over,
#: and whether the board shows a secret of the friend's seat (the CSS selector given).
WATCH_SEATS = """(secret) => { window.__mine = new Set(); setInterval(() => {
  const me = document.querySelector('.player.me');
  if (me) window.__mine.add(me.dataset.seat);
  if (document.body.dataset.handover !== undefined) window.__mine.add('handover ' + document.body.dataset.handover);
  if (document.querySelector(secret)) window.__mine.add('secret');
}, 50); }"""

#: What the board shows of a seat only to that seat ({s}: the seat): Biblios Dice's Gold behind the
#: shield, Card Kingdoms' Duke (or the two Dukes to keep one of).
SECRET_OF = {"biblios-dice": '.bd-player[data-seat="{s}"] .gold',
             "valeria-card-kingdoms": ".vck-p{s} .vck-duke, .vck-p{s} .vck-dukes"}

HAS_ACTIONS = "#board [data-action], #actionbar [data-action]"


def _play_until(host, friend, server, tid: str, rng, done, what: str) -> list[int]:
    """Both pages take turns (the host's passing its hand-over screens) until ``done(to_move)``."""
    deadline = time.time() + 120
    while not done(to_move := server.call("GET", f"/api/tables/{tid}")[1]["to_move"]):
        assert time.time() < deadline, f"{what} did not come"
        host.wait_for_function("() => !document.body.dataset.busy")
        if host.locator(HAS_ACTIONS).count() or host.evaluate("document.body.dataset.handover !== undefined"):
            take_turn(host, rng)
        elif friend.locator(HAS_ACTIONS).count():
            take_turn(friend, rng)
        else:
            host.wait_for_timeout(100)
    return to_move


def _friend_reloads(host, friend, server, tid: str, game: str, friend_seat: int) -> None:
    """The friend reloads their seat link; the host's page must stay on its seat the whole time,
    never show the friend's secrets, and its seat stays connected."""
    held = host.locator(".player.me").get_attribute("data-seat")
    assert held is not None and int(held) != friend_seat
    secret = SECRET_OF[game]
    assert host.locator(secret.format(s=held)).count() > 0  # the host's own secret is on its screen
    host.evaluate(WATCH_SEATS, secret.format(s=friend_seat))
    friend.reload()
    friend.wait_for_selector("[data-version]")
    friend.wait_for_function("() => document.body.dataset.live === 'open'")
    host.wait_for_timeout(2000)  # time for a (wrong) switch to the friend's seat
    assert host.evaluate("[...window.__mine]") == [held]
    seats = server.call("GET", f"/api/tables/{tid}")[1]["seats"]
    assert seats[int(held)]["connected"] is True and seats[friend_seat]["connected"] is True
    meta = host.locator(f'#players [data-seat="{held}"] .meta').inner_text()
    assert meta.endswith(" connected") and not meta.endswith("not connected")
    assert host.locator(f'#players [data-seat="{friend_seat}"] .meta').inner_text().endswith(" connected")


@pytest.mark.parametrize("game,seed", [("biblios-dice", 5), ("valeria-card-kingdoms", 6)])
def test_a_friends_reload_does_not_hand_their_seat_to_the_hosts_screen(browser, server, game, seed):
    """3 humans created in one browser: seats 1 and 2 are played there (hot-seat), seat 3's link goes
    to a friend. When the friend reloads, while it is seat 3's turn and while it is the host's, the
    host's page never shows seat 3's table (Biblios Dice's Gold, a Card Kingdoms Duke are secret) and
    its own seat stays connected (it used to switch to seat 3 while the friend's socket was down)."""
    contexts = [browser.new_context(viewport={"width": 1366, "height": 768}) for _ in range(2)]
    try:
        host, friend = (c.new_page() for c in contexts)
        rng = random.Random(seed)
        tid = _send_a_seat_to_a_friend(host, friend, server, game, 3, 2)
        _play_until(host, friend, server, tid, rng, lambda to_move: to_move == [2], "seat 3's turn")
        host.wait_for_timeout(500)
        _friend_reloads(host, friend, server, tid, game, 2)
        # the host's turn: the page shows the seat to move (past its hand-over screen)
        to_move = _play_until(host, friend, server, tid, rng,
                              lambda to_move: bool(to_move) and set(to_move) <= {0, 1}, "a host seat's turn")
        deadline = time.time() + 20
        shows = "() => { const me = document.querySelector('.player.me'); return me ? me.dataset.seat : null; }"
        while host.evaluate(shows) not in [str(s) for s in to_move] or not host.locator(HAS_ACTIONS).count():
            assert time.time() < deadline, "the host's page did not come to the seat to move"
            if host.evaluate("document.body.dataset.handover !== undefined"):
                host.click("#handover-btn")
            host.wait_for_timeout(100)
        _friend_reloads(host, friend, server, tid, game, 2)
        assert host.locator(HAS_ACTIONS).count() > 0  # and the host can still play its turn
    finally:
        for c in contexts:
            c.close()


def test_a_seat_played_here_then_sent_to_a_friend_stays_the_friends_through_a_reload(browser, server):
    """Kingdom of Dice, both seats played hot-seat in one browser for a while; then Player 2's link
    goes to a friend. Once the host's page has seen Player 2 connected from the friend's screen, a
    reload of the friend's page while Player 2 is to move leaves the host's page on Player 1."""
    contexts = [browser.new_context(viewport={"width": 1366, "height": 768}) for _ in range(2)]
    try:
        host, friend = (c.new_page() for c in contexts)
        rng = random.Random(12)
        open_lobby_table(host, server.url, "kingdom-of-dice", ["human", "human"])
        tid = _table_id(host)
        shown = []
        deadline = time.time() + 60
        while shown[-1:] != ["0"] or "1" not in shown:  # Player 2 played here, then back to Player 1
            assert time.time() < deadline, "the host's page did not play both seats"
            wait_ready(host)
            seat = host.locator(".player.me").get_attribute("data-seat")
            if shown[-1:] != [seat]:
                shown.append(seat)
            if shown[-1:] != ["0"] or "1" not in shown:
                take_turn(host, rng)
        link = host.locator('#players [data-seat="1"] a.invite').get_attribute("href")
        friend.goto(f"{server.url}{link}&pace=0")
        friend.wait_for_selector("[data-version]")
        host.wait_for_function("() => document.querySelector('#players [data-seat=\"1\"] .meta')"
                               ".innerText.endsWith(' connected')")
        # the friend claimed the seat: the host's copy of its token is revoked, so its link is gone
        host.wait_for_function("() => !document.querySelector('#players [data-seat=\"1\"] a.invite')")
        _play_until(host, friend, server, tid, rng, lambda to_move: to_move == [1], "Player 2's turn")
        host.wait_for_timeout(500)
        assert host.locator(".player.me").get_attribute("data-seat") == "0"
        host.evaluate(WATCH_SEATS, "#board.covered")
        friend.reload()
        friend.wait_for_selector("[data-version]")
        wait_ready(friend)
        host.wait_for_timeout(2000)  # time for a (wrong) switch to Player 2
        assert host.evaluate("[...window.__mine]") == ["0"]
        assert host.locator('#players [data-seat="1"] .meta').inner_text().endswith(" connected")
    finally:
        for c in contexts:
            c.close()


def test_a_seat_chosen_for_a_friend_in_the_lobby_is_never_played_here(context, server):
    """Kingdom of Dice, Player 2 marked "a friend elsewhere" in the lobby: even before the friend has
    opened the link, the creator's page stays Player 1's when Player 2 is to move."""
    page = context.new_page()
    rng = random.Random(9)
    open_lobby_table(page, server.url, "kingdom-of-dice", ["human", "human:away"])
    tid = _table_id(page)
    assert page.evaluate(f"localStorage.getItem('dicetable.away.{tid}')") == "[1]"
    deadline = time.time() + 60
    while server.call("GET", f"/api/tables/{tid}")[1]["to_move"] != [1]:
        assert time.time() < deadline, "Player 1's turn did not end"
        wait_ready(page)
        take_turn(page, rng)
    page.wait_for_timeout(1500)  # time for a (wrong) switch to Player 2
    assert page.locator(".player.me").get_attribute("data-seat") == "0"
    assert page.locator('#players [data-seat="1"] a.invite').count() == 1


def test_the_players_panels_show_public_scores_and_the_own_hidden_part(context, server):
    """Biblios Dice: every panel shows the public score (the spectator's, so the panels compare); the
    viewer's own panel adds what only it sees, e.g. "score -14 · +1 hidden (only you see this)"."""
    made = server.create("biblios-dice", [{"kind": "human"}, {"kind": "human"}], seed=3)
    tid = made["table_id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    rng = random.Random(3)
    for _ in range(60):
        own = server.call("GET", f"/api/tables/{tid}", token=tokens[0])[1]
        if own["own_score"] is not None:
            break
        mover = own["to_move"][0]
        view = server.call("GET", f"/api/tables/{tid}", token=tokens[mover])[1]
        status, _ = server.call("POST", f"/api/tables/{tid}/actions", token=tokens[mover],
                                body={"action": rng.choice(view["legal_actions"])["id"], "version": view["version"]})
        assert status == 200
    hidden = own["own_score"]["hidden"]
    assert own["own_score"]["total"] == own["scores"][0] + hidden
    page = context.new_page()
    page.goto(f"{server.url}/tables/{tid}?token={tokens[0]}&pace=0")
    page.wait_for_function(f"() => document.querySelector('[data-version]').dataset.version === '{own['version']}'")
    sign = "+" if hidden > 0 else "−"
    assert page.locator('#players [data-seat="0"] .score').inner_text() == \
        f"score {own['scores'][0]} · {sign}{abs(hidden)} hidden (only you see this)"
    spectator = server.call("GET", f"/api/tables/{tid}")[1]
    assert page.locator('#players [data-seat="1"] .score').inner_text() == f"score {spectator['scores'][1]}"


def test_an_invite_link_claims_its_seat_once_and_revokes_the_creators_copy(browser, server):
    """A seat sent to a friend is an invite (docs/security.md, claimed seats): the friend's page claims it,
    keeps its fresh token in the address's fragment (never sent to the server), and the creator's copy
    of that seat's token stops working; the same invite opened again claims nothing."""
    contexts = [browser.new_context(viewport={"width": 1366, "height": 768}) for _ in range(3)]
    try:
        host, friend, late = (c.new_page() for c in contexts)
        tid = _send_a_seat_to_a_friend(host, friend, server, "kingdom-of-dice", 2, 1)
        assert "invite=" not in friend.url and re.search(r"#.*token=", friend.url)
        token = _token(friend)
        assert server.call("GET", f"/api/tables/{tid}", token=token)[1]["seat"] == 1
        held = host.evaluate(f"JSON.parse(localStorage.getItem('dicetable.tokens.{tid}'))")
        assert held["1"] != token and server.call("GET", f"/api/tables/{tid}", token=held["1"])[0] == 403
        assert server.call("GET", f"/api/tables/{tid}")[1]["seats"][1]["claimed"] is True
        invite = host.evaluate(f"JSON.parse(localStorage.getItem('dicetable.invites.{tid}'))")["1"]
        late.goto(f"{server.url}{invite}")
        late.wait_for_selector("#error:not([hidden])")
        assert "cannot be used" in late.inner_text("#error") and _token(late) is None
    finally:
        for c in contexts:
            c.close()
