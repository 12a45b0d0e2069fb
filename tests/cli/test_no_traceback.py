"""No traceback reaches a user: odd command lines and odd typed lines get one clear line."""

from __future__ import annotations

import io
import os
import tempfile

from hypothesis import HealthCheck, given, settings, strategies as st
from rich.console import Console
from typer.testing import CliRunner

from dicetable.bots import make_bot
from dicetable.cli.main import app
from dicetable.cli.play import TerminalTable
from dicetable.engine import new_game
from dicetable.engine.testing import shipped_games

runner = CliRunner()


def test_a_superscript_option_value_is_one_line_and_exit_2():
    result = runner.invoke(app, ["play", "corsairs-of-valeria", "-o", "first_player=²"], input="quit\n")
    assert result.exit_code == 2
    assert "Traceback" not in result.output and not isinstance(result.exception, ValueError)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) <= 2 and lines[0].startswith("error:")
    assert "first_player" in result.output


def test_an_unexpected_error_is_one_line_not_a_traceback(monkeypatch):
    def broken(*args, **kwargs):
        raise KeyError("boom")

    monkeypatch.setattr("dicetable.cli.main.get_game", broken)
    result = runner.invoke(app, ["play", "kingdom-of-dice"], input="quit\n")
    assert result.exit_code == 2
    assert "error: unexpected KeyError: 'boom' (this is a bug in dicetable; please report it)" in \
        " ".join(result.output.split())


WORDS = st.sampled_from([
    "play", "games", "replay", "hint", *(spec.id for spec in shipped_games()), "--players", "-p", "--human", "--bot",
    "--seed", "-o", "--load", "--layout", "--seat", "--level", "1", "2", "5", "-1", "²", "1,2", "0,1",
    "greedy", "random", "x", "", "=", "first_player=²", "cat_level=7", "captains=hook", "tracks=zz",
    "sheets=winter", "setup=random", "hidden_objectives=maybe", "/dev/null", "/proc/self", ".",
    "compact", "wide", "99999999999999999999999", "nan", "1e3", "\x00", "é",
])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(WORDS, st.text(max_size=6)), min_size=1, max_size=7))
def test_odd_command_lines_never_show_a_traceback(args):
    if "0" in args or any(a.startswith("0") or a.startswith("--human=0") for a in args):
        return  # a bots-only game runs to its end: slow, and covered elsewhere
    with tempfile.TemporaryDirectory() as folder:
        cwd = os.getcwd()
        os.chdir(folder)
        try:
            result = runner.invoke(app, args, input="quit\n" * 12)
        finally:
            os.chdir(cwd)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.output)


LINE_WORDS = st.sampled_from([
    "1", "2", "3", "9", "0", "-1", "+2", "1 1", "1 4", "1,2,3", "²", "help", "rules", "rules x", "rules ",
    "scores", "scores x", "show", "show 1", "show 2", "show 9", "show -1", "show x", "log", "log 0",
    "log 3", "log x", "more", "more more", "hint", "load", "load nowhere.json", "load /dev/null",
    "save /proc/x", "yes", "no", "stop", "reroll", "keep:crown", "lock", "quit", "'", '"', "\t", "é",
])
GAME_SETUPS = [(spec.id, spec.min_players) for spec in shipped_games()]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAME_SETUPS), st.integers(0, 1000),
       st.lists(st.one_of(LINE_WORDS, st.text(max_size=12).filter(
           lambda t: not t.strip().lower().startswith(("save", "load")))), max_size=12))
def test_odd_typed_lines_in_play_never_crash(setup, seed, lines):
    game, players = setup
    state = new_game(game, players, seed=seed)
    out = io.StringIO()
    console = Console(file=out, width=100, height=30, emoji=False, color_system=None)
    feed = iter(lines)

    def read(prompt):
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    with tempfile.TemporaryDirectory() as folder:
        bots = {s: make_bot("random", seed=s) for s in range(players) if s != 0}
        table = TerminalTable(state, {0}, bots, console=console, read=read,
                              save_dir=os.path.join(folder, "saves"), replay_dir=os.path.join(folder, "r"))
        table.save_dir = __import__("pathlib").Path(folder) / "saves"
        table.run()   # any exception here is a crash a person would have seen
    assert "Traceback" not in out.getvalue()
