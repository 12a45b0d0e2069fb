"""The table page shows a chess clock (issue 25 item 2): every human seat's bank, the running one
counting down; below 20% of the start or 30 s it turns red and is said once in a polite live
region. The page's time is Playwright's clock, moved on by the test (no waiting). The lobby offers
the server's clock presets, each explained, and the table it creates has the chosen bank."""

from __future__ import annotations

import time

import pytest

from .helpers import fill_lobby, wait_ready

pytestmark = pytest.mark.browser

LOW = "el => el.classList.contains('low')"


def test_each_seats_bank_shows_and_a_low_bank_turns_red_and_is_announced_once(context, server):
    body = {"game": "corsairs-of-valeria", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}],
            "seed": 4, "bank": 120, "increment": 10}
    status, made = server.call("POST", "/api/tables", body)
    assert status == 201, made
    tid, token = made["table_id"], made["seats"][0]["token"]
    status, view = server.call("GET", f"/api/tables/{tid}", token=token)
    running = view["to_move"][0]
    waiting = 1 - running
    assert view["time_bank"]["since"][running] is not None and view["time_bank"]["since"][waiting] is None

    page = context.new_page()
    page.clock.install()
    page.goto(f"{server.url}/tables/{tid}#token={token}")
    wait_ready(page)
    lines = page.locator("[data-bank-seat]")
    assert lines.count() == 2
    run_line = page.locator(f'[data-bank-seat="{running}"]')
    wait_line = page.locator(f'[data-bank-seat="{waiting}"]')
    assert "(running)" in run_line.inner_text() and run_line.inner_text().split("bank ")[1][:2] in ("2:", "1:")
    assert wait_line.inner_text() == "bank 2:00"  # not to move: its full bank, still
    assert not run_line.evaluate(LOW) and not page.locator("#clock").evaluate(LOW)
    assert page.locator("#clock").is_visible()

    page.clock.fast_forward(95_000)  # 95 s later: under 30 s of 120 left
    page.wait_for_function(f"() => document.querySelector('[data-bank-seat=\"{running}\"]').classList.contains('low')")
    assert page.locator("#clock").evaluate(LOW)
    assert not wait_line.evaluate(LOW)
    live = page.locator("#bank-live")
    assert live.get_attribute("aria-live") == "polite" and "clock is low" in live.inner_text()
    page.evaluate("document.querySelector('#bank-live').textContent = ''")
    page.clock.fast_forward(5_000)  # still low, a few ticks later: not said again
    page.wait_for_function(f"() => /0:1\\d|0:2\\d/.test(document.querySelector('[data-bank-seat=\"{running}\"]').textContent)")
    assert live.inner_text() == ""


@pytest.mark.parametrize("preset, live", [("standard", True), ("daily", False)])
def test_a_lobby_clock_preset_gives_the_created_table_its_bank_and_increment(context, server, preset, live):
    # issue 25 item 2: the lobby offers the server's presets by name, each with a line saying whether
    # the players must be online together, and says what happens at zero
    status, games = server.call("GET", "/api/games")
    assert status == 200
    chosen = next(p for p in games["clock_presets"] if p["id"] == preset)
    page = context.new_page()
    fill_lobby(page, server.url, "corsairs-of-valeria", ["human", "bot:random"])
    names = page.locator("#clock option").all_inner_texts()
    assert names == ["no clock"] + [p["name"] for p in games["clock_presets"]]
    assert "as long as you like" in page.locator("#clock-help").inner_text()
    assert "a bot plays" in page.locator("#clock-zero").inner_text()
    assert "take the seat back" in page.locator("#clock-zero").inner_text()
    page.select_option("#clock", preset)
    help_line = page.locator("#clock-help").inner_text()
    assert help_line.startswith("live:" if live else "turn-based:")
    assert ("no need to be online together" in help_line) is not live
    page.click("#create")
    page.wait_for_url("**/tables/**#token=*")
    tid = page.url.split("/tables/")[1].split("?")[0].split("#")[0]
    token = page.url.split("#token=")[1].split("&")[0]
    status, view = server.call("GET", f"/api/tables/{tid}", token=token)
    assert status == 200, view
    bank = view["time_bank"]
    assert (bank["bank"], bank["increment"], bank["bank_max"]) == (chosen["bank"], chosen["increment"],
                                                                   chosen.get("bank_max"))
    assert 0 < bank["left"][0] <= chosen["bank"]  # a full bank to start with (less any time already running)


def test_a_bank_with_increment_runs_out_the_bot_plays_the_turn_and_the_page_says_so(context, server):
    # issue 25 item 2 (docs/web.md, "Chess clocks"): at zero the seat's stand-in bot ends its turn, the
    # seat gets its increment and counts as timed out until its holder acts. The test server runs in its
    # own process (no injected time), so the bank is a real one of the least size allowed: 10 s + 1 s.
    body = {"game": "corsairs-of-valeria", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}],
            "seed": 4, "bank": 10, "increment": 1}
    status, made = server.call("POST", "/api/tables", body)
    assert status == 201, made
    tid = made["table_id"]
    status, view = server.call("GET", f"/api/tables/{tid}")
    me = view["to_move"][0]
    token = made["seats"][me]["token"]
    page = context.new_page()
    page.goto(f"{server.url}/tables/{tid}#token={token}")
    wait_ready(page)
    mine = page.locator(f'[data-bank-seat="{me}"]')
    assert "(running)" in mine.inner_text()
    # nobody acts: within the 10 s bank (and a margin for a slow machine) the bot has played the turn
    page.wait_for_function("() => document.body.innerText.includes('clock ran out: its bot chose')", timeout=30_000)
    deadline = time.monotonic() + 15  # the bot plays the rest of the turn, a decision at a time
    while True:
        status, after = server.call("GET", f"/api/tables/{tid}", token=token)
        assert status == 200
        if me not in after["to_move"] or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert after["seats"][me]["timed_out"] and not after["seats"][me]["autoplay"]  # the seat stays its holder's
    assert me not in after["to_move"] and after["version"] > view["version"]
    assert after["time_bank"]["left"][me] == pytest.approx(body["increment"], abs=0.01)  # 0 + the increment
    assert after["time_bank"]["since"][1 - me] is not None  # the other seat's bank now runs
    page.wait_for_function(f"() => !document.querySelector('[data-bank-seat=\"{me}\"]').innerText.includes('running')")
    assert "0:01" in mine.inner_text()
