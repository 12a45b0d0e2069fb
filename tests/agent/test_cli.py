"""``dicetable agent``: claims a seat link's invite and plays the seat to the end; bad input is one line."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("numpy")

COMMAND = [sys.executable, "-c", "from dicetable.cli.main import app; app()", "agent"]


def test_the_command_plays_a_seat_from_its_link(server):
    made = server.create("biblios-dice", [{"kind": "bot", "level": "greedy"}, {"kind": "human"}])  # no seed:
    # the invites of a table whose creator chose the seed cannot be claimed
    link = server.url + made["seats"][1]["link"]
    run = subprocess.run(COMMAND + [link, "--seed", "3", "--quiet", "--idle", "60"], capture_output=True,
                         text=True, timeout=240)
    assert run.returncode == 0, run.stdout + run.stderr
    status, record = server.call("GET", f"/api/tables/{made['table_id']}/record")
    assert status == 200 and record["actions"]
    ours = sum(1 for seat, _ in record["actions"] if seat == 1)
    # Seats are named as everywhere else: from 0, with the player name people read (docs/engine.md).
    assert f"The game is over after {len(record['actions'])} actions: the agent at seat 1 (Player 2)" in run.stdout
    assert f"{ours} moves, 0 reconnections." in run.stdout
    # The claimed token is said once, on stderr (not among -q's result lines), with how to resume.
    said = run.stderr.strip().splitlines()
    assert len(said) == 1 and said[0].startswith("claimed seat 1 (Player 2); to resume after a stop: "
                                                 "dicetable agent --token "), run.stderr
    assert "claimed" not in run.stdout
    new_token = said[0].split("--token ")[1].split()[0]
    assert said[0].endswith(f" {server.url}/tables/{made['table_id']}")
    # That token is the seat's now (the claim revoked the creator's copy): it reads the seat's view.
    status, view = server.call("GET", f"/api/tables/{made['table_id']}", token=new_token)
    assert status == 200 and view["seat"] == 1
    # The invite was claimed: the creator's copy of the seat's token no longer acts for it.
    status, _ = server.call("GET", f"/api/tables/{made['table_id']}", token=made["seats"][1]["token"])
    assert status in (401, 403)


def test_an_invite_that_cannot_be_claimed_is_the_servers_message(server):
    made = server.create("biblios-dice", [{"kind": "bot", "level": "greedy"}, {"kind": "human"}], seed=4)
    run = subprocess.run(COMMAND + [server.url + made["seats"][1]["link"]], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 2
    said = " ".join(run.stdout.split())
    assert f"/api/tables/{made['table_id']}/claim: HTTP 409: this table's seed was chosen by whoever created it" in said


@pytest.mark.parametrize("args, message", [
    (["http://127.0.0.1:9/lobby"], "is not a table link: give http(s)://host:port/tables/<table id>"),
    (["http://127.0.0.1:9/tables/abc"], "the link holds no invite (#invite=...): give the seat's token with --token"),
    (["http://127.0.0.1:9/tables/abc", "--token", "t", "--policy", "clever"], "unknown policy 'clever'; policies: random"),
    (["http://127.0.0.1:9/tables/abc", "--token", "t", "--options", "[1]"], "--options is a JSON object"),
])
def test_bad_input_is_one_line_naming_what_is_allowed(args, message):
    run = subprocess.run(COMMAND + args, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert message in " ".join(run.stdout.split()) and "Traceback" not in run.stdout + run.stderr
