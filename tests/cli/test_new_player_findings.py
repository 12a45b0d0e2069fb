"""What a new player found at the terminal (session 26, 2026-12-07), one test or more a finding.

``load`` keeps the game on the table, hints without an estimate, the first hot-seat hand-over,
``q``, readline, forced throw-away choices, the continue line's program name, the solo end
screen, the seat question, the line-stopped note, ``--players``/``--seed`` words and seat
numbers in save-file errors.
"""

from __future__ import annotations

import io
import json
import os
import random
import select
import signal
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from dicetable.cli.app import program_name
from dicetable.cli.main import app
from dicetable.cli.play import QUIT_WORDS, TerminalTable, hint_line, make_bots
from dicetable.engine import list_games, new_game, spec_of

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input, catch_exceptions=False)


def flat(result) -> str:
    return " ".join(result.output.split())


# ------------------------------------------------------------------ 1. load keeps the game on the table
def _a_save_of_another_game(tmp_path) -> Path:
    run("play", "dice-kingdoms-of-valeria", "--players", "1", "--seed", "11", input="quit\n")
    return next((tmp_path / "saves").glob("dice-kingdoms-of-valeria-*.json"))


def test_load_in_play_saves_the_game_on_the_table_first_as_quit_does(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    other = _a_save_of_another_game(tmp_path).relative_to(tmp_path)
    result = run("play", "kingdom-of-dice", "-p", "2", "--seed", "42", input=f"1\nload {other}\nquit\n")
    assert result.exit_code == 0
    saves = sorted((tmp_path / "saves").glob("kingdom-of-dice-*.json"))
    assert len(saves) == 1  # the game that was on the table, with the die set aside
    saved = json.loads(saves[0].read_text())
    assert saved["history"][-1][0] == 0 and saved["history"][-1][1].startswith("keep:")
    name = f"saves/{saves[0].name}"
    out = flat(result)
    assert f"The game on the table was saved to {name}. Continue with: dicetable play --load {name}" in out
    assert out.index(f"saved to {name}") < out.index(f"Loaded {other}")


def test_load_of_its_own_save_keeps_both_positions(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "kingdom-of-dice", "-p", "2", "--seed", "42",
                 input="save here.json\n1\nload here.json\nquit\n")
    assert result.exit_code == 0
    assert json.loads((tmp_path / "here.json").read_text())["history"] == []  # the position saved by hand
    moved = list((tmp_path / "saves").glob("kingdom-of-dice-*.json"))
    assert len(moved) == 1 and len(json.loads(moved[0].read_text())["history"]) == 1  # the die set aside


def test_a_load_that_fails_leaves_the_game_unsaved_and_on_the_table(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "kingdom-of-dice", "-p", "2", "--seed", "42", input="load nothing-here.json\nscores\nq\n")
    out = flat(result)
    assert "nothing-here.json" in out and "Scores so far" in out
    assert "The game on the table was saved" not in out
    assert len(list((tmp_path / "saves").glob("kingdom-of-dice-*.json"))) == 1  # by q alone


# ------------------------------------------------------------------ 2. a choice never searched has no estimate
def test_a_hint_for_a_choice_the_search_never_tried_has_no_estimate():
    from dicetable.bots.mcts import hint_rows
    from dicetable.server.bots import hint_answer

    state = new_game("biblios-dice", 2, seed=0)
    rng = random.Random(0)
    for _ in range(2):  # two random steps: a decision of 6 choices the easy search leaves some of untried
        seat = state.to_move[0]
        state.apply(rng.choice(state.legal_actions(seat)).id, seat)
    seat = state.to_move[0]
    rows = hint_rows(state, seat, top=len(state.legal_actions(seat)), level="easy")
    untried = [r for r in rows if r.share == 0]
    assert untried and len(untried) < len(rows)
    for row in rows:
        if row.share == 0:
            assert row.value is None
            assert "not searched" in hint_line(row) and "win" not in hint_line(row)
        else:
            assert row.kind == "win" and 0 <= row.value <= 1
    answer = hint_answer(7, seat, [(r.action.id, r.action.label, r.share, r.value, r.kind) for r in rows])
    values = [h["value"] for h in answer["hints"]]
    assert None in values and all(v is None or 0 <= v <= 1 for v in values)
    json.dumps(answer)  # null in the server's JSON


def test_the_browser_hint_says_not_searched_for_a_null_value():
    script = (ROOT / "src/dicetable/web/static/table.js").read_text(encoding="utf-8")
    assert 'h.value === null' in script and "not searched" in script


# ------------------------------------------------------------------ 3. the first hot-seat view is handed over
def test_hot_seat_hands_the_keyboard_over_before_the_first_private_view(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "biblios-dice", "-p", "3", "--human", "1,2", "-o", "hidden_objectives=true",
                 "--seed", "5", input="\nquit\n")
    out = flat(result)
    assert "Hand the keyboard to Player 1" in out
    assert "Player 1's Hidden Objective" in out
    assert out.index("Hand the keyboard to Player 1") < out.index("Player 1's Hidden Objective")


def test_quit_at_the_first_hand_over_shows_no_secret(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "biblios-dice", "-p", "3", "--human", "1,2", "-o", "hidden_objectives=true",
                 "--seed", "5", input="quit\n")
    out = flat(result)
    assert "Hand the keyboard to Player 1" in out and "Game saved to" in out
    assert "Hidden Objective:" not in out


def test_one_person_against_bots_gets_no_hand_over(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "biblios-dice", "-p", "2", "--seed", "5", input="quit\n")
    assert "Hand the keyboard" not in flat(result)


# ------------------------------------------------------------------ 4. q, and the way to help
def test_q_saves_and_leaves_like_quit(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "kingdom-of-dice", "-p", "2", "--seed", "42", input="q\nscores\n")
    assert result.exit_code == 0
    assert "Game saved to saves/kingdom-of-dice-" in flat(result)
    assert "Scores so far" not in flat(result)  # the game left at q (the end of input would save too)


def test_no_game_has_an_action_id_that_is_a_quit_word():
    for spec in list_games():
        for players in sorted({spec.min_players, spec.max_players}):
            state = new_game(spec.id, players, seed=3)
            rng = random.Random(3)
            for _ in range(300):
                if state.is_over:
                    break
                seat = state.to_move[0]
                actions = state.legal_actions(seat)
                assert not {a.id.lower() for a in actions} & set(QUIT_WORDS), spec.id
                state.apply(rng.choice(actions).id, seat)


def test_an_unknown_word_is_refused_with_the_way_to_help(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "kingdom-of-dice", "-p", "2", "--seed", "42", input="frobnicate\nquit\n")
    out = flat(result)
    assert "'frobnicate' is not a legal action" in out
    assert "type help for the commands" in out


# ------------------------------------------------------------------ 5. readline at a terminal
@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_up_arrow_recalls_the_last_line_at_a_terminal(tmp_path):
    pty = pytest.importorskip("pty")
    pytest.importorskip("readline")
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "TERM": "xterm", "COLUMNS": "120", "LINES": "40",
           "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    pid, fd = pty.fork()
    if pid == 0:  # the child: the game at a terminal
        os.chdir(tmp_path)
        os.execve(sys.executable, [sys.executable, "-c", "from dicetable.cli.main import app; app()",
                                   "play", "kingdom-of-dice", "-p", "2", "--seed", "42"], env)
    seen = b""

    def until(text: bytes, count: int = 1) -> None:
        nonlocal seen
        limit = time.monotonic() + 120  # a hung child must not hang the suite (not a speed check)
        while seen.count(text) < count and time.monotonic() < limit:
            ready, _, _ = select.select([fd], [], [], 1)
            if ready:
                try:
                    seen += os.read(fd, 65536)
                except OSError:
                    break
        assert seen.count(text) >= count, seen[-2000:]

    try:
        until(b"> ")
        os.write(fd, b"scores\r")
        until(b"Scores so far")
        os.write(fd, b"\x1b[A\r")  # Up, Enter: the same line again
        until(b"Scores so far", 2)
        assert b"is not a legal action" not in seen
        os.write(fd, b"quit\r")
        until(b"Continue with")
    finally:
        if os.waitpid(pid, os.WNOHANG) == (0, 0):  # still waiting for a line: end it
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)
    assert list(home.iterdir()) == []  # no history file in the home folder


