"""The `dicetable` command, driven as a person would drive it."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from dicetable.cli.main import app

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input, catch_exceptions=False)


def test_games_lists_every_game_with_players_and_options():
    result = run("games")
    assert result.exit_code == 0
    assert "kingdom-of-dice" in result.output and "1-4" in result.output
    assert "cat_level" in result.output


def test_bots_only_game_finishes_and_writes_a_replay_that_replays(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "kingdom-of-dice", "--players", "3", "--human", "0", "--seed", "5")
    assert result.exit_code == 0, result.output
    assert "Final scores" in result.output
    replay_file = tmp_path / "replays" / "kingdom-of-dice-5.json"
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
    assert (tmp_path / "saves" / "kingdom-of-dice-4.json").exists()                # quit saves


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
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 6
    assert [r["bots"] for r in rows[:2]] == [["greedy", "random"], ["random", "greedy"]]


def test_bench_json_reports_per_operation_costs():
    result = run("bench", "kingdom-of-dice", "-n", "3", "--json")
    assert result.exit_code == 0
    rows = json.loads(result.output)
    assert rows[0]["game"] == "kingdom-of-dice"
    for key in ("games_per_s", "steps_per_s", "apply_us", "legal_actions_us", "clone_us",
                "mcts_iterations_per_s", "peak_kib_one_game"):
        assert rows[0][key] > 0


def test_hint_on_a_saved_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    save = tmp_path / "s.json"
    run("play", "kingdom-of-dice", "--players", "2", "--seed", "2", input=f"save {save}\nquit\n")
    result = run("hint", str(save), "--level", "easy")
    assert result.exit_code == 0
    assert "%" in result.output and "keep:" in result.output


def test_simulate_on_a_local_ray_instance(tmp_path):
    pytest.importorskip("ray")
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
