"""Keyed board parts, the shared escaping and dice, and the effect vocabulary (docs/web.md, "Live updates")."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from dicetable.engine import effects as fx
from dicetable.engine.markup import PIPS, as_parts, assemble, attr, check_key, die_svg, slot, text

from ..cycles import cyclic_garbage


def test_escaping_covers_markup_and_quotes() -> None:
    assert attr('a"b\'<c>&') == "a&quot;b&#x27;&lt;c&gt;&amp;"
    assert text("<b>&</b>") == "&lt;b&gt;&amp;&lt;/b&gt;"
    assert text('"') == '"'


@given(st.text(max_size=40))
def test_escaped_text_never_opens_a_tag(value: str) -> None:
    assert "<" not in text(value) and '"' not in attr(value)


def test_slots_are_filled_recursively_and_missing_ones_stay_empty() -> None:
    parts = {
        "board": "<main>" + slot("dice", "section", cls="dice") + slot("p0") + slot("gone", "span") + "</main>",
        "dice": "D" + slot("d1", "span"),
        "d1": "6",
        "p0": "<b>P1</b>",
    }
    assert assemble(parts) == ('<main><section data-part="dice" class="dice">D<span data-part="d1">6</span></section>'
                               '<div data-part="p0"><b>P1</b></div><span data-part="gone"></span></main>')


def test_svg_group_slots() -> None:
    parts = {"board": '<svg viewBox="0 0 9 9">' + slot("pip", "g") + "</svg>", "pip": '<circle r="1"/>'}
    assert assemble(parts) == '<svg viewBox="0 0 9 9"><g data-part="pip"><circle r="1"/></g></svg>'


def test_assembling_a_board_leaves_no_reference_cycle() -> None:
    # a server assembles a board for every view it answers; a cycle per board is work for the collector
    parts = {"board": "<main>" + slot("dice", "section") + "</main>", "dice": slot("d1", "span"), "d1": "6"}
    with cyclic_garbage() as left:
        for _ in range(20):
            assert assemble(parts) == '<main><section data-part="dice"><span data-part="d1">6</span></section></main>'
    assert left == []


def test_a_part_holding_its_own_slot_and_a_missing_root_are_refused() -> None:
    with pytest.raises(ValueError, match="holds its own slot"):
        assemble({"board": slot("a"), "a": slot("b"), "b": slot("a")})
    with pytest.raises(ValueError, match="no root part 'board'"):
        assemble({"x": ""})


def test_a_plain_board_string_is_the_root_part() -> None:
    assert as_parts("<div>b</div>") == {"board": "<div>b</div>"}
    assert assemble(as_parts("<div>b</div>")) == "<div>b</div>"


@pytest.mark.parametrize("key", ["", "-a", "a b", 'a"', "x" * 81, "é"])
def test_bad_keys_are_refused(key: str) -> None:
    with pytest.raises(ValueError, match="not a part or element key"):
        check_key(key)
    with pytest.raises(ValueError):
        slot(key)


def test_die_faces_have_their_pips() -> None:
    for face, pips in PIPS.items():
        assert die_svg(face).count("<circle") == len(pips) == face
    assert 'aria-label="Die: 3"' in die_svg(3, label="Die: 3")
    assert 'aria-hidden="true"' in die_svg(3)
    with pytest.raises(ValueError, match="1 to 6"):
        die_svg(7)


def test_effect_constructors_make_valid_effects() -> None:
    made = [fx.roll("dice", [1, "crown"], 0), fx.set_aside("kept-0", [5], 0), fx.move("marker-1", "space-3", None),
            fx.count("gold-1", -2, 4), fx.take("card-x", "market", "hand-1", 1), fx.reveal("card-y", "market"),
            fx.score(1, 3), fx.turn(0), fx.round_begins(2)]
    assert [fx.check_effect(e)["type"] for e in made] == list(fx.EFFECT_TYPES)
    assert fx.effects_of({"effects": made[:2]}) == made[:2] and fx.effects_of(None) == []


@pytest.mark.parametrize("bad, message", [
    ({"type": "explode"}, "not an effect"),
    ({"type": "turn"}, "missing seat"),
    ({"type": "turn", "seat": 0, "colour": "red"}, "unexpected colour"),
    ({"type": "count", "key": "g", "delta": 0, "value": None}, "delta is not 0"),
    ({"type": "score", "seat": 0, "delta": 1.5}, "whole number"),
    ({"type": "move", "key": "a b", "from": None, "to": None}, "not a part or element key"),
    ({"type": "roll", "key": "d", "faces": 3, "seat": 0}, "faces are a list"),
])
def test_malformed_effects_are_named(bad: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        fx.check_effect(bad)
