"""The page never draws a view older than the one it shows, whatever brought it (an HTTP answer,
a WebSocket push, a reload): views are ordered by (undos, version).

A MutationObserver records every ``data-version`` the page draws, so a step back is seen even
when a later push covers it at once.
"""

from __future__ import annotations

import time

import pytest

from dicetable.engine.testing import shipped_games

from .helpers import is_over, version, wait_ready

pytestmark = pytest.mark.browser

#: JS: start recording every version the page draws into window.__drawn.
RECORD = """() => {
  const el = document.querySelector('[data-version]');
  window.__drawn = [Number(el.dataset.version)];
  new MutationObserver(() => window.__drawn.push(Number(el.dataset.version)))
    .observe(el, {attributes: true, attributeFilter: ['data-version']});
}"""


def _drawn(page) -> list[int]:
    return page.evaluate("window.__drawn")


def _open(page, server, tid: str, token: str) -> None:
    page.goto(f"{server.url}/tables/{tid}?token={token}&pace=0")
    page.wait_for_selector("[data-version]")


def _advanced_or_over(above: int) -> str:
    """JS: true once the page shows a version above ``above`` or the final scores."""
    return (f"() => Number(document.querySelector('[data-version]').dataset.version) > {above}"
            " || !document.querySelector('#final').hidden")


def _release_late(page, held: list, missing: str) -> None:
    """Wait for the held ``(route, answer)``, let the page draw two newer versions, then release the
    answer: the page must not go back to it (every version drawn in order, the last above it)."""
    deadline = time.time() + 20
    while not held:
        assert time.time() < deadline, missing
        page.wait_for_timeout(50)
    route, answer = held[0]
    answered = answer.json()["version"]
    page.wait_for_function(_advanced_or_over(answered + 2), timeout=30_000)
    route.fulfill(response=answer)
    page.wait_for_timeout(800)  # time for the late answer to be (wrongly) drawn
    drawn = _drawn(page)
    assert drawn == sorted(drawn), f"the page went back: {drawn}"
    assert version(page) > answered


def test_a_late_answer_to_let_a_bot_play_is_not_drawn_over_newer_pushes(context, server):
    """Valeria: Card Kingdoms. The answer to "let a bot play for me" is held back until the page has
    drawn newer versions pushed over the WebSocket; released then, it must not take the page back
    (it used to be drawn with force and leave the page on an old version)."""
    made = server.create("valeria-card-kingdoms", [{"kind": "human", "level": "greedy"},
                                                   {"kind": "bot", "level": "greedy"}], seed=31)
    tid, token = made["table_id"], made["seats"][0]["token"]
    page = context.new_page()
    held = []
    page.route("**/seats/0/bot", lambda route: held.append((route, route.fetch())))
    _open(page, server, tid, token)
    wait_ready(page)
    page.evaluate(RECORD)
    page.click("[data-seat-bot]")
    _release_late(page, held, "the page did not ask to let a bot play")
    # and it goes on to the table's newest version
    page.wait_for_function(OVER_OR_CURRENT.format(server.call("GET", f"/api/tables/{tid}")[1]["version"]),
                           timeout=30_000)


OVER_OR_CURRENT = ("() => Number(document.querySelector('[data-version]').dataset.version) >= {}"
                   " || !document.querySelector('#final').hidden")

#: Every title with its human seat and one greedy bot (two seats where the game needs them).
TITLES = [spec.id for spec in shipped_games()]


@pytest.mark.parametrize("game", TITLES)
def test_let_a_bot_play_for_me_keeps_the_page_advancing(context, server, game):
    """In every title, once the seat is handed to its bot the page goes on drawing newer versions
    (never one going back) until the game ends or it is four versions on. How many versions it
    draws on the way is not asked: pushes that come together may be drawn as the newest alone."""
    made = server.create(game, [{"kind": "human", "level": "greedy"}, {"kind": "bot", "level": "random"}], seed=8)
    tid, token = made["table_id"], made["seats"][0]["token"]
    page = context.new_page()
    _open(page, server, tid, token)
    wait_ready(page)
    page.evaluate(RECORD)
    start = version(page)
    page.click("[data-seat-bot]")
    for step in range(1, 5):
        page.wait_for_function(_advanced_or_over(start + step), timeout=30_000)
        if is_over(page):
            break
    drawn = _drawn(page)
    assert drawn == sorted(drawn), f"the page went back: {drawn}"
    assert drawn[-1] > start, f"the page did not move on from version {start}: {drawn}"
    assert is_over(page) or drawn[-1] >= start + 4, drawn
    if is_over(page):  # the end shown is the table's end
        status, final = server.call("GET", f"/api/tables/{tid}")
        assert final["over"] and version(page) == final["version"]


