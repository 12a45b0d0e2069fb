"""Driving the table page the way a player does: only elements carrying ``data-action``."""

from __future__ import annotations

import random
import time

OVER = "() => !document.querySelector('#final').hidden"
READY = ("() => document.body.dataset.styling === undefined && ("
         "document.querySelector('#board [data-action], #actionbar [data-action]') "
         "|| !document.querySelector('#final').hidden || document.body.dataset.handover !== undefined)")

#: JS: every [data-action] that is not a focusable button with an accessible name, or that a screen
#: reader cannot reach: hidden by an aria-hidden ancestor, or inside an element whose children are
#: presentational (role img, or another button: nested controls).
UNNAMED = """() => [...document.querySelectorAll('[data-action]')].filter(e => {
  const focusable = e.tabIndex >= 0 && !e.disabled && !e.closest('[aria-hidden="true"]');
  const isButton = e.tagName === 'BUTTON' || e.getAttribute('role') === 'button';
  const outer = e.parentElement && e.parentElement.closest('[role="img"], [role="button"], button, a[href]');
  const labelledBy = (e.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean)
    .map(id => (document.getElementById(id) || {}).textContent || '').join(' ');
  const name = (labelledBy || e.getAttribute('aria-label') || e.textContent || e.getAttribute('title') || '').trim();
  return !(focusable && isButton && name && !outer);
}).map(e => e.outerHTML.slice(0, 160))"""


def version(page) -> int:
    """The table version the page shows (its ``data-version`` element)."""
    return int(page.locator("[data-version]").first.get_attribute("data-version"))


def is_over(page) -> bool:
    """True once the final-scores dialog is up."""
    return bool(page.evaluate(OVER))


def accessible_problems(page) -> list[str]:
    """Clickable actions that are not focusable, reachable buttons with a name (empty when all are);
    see :data:`UNNAMED`. axe-core checks the rest of the page (tests/web/a11y.py)."""
    return page.evaluate(UNNAMED)


def wait_ready(page, timeout: float = 20_000) -> None:
    """Wait until the seat has an action to take, the game is over, or a hand-over screen is up."""
    page.wait_for_function(READY, timeout=timeout)


def api_until_to_move(server, tid: str, token: str, seat: int, prefer: str = "lock", seconds: float = 20) -> None:
    """Play the token's seat through the API (its ``prefer`` action when offered, else its first) until
    ``seat`` is to move; fails after ``seconds``."""
    deadline = time.time() + seconds
    while True:
        view = server.call("GET", f"/api/tables/{tid}", token=token)[1]
        if seat in view["to_move"]:
            return
        assert time.time() < deadline, f"seat {seat} never came to move"
        pick = next((a for a in view["legal_actions"] if a["id"] == prefer), view["legal_actions"][0])
        server.call("POST", f"/api/tables/{tid}/actions", {"action": pick["id"], "version": view["version"]}, token=token)


def take_turn(page, rng: random.Random, keyboard: bool = False, tap: bool = False) -> bool:
    """Take one legal action by clicking, tapping (``tap``: a touch screen) or with Tab and
    Enter/Space only; False when none was shown.

    Passes a hand-over screen first (its button is not an action). Checks
    every shown action is a focusable, named button. A choice the page asks
    about first (Kingdom of Dice's stop that scores nothing: ``#confirm``)
    is answered at random, as a player might: "Do it anyway" or "Choose
    again" (with the keyboard: Tab then Enter, or Escape).
    """
    if answer_confirm(page, rng, keyboard, tap):
        return True
    if page.evaluate("document.body.dataset.handover !== undefined"):
        if keyboard:
            page.keyboard.press("Enter")  # the hand-over button has the focus
        elif tap:
            page.tap("#handover-btn")
        else:
            page.click("#handover-btn")
        page.wait_for_function("() => document.body.dataset.handover === undefined")
        return True
    actions = page.locator(":is(#board [data-action], #actionbar [data-action]) >> visible=true")
    n = actions.count()
    if n == 0:
        return False
    assert accessible_problems(page) == []
    before = version(page)
    if keyboard:
        _keyboard_action(page, rng, n)
    elif tap:
        try:
            actions.nth(rng.randrange(n)).tap(timeout=3_000)
        except Exception:  # redrawn under the finger by a push: look again
            return True
    else:
        try:
            # A real mouse click at the piece (visible: filtered above); force skips Playwright's
            # wait-for-stable checks, which cost more than the move itself on a busy machine.
            actions.nth(rng.randrange(n)).click(timeout=3_000, force=True)
        except Exception:  # the board was redrawn under the pointer by a push: look again
            return True
    try:
        page.wait_for_function(
            f"() => Number(document.querySelector('[data-version]').dataset.version) !== {before}"
            f" || !document.querySelector('#final').hidden || {CONFIRMING}", timeout=5_000)
    except Exception:
        pass  # a refused click (409 → refreshed view) or a redraw: the loop looks again
    answer_confirm(page, rng, keyboard, tap)
    return True


