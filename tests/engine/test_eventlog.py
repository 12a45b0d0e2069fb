"""The compact event log gives back events equal to those emitted, with byte-identical JSON."""

from __future__ import annotations

import json
import random
from enum import IntEnum
from typing import NamedTuple

from hypothesis import given
from hypothesis import strategies as st

from dicetable import load_state, new_game
from dicetable.engine.core import Event
from dicetable.engine.eventlog import EventLog, pack, unpack
from dicetable.engine.testing import snapshot

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)
_events = st.builds(
    Event, st.text(min_size=1, max_size=12), st.none() | st.integers(0, 5), st.text(max_size=80),
    st.none() | st.dictionaries(st.text(max_size=8), _json, max_size=5),
    st.none() | st.tuples(st.integers(0, 5)) | st.tuples(st.integers(0, 5), st.integers(0, 5)),
)


def _types(value):
    """The value with every container's and scalar's exact type, in order (equality alone ignores 1 == 1.0 == True)."""
    if isinstance(value, dict):
        return ("dict", [(_types(k), _types(v)) for k, v in value.items()])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_types(v) for v in value])
    return (type(value).__name__, value)


@given(_events)
def test_an_unpacked_event_is_the_packed_one_field_for_field_and_type_for_type(event):
    back = unpack(pack(event))
    assert type(back) is Event
    assert back == event
    assert _types(tuple(back)) == _types(tuple(event))
    assert json.dumps(back.to_json()) == json.dumps(event.to_json())


class _Point(NamedTuple):
    x: int


class _Level(IntEnum):
    HIGH = 2


def test_an_event_marshal_cannot_keep_exactly_is_kept_as_itself():
    for data in ({"at": _Point(1)}, {"level": _Level.HIGH}):
        event = Event("odd", 0, "An odd event.", data)
        assert pack(event)[3] is event
        assert unpack(pack(event)) is event


def test_an_event_log_reads_as_the_list_of_its_events():
    events = [Event("roll", s % 3, f"Roll {s}.", {"effects": [{"type": "turn", "seat": s % 3}]},
                    None if s % 2 else (s % 3,)) for s in range(7)]
    log = EventLog()
    log.extend(events[:3])
    log.extend(EventLog(pack(e) for e in events[3:]))
    assert len(log) == 7
    assert list(log) == events
    assert list(reversed(log)) == events[::-1]
    assert log[2] == events[2] and log[-1] == events[-1]
    assert log[4:] == events[4:] and log[:0] == []
    assert [e.text for e in log if e.visible_to(1)] == [e.text for e in events if e.visible_to(1)]


def test_a_states_event_log_is_its_log_and_its_tail_the_newest_events_and_its_history_the_moves():
    state = new_game("valeria-card-kingdoms", 3, seed=4)
    rng = random.Random(4)
    moves = []
    for _ in range(30):
        seat = state.to_move[0]
        action = rng.choice(state.legal_actions(seat))
        events = state.apply(action, seat)
        moves.append((seat, action.id))
        assert list(state.event_log(len(events))) == events
    assert state.history == moves and all(type(m) is tuple for m in state.history)
    log = state.log
    assert len(log) > 30
    assert list(state.event_log()) == log
    assert list(state.event_log(5)) == log[-5:]
    assert list(state.event_log(len(log) + 10)) == log
    assert [e.to_json() for e in log] == state.to_dict()["log"]


def test_apply_logs_its_events_loose_and_compact_log_packs_them_reading_the_same():
    state = new_game("biblios-dice", 3, seed=6)
    rng = random.Random(6)
    setup = state.event_log()
    assert len(setup) > 0 and setup.loose_count() == len(setup)  # the set-up's events are logged loose too
    applied = len(setup)
    for _ in range(12):
        seat = state.to_move[0]
        applied += len(state.apply(rng.choice(state.legal_actions(seat)), seat))
    before = state.event_log()
    saved = state.to_dict()
    assert applied > 12 + len(setup) and before.loose_count() == applied  # no marshal on apply's path
    twin = state.clone()
    state.compact_log()
    after = state.event_log()
    assert after.loose_count() == 0
    assert after == before and list(after) == list(before) and state.to_dict() == saved
    assert all(a.text is b.text for a, b in zip(after, before))  # the very texts, not copies
    assert twin.event_log().loose_count() == applied and twin.to_dict() == saved  # a clone is untouched
    state.compact_log()  # nothing loose: nothing changes
    assert state.event_log() == after and state.event_log().loose_count() == 0


def test_an_unpacked_event_keeps_the_very_text_so_views_of_the_log_share_it():
    event = Event("harvest", 1, "Player 2 harvests 2 Holy Guild Track pips.", {"marked": [0, 2, 0, 0]})
    record = pack(event)
    assert unpack(record).text is event.text
    assert unpack(record).data is not event.data and unpack(record).data == event.data


@given(st.lists(_events, max_size=6), st.lists(_events, max_size=6))
def test_two_event_logs_are_equal_exactly_when_their_events_save_the_same(first, second):
    a, b = EventLog(), EventLog()
    a.extend(first)
    b.extend(second)
    same = [e.to_json() for e in first] == [e.to_json() for e in second]
    assert (a == b) is same
    assert (a == second) is same  # a list of Events compares too
    shared = EventLog()
    shared.extend(a)  # the same cells: equal without decoding
    assert shared == a and (shared != b) is (not same)


def test_events_that_save_the_same_are_equal_in_a_log():
    """No data and empty data: a saved game cannot tell them apart."""
    a, b = EventLog(), EventLog()
    a.extend([Event("bid", 0, "Player 1 bids.", None, (0,))])
    b.extend([Event("bid", 0, "Player 1 bids.", {}, (0,))])
    assert a == b
    b.extend([Event("bid", 1, "Player 2 bids.")])
    assert a != b


def test_a_snapshot_is_the_saved_dict_less_its_log_and_compares_as_the_whole_does():
    state = new_game("kingdom-of-dice", 3, seed=8)
    rng = random.Random(8)
    for _ in range(40):
        seat = state.to_move[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    whole = state.to_dict()
    assert state.to_dict(log=False) == {k: v for k, v in whole.items() if k != "log"}
    clone, loaded = state.clone(), load_state(whole)
    assert snapshot(clone) == snapshot(state) == snapshot(loaded)  # shared cells, then decoded ones
    seat = clone.to_move[0]
    clone.apply(clone.legal_actions(seat)[0], seat)
    assert snapshot(clone) != snapshot(state) and clone.to_dict() != whole