def test_a_reload_during_the_bots_turn_shows_the_current_version_and_goes_on(context, server):
    """Kingdom of Dice with a medium bot (it thinks about a second a move): the page reloaded while the
    bot is to move shows the table's version of that moment, then the bot's moves as they come."""
    made = server.create("kingdom-of-dice", [{"kind": "human", "level": "medium"},
                                             {"kind": "bot", "level": "medium"}], seed=14)
    tid, token = made["table_id"], made["seats"][0]["token"]
    page = context.new_page()
    _open(page, server, tid, token)
    wait_ready(page)
    page.click("[data-seat-bot]")
    deadline = time.time() + 30
    while server.call("GET", f"/api/tables/{tid}")[1]["version"] < 2:
        assert time.time() < deadline, "the bots did not move"
        time.sleep(0.1)
    page.reload()
    page.wait_for_selector("[data-version]")
    now = server.call("GET", f"/api/tables/{tid}")[1]
    page.wait_for_function(OVER_OR_CURRENT.format(now["version"]), timeout=10_000)
    page.evaluate(RECORD)
    shown = version(page)
    page.wait_for_function(_advanced_or_over(shown + 1), timeout=30_000)
    drawn = _drawn(page)
    assert drawn == sorted(drawn), f"the page went back: {drawn}"


def test_a_dropped_socket_reconnects_and_the_page_goes_on_in_order_without_fetching_the_view(context, server):
    """Kingdom of Dice with medium bots (about a second a move), the seat handed to its bot. The page's
    WebSocket is dropped: the page opens a new one, whose first message (a whole view) brings it up to
    date, and goes on showing the bots' moves in order. The view itself is never fetched over HTTP,
    neither on load nor on the reconnect (the socket brings it; HTTP is for when it cannot open)."""
    made = server.create("kingdom-of-dice", [{"kind": "human", "level": "medium"},
                                             {"kind": "bot", "level": "medium"}], seed=15)
    tid, token = made["table_id"], made["seats"][0]["token"]
    page = context.new_page()
    sockets, fetched = [], []
    page.route_web_socket("**/live*", lambda ws: (ws.connect_to_server(), sockets.append(ws)))
    page.on("request", lambda r: fetched.append(r.url) if r.method == "GET" and f"/api/tables/{tid}" in r.url
            and "/live" not in r.url and "/chat" not in r.url else None)  # the chat's history is no view
    _open(page, server, tid, token)
    wait_ready(page)
    page.evaluate(RECORD)
    page.click("[data-seat-bot]")
    page.wait_for_function(_advanced_or_over(version(page) + 2), timeout=30_000)
    sockets[-1].close()  # the page's socket drops: it reconnects
    deadline = time.time() + 20
    while len(sockets) < 2:
        assert time.time() < deadline, "the page did not open a new socket"
        page.wait_for_timeout(100)
    dropped_at = version(page)
    page.wait_for_function(_advanced_or_over(dropped_at + 1), timeout=30_000)
    drawn = _drawn(page)
    assert drawn == sorted(drawn), f"the page went back: {drawn}"
    assert fetched == [], f"the view was fetched over HTTP: {fetched}"


def test_without_a_socket_the_page_shows_the_table_over_http(context, server):
    """A network that refuses the WebSocket: the page still shows the seat's table (the view over
    HTTP), and a click still plays the move."""
    made = server.create("kingdom-of-dice", [{"kind": "human"}], seed=2)
    tid, token = made["table_id"], made["seats"][0]["token"]
    page = context.new_page()
    page.route_web_socket("**/live*", lambda ws: ws.close())
    _open(page, server, tid, token)
    wait_ready(page)
    assert page.evaluate("document.body.dataset.live") != "open"
    before = version(page)
    page.locator("#board [data-action], #actionbar [data-action]").first.click()
    page.wait_for_function(_advanced_or_over(before), timeout=10_000)
    status, view = server.call("GET", f"/api/tables/{tid}", token=token)
    assert view["version"] == before + 1 == version(page)


