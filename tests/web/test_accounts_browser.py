"""Accounts in a real browser: sign-up, sign-in and sign-out from the pages, a guest keeping their seats,
a cross-site form post refused, markup in names shown as text on every page, both screen sizes."""

from __future__ import annotations

import random
import secrets
import time
from pathlib import Path

import pytest

from tests.web.a11y import axe_problems

from .helpers import (PASSWORD, accessible_problems, create_rated_from_lobby, open_lobby_table, sign_up_here, take_turn,
                      wait_ready)

pytestmark = pytest.mark.browser

#: A seat name that would run script and make bold text if a page put names in as HTML.
MARKUP = "<img src=x onerror=__o=1><b>Mallory</b>"  # 39 characters: seat names hold at most 40


def _name(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(3)}"


def _bar(page) -> str:
    page.wait_for_function("() => document.querySelector('#account-link').textContent !== ''")
    return page.locator("#account-bar").inner_text()


def test_sign_up_in_and_out_from_the_pages_and_a_guest_keeps_their_seat(context, server):
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    open_lobby_table(page, server.url, "biblios-dice", ["human", "bot:random"])  # played as a guest
    table_url = page.url
    table = table_url.split("/tables/")[1].split("?")[0].split("#")[0]
    page.wait_for_function("() => /Sign in/.test(document.querySelector('#account-bar').textContent)")
    assert "Sign up" in _bar(page) and "Sign out" not in _bar(page)
    name = _name("Ann")
    # a name that is not allowed says why, as text
    page.goto(server.url + "/account")
    page.fill("#sign-up-name", "<b>x</b>")
    page.fill("#sign-up-password", PASSWORD)
    page.click("#create-account")
    page.wait_for_function("() => document.querySelector('#sign-up-error').textContent.includes('letters and digits')")
    assert page.locator("#sign-up-error b").count() == 0
    sign_up_here(page, server.url, name)
    page.wait_for_function("() => document.querySelector('#kept').textContent.includes('1 seat')")
    assert page.locator("#me-name").inner_text() == name
    page.wait_for_function(f"() => document.querySelector('#account-who').textContent === 'Signed in as {name}'")
    # the seat is the account's now: the cookie alone finds it
    seat = page.evaluate(f"fetch('/api/tables/{table}').then(r => r.json()).then(v => v.seat)")
    assert seat == 0
    # signed in, the lobby still creates tables (its calls carry the CSRF token) and they play
    open_lobby_table(page, server.url, "biblios-dice", ["human", "bot:random"])
    wait_ready(page)
    assert take_turn(page, random.Random(1))
    assert f"Signed in as {name}" in _bar(page)
    # sign out from the bar of the table page
    page.click("#sign-out")
    page.wait_for_function("() => document.querySelector('#account-link').textContent === 'Sign in'")
    me = page.evaluate("fetch('/api/session').then(r => r.json())")
    assert me["name"] is None
    # a wrong password is refused with a sentence; the right one signs in
    page.goto(server.url + "/account")
    page.fill("#sign-in-name", name.upper())
    page.fill("#sign-in-password", "not the password")
    page.click("#sign-in")
    page.wait_for_function("() => document.querySelector('#sign-in-error').textContent.includes('wrong name or password')")
    page.fill("#sign-in-password", PASSWORD)
    page.click("#sign-in")
    page.wait_for_selector("#signed-in:not([hidden])")
    assert page.locator("#me-name").inner_text() == name
    assert errors == []


def test_signing_up_before_the_session_is_known_signs_up_and_never_puts_the_password_in_the_address(context, server):
    """The forms are wired before the page asks who is signed in: a fast user (or a slow server) must not
    send the form as a plain GET, which reloads the page with the password in its address."""
    page = context.new_page()
    held = []

    def hold_first(route):
        if not held and route.request.method == "GET":
            held.append(route)  # answered only after the click below
        else:
            route.continue_()

    page.route("**/api/session", hold_first)
    page.goto(server.url + "/account")
    page.wait_for_function("() => performance.getEntriesByType('resource').some(e => e.name.endsWith('/accounts.js'))")
    name = _name("Fast")
    page.fill("#sign-up-name", name)
    page.fill("#sign-up-password", PASSWORD)
    page.click("#create-account")
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert held, "the page never asked for the session"
    held[0].continue_()
    page.wait_for_selector("#signed-in:not([hidden])")
    assert page.locator("#me-name").inner_text() == name
    assert page.url == server.url + "/account"  # no form fields in the address


