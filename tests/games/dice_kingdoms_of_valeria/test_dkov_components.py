"""Component data: every count the rulebook fixes is checked on load; every item has a source."""

import copy
import json
from importlib import resources

import pytest
from pydantic import BaseModel, ValidationError

from dicetable.engine import GameConfigError, Sourced, new_game
from dicetable.games.dice_kingdoms_of_valeria import components as C
from dicetable.games.dice_kingdoms_of_valeria import layout as Lay
from dicetable.games.dice_kingdoms_of_valeria import sheet as S

PKG = "dicetable.games.dice_kingdoms_of_valeria"


def raw(name: str) -> dict:
    return json.loads(resources.files(PKG).joinpath("data", name).read_text(encoding="utf-8"))


def sourced_items(model):
    """Every Sourced item inside a loaded model."""
    out = []

    def walk(x):
        if isinstance(x, Sourced):
            out.append(x)
        if isinstance(x, BaseModel):
            for name in type(x).model_fields:
                walk(getattr(x, name))
        elif isinstance(x, (list, tuple)):
            for y in x:
                walk(y)
    walk(model)
    return out


@pytest.mark.parametrize("season", ["summer", "winter"])
def test_sheets_meet_the_rulebook_counts(season):
    s = C.SHEETS[season]
    L = Lay.LAYOUTS[season]
    assert len(s.castle.citizens) == 10 and all(len(c.pips) == 2 for c in s.castle.citizens)
    assert [c.section for c in s.castle.citizens] == ["1", "2", "3", "4", "5", "6", "7", "8", "9/10", "11/12"]
    assert [L.cit_start[i] for i in range(10)] == [0, 0, 0, 0, 1, 1, 0, 0, 0, 0]
    assert all(len(t.pips) == 24 for t in s.castle.guild_tracks) and len(s.castle.guild_tracks) == 4
    assert len(s.castle.lairs) == 4 and len(s.forest.domains) == 13 and len(s.forest.starts) == 4
    assert len(s.forest.bridges) == 6
    assert s.castle.trees.count == 20 and s.castle.ships.count == 6
    assert "Plinth" in s.castle.gold_chart.pips and "Star" in s.castle.wall.pips
    # The Guilds the rulebook's examples fix.
    assert [S.GUILDS[L.cit_guild[i]] for i in (2, 3, 4, 5)] == ["Shadow", "Soldier", "Worker", "Soldier"]


def test_winter_specifics():
    s = C.SHEETS["winter"]
    assert all(len(lair.blocks) == 2 for lair in s.castle.lairs)
    l5 = next(lair for lair in s.castle.lairs if lair.vp == [5, 3])
    assert l5.open and l5.position == "bottom-right"
    l6 = next(lair for lair in s.castle.lairs if lair.vp == [6, 4])
    b = next(b for b in l6.blocks if (b.low, b.high) == (9, 12))
    assert b.pips[0] == "Road"
    assert len(s.forest.trailheads) >= 3


def test_every_item_has_a_source_and_invented_parts_are_marked():
    for model in (*C.SHEETS.values(), C.STATUE_DATA, C.EVENT_DATA, C.GAME_DATA):
        items = sourced_items(model)
        assert len(items) >= 5
        for item in items:
            assert item.source.strip()
    for season in ("summer", "winter"):
        sheets = C.SHEETS[season]
        for item in (*sheets.castle.citizens, *sheets.castle.guild_tracks, *sheets.castle.lairs,
                     *sheets.forest.domains, *sheets.forest.roads, *sheets.forest.bridges):
            assert item.reconstructed, item
    assert all(e.reconstructed for e in C.EVENT_DATA.events)
    assert not any(st.reconstructed for st in C.STATUE_DATA.statues)


def _broken(season, edit):
    data = copy.deepcopy(raw(f"{season}.json"))
    edit(data)
    with pytest.raises(ValidationError):
        C.Sheets.model_validate(data)


def test_bad_sheets_are_refused():
    _broken("summer", lambda d: d["castle"]["citizens"].pop())
    _broken("summer", lambda d: d["castle"]["citizens"][0]["pips"].__setitem__(0, "START"))
    _broken("summer", lambda d: d["castle"]["citizens"][3].__setitem__("guild", "Holy"))
    _broken("summer", lambda d: d["castle"]["citizens"][0].__setitem__("guild", "Soldier"))
    _broken("summer", lambda d: d["castle"]["guild_tracks"][0]["pips"].append("-"))
    _broken("summer", lambda d: d["castle"]["guild_tracks"][0]["pips"].__setitem__(0, "Plinth"))
    _broken("summer", lambda d: d["forest"]["bridges"].pop())
    _broken("summer", lambda d: d["forest"]["domains"][0]["power"].__setitem__("die", "red"))
    _broken("summer", lambda d: d["forest"]["roads"].pop(0))
    _broken("summer", lambda d: d["castle"]["lairs"][0].__setitem__("vp", [3, 5]))
    _broken("summer", lambda d: d["castle"]["trees"].__setitem__("count", 19))
    _broken("winter", lambda d: d["castle"]["lairs"][1]["blocks"].append({"low": 12, "high": 12, "pips": ["-"]}))
    _broken("winter", lambda d: d["forest"]["trailheads"].pop())
    _broken("summer", lambda d: d["castle"]["citizens"][0].__setitem__("source", " "))


def test_statue_and_event_decks():
    assert C.N_CARDS == 28 and len(C.STATUES) == 14
    assert [s.number for s in C.STATUES if s.instant] == [12, 13, 14]
    assert len(C.EVENTS) == 10
    data = raw("statues.json")
    data["statues"].pop()
    with pytest.raises(ValidationError):
        C.StatueDeck.model_validate(data)
    ev = raw("solo-events.json")
    ev["events"].pop()
    with pytest.raises(ValidationError):
        C.SoloEvents.model_validate(ev)


def test_options_are_validated():
    with pytest.raises(GameConfigError, match="summer, winter"):
        new_game("dice-kingdoms-of-valeria", 2, options={"sheets": "autumn"})
    with pytest.raises(GameConfigError, match="only with 1"):
        new_game("dice-kingdoms-of-valeria", 2, options={"solo_track_trigger": True})
    with pytest.raises(GameConfigError):
        new_game("dice-kingdoms-of-valeria", 6)
    s = new_game("dice-kingdoms-of-valeria", 1, seed=1, options={"sheets": "winter"})
    assert s.options == {"sheets": "winter", "solo_track_trigger": False}
