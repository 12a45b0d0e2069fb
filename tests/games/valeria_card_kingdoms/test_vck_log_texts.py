"""What a player reads in the log and on the board: every payment and every loss is named.

The first test is a new user's report (tests/cli/test_newuser2.py on its branch), copied with
its helpers ``play`` and ``label_of``; the others build the situation with ``vck_helpers``.
Rule ids cite ../shared/facts/valeria-card-kingdoms-rules.md.
"""

from __future__ import annotations

import dicetable

from vck_helpers import give, give_domain, keep_dukes, new, res, set_res


def play(game, players, seed, options, history):
    state = dicetable.new_game(game, players=players, seed=seed, options=options)
    for seat, action_id in history:
        state.apply(action_id, seat=seat)
    return state


def label_of(state, seat, action_id):
    return next(a.label for a in state.legal_actions(seat) if a.id == action_id)


# ---------------------------------------------------------------- paid die changes (R5.5)

def test_vck_die_change_log_says_what_was_paid():
    # Solo, monster-blood, seed 15: The Desert Orchid is built; next Roll Phase shows 4 and 4.
    state = play("valeria-card-kingdoms", 1, 15, {"setup": "monster-blood"}, [
        (0, "duke:lekzandr-the-protector"), (0, "recruit:cleric"), (0, "pay:3g"), (0, "gain:gold"),
        (0, "capture:peasant"), (0, "capture:blacksmith"), (0, "recruit:mercenary"), (0, "pay:3g"),
        (0, "gain:magic"), (0, "capture:archer"), (0, "capture:cleric"), (0, "build:the-desert-orchid"),
        (0, "pay:2g+7m"), (0, "gain:magic"), (0, "capture:knight"), (0, "capture:archer")])
    assert "(pay 1 Gold)" in label_of(state, 0, "die:the-desert-orchid:1")
    events = state.apply("die:the-desert-orchid:1", seat=0)
    change = next(e.text for e in events if e.kind == "die-change")
    assert "1 Gold" in change, change                   # the log omits the Gold paid


def _die_change(events):
    return next(e for e in events if e.kind == "die-change")


def test_desert_orchid_event_names_the_gold_paid_per_holy_citizen():
    """The Desert Orchid costs 1 Gold per Holy Citizen: two Clerics, 2 Gold, said as a payment."""
    s = new(dice=(2, 3))
    give_domain(s, 0, "The Desert Orchid")
    give(s, 0, "Cleric", 2)
    set_res(s, 0, g=2)
    keep_dukes(s)
    assert "(pay 2 Gold)" in label_of(s, 0, "die:the-desert-orchid:2")
    event = _die_change(s.apply("die:the-desert-orchid:2", seat=0))
    assert event.text == "Player 1 uses The Desert Orchid: die 2 3 -> 1, paying 2 Gold."
    assert event.data == {"domain": "The Desert Orchid", "die": 2, "from": 3, "to": 1, "paid": {"gold": 2}}
    assert res(s, 0)[0] == 0


def test_foxgrove_palisade_event_names_the_gold_paid():
    """Foxgrove Palisade: pay 2 Gold to set a die to 6; the event says so, like a build or recruit."""
    s = new(dice=(2, 3))
    give_domain(s, 0, "Foxgrove Palisade")
    set_res(s, 0, g=2)
    keep_dukes(s)
    event = _die_change(s.apply("die:foxgrove-palisade:1", seat=0))
    assert event.text == "Player 1 uses Foxgrove Palisade: die 1 2 -> 6, paying 2 Gold."
    assert event.data["paid"] == {"gold": 2}


def test_free_die_change_mentions_no_payment():
    """Palace of the Dawn lowers a die for nothing: no "paying" in its event, an empty ``paid``."""
    s = new(dice=(2, 3))
    give_domain(s, 0, "Palace of the Dawn")
    keep_dukes(s)
    assert "pay" not in label_of(s, 0, "die:palace-of-the-dawn:2")
    event = _die_change(s.apply("die:palace-of-the-dawn:2", seat=0))
    assert event.text == "Player 1 uses Palace of the Dawn: die 2 3 -> 2."
    assert event.data["paid"] == {}
