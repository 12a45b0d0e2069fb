"""The `dicetable` command, driven as a person would drive it."""

from __future__ import annotations

import json
import os
import re

import pytest
from typer.testing import CliRunner

from dicetable.cli.main import app

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input, catch_exceptions=False)


def only_file(folder):
    """The one game file in ``folder`` (saves and replays are named by game, time and a random part)."""
    files = [f for f in folder.glob("*.json")]
    assert len(files) == 1, files
    return files[0]


def test_games_lists_every_game_with_players_and_options():
    result = run("games")
    assert result.exit_code == 0
    assert "kingdom-of-dice" in result.output and "1-4" in result.output
    assert "cat_level" in result.output


def test_games_shows_a_switch_as_it_is_typed():
    # -o hidden_objectives=true (README): the list showed Python's "False (False|True)"
    out = "".join(run("games").output.replace("│", "").split())   # the cells' text, folded lines joined
    assert "hidden_objectives=false(false|true)" in out and "solo_track_trigger=false" in out
    assert "False" not in out and "True" not in out


def test_bots_only_game_finishes_and_writes_a_replay_that_replays(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "kingdom-of-dice", "--players", "3", "--human", "0", "--seed", "5")
    assert result.exit_code == 0, result.output
    assert "Final scores" in result.output
    replay_file = only_file(tmp_path / "replays")
    record = json.loads(replay_file.read_text())
    assert record["kind"] == "replay" and record["players"] == 3
    again = run("replay", str(replay_file))
    assert again.exit_code == 0
    assert "Game over" in again.output