def test_piped_input_is_read_without_readline(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "kingdom-of-dice", "-p", "2", "--seed", "42", input="scores\nquit\n")
    assert "Scores so far" in flat(result) and "Game saved to" in flat(result)


# ------------------------------------------------------------------ 6. a forced choice that throws the turn away
def _a_forced_throw_away():
    """Seeded random Kingdom of Dice play up to Player 1's first decision with one choice, a die
    that leaves no valid result (rulebook: "Checking the result")."""
    state = new_game("kingdom-of-dice", 2, seed=5)
    rng = random.Random(5)
    throws = spec_of(state).extras["throws_turn_away"]
    while not state.is_over:
        seat = state.to_move[0]
        actions = state.legal_actions(seat)
        if seat == 0 and len(actions) == 1 and throws(state, 0, actions[0].id):
            return state
        state.apply(rng.choice(actions).id, seat)
    raise AssertionError("no forced throw-away choice in this game")


def _table(state, answers):
    out = io.StringIO()
    asked = []

    def read(prompt: str) -> str:
        asked.append((prompt, len(state.history)))
        return answers.pop(0)
    console = Console(file=out, width=120, height=40, force_terminal=False, emoji=False)
    table = TerminalTable(state, {0}, make_bots(state, {0}, "greedy"), console=console, read=read)
    return table, out, asked


