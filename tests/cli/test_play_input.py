"""Terminal play: lines of several choices, save/load paths, opening events, small commands."""

from __future__ import annotations

import json
import re
import shlex

from typer.testing import CliRunner

from dicetable.cli.main import app

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input, catch_exceptions=False)


def flat(result) -> str:
    return " ".join(result.output.split())


def test_a_line_of_choices_stops_when_new_dice_come_up(tmp_path, monkeypatch):
    # Solo Dice Kingdoms, seed 2: choice 3 is a Slay with Red 3 and ends the turn; the next
    # turn's dice were never shown when "3 3" was typed, so the second 3 must not be played.
    monkeypatch.chdir(tmp_path)
    result = run("play", "dice-kingdoms-of-valeria", "--players", "1", "--seed", "2", input="3 3\nquit\n")
    out = flat(result)
    assert "Range Block 1-6 (pip 1) with Red 3" in out
    assert "Turn 2 of 20" in out
    assert "New dice came up; the rest of the line was ignored" in out
    events = [line for line in result.output.splitlines() if line.lstrip().startswith("•")]
    assert not any("Range Block 1-6 (pip 2)" in line for line in events)   # offered, never played
    assert "takes the Slay action: L5 Goblin Warren, Range Block 1-6 (pip 2)" not in out


def test_kingdom_of_dice_line_stops_after_a_reroll(tmp_path, monkeypatch):
    # "reroll" then more numbers: the numbers were typed for dice no longer on the table.
    monkeypatch.chdir(tmp_path)
    result = run("play", "kingdom-of-dice", "--players", "1", "--seed", "3",
                 input="1 reroll 1\nquit\n")
    assert "New dice came up; the rest of the line was ignored" in flat(result)
    saved = json.loads(next((tmp_path / "saves").glob("kingdom-of-dice-*.json")).read_text())
    assert saved["history"] == [[0, "keep:crown"], [0, "reroll"]]  # the last "1" was not played


def test_a_later_refused_step_says_the_earlier_ones_were_made(tmp_path, monkeypatch):
    # Card Kingdoms, seed 81: the Skeleton can be paid one way only, so the payment is made
    # for the player; the typed pay id then has no decision to answer.
    monkeypatch.chdir(tmp_path)
    lines = ["", "1", "", "2", "2", "", "1", "", "slay:ruins pay:1s+1m", "quit"]  # "": the first hand-over
    result = run("play", "valeria-card-kingdoms", "--players", "2", "--human", "1,2", "--seed", "81",
                 "-o", "setup=random", input="\n".join(lines) + "\n")
    out = flat(result)
    assert "Player 2 slays the Skeleton, paying 1 Strength + 1 Magic." in out
    assert ("the line stopped at 'pay:1s+1m' (the choices before it were made; "
            "a step with a single possible choice is made for you)") in out


def test_save_to_a_tilde_path_goes_to_the_home_folder(tmp_path, monkeypatch):
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    result = run("play", "dice-kingdoms-of-valeria", "--players", "1", "--seed", "11",
                 input="save ~/mygame.json\nload ~/mygame.json\nquit\n")
    assert result.exit_code == 0
    assert not (work / "~").exists()
    assert (home / "mygame.json").exists()
    assert "Loaded ~/mygame.json: Dice Kingdoms of Valeria, 1 player" in flat(result)


def test_save_resume_command_quotes_a_path_with_spaces(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "dice-kingdoms-of-valeria", "--players", "1", "--seed", "11",
                 input='save "my game.json"\nquit\n')
    assert (tmp_path / "my game.json").exists()
    line = next(l for l in result.output.splitlines() if "Saved to" in l)
    command = line.split("Continue with: ", 1)[1]
    assert shlex.split(command) == ["dicetable", "play", "--load", "my game.json"], command


def test_load_in_play_shows_the_loaded_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    other = tmp_path / "winter.json"
    result = run("play", "dice-kingdoms-of-valeria", "--players", "1", "-o", "sheets=winter", "--seed", "31",
                 input=f"save {other}\nquit\n")
    assert result.exit_code == 0 and other.exists()
    result = run("play", "valeria-card-kingdoms", "--players", "1", "--seed", "32",
                 input=f"load {other}\nquit\n")
    after = flat(result).split("Loaded ", 1)[1].split("> ")[0]
    assert "Dice Kingdoms of Valeria, 1 player" in after and "(Winter)" in after   # the loaded board...
    from dicetable.cli.play import load_table_file
    first = load_table_file(other)[0].legal_actions(0)[0].label
    assert f"1 {first}" in after                            # ...and its choices, before the prompt
    assert "(this table was Valeria: Card Kingdoms, 1 player; people: Player 1)" in after


def test_opening_events_are_shown_when_a_person_moves_first(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "dice-kingdoms-of-valeria", "--players", "1", "--seed", "11", input="quit\n")
    before_prompt = result.output.split("> ", 1)[0]
    assert "rolls black 1 and 2" in before_prompt
    assert "marks nothing from the dice" in before_prompt


