"""Each of the 14 Statue effects (rulebook: Statue Cards), and the Statue deck."""

from dicetable.engine import new_game
from dicetable.games.dice_kingdoms_of_valeria.components import CARD_BACK, CARD_INDEX, CARD_KIND, N_CARDS
from dicetable.games.dice_kingdoms_of_valeria.sheet import LAIR_HIGH, LAIR_LOW

from dkov_helpers import ACTION, CALM, GAME, HALT, S, act, block, dom, ids, lair, new, set_citizens, set_road


def holding(kind: int, sheets: str = "summer"):
    """A solo game in its first Action phase whose player holds Statue ``kind``."""
    s = new(1, sheets, dice=[*CALM, 1, 1, 1, 1, *HALT])
    sh = s.sheets[0]
    sh[S.STAT] = 1 << (kind - 1)
    sh[S.NSTAT] = 1
    return s, sh


def vp(s, kind: int) -> int:
    return s.score_parts(0)["statue_vp"][str(kind)]


def test_statue_1_two_vp_per_complete_bridge():
    s, sh = holding(1)
    set_road(s, 0, "R10", 6)             # B1 (pips 2-4) complete
    set_road(s, 0, "R12", 4)             # B3 (pips 2-4) complete
    set_road(s, 0, "R11", 4)             # B2 (pips 3-5): only 2 of its 3 pips
    set_road(s, 0, "R15", 4, origin=2)   # from D13: pips 7..4 marked, B6 (3-5) lacks pip 3
    assert vp(s, 1) == 4
    set_road(s, 0, "R15", 5, origin=2)   # now pips 7..3: B6 complete
    assert vp(s, 1) == 6


def test_statue_2_one_vp_per_domain():
    s, sh = holding(2)
    for d in ("D1", "D2", "D3", "D7", "D12"):
        sh[S.DOM] |= 1 << dom(s, d)
    assert vp(s, 2) == 5


def test_statue_3_one_vp_per_three_gold_pips():
    s, sh = holding(3)
    sh[S.GOLDC] = 11
    assert vp(s, 3) == 3


def test_statue_4_three_vp_per_star_on_the_wall():
    s, sh = holding(4)
    sh[S.WALLC] = 10   # Stars at 3, 7 and 10
    assert vp(s, 4) == 9


def test_statue_5_four_vp_per_completed_lair():
    s, sh = holding(5)
    for lid, result in (("L5", LAIR_HIGH), ("L7", LAIR_LOW)):
        li = lair(s, lid)
        for b in s.lay.lair_blocks[li]:
            sh[S.LB0 + b] = s.lay.block_len[b]
        sh[S.LST + li] = result
    sh[S.LB0 + block(s, "L8", "1-3")] = 1  # an incomplete lair scores nothing
    assert vp(s, 5) == 8


def test_statue_6_one_vp_per_two_star_pips():
    s, sh = holding(6)
    sh[S.WALLC] = 12       # 4 Stars
    sh[S.GOLDC] = 10       # 1 Star
    set_citizens(s, 0, c7=2, c8=2)  # 2 Stars
    assert s.score_parts(0)["stars"] == 7
    assert vp(s, 6) == 3


def test_statue_7_three_vp_per_plinth_pip():
    s, sh = holding(7)
    sh[S.GOLDC] = 12   # Plinths at 4, 8, 12
    assert vp(s, 7) == 9


def test_statue_8_three_vp_per_holy_citizen_pip():
    s, sh = holding(8)
    set_citizens(s, 0, c1=2, c9_10=1)
    assert vp(s, 8) == 9


def test_statue_9_three_vp_per_shadow_citizen_pip():
    s, sh = holding(9)
    set_citizens(s, 0, c3=1, c7=2)
    assert vp(s, 9) == 9


def test_statue_10_two_vp_per_soldier_pip_including_the_starter():
    s, sh = holding(10)
    assert vp(s, 10) == 2  # the starter pip on the 6
    set_citizens(s, 0, c4=2)
    assert vp(s, 10) == 6


def test_statue_11_two_vp_per_worker_pip_including_the_starter():
    s, sh = holding(11)
    assert vp(s, 11) == 2  # the starter pip on the 5
    set_citizens(s, 0, c2=1, c11_12=2)
    assert vp(s, 11) == 8


def take_instant(kind: int):
    """Reach a Plinth in the Action phase with Statue ``kind`` in the draft line, and take it."""
    s = new(1, dice=[*CALM, 1, 1, 1, 1, *HALT])
    sh = s.sheets[0]
    sh[S.GOLDC] = 3
    card = CARD_INDEX[f"{kind}-day"]
    line = [c for c in s.line if CARD_KIND[c] != kind - 1][:5] + [card]
    s.line = tuple(line)
    s.deck = tuple(c for c in s.deck if c != card)
    act(s, "red:L5:1-6")  # +1 Gold: Gold pip 4 is a Plinth
    assert s.decision(0).kind == "statue"
    act(s, f"statue:{kind}")
    return s, sh


def test_statue_12_three_recruit_rewards_at_once():
    s, sh = take_instant(12)
    before = sum(sh[S.CIT + i] for i in range(10))
    for _ in range(3):
        assert s.phase == ACTION and s.decision(0).kind == "recruit"
        act(s, "recruit:1" if "recruit:1" in ids(s) else ids(s)[0])
    assert sum(sh[S.CIT + i] for i in range(10)) == before + 3
    assert sh[S.NSTAT] == 1 and s.score_parts(0)["statue_vp"] == {"12": 0}


def test_statue_13_three_slay_rewards_at_once():
    s, sh = take_instant(13)
    before = sum(sh[S.LB0 + b] for b in range(s.lay.nb))
    for _ in range(3):
        assert s.decision(0).kind == "slay"
        act(s, "slay:L8")
    after = sum(sh[S.LB0 + b] for b in range(s.lay.nb))
    assert after == before + 3
    # Slay Rewards fill the leftmost incomplete Range Block of Dragon's Maw: 1-3 (1 pip), then 4-6.
    assert sh[S.LB0 + block(s, "L8", "1-3")] == 1 and sh[S.LB0 + block(s, "L8", "4-6")] == 2


def test_statue_14_three_gold_rewards_and_three_star_pips():
    s, sh = take_instant(14)
    # Gold pips 5 and 6, then pip 6's Road Reward chain is followed before the third Gold.
    assert sh[S.GOLDC] == 6 and s.decision(0).kind == "road"
    act(s, ids(s)[0])
    assert sh[S.GOLDC] == 7  # 4, then three Gold Rewards
    assert s.score_parts(0)["stars"] == 3
    assert s.score_parts(0)["statue_vp"] == {"14": 0}
    sh[S.STAT] |= 1 << 5   # Statue 6 counts Statue 14's 3 Star pips
    sh[S.NSTAT] += 1
    assert s.score_parts(0)["statue_vp"]["6"] == 1


def test_statue_deck_is_day_over_night_and_the_line_holds_six():
    s = new_game(GAME, 3, seed=5)
    assert N_CARDS == 28
    cards = list(s.line) + list(s.deck)
    assert sorted(cards) == list(range(28))
    # The line was dealt from the Day cards; the deck's top (end of the tuple) is Day before Night.
    assert all(CARD_BACK[c] == 0 for c in s.line)
    backs = [CARD_BACK[c] for c in reversed(s.deck)]
    assert backs == sorted(backs)
    kinds = [CARD_KIND[c] for c in cards]
    assert all(kinds.count(k) == 2 for k in range(14))
