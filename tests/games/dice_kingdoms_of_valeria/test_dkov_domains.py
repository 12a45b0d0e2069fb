"""Domain powers (rulebook: Domain Powers, Important Manipulation Rules, Instant Citizen Domains) and Roads."""

import pytest

from dkov_helpers import CALM, HALT, S, act, claim, dom, ids, new, refresh, road, sec, set_citizens, set_road


def action_phase(yellow=1, red=1, green=1, blue=1, sheets="summer", domains=()):
    """Solo, first Action phase with the given coloured dice and claimed Domains."""
    s = new(1, sheets, dice=[*CALM, yellow, red, green, blue, *HALT])
    claim(s, 0, *domains)
    refresh(s)
    return s


def recruits(s):
    return sorted(a.split(":")[1] for a in ids(s) if a.startswith("yellow:"))


def slays(s):
    return {a[4:] for a in ids(s) if a.startswith("red:")}


def max_build(s, rid):
    counts = [int(a.rsplit(":", 1)[1]) for a in ids(s) if a.startswith(f"green:{rid}@")]
    return max(counts) if counts else 0


# --------------------------------------------------------------- +1/-1 on one colour
def test_adjust_yellow_plus_or_minus_one_without_wrap():
    assert recruits(action_phase(yellow=6, blue=6)) == ["11/12", "6"]
    # +1/-1 Yellow (Summer D4): 6 -> 5 (never 7, never 1); with Blue: 11 or 12.
    assert recruits(action_phase(yellow=6, blue=6, domains=["D4"])) == ["11/12", "5", "6"]


def test_adjust_red_plus_or_minus_one():
    # Red 1 alone reaches only the 1-3 block of Dragon's Maw; +1 makes 2 (Wyvern Crag 2-5).
    assert "L7:2-5" not in slays(action_phase(red=1, blue=6))
    assert "L7:2-5" in slays(action_phase(red=1, blue=6, domains=["D3"]))


def test_adjust_green_plus_or_minus_one():
    s = action_phase(green=3, blue=1, domains=["D3"])
    assert max_build(s, "R08") == 4
    s = action_phase(green=3, blue=1, domains=["D3", "D1"])
    assert max_build(s, "R08") == 5


def test_adjust_blue_plus_or_minus_one():
    assert recruits(action_phase(yellow=1, blue=1)) == ["1", "2"]
    # +1/-1 Blue (D7): Blue 1 -> 2 (not 0, not 6): 1 + 2 = 3.
    assert recruits(action_phase(yellow=1, blue=1, domains=["D7"])) == ["1", "2", "3"]


# --------------------------------------------------------------- flip to 7 - x
def test_flip_yellow_gives_the_opposite_side():
    assert recruits(action_phase(yellow=2, blue=1)) == ["2", "3"]
    assert recruits(action_phase(yellow=2, blue=1, domains=["D9"])) == ["2", "3", "5", "6"]


def test_flip_red_gives_the_opposite_side():
    assert "L6:5-8" not in slays(action_phase(red=2, blue=1))
    assert "L6:5-8" in slays(action_phase(red=2, blue=1, domains=["D11"]))  # 2 -> 5


def test_flip_green_gives_the_opposite_side():
    assert max_build(action_phase(green=1, blue=1, domains=["D3"]), "R08") == 2
    assert max_build(action_phase(green=1, blue=1, domains=["D3", "D5"]), "R08") == 6  # 1 -> 6


def test_flip_blue_gives_the_opposite_side():
    assert recruits(action_phase(yellow=1, blue=1, domains=["D13"])) == ["1", "2", "7"]  # 1 + 6


# --------------------------------------------------------------- +1/-1 Any
def test_adjust_any_works_on_any_one_coloured_die_once():
    # Yellow 1, Blue 1: Any makes 2 (Yellow) or 3 (either die), never 4 (that needs it twice).
    assert recruits(action_phase(yellow=1, blue=1, domains=["D10"])) == ["1", "2", "3"]
    assert "L7:2-5" in slays(action_phase(red=1, blue=6, domains=["D10"]))
    assert max_build(action_phase(green=3, blue=1, domains=["D3", "D10"]), "R08") == 5


def test_each_power_once_but_several_on_one_die():
    # +1/-1 Yellow alone: 3 -> 2 or 4, never 5.
    assert recruits(action_phase(yellow=3, blue=6, domains=["D4"])) == ["2", "3", "4", "8", "9/10"]
    # With +1/-1 Any as well, two different powers make 5 (3 + 1 + 1).
    assert "5" in recruits(action_phase(yellow=3, blue=6, domains=["D4", "D10"]))