#: JS expression: the page asks whether to go ahead with a choice (the ``#confirm`` dialog is up).
CONFIRMING = "!document.querySelector('#confirm').hidden"


def answer_confirm(page, rng: random.Random, keyboard: bool = False, tap: bool = False) -> bool:
    """Answer the page's "Are you sure?" dialog, when it is up, at random; False when it is not up.

    The page is busy (no other action is taken) until it is answered."""
    if not page.evaluate(f"() => {CONFIRMING}"):
        return False
    go = rng.random() < 0.5
    if keyboard:
        if go:
            page.keyboard.press("Tab")  # from "Choose again", which has the focus, to "Do it anyway"
            page.keyboard.press("Enter")
        else:
            page.keyboard.press("Escape")
    else:
        button = page.locator("#confirm-go" if go else "#confirm-back")
        button.tap() if tap else button.click()
    page.wait_for_function(f"() => !({CONFIRMING})", timeout=5_000)
    return True


def _keyboard_action(page, rng: random.Random, n: int) -> None:
    """Tab to a random action (focus starts on the first one) and press Enter or Space."""
    on_action = "() => !!(document.activeElement && document.activeElement.dataset.action)"
    if not page.evaluate(on_action):
        for _ in range(80):
            page.keyboard.press("Tab")
            if page.evaluate(on_action):
                break
    for _ in range(rng.randrange(min(n, 6))):
        page.keyboard.press("Tab")
    for _ in range(80):
        if page.evaluate(on_action):
            break
        page.keyboard.press("Tab")
    page.keyboard.press(rng.choice(["Enter", " "]))


def play_to_end(page, rng: random.Random, max_seconds: float = 90, keyboard: bool = False) -> int:
    """Play the page's seat to the end of the game; returns the number of actions taken."""
    taken = 0
    deadline = time.time() + max_seconds
    while not is_over(page):
        assert time.time() < deadline, f"game not over after {max_seconds}s ({taken} actions taken)"
        wait_ready(page)
        if is_over(page):
            break
        if take_turn(page, rng, keyboard):
            taken += 1
    return taken


def fill_lobby(page, server_url: str, game: str, seats: list[str], options: dict | None = None,
               seed: int | None = None) -> None:
    """Open the lobby (pace 0) and fill its form: the game, one seat per entry of ``seats`` ("human",
    "human:away" or "bot:<level>"), ``options`` by name (a menu's label or a field's text), the seed."""
    page.goto(server_url + "/?pace=0")
    page.select_option("#game", game)
    page.select_option("#players", str(len(seats)))
    for name, value in (options or {}).items():
        sel = page.locator(f'[data-option="{name}"]')
        if sel.evaluate("e => e.tagName") == "SELECT":
            sel.select_option(label=str(value))
        else:
            sel.fill(str(value))
    for i, seat in enumerate(seats):
        page.select_option(f"#seat-{i}", seat)
    if seed is not None:
        page.fill("#seed", str(seed))


def open_lobby_table(page, server_url: str, game: str, seats: list[str], options: dict | None = None) -> None:
    """Create a table from the lobby form (``seats``: "human" or "bot:<level>") and wait for its page."""
    fill_lobby(page, server_url, game, seats, options)
    page.click("#create")
    # a table with seats for friends elsewhere shows the invite panel first
    page.wait_for_function("() => location.pathname.startsWith('/tables/') || !document.querySelector('#created').hidden")
    if "/tables/" not in page.url:
        page.click("#open-table")
    page.wait_for_url("**/tables/**")
    page.wait_for_selector("[data-version]")


