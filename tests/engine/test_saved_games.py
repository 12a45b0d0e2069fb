"""Saved games are replayed from their seed and moves and must match field for field."""

from __future__ import annotations

import json

import pytest

import dicetable
from dicetable.engine import Rng, SaveFormatError, SeatError, load_saved_game, new_game, write_json
from dicetable.engine.testing import random_step, shipped_games

GAMES = [spec.id for spec in shipped_games()]


def _played(game: str, players: int, seed: int, steps: int):
    state = new_game(game, players, seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        random_step(state, rng)
    return state


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("steps", [0, 40, 10_000])
def test_an_untouched_save_loads_exactly(game, steps):
    spec = dicetable.get_game(game)
    state = _played(game, spec.max_players, 7, steps)
    data = json.loads(json.dumps(state.to_dict()))
    loaded = load_saved_game(data)
    assert loaded.to_dict() == state.to_dict()


def _save():
    return json.loads(json.dumps(_played("kingdom-of-dice", 2, 3, 25).to_dict()))


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["state"].__setitem__("won", [[], ["chancellor"]]), "state.won"),
    (lambda d: d["state"]["board"].__setitem__(0, 1), "state.board[0] (saved 1, expected -1)"),
    (lambda d: d["state"]["market"].__setitem__(0, "king-of-cards"), "state.market[0]"),
    (lambda d: d["state"].pop("deck"), "state.deck (missing)"),
    (lambda d: d.__setitem__("rng", 5), "rng (saved 5"),
    (lambda d: d["history"][0].__setitem__(1, "keep:9"), "saved game step 0 ([0, 'keep:9']) failed"),
    (lambda d: d["history"][0].__setitem__(0, 1), "it is not Player 2's decision now"),
    (lambda d: d["history"][0].__setitem__(0, True), "a step is a [seat, action id] pair"),
    (lambda d: d["history"].pop(), "saved game was changed or damaged"),
    (lambda d: d.__setitem__("history", "keep:1"), "must be a list of [seat, action id] pairs"),
    (lambda d: d.__setitem__("players", 9), "Kingdom of Dice is for 1-4 players, not 9"),
    (lambda d: d.__setitem__("seed", None), "seed must be an integer, got None"),
    (lambda d: d.__setitem__("options", "cat_level=2"), "options must be a dict of NAME: VALUE"),
    (lambda d: d.__setitem__("game", ["kingdom-of-dice"]), "unknown game ['kingdom-of-dice']"),
    (lambda d: d.__setitem__("game", "biblios-dice"), "saved game"),
    (lambda d: d.__setitem__("extra", 1), "extra (not expected in a save)"),
])
def test_an_edited_save_is_refused_naming_what_differs(edit, message):
    data = _save()
    edit(data)
    with pytest.raises(SaveFormatError) as info:
        load_saved_game(data)
    assert message in str(info.value)


def test_a_saves_log_is_drawn_again_from_its_moves():
    """The log is not read from the file: an edited or older log line (say, from before a wording fix or
    before effects) loads, and the game shows the line its moves give today."""
    data = _save()
    honest = load_saved_game(_save())
    data["log"][0] = {"kind": "setup", "seat": None, "text": "written by hand"}
    loaded = load_saved_game(data)
    assert [e.to_json() for e in loaded.log] == [e.to_json() for e in honest.log]
    assert loaded.log[0].text != "written by hand"


def test_play_load_refuses_an_edited_save_and_leaves_the_file_alone(tmp_path):
    from typer.testing import CliRunner
    from dicetable.cli.main import app

    data = _save()
    data["state"]["won"] = [["king"], []]
    path = write_json(tmp_path / "edited.json", data)
    before = path.read_text()
    result = CliRunner().invoke(app, ["play", "--load", str(path)], catch_exceptions=False)
    assert result.exit_code == 2
    assert "saved game was changed or damaged: state.won" in " ".join(result.output.split())
    assert path.read_text() == before


def test_new_game_and_apply_refuse_wrongly_typed_arguments():
    with pytest.raises(dicetable.DicetableError, match="unknown game \\['x'\\]; known games"):
        new_game(["x"], 2)
    with pytest.raises(dicetable.DicetableError, match="options must be a dict of NAME: VALUE"):
        new_game("biblios-dice", 3, options="hidden_objectives=true")
    with pytest.raises(dicetable.DicetableError, match="dice must be a list of die faces"):
        new_game("biblios-dice", 3, dice=5)
    with pytest.raises(dicetable.DicetableError, match="needs true or false, got 'maybe'"):
        new_game("biblios-dice", 3, options={"hidden_objectives": "maybe"})
    with pytest.raises(dicetable.DicetableError, match="needs a whole number, got 'abc'; allowed: 1, 2"):
        new_game("kingdom-of-dice", 1, options={"cat_level": "abc"})
    # A text option without a fixed list of values recalls what it takes (JSON's 2 is not the text "2").
    with pytest.raises(dicetable.DicetableError, match="needs text, got 2; who starts: 'random' or a player number"):
        new_game("corsairs-of-valeria", 2, options={"first_player": 2})
    state = new_game("kingdom-of-dice", 2, seed=1)
    before = state.to_dict()
    legal = state.legal_actions(0)[0].id
    for seat in (True, 0.0, [0], "0"):
        with pytest.raises(dicetable.IllegalActionError, match="there is no seat .*: seats are 0..1"):
            state.apply(legal, seat)
        with pytest.raises(SeatError, match="there is no seat .*: seats are 0..1"):
            state.legal_actions(seat)
    assert state.to_dict() == before