def test_powers_are_optional_the_plain_value_stays_offered():
    s = action_phase(yellow=4, blue=2, domains=["D4", "D9", "D7", "D13", "D10"])
    assert {"4", "6"} <= set(recruits(s))


def test_voided_domain_gives_no_power():
    s = action_phase(yellow=2, blue=1, domains=["D9"])
    s.sheets[0][S.VDOM] |= 1 << dom(s, "D9")
    refresh(s)
    assert recruits(s) == ["2", "3"]


# --------------------------------------------------------------- instant Citizens
@pytest.mark.parametrize("guild,rid,origin,section", [
    ("Worker", "R02", None, "2"),
    ("Holy", "R07", "D2", "1"),
    ("Soldier", "R09", "D3", "4"),
    ("Shadow", "R14", "D7", "3"),
])
def test_instant_citizen_domain_marks_the_leftmost_open_pip_of_its_guild(guild, rid, origin, section):
    s = action_phase(green=1, blue=1, domains=[origin] if origin else [])
    r = road(s, rid)
    set_road(s, 0, rid, s.lay.road_len[r] - 1)
    refresh(s)
    start = origin or s.lay.road_a_name[r]
    act(s, f"green:{rid}@{start}:1")
    sh = s.sheets[0]
    assert sh[S.CIT + sec(s, section)] == 1
    assert s.score_parts(0)["domains"] == 1 + (1 if origin else 0)


def test_instant_citizen_goes_to_the_next_section_of_the_guild_or_is_lost():
    s = action_phase(green=1, blue=1, domains=["D3"])
    set_citizens(s, 0, c4=2)
    set_road(s, 0, "R09", 5)
    refresh(s)
    act(s, "green:R09@D3:1")
    assert s.sheets[0][S.CIT + sec(s, "6")] == 2   # the 4 is full: the 6's open pip
    s = action_phase(green=1, blue=1, domains=["D3"])
    set_citizens(s, 0, c4=2, c6=2, c8=2)
    set_road(s, 0, "R09", 5)
    refresh(s)
    act(s, "green:R09@D3:1")
    assert any(e.kind == "lost" and "Soldier" in e.text for e in s.log)


# --------------------------------------------------------------- Roads
def test_link_road_from_either_claimed_end_then_only_from_its_origin():
    s = action_phase(green=2, blue=1, domains=["D1", "D2"])
    assert {"green:R05@D1:2", "green:R05@D2:2"} <= set(ids(s))
    act(s, "green:R05@D2:1")
    sh = s.sheets[0]
    assert sh[s.lay.ro0 + road(s, "R05")] == 2
    s2 = action_phase(green=2, blue=1, domains=["D1", "D2"])
    set_road(s2, 0, "R05", 1, origin=2)
    refresh(s2)
    assert "green:R05@D2:1" in ids(s2) and not any(a.startswith("green:R05@D1") for a in ids(s2))


def test_road_only_from_a_start_or_claimed_domain():
    s = action_phase(green=6, blue=6)
    begun = {a.split(":")[1] for a in ids(s) if a.startswith("green:")}
    assert begun == {"R01@S1", "R02@S2", "R03@S3", "R04@S4"}


def test_build_may_mark_fewer_pips_than_the_die():
    s = action_phase(green=4, blue=2)
    assert [a for a in ids(s) if a.startswith("green:R04@")] == [
        "green:R04@S4:4", "green:R04@S4:3", "green:R04@S4:2", "green:R04@S4:1"]


def test_reaching_a_claimed_domain_claims_nothing_new():
    s = action_phase(green=2, blue=1, domains=["D1", "D2"])
    act(s, "green:R05@D1:2")
    assert s.score_parts(0)["domains"] == 2
    assert any("already claimed" in e.text for e in s.log)


def test_spur_to_a_dead_end_stops_and_claims_nothing():
    s = action_phase(green=6, blue=6, domains=["D5"])
    assert max_build(s, "R16") == 2
    act(s, "green:R16@D5:2")
    sh = s.sheets[0]
    assert sh[s.lay.rc0 + road(s, "R16")] == 2
    assert sh[S.WALLC] == 1   # the Knight pip; the Star pip scores at the end
    assert s.score_parts(0)["stars"] == 1 and s.score_parts(0)["domains"] == 1


def test_winter_trailhead_domain_opens_its_lair():
    s = action_phase(red=6, blue=6, sheets="winter")
    assert {x.split(":")[0] for x in slays(s)} == {"L5"}
    s = action_phase(red=6, blue=6, sheets="winter", domains=["W9"])
    assert {x.split(":")[0] for x in slays(s)} == {"L5", "L7"}