def test_a_move_that_reaches_the_table_second_is_said_so_and_the_page_goes_on(context, server):
    """Corsairs of Valeria, two people. The page's action is held until the same seat has moved through
    the API: the server refuses the page's with 409, and the page says its move was not made (a tap
    that looks ignored is a bug), then shows the newer version."""
    made = server.create("corsairs-of-valeria", [{"kind": "human"}, {"kind": "human"}], seed=7)
    tid, tokens = made["table_id"], {s["seat"]: s["token"] for s in made["seats"]}
    status, view = server.call("GET", f"/api/tables/{tid}", token=tokens[0])
    seat = view["to_move"][0]
    page = context.new_page()
    posted = []

    def first_elsewhere(route):
        _, mine = server.call("GET", f"/api/tables/{tid}", token=tokens[seat])
        status, _ = server.call("POST", f"/api/tables/{tid}/actions", token=tokens[seat],
                                body={"action": mine["legal_actions"][0]["id"], "version": mine["version"]})
        posted.append(status)
        route.continue_()

    page.route("**/actions", first_elsewhere)
    _open(page, server, tid, tokens[seat])
    wait_ready(page)
    shown = version(page)
    page.locator(":is(#board [data-action], #actionbar [data-action]) >> visible=true").first.click()
    page.wait_for_selector("#error:not([hidden])")
    assert posted == [200]
    assert "Another move reached the table first, so yours was not made" in page.inner_text("#error")
    page.wait_for_function(f"() => Number(document.querySelector('[data-version]').dataset.version) > {shown}")
    assert server.call("GET", f"/api/tables/{tid}")[1]["version"] == shown + 1  # the page's move was not made


def test_a_seat_link_with_a_wrong_token_says_so_in_one_sentence_and_watches(context, server):
    """A link whose token holds no seat: the page watches the table as a spectator (no actions) and says
    why in the page's own short words, not the API's answer with the table id."""
    made = server.create("kingdom-of-dice", [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], seed=4)
    page = context.new_page()
    page.goto(f"{server.url}/tables/{made['table_id']}?token=bad&pace=0")
    page.wait_for_selector("#error:not([hidden])")
    text = page.inner_text("#error")
    assert text.startswith("This seat link holds no seat here") and "you are watching as a spectator" in text
    assert made["table_id"] not in text
    page.wait_for_selector("[data-version]")
    assert page.locator("#board [data-action], #actionbar [data-action]").count() == 0


def test_a_move_chosen_while_a_newer_version_waits_its_turn_is_made_in_that_version(context, server):
    """Card Kingdoms, two people choosing their Dukes at once; the page of seat 0 shows each version at
    least 5 s (``pace=5000``). Seat 1 chooses through the API; its version reaches the page and waits
    its turn there. Seat 0 chooses meanwhile: the page shows the newer version at once and makes the
    move in it (the decision is the same, the Duke still offered), not a stale post refused as "another
    move reached the table first"."""
    made = server.create("valeria-card-kingdoms", [{"kind": "human"}, {"kind": "human"}], seed=7)
    tid, tokens = made["table_id"], {s["seat"]: s["token"] for s in made["seats"]}
    page = context.new_page()
    page.goto(f"{server.url}/tables/{tid}?token={tokens[0]}&pace=5000")
    page.wait_for_selector("[data-version]")
    wait_ready(page)
    assert version(page) == 0
    _, other = server.call("GET", f"/api/tables/{tid}", token=tokens[1])
    status, _ = server.call("POST", f"/api/tables/{tid}/actions", token=tokens[1],
                           body={"action": other["legal_actions"][0]["id"], "version": 0})
    assert status == 200
    page.wait_for_timeout(600)  # the push arrives and waits its turn: the page still shows version 0
    assert version(page) == 0
    started = time.time()
    page.locator(":is(#board [data-action], #actionbar [data-action]) >> visible=true").first.click()
    page.wait_for_function("() => Number(document.querySelector('[data-version]').dataset.version) >= 2",
                           timeout=4_000)
    assert time.time() - started < 4  # not held back by the 5 s pace
    assert page.locator("#error").is_hidden()
    assert server.call("GET", f"/api/tables/{tid}")[1]["version"] == 2  # both Dukes chosen
