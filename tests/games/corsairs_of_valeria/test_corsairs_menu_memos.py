"""Corsairs' memos read by a dice code (rules/common.py): the same menus and texts as made afresh.

``cached_reroll_menu`` and ``dice_info`` keep what they made in lists read by ``dice_code``; every
roll of five dice, every set of marks and both ways to pay give what ``reroll_menu``,
``faces_text`` and the face names give (rulebook: B Re-roll Dice); ``cached_order_menu`` gives
``order_menu``'s menu for every split of the faces among the four groups and every flag (C Execute
Dice Actions).
"""

from __future__ import annotations

from itertools import combinations_with_replacement, product

from dicetable.games.corsairs_of_valeria.rules.common import (
    F_ARRIVED, F_CANNON5, F_GROG5, F_HOOK_USED, F_JAXN, F_MAP5, cached_order_menu, cached_reroll_menu, dice_code,
    dice_info, faces_text, order_menu, reroll_menu,
)
from dicetable.games.corsairs_of_valeria.rules.consts import DICE, DIE_FACES


def test_dice_code_tells_every_sequence_of_up_to_five_dice_apart():
    codes = {dice_code(list(d)) for n in range(DICE + 1) for d in product(range(6), repeat=n)}
    assert len(codes) == sum(6 ** n for n in range(DICE + 1)) and max(codes) < 1 << 16
    assert dice_code([0] * (DICE + 1)) == -1


def test_cached_menus_equal_fresh_ones():
    for dice in combinations_with_replacement(range(6), DICE):
        for marked, grog, silver in product(range(1 << DICE), (False, True), (False, True)):
            fresh = reroll_menu(dice, marked, grog, silver)
            assert cached_reroll_menu(list(dice), marked, grog, silver) == fresh
            assert cached_reroll_menu(list(dice), marked, grog, silver) == fresh   # from the memo


def test_dice_info_of_every_roll_and_subset():
    for n in range(DICE + 2):   # six dice: more than the game has, worked out uncached
        for dice in combinations_with_replacement(range(6), n):
            text, names = dice_info(list(dice))
            assert text == faces_text(dice) and names == [DIE_FACES[f] for f in dice]


def test_cached_order_menus_equal_fresh_ones():
    flags = (F_MAP5, F_CANNON5, F_GROG5, F_ARRIVED, F_HOOK_USED, F_JAXN)
    for left in product(range(DICE + 1), repeat=4):
        if sum(left) > DICE:
            continue
        for bits in product((0, 1), repeat=len(flags)):
            f = sum(flag for flag, on in zip(flags, bits) if on)
            fresh = order_menu(list(left), f & (F_GROG5 | F_MAP5 | F_JAXN))
            assert cached_order_menu(list(left), f) == fresh
            assert cached_order_menu(list(left), f) == fresh   # from the memo
    assert cached_order_menu([9, 0, 0, 0], 0) == order_menu([9, 0, 0, 0], 0)   # beyond the dice: uncached