def test_an_api_token_and_deleting_the_account_from_the_page(context, server):
    page = context.new_page()
    name = _name("Del")
    sign_up_here(page, server.url, name)
    page.click("#new-token")
    page.wait_for_selector("#api-token:not([hidden])")
    token = page.input_value("#api-token")
    status, me = server.call("GET", "/api/session", token=token)
    assert status == 200 and me["name"] == name and me["kind"] == "api"
    page.fill("#delete-password", "wrong password here")
    page.click("#delete-account")
    page.click("#delete-yes")  # the second, confirming button
    page.wait_for_function("() => document.querySelector('#delete-error').textContent.includes('not this account')")
    page.fill("#delete-password", PASSWORD)
    page.click("#delete-account")
    assert page.locator("#delete-confirm").is_visible()
    page.click("#delete-yes")
    page.wait_for_selector("#signed-out:not([hidden])")
    assert server.call("GET", "/api/session", token=token)[1]["name"] is None
    assert server.call("POST", "/api/session", {"name": name, "password": PASSWORD})[0] == 401


def test_move_notices_are_set_from_the_account_page(context, server):
    page = context.new_page()
    sign_up_here(page, server.url, _name("Mail"))
    page.wait_for_selector("#mail-off:not([hidden])")  # this test server has no mail server: the page says so
    page.fill("#notice-email", "ada@localhost")
    page.check("#notice-on")
    page.click("#save-notices")
    page.wait_for_function("() => document.querySelector('#notices-error').textContent.includes('not a mail domain')")
    page.fill("#notice-email", "")
    page.click("#save-notices")
    page.wait_for_function("() => document.querySelector('#notices-error').textContent.includes('need an e-mail')")
    page.fill("#notice-email", "ada@example.org")
    page.click("#save-notices")
    page.wait_for_function("() => document.querySelector('#notices-note').textContent.includes('you get an e-mail')")
    assert page.inner_text("#notices-error") == ""
    page.reload()
    page.wait_for_function("() => document.querySelector('#notice-email').value === 'ada@example.org'")
    assert page.is_checked("#notice-on")
    page.uncheck("#notice-on")
    page.click("#save-notices")
    page.wait_for_function("() => document.querySelector('#notices-note').textContent.includes('no move notices')")
    assert page.evaluate("fetch('/api/account/notices').then(r => r.json())") == {
        "email": "ada@example.org", "notify_email": False, "mail_on": False}


def test_a_cross_site_form_post_is_refused(context, server):
    page = context.new_page()
    name = _name("Csrf")
    sign_up_here(page, server.url, name)
    before = server.call("GET", "/api/tables?all=true")[1]["total"]
    other = context.new_page()  # a page of another site, with a form posting to this server
    other.set_content(f'<form method="post" action="{server.url}/api/tables" enctype="text/plain">'
                      f'<input name=\'{{"game": "biblios-dice", "players": 2, "x": "\' value=\'"}}\'>'
                      '<button id="go">go</button></form>')
    with other.expect_response(lambda r: "/api/tables" in r.url) as answer:
        other.click("#go")
    assert answer.value.status in (403, 415)
    assert server.call("GET", "/api/tables?all=true")[1]["total"] == before
    assert page.evaluate("fetch('/api/session').then(r => r.json())")["name"] == name  # nothing signed out