def test_quit_at_the_hot_seat_hand_off_saves_without_showing_the_next_seat(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "biblios-dice", "--players", "2", "--human", "1,2", "--seed", "7",
                 input="keep\ntake:bishop\nquit\n")
    out = flat(result)
    assert "press Enter when only you can see the screen (or type quit)" in out
    after = out.split("press Enter when only you can see the screen")[1]
    assert "viewed by Player 2" not in after
    assert "Game saved to saves/biblios-dice-" in after


def test_log_takes_a_count_and_hint_takes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("play", "kingdom-of-dice", "--players", "1", "--seed", "3",
                 input="log 1\nlog x\nhint now\nquit\n")
    out = flat(result)
    assert "log takes a number of events of at least 1 (log 50), got 'x'" in out
    assert "hint takes nothing after it, got 'now'" in out
    # "log 1" prints exactly one event line, the newest
    # "log 1" prints exactly one event line, the newest (log lines have no bullet)
    log_lines = [line for line in result.output.splitlines() if re.match(r"^(?:> )?  [A-Z]", line)]
    assert len(log_lines) == 1 and "rolls" in log_lines[0], log_lines


def test_game_menu_takes_a_game_id(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    from dicetable.engine import list_games

    result = run("play", "--players", "2", input="nope\nkingdom-of-dice\n\n\nquit\n")
    out = flat(result)
    # (other tests may register toy games in this process: count what is registered)
    assert f"Type a number from 1 to {len(list_games())} or a game id" in out
    assert "Kingdom of Dice" in out.split("Type a number")[1]
    assert "Game saved to saves/kingdom-of-dice-" in out


def test_human_seats_must_be_seats_or_zero_alone():
    for text, message in (("", "got nothing"), ("0,1", "0 cannot go with other seats")):
        result = runner.invoke(app, ["play", "kingdom-of-dice", "--players", "2", "--human", text])
        assert result.exit_code == 2
        assert message in " ".join(result.output.split())


def test_the_seat_question_says_what_to_type_without_naming_the_command_line_option(tmp_path, monkeypatch):
    """Asked in the menu, a bad seat list gets the menu's words (the --human option was not used) and the
    question again; the game then starts with the seat typed next."""
    monkeypatch.chdir(tmp_path)
    from dicetable.engine import get_game

    options = [o for o in get_game("kingdom-of-dice").options if o.players is None or 2 in o.players]
    result = run("play", "--players", "2", input="kingdom-of-dice\n" + "\n" * len(options) + "5\n1\n\nquit\n")
    out = flat(result)
    assert "Type seat numbers 1 to 2 separated by commas (0: no humans), got '5'." in out
    assert "--human" not in out and "error:" not in out
    assert out.count("Which seats do people play") == 2
    assert "Game saved to saves/kingdom-of-dice-" in out


def test_a_hot_seat_save_asks_for_the_seat_to_move_before_showing_its_view(tmp_path, monkeypatch):
    # Saved at the hand-off to Player 2 (Player 1 typed quit there): whoever runs --load next may be
    # Player 1, so Player 2's own Gold (16 in Biblios Dice at seed 7) must wait for the hand-off prompt.
    monkeypatch.chdir(tmp_path)
    first = run("play", "biblios-dice", "--players", "3", "--human", "1,2", "--seed", "7",
                input="\nkeep\ntake:bishop\nadvance:scrolls\nquit\n")
    saved = re.search(r"--load (saves/\S+\.json)", flat(first)).group(1)
    result = run("play", "--load", saved, input="quit\n")
    out = flat(result)
    assert "Hand the keyboard to Player 2" in out
    before, after = out.split("press Enter when only you can see the screen", 1)
    assert "Loaded" in before
    assert not re.search(r"Gold:? 16\b", before), before       # Player 2's private view: after the prompt only
    assert "Game saved to saves/biblios-dice-" in after and not re.search(r"Gold:? 16\b", after)


def test_hot_seat_opening_events_are_printed_once(tmp_path, monkeypatch):
    # Two people at Card Kingdoms: the set-up line is public and already on the screen when Player 1
    # first decides; only what Player 1 alone may see (the two Dukes dealt) is added, not the set-up again.
    monkeypatch.chdir(tmp_path)
    result = run("play", "valeria-card-kingdoms", "--players", "2", "--human", "1,2", "--seed", "4", input="\nquit\n")
    before_prompt = flat(result).split("> ", 1)[0]
    assert before_prompt.count("Set-up: First game.") == 1
    assert "Player 1 is dealt Reese the Firebrand and El'syn, Saint of Shadows." in before_prompt


def test_the_menu_shows_a_switch_as_it_is_typed(tmp_path, monkeypatch):
    # README: -o hidden_objectives=true; the menu listed Python's "False"/"True" and its default [False].
    monkeypatch.chdir(tmp_path)
    result = run("play", "--players", "2", input="biblios-dice\n2\n\n\nquit\n")
    out = result.output
    assert "1 false" in out and "2 true" in out and "[false]:" in out
    assert "False" not in out and "True" not in out
    saved = next((tmp_path / "saves").glob("*.json"))
    assert json.loads(saved.read_text())["options"]["hidden_objectives"] is True   # "2" chose true
