"""``dicetable agent``: a program plays a human seat of a server table (see docs/agents.md).

Registered on the ``dicetable`` app by importing this module (cli/main.py does); the work is
done by :mod:`dicetable.agent`.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Optional

import typer
from rich.markup import escape

from dicetable.cli.app import app, console, fail, guarded
from dicetable.engine import seat_name

#: The policies ``dicetable agent --policy`` knows.
POLICIES = ("random",)


def read_options(text: Optional[str]) -> dict[str, Any] | None:
    """``--options`` as a dict (a JSON object, e.g. ``{"sheets": "winter"}``); fails naming the form otherwise."""
    if text is None:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        fail(f"--options is a JSON object such as '{{\"sheets\": \"winter\"}}', got {text!r}")
    return value


def seat_label(seat: int) -> str:
    """A seat as the project names it to people: its number from 0 and its player name, "seat 0 (Player 1)"."""
    return f"seat {seat} ({seat_name(seat)})"


@app.command("agent")
@guarded
def agent(
    link: str = typer.Argument(..., help="the seat's link (http://host:port/tables/<id>#invite=<seat>.<code>), "
                                          "or the table's address with --token"),
    token: Optional[str] = typer.Option(None, "--token", help="the seat's token (instead of an invite in the link)"),
    policy: str = typer.Option("random", "--policy", help=f"how the agent chooses: {', '.join(POLICIES)}"),
    seed: Optional[int] = typer.Option(None, "--seed", help="seed of the random policy"),
    options: Optional[str] = typer.Option(None, "--options",
                                          help="the table's options as a JSON object (default: those its view names)"),
    idle: Optional[float] = typer.Option(None, "--idle", help="give up after this many seconds without news "
                                                               "from the table (default: wait)"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="print only the result"),
) -> None:
    """Play a human seat of a server table with a policy until the game is over."""
    from dicetable.agent import Agent, AgentError, random_policy

    if policy not in POLICIES:
        fail(f"unknown policy {policy!r}; policies: {', '.join(POLICIES)}")
    if idle is not None and idle <= 0:
        fail(f"--idle is seconds above 0, got {idle}")
    choose = random_policy(seed)

    def said(action: str, version: int) -> None:
        if not quiet:
            console.print(f"version {version}: {escape(action)}")

    def claimed(seat: int, new_token: str) -> None:
        # The claim revoked every earlier token of the seat and used the invite up: this token is the
        # only way back to the seat after a stop, so it is said at once (on stderr, even with -q).
        address = f"{player.server}/tables/{player.table}"
        print(f"claimed {seat_label(seat)}; to resume after a stop: dicetable agent --token {new_token} {address}",
              file=sys.stderr, flush=True)

    player = Agent.from_link(link, choose, token=token, options=read_options(options), idle=idle, on_move=said,
                             on_claim=claimed)
    if player.invite is None and token is None:
        fail("the link holds no invite (#invite=...): give the seat's token with --token")
    try:
        final = player.play()
    except AgentError as exc:
        fail(str(exc))
    seat = final["seat"]
    place = "won" if seat in final["winners"] else "did not win"
    console.print(f"The game is over after {final['version']} actions: the agent at {seat_label(seat)} {place}; "
                  f"scores {final['scores']}; {player.moves} moves, {player.reconnects} reconnections.",
                  soft_wrap=True)  # one line in a log, whatever the width
