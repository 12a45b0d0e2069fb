"""Save and replay files: atomic writes, a backup, names that never carry the seed, no silent overwrite."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import textwrap

from rich.console import Console

from dicetable.bots import make_bot
from dicetable.cli.play import TerminalTable, load_table_file
from dicetable.engine import new_file_path, new_game, write_json

NAME = re.compile(r"^kingdom-of-dice-\d{8}-\d{6}-[0-9a-f]{6}\.json$")


def test_a_save_killed_mid_write_leaves_the_previous_save_intact(tmp_path):
    # A child process saves a game, then starts saving a later position through a writer
    # slowed down by the test seam; it is killed (SIGKILL) half-way through that write.
    path = tmp_path / "game.json"
    script = textwrap.dedent(f"""
        import sys, time
        from dicetable.engine import new_game, write_json
        from dicetable.engine import replay

        state = new_game("kingdom-of-dice", 2, seed=11)
        write_json({str(path)!r}, state.to_dict())
        state.apply(state.legal_actions(0)[0].id, 0)

        def slow(handle, text):
            handle.write(text[: len(text) // 2])
            handle.flush()
            print("half written", flush=True)
            time.sleep(60)
            handle.write(text[len(text) // 2:])

        replay._write_text = slow
        write_json({str(path)!r}, state.to_dict())
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "half written"
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL
    first = new_game("kingdom-of-dice", 2, seed=11).to_dict()
    assert json.loads(path.read_text()) == first        # the previous save, whole
    state, _ = load_table_file(path)                       # and it loads
    assert state.history == []
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != "game.json"]
    assert all(name.startswith(".game.json.") and name.endswith(".tmp") for name in leftovers), leftovers


def test_saving_again_keeps_the_previous_save_as_a_backup(tmp_path):
    path = tmp_path / "g.json"
    write_json(path, {"a": 1})
    assert not (tmp_path / "g.json.bak").exists()
    write_json(path, {"a": 2})
    assert json.loads(path.read_text()) == {"a": 2}
    assert json.loads((tmp_path / "g.json.bak").read_text()) == {"a": 1}


def test_new_file_names_carry_the_game_time_and_a_random_part_never_the_seed(tmp_path):
    names = {new_file_path(tmp_path, "kingdom-of-dice").name for _ in range(50)}
    assert len(names) == 50                                # the random part makes each fresh
    assert all(NAME.match(name) for name in names), names
    taken = tmp_path / "kingdom-of-dice-20260101-000000-aaaaaa.json"
    taken.write_text("{}")
    assert all(new_file_path(tmp_path, "kingdom-of-dice") != taken for _ in range(20))


def _table(state, lines, tmp_path, humans=frozenset({0})):
    out = io.StringIO()
    console = Console(file=out, width=120, height=40, emoji=False, color_system=None)
    feed = iter(lines)

    def read(prompt):
        console.print(prompt, end="")
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    bots = {s: make_bot("greedy", seed=s) for s in range(state.players) if s not in humans}
    table = TerminalTable(state, set(humans), bots, console=console, read=read,
                          save_dir=tmp_path / "saves", replay_dir=tmp_path / "replays")
    return table, out


def test_quit_save_and_replay_are_never_named_after_the_seed(tmp_path):
    seed = 1234567891234567
    table, out = _table(new_game("kingdom-of-dice", 1, seed=seed), ["quit"], tmp_path)
    table.run()
    (save,) = (tmp_path / "saves").iterdir()
    assert NAME.match(save.name) and str(seed) not in save.name
    state = new_game("kingdom-of-dice", 2, seed=seed)
    table, out = _table(state, [], tmp_path, humans=frozenset())
    table.run()
    (replay,) = (tmp_path / "replays").iterdir()
    assert NAME.match(replay.name) and str(seed) not in replay.name


def test_two_games_never_share_a_file(tmp_path):
    for seed in (5, 5):  # the same seed twice: still two files
        table, _ = _table(new_game("kingdom-of-dice", 1, seed=seed), ["quit"], tmp_path)
        table.run()
    assert len(list((tmp_path / "saves").glob("*.json"))) == 2


def test_save_over_another_file_asks_first_and_no_keeps_it(tmp_path):
    other = tmp_path / "other.json"
    other.write_text('{"someone": "else"}')
    table, out = _table(new_game("kingdom-of-dice", 1, seed=3), [f"save {other}", "no", "quit"], tmp_path)
    table.run()
    text = " ".join(out.getvalue().split())
    assert f"{other} already exists; replace it" in text
    assert f"not saved: {other} was left as it was" in text
    assert json.loads(other.read_text()) == {"someone": "else"}
    table, out = _table(new_game("kingdom-of-dice", 1, seed=3), [f"save {other}", "yes", "quit"], tmp_path)
    table.run()
    assert json.loads(other.read_text())["game"] == "kingdom-of-dice"
    # quitting saves again to the game's own file (now other.json) without a question
    assert "replace it" not in out.getvalue().split("Saved to")[1]


def test_a_save_remembers_the_people_and_the_bot_level(tmp_path):
    state = new_game("corsairs-of-valeria", 3, seed=8)
    table, _ = _table(state, ["quit"], tmp_path, humans=frozenset({0}))
    table.bot_level = "random"
    table.run()
    (save,) = (tmp_path / "saves").glob("*.json")
    assert json.loads(save.read_text())["table"] == {"humans": [0], "bot": "random"}
    loaded, settings = load_table_file(save)
    assert settings == {"humans": {0}, "bot": "random"} and loaded.players == 3


def test_a_damaged_table_field_is_refused_with_its_name(tmp_path):
    import pytest
    from dicetable.engine import SaveFormatError

    data = new_game("kingdom-of-dice", 2, seed=1).to_dict()
    for table, message in [({"humans": [5], "bot": "greedy"}, "table.humans must list the people's seats, Player 1 to Player 2 (written 0 to 1 in the file)"),
                           ({"humans": [0], "bot": "genius"}, "table.bot must be one of"),
                           ("x", "'table' field must be")]:
        path = write_json(tmp_path / "d.json", {**data, "table": table})
        with pytest.raises(SaveFormatError, match=re.escape(message)):
            load_table_file(path)
    assert os.path.exists(tmp_path / "d.json.bak")


def test_a_finished_game_is_refused_the_same_way_by_load_and_dash_dash_load(tmp_path, monkeypatch):
    # A finished game used to be "continued": the table ended at once and wrote a second replay.
    from typer.testing import CliRunner
    from dicetable.cli.main import app
    from dicetable.engine.testing import random_step
    from dicetable.engine import Rng

    monkeypatch.chdir(tmp_path)
    state = new_game("kingdom-of-dice", 2, seed=3)
    rng = Rng(3)
    while not state.is_over:
        random_step(state, rng)
    done = write_json(tmp_path / "done.json", state.replay_record())
    message = "done.json holds a finished game: nothing is left to play; dicetable replay done.json shows how it went"
    result = CliRunner().invoke(app, ["play", "--load", "done.json"])
    assert result.exit_code == 2 and message in " ".join(result.output.split())
    table, out = _table(new_game("kingdom-of-dice", 1, seed=3), ["load done.json", "quit"], tmp_path)
    table.run()
    assert message in " ".join(out.getvalue().split())
    assert table.state.game_id == "kingdom-of-dice" and table.state.players == 1   # the table kept its game
    assert not (tmp_path / "replays").exists()