#: The scoring categories of each title's rulebook, as the final dialog's columns name them.
SHEET_CATEGORIES = {
    "kingdom-of-dice": ["Influence cards"],
    "corsairs-of-valeria": ["Treasure"],
    "biblios-dice": ["Scrolls Track", "Manuscripts Track", "Pigments Track", "Quills Track", "Ink Track", "Gold",
                     "Losing VPs", "VP tokens"],
    "dice-kingdoms-of-valeria": ["Star pips", "Claimed Domains", "Monster Lairs", "Statue Cards"],
    "valeria-card-kingdoms": ["Monsters", "Domains", "VP tokens", "Duke"],
}
#: The solo opponent (or Cadfael at 2 players) that has its own row: (game, players) -> its name.
OPPONENTS = {("kingdom-of-dice", 1): "The Mischievous Cat", ("valeria-card-kingdoms", 1): "The Dark Lord",
             ("biblios-dice", 2): "Cadfael"}


def check_score_sheet(page, game: str, view: dict) -> None:
    """The final dialog's table: every rulebook category per seat, summing to the engine's final score."""
    heads = [h.strip() for h in page.locator("#final-head th").all_inner_texts()]
    assert heads[:2] == ["player", "score"] and heads[2:2 + len(SHEET_CATEGORIES[game])] == SHEET_CATEGORIES[game]
    rows = page.locator("#final-scores tr[data-seat]")
    assert rows.count() == view["players"]
    for i in range(rows.count()):
        row = rows.nth(i)
        seat = int(row.get_attribute("data-seat"))
        points = [int(t) for t in row.locator("td[data-category]").all_inner_texts()]
        total = int(row.locator("td[data-total]").inner_text())
        assert len(points) == len(SHEET_CATEGORIES[game])
        assert sum(points) == total == view["scores"][seat]
    opponent = OPPONENTS.get((game, view["players"]))
    others = page.locator("#final-scores tr[data-opponent]")
    assert others.count() == (1 if opponent else 0)
    if opponent:
        assert others.locator("th").inner_text().startswith(opponent)
    assert page.locator("#final-outcome").inner_text().strip()


def check_final_table(page, game: str, view: dict) -> None:
    """The page of a game that is over (``view``: the API's final view): the score sheet (see
    :func:`check_score_sheet`) and its caption, its winners marked, why it ended, "Game over" and no
    action left."""
    page.wait_for_selector("#final-sheet[data-ready]")
    check_score_sheet(page, game, view)
    # titled as the terminal titles it, the rulebook's section named once (not "Scoring: rulebook: Scoring")
    caption = page.locator("#final-sheet caption").inner_text()
    assert caption.startswith("Score sheet (") and caption.endswith(")") and caption.count("Scoring") <= 1, caption
    if game == "dice-kingdoms-of-valeria":
        assert caption == "Score sheet (rulebook: Scoring)"
    assert page.locator("#final-scores tr.winner[data-seat]").count() == len(view["winners"])
    assert page.locator("#final-why li").count() >= 1
    assert page.locator("#status").inner_text().startswith("Game over")
    assert page.locator("#board [data-action], #actionbar [data-action]").count() == 0


#: The password of the accounts the browser tests sign up.
PASSWORD = "a long enough password"


def sign_up_here(page, server_url: str, name: str) -> None:
    """Sign up ``name`` (password :data:`PASSWORD`) on the account page and wait until it says so."""
    page.goto(server_url + "/account")
    page.fill("#sign-up-name", name)
    page.fill("#sign-up-password", PASSWORD)
    page.click("#create-account")
    page.wait_for_selector("#signed-in:not([hidden])")


def finished_by_bots(server, game: str, seats: list[dict], seed: int, seconds: float = 150) -> str:
    """A table of ``seats`` whose human seat 0 a random bot plays to the end (with the other seats'
    bots); its id, once the API says it is over."""
    made = server.create(game, seats, seed=seed)
    tid = made["table_id"]
    status, _ = server.call("POST", f"/api/tables/{tid}/seats/0/bot", {"level": "random"}, token=made["seats"][0]["token"])
    assert status == 200
    deadline = time.time() + seconds
    while not server.call("GET", f"/api/tables/{tid}")[1]["over"]:
        assert time.time() < deadline, "the bots never finished"
        time.sleep(0.05)
    return tid


def create_rated_from_lobby(page, server_url: str, game: str = "biblios-dice") -> None:
    """As a signed-in player: a rated two-seat table of ``game`` made from the lobby, its second seat open;
    waits for the invite panel (the open seat waits for a signed-in player)."""
    page.goto(server_url + "/")
    page.wait_for_function("() => !document.querySelector('#rated').disabled")
    page.select_option("#game", game)
    page.select_option('[data-seat="1"]', "human")
    page.check("#rated")
    page.click("#create")
    page.wait_for_selector("#created:not([hidden])")