def test_a_forced_choice_that_throws_the_turn_away_is_shown_and_waits_for_enter():
    state = _a_forced_throw_away()
    before = len(state.history)
    table, out, asked = _table(state, [""])
    table.human_turn(0)
    text = " ".join(out.getvalue().split())
    # kept crown, crown, 1, 4, 4 and the last die a 4: three 4s are not a valid result (4s in fours)
    assert "Only one choice for Player 1: Set aside a crown." in text
    assert "crown, crown, 1, 4, 4, 4 is not a valid result" in text
    assert "(made for you)" not in text
    assert [(p, n) for p, n in asked] == [("Press Enter to go on (or type quit): ", before)]  # asked before it was made
    assert list(state.history[-1]) == [0, "keep:crown"]


def test_quit_at_a_forced_throw_away_leaves_it_unmade():
    from dicetable.cli.play import Quit

    state = _a_forced_throw_away()
    before = len(state.history)
    table, _, _ = _table(state, ["q"])
    with pytest.raises(Quit):
        table.human_turn(0)
    assert len(state.history) == before


def test_the_readme_says_how_a_forced_throw_away_choice_is_made():
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "when that one choice throws your turn away, it is shown with the reason and waits for Enter" in readme
    assert "while another choice would not asks you to type yes first" in readme


# ------------------------------------------------------------------ 8. the program as it was started
def test_the_continue_line_names_the_program_as_it_was_started(tmp_path):
    venv = tmp_path / ".venv" / "bin"
    venv.mkdir(parents=True)
    script = venv / "dicetable"
    script.write_text("")
    started = str(script.relative_to(tmp_path))
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert program_name(started, which=lambda name: None) == ".venv/bin/dicetable"  # not on PATH
        assert program_name(started, which=lambda name: str(script)) == "dicetable"  # PATH finds it
        assert program_name(str(script), which=lambda name: str(tmp_path / "other" / "dicetable")) == str(script)
    finally:
        os.chdir(cwd)
    assert program_name("/usr/lib/python3/site-packages/pytest/__main__.py", which=lambda name: None) == "dicetable"
    spaced = "/tmp/my games/dicetable"
    assert program_name(spaced, which=lambda name: None) == "'/tmp/my games/dicetable'"


def test_the_save_line_uses_the_program_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["/opt/elsewhere/bin/dicetable"])
    monkeypatch.setattr("shutil.which", lambda name: None)
    result = run("play", "kingdom-of-dice", "-p", "2", "--seed", "42", input="quit\n")
    assert "Continue with: /opt/elsewhere/bin/dicetable play --load saves/kingdom-of-dice-" in flat(result)


