"""The registry's catalogue (games/__init__.py GAMES): a game's package loads on first use, alone."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from dicetable.engine import GameConfigError, get_game, list_games
from dicetable.engine.registry import register_catalogue
from dicetable.games import GAMES

SHIPPED = ["biblios-dice", "corsairs-of-valeria", "dice-kingdoms-of-valeria", "kingdom-of-dice",
           "valeria-card-kingdoms"]


def _fresh(code: str, cwd=None) -> dict:
    """Run ``code`` (which prints one JSON line) in a new interpreter and return what it printed."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True,
                         cwd=cwd)
    return json.loads(out.stdout.strip().splitlines()[-1])


LOADED = ("sorted(m for m in sys.modules if m.startswith('dicetable.games.') and m.count('.') == 2)")


def test_the_catalogue_names_the_five_games_by_their_packages():
    assert sorted(GAMES) == SHIPPED
    for game_id, module in GAMES.items():
        assert get_game(game_id).id == game_id
        assert get_game(game_id).state_class.__module__.startswith(module + ".")


def test_get_game_through_the_engine_alone_loads_only_that_game():
    """Even imported as dicetable.engine.registry (the package ``dicetable`` is imported first
    and hands the catalogue over), one game's first use imports that game's package only."""
    got = _fresh("import json, sys\n"
                 "from dicetable.engine.registry import get_game\n"
                 "before = " + LOADED + "\n"
                 "name = get_game('biblios-dice').name\n"
                 "print(json.dumps({'before': before, 'after': " + LOADED + ", 'name': name}))")
    assert got == {"before": [], "after": ["dicetable.games.biblios_dice"], "name": "Biblios Dice"}


def test_an_unknown_game_lists_the_known_ones_without_loading_them():
    got = _fresh("import json, sys\n"
                 "import dicetable\n"
                 "try:\n"
                 "    dicetable.get_game('yahtzee')\n"
                 "except dicetable.GameConfigError as exc:\n"
                 "    print(json.dumps({'message': str(exc), 'loaded': " + LOADED + "}))")
    assert got["loaded"] == []
    assert got["message"] == "unknown game 'yahtzee'; known games: " + ", ".join(SHIPPED)


def test_list_games_loads_every_catalogued_game():
    got = _fresh("import json, sys\nimport dicetable\n"
                 "ids = [s.id for s in dicetable.list_games()]\n"
                 "print(json.dumps({'ids': ids, 'loaded': " + LOADED + "}))")
    assert got["ids"] == SHIPPED
    assert got["loaded"] == sorted(GAMES.values())


def test_a_catalogue_entry_without_its_spec_is_a_clear_error(monkeypatch):
    from dicetable.engine import registry

    monkeypatch.setattr(registry, "_CATALOGUE", dict(registry._CATALOGUE))
    register_catalogue({"no-such-game": "dicetable.games.kingdom_of_dice"})  # defines kingdom-of-dice
    with pytest.raises(GameConfigError, match="catalogued as game 'no-such-game' but defines no SPEC"):
        get_game("no-such-game")
    with pytest.raises(GameConfigError, match="no-such-game"):  # not dropped: it fails each time
        list_games()


def _command(args: list[str]) -> str:
    """Code running ``dicetable ARGS`` in-process, then printing its exit code and the games loaded."""
    return ("import json, sys\n"
            "from typer.testing import CliRunner\n"
            "from dicetable.cli.main import app\n"
            f"result = CliRunner().invoke(app, {args!r})\n"
            "print(json.dumps({'code': result.exit_code, 'loaded': " + LOADED + "}))")


def test_playing_one_game_loads_that_game_alone(tmp_path):
    """`dicetable play kingdom-of-dice` (bots only, to the end) imports no other game's rules.

    Greedy bots, not random ones: a random game of Kingdom of Dice lasts thousands of actions,
    each drawn on the terminal (40 s), a greedy one a few hundred (1.5 s), and it loads the
    bots' own code as well.
    """
    got = _fresh(_command(["play", "kingdom-of-dice", "--players", "2", "--human", "0", "--bot", "greedy",
                           "--seed", "3"]), cwd=tmp_path)
    assert got == {"code": 0, "loaded": ["dicetable.games.kingdom_of_dice"]}


def test_the_games_command_loads_every_game():
    """`dicetable games` shows every game's SPEC, so it is the one that loads them all."""
    got = _fresh(_command(["games"]))
    assert got == {"code": 0, "loaded": sorted(GAMES.values())}


@pytest.mark.parametrize("given", ["kingdom_of_dice", "Kingdom-Of-Dice", "KINGDOM_OF_DICE"])
def test_an_id_differing_in_case_or_underscores_is_the_game_and_loads_it_alone(given):
    # before: unknown game 'kingdom_of_dice' (the OpenSpiel names write the ids with underscores)
    got = _fresh("import json, sys\n"
                 "from dicetable.engine.registry import get_game, new_game\n"
                 f"spec = get_game({given!r})\n"
                 f"state = new_game({given!r}, 2, seed=1)\n"
                 "print(json.dumps({'id': spec.id, 'state': state.game_id, 'loaded': " + LOADED + "}))")
    assert got == {"id": "kingdom-of-dice", "state": "kingdom-of-dice", "loaded": ["dicetable.games.kingdom_of_dice"]}


@pytest.mark.parametrize("given,near", [("biblio-dice", "biblios-dice"), ("Biblio_Dice", "biblios-dice"),
                                        ("corsairs", "corsairs-of-valeria"), ("kingdom-of-die", "kingdom-of-dice")])
def test_an_unknown_id_near_a_game_suggests_it(given, near):
    # (other tests may have registered toy games in this process: the list is checked in a fresh one above)
    with pytest.raises(GameConfigError) as caught:
        get_game(given)
    assert str(caught.value).startswith(f"unknown game {given!r}; did you mean {near!r}? known games: biblios-dice, ")


def test_a_far_id_gets_no_suggestion():
    with pytest.raises(GameConfigError, match=r"^unknown game 'chess'; known games: biblios-dice, "):
        get_game("chess")
