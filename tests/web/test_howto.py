"""The lobby's explanations (issue 25 item 1): each game's "how to play" card (data/howto.toml,
checked on load), the options in the rulebook's words with a one-line explanation and a source,
and what each bot level does."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from dicetable.engine import list_games
from dicetable.web import create_site
from dicetable.web import howto
from dicetable.web.routes import game_ids


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db = tmp_path_factory.mktemp("howto") / "t.db"
    with TestClient(create_site(f"sqlite:///{db}")) as c:
        yield c


#: A fact of each game's rulebook its card must state (the rulebook's number or term).
RULEBOOK_FACTS = {
    "kingdom-of-dice": ("seven markers", "round 3", "one 5 at most"),
    "biblios-dice": ("four markers", "Bishop Track", "Monastery Card"),
    "corsairs-of-valeria": ("6 Treasure", "5 Silver", "Skull Island"),
    "dice-kingdoms-of-valeria": ("third Guild Track", "six dice", "Star pips"),
    "valeria-card-kingdoms": ("two actions", "Duke", "both dice"),
}


@pytest.mark.parametrize("game", sorted(RULEBOOK_FACTS))
def test_every_game_has_a_card_with_a_goal_a_turn_in_five_lines_and_an_end(game):
    card = howto.card(game)
    assert 1 <= len(card["turn"]) <= 5
    assert card["source"].startswith("rulebook:")
    text = " ".join([card["goal"], *card["turn"], card["end"]])
    for fact in RULEBOOK_FACTS[game]:
        assert fact in text, (game, fact)
    assert set(howto.cards(game_ids())) >= set(RULEBOOK_FACTS)  # tests may register toy games without a card


def test_solo_lines_exactly_for_the_games_with_a_solo_mode():
    solo = {g.id for g in list_games() if g.min_players == 1 and g.id in RULEBOOK_FACTS}
    assert {g for g, c in howto.cards(game_ids()).items() if "solo" in c} == solo
    assert "two_players" in howto.card("biblios-dice")  # Cadfael, Rules for 2 Players


@pytest.mark.parametrize("data, problem", [
    ({"goal": "g", "turn": ["a"], "end": "e"}, "missing source"),
    ({"goal": "g", "turn": ["a"], "end": "e", "source": "rulebook: x", "tip": "t"}, "unknown keys ['tip']"),
    ({"goal": "g", "turn": ["a"] * 6, "end": "e", "source": "rulebook: x"}, "1 to 5 lines, got 6"),
    ({"goal": "g", "turn": [], "end": "e", "source": "rulebook: x"}, "1 to 5 lines, got 0"),
    ({"goal": "g", "turn": "roll", "end": "e", "source": "rulebook: x"}, "got str"),
    ({"goal": "x" * 241, "turn": ["a"], "end": "e", "source": "rulebook: x"}, "at most 240 characters (it has 241)"),
    ({"goal": "two\nlines", "turn": ["a"], "end": "e", "source": "rulebook: x"}, "one line"),
    ({"goal": "g", "turn": ["a", " "], "end": "e", "source": "rulebook: x"}, "'turn[1]' must be a sentence"),
    ({"goal": "g", "turn": ["a"], "end": "e", "source": "my memory"}, "must cite the rulebook"),
])
def test_a_malformed_card_is_refused_naming_the_problem(data, problem):
    with pytest.raises(howto.HowToError) as refused:
        howto.check(data, "x: data/howto.toml")
    assert problem in str(refused.value) and "x: data/howto.toml" in str(refused.value)


def test_every_option_has_the_rulebooks_words_a_one_line_explanation_and_a_source(client):
    games = client.get("/api/games").json()["games"]
    seen = 0
    for game in games:
        for option in game["options"]:
            seen += 1
            assert option["label"] and option["label"] != option["name"], option
            assert 20 <= len(option["explanation"]) <= 160 and "\n" not in option["explanation"], option
            assert option["source"].startswith("rulebook:"), option
    assert seen == sum(len(spec.options) for spec in list_games()) == 9
    biblios = next(g for g in games if g["id"] == "biblios-dice")["options"][0]
    assert biblios["label"] == "Hidden Objective Variant" and "3 more VPs" in biblios["explanation"]


def test_the_guide_explains_every_bot_level_the_server_offers_and_serves_every_card(client):
    offered = client.get("/api/games").json()["bot_levels"]
    guide = client.get("/web/guide").json()
    assert list(guide["bots"]) == offered  # same levels, same order: weakest first
    assert all(v["what"] and v["strength"] for v in guide["bots"].values())
    assert set(guide["howto"]) >= set(RULEBOOK_FACTS)  # every title; a toy game a test registers has none
    assert client.get("/web/howto/kingdom-of-dice").json() == howto.card("kingdom-of-dice")
    missing = client.get("/web/howto/no-such-game")
    assert missing.status_code == 404
    assert missing.json()["detail"].startswith("unknown game 'no-such-game'; known games: ")
    assert "kingdom-of-dice" in missing.json()["detail"] and "howto.toml" not in missing.json()["detail"]


def test_a_registered_game_without_a_card_is_left_out_of_the_guide(client):
    from tests.engine import toy_game  # registers toy games, which ship no how-to card

    guide = client.get("/web/guide")
    assert guide.status_code == 200
    assert toy_game.LEAKY.id in game_ids() and toy_game.LEAKY.id not in guide.json()["howto"]
    assert set(guide.json()["howto"]) >= set(RULEBOOK_FACTS)
