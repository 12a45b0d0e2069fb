"""A person in the browser and an agent over the protocol at one table.

The person's page (seat 2, clicking through Playwright) and the agent (seat 1, a thread running
:class:`dicetable.agent.Agent`) play a whole game of Dice Kingdoms of Valeria together; the page
shows every agent move: it reaches the table's final version and its log window matches the
server's log for seat 2 line for line, the agent's lines among them.
"""

from __future__ import annotations

import random
import threading

import pytest

pytest.importorskip("numpy")
pytest.importorskip("playwright")

from dicetable.agent import Agent, random_policy
from tests.web.helpers import play_to_end, version

pytestmark = pytest.mark.browser


def test_a_person_in_the_browser_sees_the_agents_moves(context, server):
    made = server.create("dice-kingdoms-of-valeria", [{"kind": "human"}, {"kind": "human"}], seed=9)
    table = made["table_id"]
    agent_token, person_token = made["seats"][0]["token"], made["seats"][1]["token"]
    moves: list[str] = []
    agent = Agent(server.url, table, random_policy(2), token=agent_token, idle=120,
                  on_move=lambda action, v: moves.append(action))
    outcome: dict = {}

    def run() -> None:
        try:
            outcome["final"] = agent.play()
        except Exception as exc:  # reported by the test below
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    page = context.new_page()
    page.goto(f"{server.url}/tables/{table}?token={person_token}&pace=0")
    taken = play_to_end(page, random.Random(4), max_seconds=180)
    thread.join(60)
    assert not thread.is_alive() and "error" not in outcome, outcome
    final = outcome["final"]
    assert final["over"] and taken > 0 and len(moves) > 0
    status, record = server.call("GET", f"/api/tables/{table}/record")
    assert status == 200
    assert [aid for seat, aid in record["actions"] if seat == 0] == moves
    page.wait_for_function(f"() => Number(document.querySelector('[data-version]').dataset.version) === "
                           f"{final['version']}")
    assert version(page) == len(record["actions"])
    # The person's page lists the log the server shows seat 2, line for line (its latest lines: the
    # page keeps a window of them; it draws dice in a line as pictures, so lines are matched by their
    # first words): the agent's moves included.
    status, seen = server.call("GET", f"/api/tables/{table}", token=person_token)
    page_lines = page.locator("#log li").all_inner_texts()
    tail = seen["log"][-len(page_lines):]
    assert 0 < len(page_lines) <= len(seen["log"])
    assert [line.split()[:3] for line in page_lines] == [line.split()[:3] for line in tail]
    assert [line for line in page_lines if line.startswith("Player 1 ")]