def test_human_seat_gets_clear_errors_and_the_same_prompt(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lines = ["99", "keep:7", "help", "quit"]
    result = run("play", "kingdom-of-dice", "--players", "2", "--seed", "4", input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert "there is no choice 99" in result.output
    assert "'keep:7' is not a legal action for Player 1" in result.output
    assert "After each roll you must set aside at least one die" in result.output   # help text
    assert result.output.count("set aside at least one die.") >= 3                  # same prompt again
    assert only_file(tmp_path / "saves").name.startswith("kingdom-of-dice-")       # quit saves


def test_save_and_load_continue_the_same_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    save = tmp_path / "mid.json"
    result = run("play", "kingdom-of-dice", "--players", "2", "--seed", "9",
                 input=f"1\nsave {save}\nquit\n")
    assert result.exit_code == 0 and save.exists()
    saved = json.loads(save.read_text())
    assert saved["game"] == "kingdom-of-dice" and len(saved["history"]) == 1
    result = run("play", "--load", str(save), "--human", "0")
    assert result.exit_code == 0 and "Final scores" in result.output


@pytest.mark.parametrize("args, message", [
    (("play", "chess"), "unknown game 'chess'"),
    (("play", "kingdom-of-dice", "--players", "9"), "1-4 players, not 9"),
    (("play", "kingdom-of-dice", "--human", "5"), "seat numbers 1 to 2"),
    (("play", "kingdom-of-dice", "--players", "1", "-o", "cat_level=9"), "cannot be 9; allowed: 1, 2, 3, 4, 5, 6"),
    (("play", "kingdom-of-dice", "-o", "cat_level=2"), "applies only with 1 player"),
    (("play", "kingdom-of-dice", "-o", "nonsense"), "NAME=VALUE"),
    (("play", "kingdom-of-dice", "--bot", "genius"), "unknown bot 'genius'"),
    (("simulate", "kingdom-of-dice", "--bots", "greedy,random,random,random,random"), "1-4 players, not 5"),
    (("simulate", "kingdom-of-dice", "--bots", "greedy,wizard"), "unknown bot 'wizard'"),
    (("replay", "/no/such/file.json"), "no such file"),
    (("hint", "/no/such/file.json"), "no such file"),
])
def test_bad_input_gets_a_clear_error(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())


def test_simulate_prints_win_rates_and_writes_jsonl(tmp_path):
    out = tmp_path / "games.jsonl"
    result = run("simulate", "kingdom-of-dice", "-n", "6", "--bots", "greedy,random",
                 "--workers", "1", "--jsonl", str(out))
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output and "greedy" in result.output
    assert "6 games, 2 seats, seats rotated" in result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 6
    assert [r["bots"] for r in rows[:2]] == [["greedy", "random"], ["random", "greedy"]]


def test_simulate_of_one_bot_is_a_solo_game():
    result = run("simulate", "kingdom-of-dice", "-n", "2", "--bots", "greedy", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "2 games, solo" in result.output and "1 seats" not in result.output, result.output


def test_simulate_takes_the_largest_seed_and_plays_every_game(tmp_path):
    """A base seed near 2**64 gave game seeds past 64 bits partway through a run; every game is played now."""
    out = tmp_path / "games.jsonl"
    result = run("simulate", "kingdom-of-dice", "-n", "3", "--bots", "greedy,random", "--workers", "1",
                 "--seed", str(2**64 - 1), "--jsonl", str(out))
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 3


def test_bench_json_reports_per_operation_costs():
    # Corsairs: its random games are short (Kingdom of Dice's run to thousands of actions, and the
    # bench plays one out from every sampled state: 40 s against 3 s)
    result = run("bench", "corsairs-of-valeria", "-n", "3", "--json")
    assert result.exit_code == 0
    report = json.loads(result.output)
    rows = report["rows"]
    assert rows[0]["game"] == "corsairs-of-valeria"
    # both builds side by side when a compiled build is installed, else the pure one alone
    from dicetable.compiled import compiled_available

    want = ["compiled", "pure"] if compiled_available() else ["pure"]
    assert [r["build"] for r in rows] == want
    assert len(report["compiled_vs_pure"]) == (1 if compiled_available() else 0)
    for key in ("games_per_s", "steps_per_s", "apply_us", "legal_actions_us", "clone_us",
                "mcts_iterations_per_s", "hard_ms_per_decision", "hard_iterations_per_decision",
                "peak_kib_one_game"):
        assert rows[0][key] > 0
    # the hard bot stops at 1,500 iterations (or its time budget, whichever ends first)
    assert rows[0]["hard_iterations_per_decision"] <= 1500


def test_hint_on_a_saved_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    save = tmp_path / "s.json"
    run("play", "kingdom-of-dice", "--players", "2", "--seed", "2", input=f"save {save}\nquit\n")
    result = run("hint", str(save), "--level", "easy")
    assert result.exit_code == 0
    assert "%" in result.output and "keep:" in result.output
    assert "The search bot's top choices, by its share of the search" in _output(result)


@pytest.mark.ray
def test_simulate_on_a_local_ray_instance(tmp_path):
    pytest.importorskip("ray", reason="the ray extra is not installed (make test installs it when CI is set)")
    out = tmp_path / "ray.jsonl"
    result = run("simulate", "kingdom-of-dice", "-n", "4", "--bots", "greedy,random",
                 "--backend", "ray", "--jsonl", str(out))
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["index"] for r in rows) == [0, 1, 2, 3]
    # The same seeds on the local backend give the same games.
    local = tmp_path / "local.jsonl"
    run("simulate", "kingdom-of-dice", "-n", "4", "--bots", "greedy,random", "--workers", "1",
        "--jsonl", str(local))
    by_index = lambda path: sorted((json.loads(l)["index"], json.loads(l)["scores"])
                                   for l in path.read_text().splitlines())
    assert by_index(out) == by_index(local)


# ---------------------------------------------------------------- bad input, found by a new user

def _output(result) -> str:
    return " ".join(result.output.split())


@pytest.mark.parametrize("args, message", [
    (("play", "kingdom-of-dice", "--players", "0"), "Kingdom of Dice is for 1-4 players, not 0"),
    (("play", "kingdom-of-dice", "--players", "-1"), "Kingdom of Dice is for 1-4 players, not -1"),
    (("play", "kingdom-of-dice", "--human", "1,²"), "seat numbers 1 to 2"),
    (("play", "kingdom-of-dice", "-p", "1", "-o", "cat_level=3", "-o", "cat_level=4"),
     "option 'cat_level' is given twice"),
    (("simulate", "kingdom-of-dice", "-n", "0"), "--games takes a number of games of at least 1, got 0"),
    (("simulate", "kingdom-of-dice", "-n", "-3"), "at least 1, got -3"),
    (("simulate", "kingdom-of-dice", "-n", "2", "--workers", "-1"), "--workers takes a number of processes"),
    (("simulate", "kingdom-of-dice", "-n", "2", "--bots", ","), "--bots lists one bot per seat"),
    (("simulate", "kingdom-of-dice", "-n", "2", "--jsonl", "/proc/x"), "cannot write --jsonl /proc/x"),
    (("bench", "kingdom-of-dice", "-n", "0"), "--games takes a number of games of at least 1, got 0"),
    (("bench", "kingdom-of-dice", "-n", "1", "-p", "9"), "Kingdom of Dice is for 1-4 players, not 9"),
    (("bench", "chess"), "unknown game 'chess'"),
    (("replay", "/dev/null/x"), "cannot read /dev/null/x: Not a directory"),
])
def test_more_bad_arguments_get_a_clear_error(args, message):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert message in _output(result)
    assert "Traceback" not in result.output


def _menu_number(game_id: str) -> int:
    """The number of a game in the play menu (other tests may register extra toy games)."""
    from dicetable.engine import list_games
    return [spec.id for spec in list_games()].index(game_id) + 1


def _kod_save(tmp_path, seed=1, players=1):
    from dicetable import new_game
    from dicetable.engine import write_json
    return write_json(tmp_path / "kod.json", new_game("kingdom-of-dice", players, seed=seed).to_dict())


def _kod_replay(tmp_path):
    result = run("play", "kingdom-of-dice", "--players", "1", "--human", "0", "--seed", "5")
    assert result.exit_code == 0
    return only_file(tmp_path / "replays")


def test_folders_devices_and_saves_given_as_replays_are_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    save = _kod_save(tmp_path)
    for args, message in [
        (("replay", str(tmp_path)), "is a folder, not a saved game or replay file"),
        (("hint", str(tmp_path)), "is a folder, not a saved game or replay file"),
        (("play", "--load", str(tmp_path)), "is a folder, not a saved game or replay file"),
        (("replay", "/dev/zero"), "is not a regular file"),
        (("replay", str(save)), f"is a saved game, not a replay: continue it with dicetable play --load {save}"),
        (("play", "biblios-dice", "--load", str(save)), "--load continues a saved game"),
        (("play", "--load", str(save), "--players", "3"), "drop --players"),
        (("play", "--load", str(save), "--seed", "3"), "drop --seed"),
        (("simulate", "kingdom-of-dice", "-n", "2", "--jsonl", str(tmp_path)), "is a folder"),
    ]:
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert message in _output(result), (args, result.output)


def test_seat_options_are_checked_against_the_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    replay_file = _kod_replay(tmp_path)
    save = _kod_save(tmp_path)
    for args in [("replay", str(replay_file), "--seat", "2"), ("replay", str(replay_file), "--seat", "0"),
                 ("hint", str(save), "--seat", "0"), ("hint", str(save), "--seat", "-1")]:
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert "--seat takes a seat number from 1 to 1" in _output(result)
    assert run("replay", str(replay_file), "--seat", "1").exit_code == 0


def test_players_given_on_the_command_line_are_not_asked_again(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "--players", "1", "--seed", "3", input=f"{_menu_number('kingdom-of-dice')}\n\n\nquit\n")
    assert result.exit_code == 0, result.output
    assert "How many players" not in result.output
    assert "Player 1: You rolled" in result.output


def test_non_ascii_digits_are_refused_not_a_crash(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    from dicetable.engine import list_games
    result = run("play", input=f"²\n{_menu_number('kingdom-of-dice')}\n²\n1\n\n\nquit\n")
    assert result.exit_code == 0, result.output
    assert result.output.count(f"Type a number from 1 to {len(list_games())} or a game id") == 1
    assert result.output.count("Type a number from 1 to 4.") == 1          # Kingdom of Dice: 1-4 players
    result = run("play", "kingdom-of-dice", "-p", "1", "--seed", "1", input="²\n-1\nquit\n")
    assert result.exit_code == 0, result.output
    assert "'²' is not a legal action for Player 1" in _output(result)
    assert "there is no choice -1: choose 1 to" in _output(result)


def test_save_to_a_folder_or_an_unwritable_path_keeps_the_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "adir"
    folder.mkdir()
    lines = [f"save {folder}", "save /proc/x", "load", f"load {folder}", "1", "save 'kept.json'", "quit"]
    result = run("play", "kingdom-of-dice", "-p", "1", "--seed", "1", input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    out = _output(result)
    assert f"cannot save to {folder}: it is a folder" in out
    assert "cannot save to /proc/x:" in out
    assert "say which file to load: load FILE" in out
    assert f"{folder} is a folder, not a saved game" in out
    saved = json.loads((tmp_path / "kept.json").read_text())        # quotes around the name dropped
    assert len(saved["history"]) == 1                                # the move after the errors counts
    # quitting saves to the game's own file (the one it was last saved to), the old copy kept
    assert not (tmp_path / "saves").exists()
    assert json.loads((tmp_path / "kept.json.bak").read_text()) == saved


def test_quit_reports_a_save_that_cannot_be_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "saves").write_text("not a folder")
    result = run("play", "kingdom-of-dice", "-p", "1", "--seed", "1", input="quit\n")
    assert result.exit_code == 0
    assert "The game could not be saved: cannot save to saves" in _output(result)


def test_games_table_never_cuts_a_game_id_at_80_columns():
    result = CliRunner().invoke(app, ["games"], env={"COLUMNS": "80"}, catch_exceptions=False)
    from dicetable.engine import list_games
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    for spec in list_games():
        assert any(spec.id in line for line in lines), spec.id
    assert "…" not in result.output


def test_bench_table_fits_80_columns_uncut():
    # the longest game id, and 4-digit figures (peak KiB, hard ms) in every column
    result = CliRunner().invoke(app, ["bench", "dice-kingdoms-of-valeria", "-n", "1"],
                                env={"COLUMNS": "80"}, catch_exceptions=False)
    assert result.exit_code == 0
    assert "dice-kingdoms-of-valeria" in result.output and "…" not in result.output
    # the table's lines (the machine line, a load warning and the note on the builds are prose: output
    # that is not a terminal keeps them whole, cli/app.py)
    prose = ("Machine:", "warning:", "This is the editable", "Only the pure build")
    assert max(len(line) for line in result.output.splitlines() if not line.startswith(prose)) <= 80


def test_final_screen_names_the_winner(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "kingdom-of-dice", "--players", "3", "--human", "0", "--seed", "5")
    record = json.loads(only_file(tmp_path / "replays").read_text())
    names = ", ".join(f"Player {s + 1}" for s in record["winners"])
    assert f"Winner{'s' if len(record['winners']) > 1 else ''}: {names}" in result.output
    # Solo, the random bot loses to the Cat: no "Winner: no player" line; the last event says it.
    for old in (tmp_path / "replays").glob("*.json"):
        old.unlink()
    solo = run("play", "kingdom-of-dice", "--players", "1", "--human", "0", "--bot", "random", "--seed", "5")
    assert json.loads(only_file(tmp_path / "replays").read_text())["winners"] == []
    lines = solo.output.splitlines()
    after_scores = lines[next(i for i, line in enumerate(lines) if line.startswith("Final scores")) + 1:]
    assert after_scores[0] == "Seed of this game: 5" and after_scores[1].startswith("Replay written")
    assert "The Mischievous Cat wins." in _output(solo)


def _hot_seat_table(lines, tmp_path, terminal=True):
    import io
    from rich.console import Console
    from dicetable import new_game
    from dicetable.bots import make_bot
    from dicetable.cli.play import TerminalTable

    state = new_game("biblios-dice", 3, seed=7, options={"hidden_objectives": True})
    out = io.StringIO()
    console = Console(file=out, force_terminal=terminal, width=160, emoji=False, color_system=None)
    feed = iter(lines)

    def read(prompt):
        console.print(prompt, end="")
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    table = TerminalTable(state, {0, 1}, {2: make_bot("greedy", seed=9)}, console=console, read=read,
                          save_dir=tmp_path / "saves", replay_dir=tmp_path / "replays")
    table.run()
    return out.getvalue(), table


def test_hot_seat_hand_off_wipes_the_scrollback_and_shows_what_happened(tmp_path):
    # Player 1 takes the keyboard (the first hand-over: nothing to wipe yet), keeps the dice and takes
    # the Bishop dice, then hands over; Player 2 presses
    # Enter, sees the table as Player 2, and the input ends (the game is saved).
    text, table = _hot_seat_table(["", "keep", "take:bishop", ""], tmp_path)
    wipe = "\x1b[2J\x1b[H\x1b[3J"                              # screen and scrollback erased
    assert text.count(wipe) == 1
    before, after = text.split(wipe)
    assert after.lstrip("─ ").startswith("Hand the keyboard to Player 2")
    # Player 1's secrets (Gold 15, the Hidden Objective) are drawn before the wipe, never after it
    # (the table's wording differs between the older render and the text view: match both)
    gold_15, gold_16 = re.compile(r"Gold:? 15\b"), re.compile(r"Gold:? 16\b")
    objective = re.compile(r"[Oo]bjective:? Manuscripts")
    assert gold_15.search(before) and not gold_15.search(after)
    assert objective.search(before) and not objective.search(after)
    assert gold_16.search(after)                                          # Player 2's own Gold
    # what Player 1 did (and the bot, if it moved) is shown again after the wipe
    since = after[after.index("Since Player 2's last turn:"):gold_16.search(after).start()]
    assert "Player 1 keeps the dice." in since and "Player 1 takes 2 Bishop dice." in since
    # quitting (end of input) tells how to continue with the same two people
    saved = only_file(tmp_path / "saves")
    assert f"dicetable play --load {saved}" in " ".join(text.split())
    assert json.loads(saved.read_text())["table"] == {"humans": [0, 1], "bot": "greedy"}


def test_hot_seat_without_a_terminal_writes_no_escape_codes(tmp_path):
    text, _ = _hot_seat_table(["", "keep", "take:bishop", ""], tmp_path, terminal=False)
    assert "\x1b[3J" not in text


def test_corsairs_help_example_re_rolls_as_it_says(tmp_path, monkeypatch):
    # The help (and README) once said '1 3 6' re-rolls; 6 was "lock" in the list as shown.
    monkeypatch.chdir(tmp_path)
    result = run("play", "corsairs-of-valeria", "--seed", "1", "-o", "captains=none", "-o", "first_player=1",
                 input="help\n1 3 reroll\nquit\n")
    out = _output(result)
    # the terminal's own input rules say how to type several choices (the game's help speaks only of the rules)
    assert "Several choices may go on one line" in out
    assert "'1 3 6'" not in out
    assert "Player 1 pays 1 Grog to re-roll" in out


def test_bench_isolated_measures_each_game_in_a_fresh_process():
    from dicetable.bench import bench_isolated

    rows = bench_isolated([("corsairs-of-valeria", 2, 2, 1), ("biblios-dice", 2, 2, 1)])
    assert [r["game"] for r in rows] == ["corsairs-of-valeria", "biblios-dice"]
    assert all(r["steps_per_s"] > 0 and r["clone_us"] > 0 for r in rows)


def test_end_screen_prints_the_score_sheet(tmp_path, monkeypatch):
    """The end screen's table: the rulebook's categories (Biblios Dice: Scoring), a row per seat and
    Cadfael's at 2 players, each seat's total as the replay's final score, and who won and why."""
    monkeypatch.chdir(tmp_path)
    from dicetable.cli import app as cli_app

    # the CLI's console took its width when first imported (COLUMNS then); give it room for the sheet
    monkeypatch.setattr(cli_app.console, "width", 220)
    result = runner.invoke(app, ["play", "biblios-dice", "--players", "2", "--human", "0", "--seed", "8"],
                           env={"COLUMNS": "220"}, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    record = json.loads(only_file(tmp_path / "replays").read_text())
    out = result.output
    assert "Score sheet (rulebook: Scoring)" in out
    for category in ("Scrolls Track", "Ink Track", "Gold", "Losing VPs", "VP tokens", "tie-break: Gold left"):
        assert category in out
    cells = [re.split(r"\s{2,}", line.strip()) for line in out.splitlines()]
    rows = {c[0]: c[1:] for c in cells if re.fullmatch(r"Player \d|Cadfael", c[0])}
    assert set(rows) == {"Player 1", "Player 2", "Cadfael"}
    for seat in (0, 1):
        cells = rows[f"Player {seat + 1}"]
        points = [int(c) for c in cells[:8]]
        assert sum(points) == int(cells[8]) == record["scores"][seat]
    winner = f"Player {record['winners'][0] + 1}"
    assert rows[winner][-1] == "wins"
    assert f"{winner} win" in _output(result)


@pytest.mark.parametrize("seed", [2**64, 2**70, -1])
def test_play_refuses_a_seed_a_server_table_would_refuse(seed, tmp_path, monkeypatch):
    """`play --seed` takes 0..2**64-1, what the server takes (its MAX_SEED) and every game seed: beyond
    that, or below 0, one line names the range and nothing is played."""
    from dicetable.server.ids import MAX_SEED

    monkeypatch.chdir(tmp_path)  # a game that were played would write its replay here

    assert MAX_SEED == 2**64 - 1
    result = run("play", "kingdom-of-dice", "--human", "0", "--seed", str(seed))
    assert result.exit_code == 2
    assert result.output.strip() == ("error: --seed takes a whole number from 0 to 18446744073709551615 "
                                     f"(2**64-1, the largest seed a server table takes), got {seed}")
    assert not (tmp_path / "replays").exists()


def test_play_takes_the_largest_seed_a_server_table_takes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "kingdom-of-dice", "--human", "0", "--seed", str(2**64 - 1))
    assert result.exit_code == 0, result.output
    assert "Final scores" in result.output
    assert json.loads(only_file(tmp_path / "replays").read_text())["seed"] == 2**64 - 1


def test_help_lists_version_as_a_plain_flag():
    """`dicetable --help` shows --version as the flag it is, with its help right after it: no value
    placeholder such as "<bool>" (it takes none)."""
    result = run("--help")
    assert result.exit_code == 0
    line = next(row for row in result.output.splitlines() if "--version" in row)
    assert re.search(r"--version +print the version and the build", line), line


def test_version_names_the_build_that_runs():
    import dicetable

    result = run("--version")
    assert result.exit_code == 0
    assert result.output.strip() == f"dicetable {dicetable.__version__} ({dicetable.build_kind()})"
    assert dicetable.build_kind() in ("compiled", "pure")


def test_output_paths_that_cannot_be_written_are_refused_before_the_work(tmp_path, monkeypatch):
    # ladder --jsonl and train-eval --out: a folder, or a path under a file, is one clear sentence at
    # once (not "[Errno 21] Is a directory" from the ladder, nor an errno after train-eval's self-play).
    monkeypatch.chdir(tmp_path)
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    for args, message in [
        (("ladder", "-n", "1", "--game", "kingdom-of-dice", "-p", "1", "--jsonl", str(tmp_path)),
         f"--jsonl {tmp_path} is a folder; give a file name such as"),
        (("ladder", "-n", "1", "--game", "kingdom-of-dice", "-p", "1", "--jsonl", str(blocker / "x.jsonl")),
         f"cannot write --jsonl {blocker / 'x.jsonl'}: {blocker} is a file, not a folder"),
        (("train-eval", "kingdom-of-dice", "-n", "5", "-o", str(blocker / "v.json")),
         f"cannot write --out {blocker / 'v.json'}: {blocker} is a file, not a folder"),
    ]:
        result = run(*args)
        out = _output(result)
        assert result.exit_code == 2, (args, out)
        assert message in out, (args, out)
        assert "Errno" not in out and "rows from" not in out, (args, out)   # refused before any game


@pytest.mark.parametrize("players", [1, 2, 5])
def test_card_kingdoms_score_sheet_heading_fits_an_80_column_terminal(players):
    """Valeria: Card Kingdoms' end screen (R8.4-R8.6) in an 80x24 terminal: every line within 80
    columns, the column heading two rows high (it once wrapped "tie-break: cards in the tableau"
    over four rows), the tie-break named under the table."""
    from rich.console import Console

    from dicetable.cli.play import sheet_table
    from dicetable.engine import Rng, new_game
    from dicetable.engine.testing import random_step

    state, rng = new_game("valeria-card-kingdoms", players, seed=3), Rng(3)
    while not state.is_over:
        random_step(state, rng)
    console = Console(width=80, record=True, file=open(os.devnull, "w"), color_system=None)
    console.print(sheet_table(state.score_sheet()))
    lines = console.export_text().rstrip("\n").split("\n")
    assert all(len(line) <= 80 for line in lines)
    rule = next(i for i, line in enumerate(lines) if set(line.strip()) <= {"─", "━", "┡", "╇", "┩"} and line.strip())
    heading = [line for line in lines[1:rule] if line.strip() and not set(line.strip()) <= set("┏┳━┓")]
    assert len(heading) == 2, "\n".join(lines)
    assert "player" in heading[-1] and "Monsters" in heading[-1] and "score" in heading[-1]
    assert "tie-break: cards in the tableau (fewer wins)" in [line.strip() for line in lines]


def test_help_lists_each_command_in_a_flowing_sentence():
    """`dicetable --help` shows each command's first paragraph: one that holds hard line breaks
    comes out broken mid-sentence between full lines (a new user's test found `bench` so). Each
    command's summary is one line of its docstring, and at 80 columns takes at most two rows."""
    import typer.main

    group = typer.main.get_command(app)
    for name, command in group.commands.items():
        summary = (command.help or "").strip().split("\n\n")[0]
        assert "\n" not in summary, (name, summary)
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "80"}, catch_exceptions=False)
    rows = [line.strip("│ ").strip() for line in result.output.splitlines()]
    start = next(i for i, row in enumerate(rows) if row.startswith("bench "))
    end = next(i for i in range(start + 1, len(rows)) if not rows[i] or rows[i].split()[0] in group.commands
               or rows[i].startswith("╰"))
    assert end - start <= 2, rows[start:end]


def test_loading_a_json_file_that_is_no_save_says_what_a_save_is(tmp_path):
    """`play --load` of a JSON object without a save's "format": the message says the file is not a
    saved game and what a save holds, not "unsupported save format None"."""
    path = tmp_path / "notes.json"
    path.write_text('{"hello": 1}')
    result = runner.invoke(app, ["play", "--load", str(path)])
    words = " ".join(result.output.replace("│", " ").split())
    assert result.exit_code != 0
    assert "None" not in words
    assert "not a dicetable saved game" in words and "'format'" in words and '"game"' in words


BENCH_ROW = {"game": "corsairs-of-valeria", "build": "pure", "players": 2, "games_per_s": 10.0, "steps_per_s": 1000.0,
             "legal_actions_us": 2.0, "apply_us": 5.0, "clone_us": 3.0, "quiet_speedup": 2.0,
             "mcts_iterations_per_s": 900.0, "hard_ms_per_decision": 50.0, "peak_kib_one_game": 100.0}


@pytest.mark.parametrize("editable,words", [
    (True, "This is the editable development install (pip install -e, make dev), which runs the pure sources"),
    (False, "Only the pure build is installed (no extension was built at install time: no working C compiler"),
])
def test_bench_says_why_only_the_pure_build_is_there(monkeypatch, editable, words):
    # before, in the editable dev install: "Only the pure build is installed (no C compiler at install time)",
    # with gcc at /usr/bin/gcc
    import dicetable.bench
    import dicetable.compiled

    monkeypatch.setattr(dicetable.bench, "bench_builds", lambda jobs: ([dict(BENCH_ROW)], []))
    monkeypatch.setattr(dicetable.compiled, "editable_install", lambda: editable)
    result = run("bench", "corsairs-of-valeria", "-n", "1")
    assert result.exit_code == 0 and words in result.output
    assert "no C compiler at install time" not in result.output


def test_editable_install_reads_the_install_record(monkeypatch):
    from importlib import metadata

    import dicetable.compiled

    class Record:
        def __init__(self, text):
            self.text = text

        def read_text(self, name):
            return self.text if name == "direct_url.json" else None

    for text, want in [('{"dir_info": {"editable": true}, "url": "file:///src"}', True),
                       ('{"dir_info": {}, "url": "file:///src"}', False), (None, False), ("not json", False)]:
        monkeypatch.setattr(metadata, "distribution", lambda name, text=text: Record(text))
        assert dicetable.compiled.editable_install() is want


@pytest.mark.parametrize("load,warned", [(5.0, True), (1.5, False), (None, False)])
def test_bench_prints_the_machine_load_and_warns_above_the_cores(monkeypatch, load, warned):
    import dicetable.bench

    monkeypatch.setattr(dicetable.bench, "bench_builds", lambda jobs: ([dict(BENCH_ROW)], []))
    monkeypatch.setattr(dicetable.bench, "machine_load", lambda: {"cores": 2, "load": load})
    result = run("bench", "corsairs-of-valeria", "-n", "1")
    shown = "n/a" if load is None else f"{load:.2f}"
    assert f"Machine: 2 cores; load average {shown} before, {shown} after (1 min)" in result.output
    warning = (f"warning: the load average ({shown}) was above the 2 cores: other work competed for the CPU, "
               "so these figures are not comparable with a quiet machine's")
    assert (warning in result.output) is warned
    as_json = json.loads(run("bench", "corsairs-of-valeria", "-n", "1", "--json").output)
    assert as_json["machine"]["cores"] == 2 and as_json["machine"]["load_average_before"] == load
    assert (as_json["machine"]["warning"] is not None) is warned


def test_machine_load_reads_this_machine():
    import os

    from dicetable.bench import machine_load

    got = machine_load()
    assert got["cores"] == len(os.sched_getaffinity(0)) and got["load"] is not None and got["load"] >= 0


def test_simulate_shows_the_canonical_id_of_another_spelling(tmp_path):
    # before: "unknown game 'kingdom_of_dice'" (the OpenSpiel names use underscores)
    out = tmp_path / "g.jsonl"
    result = run("simulate", "Kingdom_of_Dice", "-n", "2", "--workers", "1", "--bots", "greedy,random",
                 "--jsonl", str(out))
    assert result.exit_code == 0 and "kingdom-of-dice: 2 games" in result.output
    assert "Kingdom_of_Dice" not in result.output
    assert {json.loads(line)["game"] for line in out.read_text().splitlines()} == {"kingdom-of-dice"}


def test_an_unknown_game_suggests_the_nearest():
    result = run("simulate", "biblio-dice", "-n", "1")
    assert result.exit_code == 2 and "did you mean 'biblios-dice'?" in result.output
