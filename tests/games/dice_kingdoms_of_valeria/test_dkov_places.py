"""Places at the end of Dice Kingdoms of Valeria (rulebook: Scoring): most VPs, then most Star pips;
a tie that persists is shared. Solo: 60 VP or more wins (Solo Rules), less is no win."""

from __future__ import annotations

from dicetable.engine import places
from dicetable.games.dice_kingdoms_of_valeria import sheet as S

from dkov_helpers import CALM, new


def test_vps_then_star_pips_then_shared():
    s = new(3, dice=[*CALM, 1, 1, 1, 1])
    a, b, c = s.sheets
    a[S.WALLC] = 3                    # 1 Star pip
    a[S.DOM] = 1                      # + 1 Domain = 2 VP
    b[S.WALLC] = 3
    b[S.GOLDC] = 10                   # 2 Star pips = 2 VP
    s.phase = "over"
    assert s.scores[0] == s.scores[1] > s.scores[2]
    assert places(s) == (2, 1, 3)
    a[S.DOM] = 0
    a[S.GOLDC] = 10                   # the same VPs and Star pips: a shared 1st place
    assert places(s) == (1, 1, 3)


def test_solo_below_sixty_is_not_first():
    s = new(1)
    s.phase = "over"
    assert s.scores[0] < 60 and s.winners == ()
    assert places(s) == (2,)
