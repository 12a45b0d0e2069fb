"""`simulate --untimed`: seeded bot games that replay the same however busy the machine is.

The search levels cap each decision and turn by the wall clock (docs/bots.md "Time"), so with the
caps what a level plays depends on the machine's speed at that moment. Untimed jobs build their
bots with ``make_bot(..., clock=False)``. The clock is faked (tests/clocks.py): frozen (no cap ever
cuts) and jumping 10 s at every reading (every cap cuts at once). Both fakes are deterministic, so
the timed control below shows a changed game reliably, not by chance.
"""

from __future__ import annotations

import json

from typer.testing import CliRunner

from dicetable.cli.main import app
from dicetable.simulate import Job, make_jobs, simulate
from tests.clocks import frozen_clock, jumping_clock

# Biblios Dice, `easy` against `easy` (the cheapest level with caps: 250 ms a decision, 750 ms a
# turn), 2 games from seed 7: with the caps, the jumping clock plays both games another way.
GAME, BOTS, GAMES, SEED = "biblios-dice", ["easy", "easy"], 2, 7


def _played(clock: bool) -> list[dict]:
    """The seeded games' records, without their wall-clock ``seconds``, played in this process."""
    jobs = make_jobs(GAME, len(BOTS), BOTS, GAMES, SEED, clock=clock)
    assert all(job.clock is clock for job in jobs)
    return [{k: v for k, v in rec.items() if k != "seconds"} for rec in simulate(jobs, workers=1)]


def test_untimed_games_are_the_same_on_a_frozen_and_a_jumping_clock(monkeypatch):
    """Untimed: identical records (scores, winners, steps, facts) on both clocks, and the games the
    level plays when its caps never cut. Timed (the default, the control): the jumping clock cuts
    every search and the same seeds give other games."""
    frozen_clock(monkeypatch)
    untimed_frozen = _played(clock=False)
    timed_frozen = _played(clock=True)
    jumping_clock(monkeypatch)
    untimed_jumping = _played(clock=False)
    timed_jumping = _played(clock=True)

    assert untimed_jumping == untimed_frozen
    assert [r["clock"] for r in untimed_frozen] == [False] * GAMES
    assert [r["clock"] for r in timed_frozen] == [True] * GAMES
    assert all(r["steps"] > 20 for r in untimed_frozen)  # whole games, not a stop at the first turn
    # No cap cuts on a frozen clock: the untimed bots play what the timed ones play there.
    assert [{**r, "clock": True} for r in untimed_frozen] == timed_frozen
    # With the caps the jumping clock changes what is played.
    outcome = [(r["scores"], r["winners"], r["steps"]) for r in timed_jumping]
    assert outcome != [(r["scores"], r["winners"], r["steps"]) for r in timed_frozen]


def test_a_job_keeps_the_clock_unless_told_otherwise():
    job = Job(GAME, 2, 0, 1, ("easy", "easy"), {})
    assert job.clock is True
    assert all(j.clock for j in make_jobs(GAME, 2, BOTS, 2, SEED))


runner = CliRunner()


def _cli_records(tmp_path, name: str, *extra: str) -> tuple[str, list[dict]]:
    out = tmp_path / f"{name}.jsonl"
    result = runner.invoke(app, ["simulate", GAME, "-n", str(GAMES), "--bots", ",".join(BOTS), "--seed",
                                 str(SEED), "--workers", "1", "--jsonl", str(out), *extra],
                           catch_exceptions=False)
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    return result.output, [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


def test_simulate_untimed_on_the_command_line_reaches_the_jobs(tmp_path, monkeypatch):
    frozen_clock(monkeypatch)
    shown, frozen = _cli_records(tmp_path, "frozen", "--untimed")
    jumping_clock(monkeypatch)
    _, jumping = _cli_records(tmp_path, "jumping", "--untimed")
    assert jumping == frozen
    assert [r["clock"] for r in frozen] == [False] * GAMES
    assert "search bots untimed" in " ".join(shown.split())


def test_simulate_without_untimed_says_its_bots_kept_the_clock(tmp_path):
    out = tmp_path / "games.jsonl"
    result = runner.invoke(app, ["simulate", "kingdom-of-dice", "-n", "2", "--bots", "greedy,random",
                                 "--workers", "1", "--jsonl", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["clock"] for line in out.read_text().splitlines()] == [True, True]
    assert "untimed" not in result.output


def test_simulate_help_says_what_untimed_costs():
    result = runner.invoke(app, ["simulate", "--help"], catch_exceptions=False, env={"COLUMNS": "200"})
    text = " ".join(result.output.split())
    assert "--untimed" in text and "whole iteration budget" in text
