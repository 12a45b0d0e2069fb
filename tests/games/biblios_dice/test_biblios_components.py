"""Biblios Dice component data: provenance, the counts the rulebook fixes, and validation errors."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest
from pydantic import ValidationError

from dicetable.games.biblios_dice.components import (
    ADJ_FACES, BONUSES, CARD_VALUES, COMPONENTS, RATIOS, TOKEN_GROUPS, TOKENS, Components,
    place_points, ratio_at, resource_dice_for,
)


def _raw() -> dict:
    text = resources.files("dicetable.games.biblios_dice").joinpath("data", "components.toml").read_text()
    return tomllib.loads(text)


def test_every_item_has_a_source_and_unknowns_are_marked_reconstructed():
    assert not COMPONENTS.resources[0].reconstructed
    assert COMPONENTS.resource_die.reconstructed
    assert COMPONENTS.gold_die.reconstructed and COMPONENTS.mule_die.reconstructed
    assert COMPONENTS.mule_path.reconstructed and COMPONENTS.resource_track.reconstructed
    assert COMPONENTS.bishop_track.reconstructed and COMPONENTS.bidding_cards.reconstructed
    assert all(t.reconstructed for t in TOKENS)                  # their groups are reconstructed
    assert not any(a.reconstructed for a in ADJ_FACES)           # the rulebook lists the six faces
    assert not COMPONENTS.start.reconstructed and not COMPONENTS.value_dice.reconstructed


def test_rulebook_counts():
    assert len(TOKENS) == 9 and [len(g) for g in TOKEN_GROUPS] == [3, 3, 3]
    assert len(CARD_VALUES) * COMPONENTS.bidding_cards.colours == 40 and CARD_VALUES[0] == 0
    assert [resource_dice_for(p) for p in (2, 3, 4, 5)] == [6, 6, 7, 7]
    assert BONUSES == ((0, 0, -1), (1, 0, -1), (1, 0, 4), (2, 0, 0), (2, 1, 1))
    assert RATIOS[0][1] == 5 and RATIOS[-1][1] == 2
    assert [place_points(p, 5) for p in range(3)] == [10, 5, 3]
    assert ratio_at(3) == 0 and ratio_at(4) == 5


@pytest.mark.parametrize("path,value,message", [
    (("resource_dice", "total"), 8, "7 Resource Dice"),
    (("value_dice", "start"), 4, "start at 3"),
    (("scoring", "place_multipliers"), [[3, 1], [1, 1], [1, 2]], "2x, 1x"),
    (("bidding_cards", "values"), [0, 1, 2, 3, 4, 5, 6], "40 Bidding Cards"),
    (("start", "gold"), 12, "15 Gold"),
])
def test_wrong_counts_are_rejected(path, value, message):
    raw = _raw()
    raw[path[0]][path[1]] = value
    with pytest.raises(ValidationError, match=message):
        Components.model_validate(raw)


def test_a_missing_source_is_rejected():
    raw = _raw()
    raw["gold_die"]["source"] = " "
    with pytest.raises(ValidationError, match="source"):
        Components.model_validate(raw)


def test_a_tenth_bishop_token_is_rejected():
    raw = _raw()
    raw["bishop_tokens"].append(dict(raw["bishop_tokens"][0], id="extra"))
    with pytest.raises(ValidationError, match="9 distinct Bishop Tokens"):
        Components.model_validate(raw)
