"""The pages under the server's Content-Security-Policy in a real browser: nothing they need is blocked."""

from __future__ import annotations

import random

import pytest

from .helpers import open_lobby_table, take_turn, wait_ready

pytestmark = pytest.mark.browser

#: In-page listener: every Content-Security-Policy violation the document reports.
WATCH = ("window.__csp = []; document.addEventListener('securitypolicyviolation', "
         "e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")


def _watch(page) -> list[str]:
    messages: list[str] = []
    page.on("console", lambda m: messages.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda exc: messages.append(str(exc)))
    page.add_init_script(WATCH)
    return messages


@pytest.mark.parametrize("game,seats", [("dice-kingdoms-of-valeria", ["human", "bot:greedy"]),
                                        ("biblios-dice", ["human", "bot:greedy"])])
def test_lobby_table_and_replay_pages_work_under_the_policy(context, server, game, seats):
    page = context.new_page()
    problems = _watch(page)
    response = page.goto(server.url + "/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    open_lobby_table(page, server.url, game, seats)
    rng = random.Random(3)
    for _ in range(4):
        wait_ready(page)
        take_turn(page, rng)
    page.click("#tab-rules")
    page.wait_for_selector("#rules-now")
    table = page.url.split("/tables/")[1].split("?")[0]
    page.goto(server.url + f"/tables/{table}")  # a spectator's page
    page.wait_for_selector("[data-version]")
    page.goto(server.url + f"/tables/{table}/replay")
    page.wait_for_selector("#status")
    assert page.evaluate("window.__csp") == []
    assert problems == []


def test_pages_refuse_to_be_framed(context, server):
    """frame-ancestors 'none': another document cannot show the lobby (with its Rejoin links) in a frame."""
    page = context.new_page()
    blocked: list[str] = []
    page.on("console", lambda m: blocked.append(m.text) if "frame-ancestors" in m.text else None)
    page.set_content(f'<iframe id="f" src="{server.url}/"></iframe>')
    page.wait_for_timeout(1500)
    frame = page.frame_locator("#f")
    assert frame.locator("#new-table").count() == 0
    assert blocked, "the browser did not report the framing as refused"