# ------------------------------------------------------------------ 11. the end screen
def _scores_in_the_log(out: str) -> str:
    return out.split("Game over. Scores: ")[1].split(".")[0]


def test_the_solo_end_screen_and_replay_list_the_cats_score(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "kingdom-of-dice", "-p", "1", "--human", "0", "-o", "cat_level=1", "--seed", "4")
    out = flat(result)
    logged = _scores_in_the_log(out)  # the game's own last event: "Player 1 N; the Mischievous Cat M"
    player, cat = [part.rsplit(" ", 1)[1] for part in logged.split("; ")]
    assert f"Final scores Player 1: {player}, The Mischievous Cat: {cat}" in out
    replay = next((tmp_path / "replays").glob("kingdom-of-dice-*.json"))
    again = flat(run("replay", str(replay)))
    assert f"Scores: Player 1 {player}, The Mischievous Cat {cat}" in again


def test_the_two_player_end_screen_names_the_winner_once_below_the_sheet(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "kingdom-of-dice", "-p", "2", "--human", "0", "--seed", "4")
    end = result.output.split("Score sheet")[1]
    assert "wins with" in end  # the sheet's outcome sentence
    assert "Winner:" not in end


# ------------------------------------------------------------------ 10, 13, 14, 15: wording
def test_the_solo_seat_question_does_not_offer_hot_seat(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", input="kingdom-of-dice\n1\n" + "\n" * 8 + "quit\n")
    out = flat(result)
    assert "Does a person play the seat (1: yes; 0: no, the bot plays alone) [1]?" in out
    assert "1-1" not in out and "hot-seat" not in out.split("Does a person")[1].split("?")[0]


def test_a_line_stopped_without_a_forced_step_does_not_mention_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # seed 3 rolls one crown: the second "1" names the crown again, which is no longer there
    result = run("play", "kingdom-of-dice", "--players", "1", "--seed", "3", input="1 1\nquit\n")
    out = flat(result)
    assert "the line stopped at '1' (the choices before it were made): 'keep:crown'" in out
    assert "single possible choice" not in out


@pytest.mark.parametrize("args, says", [
    (["kingdom-of-dice", "--players", "abc"], "--players takes a whole number of players, 1-4 for Kingdom of Dice, got 'abc'"),
    (["--players", "two"], "--players takes a whole number of players"),
    (["kingdom-of-dice", "--seed", "abc"], f"--seed takes a whole number from 0 to {2**64 - 1}, got 'abc'"),
])
def test_a_word_for_players_or_seed_says_what_is_allowed(args, says):
    result = run("play", *args)
    assert result.exit_code == 2
    assert says in flat(result)
    assert "Invalid value" not in result.output


def test_save_file_seat_errors_count_from_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run("play", "kingdom-of-dice", "-p", "3", "--seed", "42", input="quit\n")
    path = next((tmp_path / "saves").glob("kingdom-of-dice-*.json"))
    data = json.loads(path.read_text())
    data["table"]["humans"] = [7]
    path.write_text(json.dumps(data))
    out = flat(run("play", "--load", str(path)))
    assert "Player 1 to Player 3" in out and "got [7]" in out


# ------------------------------------------------------------------ 12 (one of): Ctrl-C at the menu
def test_ctrl_c_at_the_menu_says_interrupted_on_a_line_of_its_own(monkeypatch):
    def interrupted(prompt, on=None):
        raise KeyboardInterrupt
    monkeypatch.setattr("dicetable.cli.main.read_line", interrupted)
    result = runner.invoke(app, ["play"])
    assert result.exit_code == 130
    assert "\ninterrupted" in result.output


# ------------------------------------------------------------------ 12 (one of): the game menu at 80 columns
def test_a_wrapped_game_description_stays_indented_beside_its_number():
    result = run("play", input="")
    lines = result.output.split("Which game?")[1].split("Game number")[0].strip("\n").splitlines()
    assert len(lines) > len(list_games())  # some descriptions wrap at 80 columns
    for line in lines:
        assert line.startswith("  "), line  # numbered lines and their continuations alike
    numbered = [line for line in lines if line.strip()[:1].isdigit()]
    assert len(numbered) == len(list_games())