def test_a_name_with_markup_shows_as_text_on_every_page(context, server):
    made = server.create("biblios-dice", [{"kind": "human", "name": MARKUP}, {"kind": "bot", "level": "random"}])
    done = server.create("biblios-dice", [{"kind": "bot", "level": "random", "name": MARKUP},
                                          {"kind": "bot", "level": "random"}])
    deadline = time.time() + 60
    while not server.call("GET", f"/api/tables/{done['table_id']}")[1]["over"]:
        assert time.time() < deadline, "the bots' table did not finish"
        time.sleep(0.2)
    page = context.new_page()
    token = made["seats"][0]["token"]
    pages = [f"/tables/{made['table_id']}#token={token}", f"/tables/{done['table_id']}/replay",
             "/?pace=0", "/account"]
    for path in pages:
        page.goto(server.url + path)
        page.wait_for_load_state("networkidle")
        if "#token=" in path:  # the table page draws the seats' names (the replay viewer numbers the players)
            try:
                page.wait_for_function("(t) => document.body.textContent.includes(t)", arg="<b>Mallory</b>")
            except Exception:
                raise AssertionError(f"{path} does not show the name as text") from None
        assert page.evaluate("window.__o") is None, path
        assert page.locator("b", has_text="Mallory").count() == 0, path
        assert page.locator("img[src=x]").count() == 0, path


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)])
def test_the_account_bar_and_page_fit_both_screens(browser, server, size, tmp_path):
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = ctx.new_page()
        page.goto(server.url + "/account")
        _bar(page)
        shots = Path(tmp_path)
        page.screenshot(path=str(shots / f"account-out-{size[0]}.png"), full_page=True)
        assert accessible_problems(page) == [] and axe_problems(page) == []
        sign_up_here(page, server.url, _name("Wide"))
        page.screenshot(path=str(shots / f"account-in-{size[0]}.png"), full_page=True)
        assert accessible_problems(page) == [] and axe_problems(page) == []
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size[0], f"the account page scrolls sideways at {size}"
        open_lobby_table(page, server.url, "biblios-dice", ["human", "bot:random"])
        wait_ready(page)
        page.screenshot(path=str(shots / f"table-{size[0]}.png"))
        bar = page.locator("#account-bar").bounding_box()
        # one line: on the phone, of 44 px touch targets (test_phone_table) and the bar's 2 px padding
        assert bar is not None and bar["height"] <= (48 if size[0] < 760 else 40) and bar["width"] <= size[0]
        assert page.locator("#sign-out").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    finally:
        ctx.close()


def test_a_seat_named_for_a_player_is_played_from_their_sign_in(context, server):
    """Alice's program names Bob at a seat (no token for it anywhere); Bob, signed in, plays it from the page."""
    alice, bob = _name("Ali"), _name("Bob")
    assert server.call("POST", "/api/accounts", {"name": alice, "password": PASSWORD})[0] == 201
    token = server.call("POST", "/api/session", {"name": alice, "password": PASSWORD})[1]["token"]
    page = context.new_page()
    sign_up_here(page, server.url, bob)
    status, made = server.call("POST", "/api/tables", {
        "game": "biblios-dice", "players": 2, "rated": True,
        "seats": [{"kind": "human", "player": bob}, {"kind": "human", "player": alice}]}, token=token)
    assert status == 201, made
    assert "token" not in made["seats"][0] and made["seats"][0]["player"] == bob
    page.goto(server.url + f"/tables/{made['table_id']}")
    wait_ready(page)
    before = server.call("GET", f"/api/tables/{made['table_id']}")[1]["version"]
    assert take_turn(page, random.Random(2))
    page.wait_for_function(f"() => Number(document.querySelector('[data-version]').dataset.version) > {before}")


def test_a_signed_in_player_creates_a_rated_table_from_the_lobby_form(context, server):
    # the Rated box: disabled for a guest; signed in, it lists the table with the host's seat named
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#new-table")
    page.wait_for_function("() => document.querySelector('#account-link').textContent !== ''")
    assert page.locator("#rated").is_disabled(), "a guest cannot create a rated table"
    name = _name("Host")
    sign_up_here(page, server.url, name)
    create_rated_from_lobby(page, server.url)  # the open seat waits for a signed-in player: the invite panel
    tables = page.evaluate("async () => (await (await fetch('/api/lobby?rated=true')).json()).tables")
    assert tables and all(t["rated"] for t in tables)
    mine = page.evaluate("async () => (await (await fetch('/api/my-tables')).json()).tables")
    assert len(mine) == 1 and mine[0]["table_id"] in {t["table_id"] for t in tables}, "the host's seat is the account's"
    profile = page.evaluate(f"async () => (await fetch('/api/players/{name}')).status")
    assert profile == 200
