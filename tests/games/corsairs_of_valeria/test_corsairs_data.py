"""Corsairs of Valeria component data: the rulebook's counts, the reconstruction's marks, and that
another (official) layout drops in as data."""

from __future__ import annotations

import copy
import tomllib
from importlib import resources

import pytest
from pydantic import ValidationError

from dicetable.games.corsairs_of_valeria import components as C


def raw() -> dict:
    text = resources.files(C.__package__).joinpath("data", "components.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def test_rulebook_counts():
    d = C.COMPONENTS
    assert d.dice.count == 5 and len(set(d.dice.faces)) == 6
    assert len(d.ships) == 5 and d.silver.total == 35
    assert len(d.captains) == 11 and len(C.CAPTAINS) == 10      # 11 cards, 10 described and dealt
    assert len(d.tracks) == 4 and all(len(t.sides) == 2 for t in d.tracks)
    assert d.setup.tracks_used == 3
    board = d.ship_board
    assert (board.grog_start, board.grog_max, board.treasure_start, board.treasure_to_win,
            board.silver_start, board.silver_per_treasure) == (2, 4, 0, 6, 2, 5)
    assert (d.silver.skull_island_start, d.silver.skull_island_refill) == (2, 2)


def test_every_track_item_is_marked_reconstructed_and_captains_are_from_the_rulebook():
    d = C.COMPONENTS
    for t in d.tracks:
        assert t.reconstructed
        for side in t.sides:
            assert side.reconstructed
            for lane in side.lanes:
                assert lane.reconstructed
                assert all(f.reconstructed for f in lane.features)
    assert all(c.source.startswith("rulebook") for c in C.CAPTAINS)
    assert [c.id for c in d.captains if not c.dealt] == ["unknown"]
    assert next(c for c in d.captains if not c.dealt).reconstructed


def test_reconstruction_matches_the_facts_totals():
    # facts §4.3: 2 Whirlpools, 4 Sea Monsters, 4 Cutthroats, 8 Merchants (5 Silver, 3 Grog),
    # 13 islands with 11 Silver and 6 Grog symbols, 2 split faces.
    feats = [f for t in C.TRACKS for side in t.sides for lane in side.lanes for f in lane.features]
    kinds = [f.kind for f in feats]
    assert kinds.count("whirlpool") == 2 and kinds.count("sea-monster") == 4 and kinds.count("cutthroat") == 4
    merchants = [f for f in feats if f.kind == "merchant"]
    assert len(merchants) == 8 and sum(f.silver for f in merchants) == 5 and sum(f.grog for f in merchants) == 3
    islands = [f for f in feats if f.kind == "island"]
    assert len(islands) == 13
    assert sum(f.silver for f in islands) == 11 and sum(f.grog for f in islands) == 6
    assert sum(len(side.lanes) > 1 for t in C.TRACKS for side in t.sides) == 2
    # race length: 14 Maps from the Start space to Skull Island whatever the layout
    for layout in [((0, 0), (1, 0), (2, 0)), ((3, 1), (2, 0), (0, 1))]:
        track = C.race_track(layout)
        assert track.dist[track.start] == 14


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d["tracks"].pop(), "4 Tracks"),
    (lambda d: d["captains"].pop(), "11 Captain"),
    (lambda d: d["dice"].update(count=6), "5 dice"),
    (lambda d: d["silver"].update(total=30), "35 Silver"),
    (lambda d: d["tracks"][0]["sides"][0]["lanes"][0]["features"].append(
        {"kind": "island", "line": 4, "silver": 1, "source": "x"}), "inner dividing line"),
    (lambda d: d["tracks"][0]["sides"][0]["lanes"][0]["features"].append(
        {"kind": "whirlpool", "space": 1, "source": "x"}), "two features"),
    (lambda d: d["tracks"][0]["sides"][0]["lanes"][0].update(source=" "), "source"),
    (lambda d: d["tracks"][0]["sides"].pop(), "double-sided"),
])
def test_bad_data_is_rejected(mutate, message):
    d = copy.deepcopy(raw())
    mutate(d)
    with pytest.raises(ValidationError, match=message):
        C.Components.model_validate(d)


def test_an_official_layout_drops_in_as_data():
    # An 'official' Track 1 side A with lanes of different lengths and a 3-space Start Island:
    d = copy.deepcopy(raw())
    d["start_island"]["lanes"][0].update(spaces=3, features=[])
    d["tracks"][0]["sides"][0] = {
        "side": "A", "source": "rulebook scan p. 99 (example)",
        "lanes": [
            {"name": "north", "spaces": 2, "source": "scan", "features": [
                {"kind": "merchant", "space": 1, "silver": 2, "source": "scan"}]},
            {"name": "south", "spaces": 5, "source": "scan", "features": [
                {"kind": "island", "line": 2, "grog": 1, "source": "scan"}]},
        ],
    }
    data = C.Components.model_validate(d)
    track = C.RaceTrack(((0, 0), (1, 0), (2, 0)), data)
    assert track.start == 0
    entries = [m for m, _, _ in track.fwd[2]]                      # last Start Island space
    assert [track.lane[m] for m in entries] == ["north", "south"]
    assert track.merchant[entries[0] + 1] == (2, 0)
    assert track.dist[track.start] == 3 + 2 + 4 + 4                # the shorter lane
