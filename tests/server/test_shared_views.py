"""Work shared between the viewers of one table revision (docs/web.md, "Live updates"): observation patches
made once (``delta.entry_texts``), board parts drawn once (``engine.markup.Memo``), snapshots sharing
their equal parts. Sharing must never change a byte of what any viewer receives."""

from __future__ import annotations

import json
import queue
import random
from copy import deepcopy

from hypothesis import given, settings
from hypothesis import strategies as st

from dicetable.engine.markup import Memo, memo
from dicetable.server.delta import apply_patch, decoded, diff, entry_texts, same_items
from dicetable.server.jsonio import dumps
from dicetable.server.store import Store
from dicetable.server.tables import Subscriber, TableManager
from dicetable.server.views import not_same_object

KEYS = st.sampled_from(["a", "b", "c", "d", "dice"])
SCALARS = st.none() | st.booleans() | st.integers(-2, 2) | st.floats(-2, 2, allow_nan=False) | st.text(max_size=2)
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
                    max_leaves=20)
OBS = st.dictionaries(KEYS, JSON, max_size=5)


def _text(value) -> str:
    return json.dumps(value)  # key order and 1 / 1.0 / true all show in the text


def _patch_revisions(revisions, seats, build):
    """Patch each viewer's observation from one revision to the next, all viewers of a revision sharing
    one ``seen`` (``build(public, own, n)`` makes a viewer's observation of revision ``n``); asserts that
    every shared patch is the viewer's own diff of the two observations, to the byte, that every kept
    entry is its value's own JSON text, and that nothing passed in is changed. Yields ``(seen, new,
    texts, old texts)`` for each viewer and revision."""
    olds = [dict(deepcopy(revisions[0]), seat=own[0]) for own in seats]
    held = [entry_texts(None, None, old)[1] for old in olds]
    for n, pub in enumerate(revisions[1:], start=1):
        seen: dict = {}
        kept, kept_texts = [], []
        for v, own in enumerate(seats):
            new = build(pub, own, n)
            before_old, before_new = _text(olds[v]), _text(new)
            ops, texts = entry_texts(seen, held[v], new)
            assert _text(ops) == _text(diff(olds[v], new))
            assert texts.keys() == new.keys() and all(texts[k] == dumps(x) for k, x in new.items())
            assert _text(olds[v]) == before_old and _text(new) == before_new
            assert apply_patch(json.loads(_text(olds[v])), json.loads(_text(ops))) == new
            assert decoded(texts) == json.loads(_text(new))
            kept.append(new)
            kept_texts.append(texts)
            yield seen, new, texts, held[v]
        olds, held = kept, kept_texts


@settings(max_examples=200, deadline=None)
@given(OBS, OBS, st.lists(st.tuples(JSON, JSON), min_size=1, max_size=4), OBS)
def test_shared_patches_are_each_viewers_own_diff_exactly(public, public2, seats, public3):
    """Viewers whose observations share a public part (built as copies, as the engine does) and differ in
    "seat": over three revisions, each viewer's shared patch is its own diff, to the byte, and the kept
    texts are its own, to the byte; nothing passed in is changed."""
    steps = list(_patch_revisions([public, public2, public3], seats,
                                  lambda pub, own, n: dict(deepcopy(pub), seat=own[n % 2])))
    assert len(steps) == 2 * len(seats)


def test_a_value_of_another_type_or_key_order_is_not_shared():
    seen: dict = {}
    old = entry_texts(None, None, {"x": 0, "o": {"a": 1, "b": 2}})[1]
    entry_texts(seen, old, {"x": 1, "o": {"a": 1, "b": 3}})
    ops, texts = entry_texts(seen, old, {"x": True, "o": {"b": 3, "a": 1}})
    assert texts == {"x": "true", "o": '{"b":3,"a":1}'}
    assert ops == [["s", ["x"], True], ["s", ["o", "b"], 3]]


def _shallow(value):
    """A new list or dict holding the same objects as ``value`` (how Dice Kingdoms lists its shared sheet
    views for each viewer); anything else as it is."""
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    return value


@settings(max_examples=200, deadline=None)
@given(OBS, OBS, st.lists(st.tuples(JSON, JSON, st.booleans()), min_size=1, max_size=4), OBS)
def test_equal_entries_share_one_text_and_each_viewers_patch_is_its_own(public, public2, seats, public3):
    """Viewers whose public entries are new lists or dicts of the same objects (or deep copies, for
    some): each viewer's shared patch and kept texts are its own to the byte, and an entry whose text
    is the first viewer's is kept as the first viewer's object, or as the viewer's own previous one when
    the entry did not change (one copy in memory either way, when the viewers shared it before)."""
    def build(pub, own, n):
        return dict({k: (deepcopy(x) if own[2] else _shallow(x)) for k, x in pub.items()}, seat=own[n % 2])

    for seen, new, texts, old in _patch_revisions([public, public2, public3], seats, build):
        for k in new:
            if k in seen and seen[k][1] == texts[k]:
                assert texts[k] is seen[k][1] or (texts[k] is old.get(k) and seen[k][1] == old[k])


def test_same_items_means_the_same_objects_in_the_same_order():
    a, b = [1], {"x": 1}
    assert same_items([a, b], [a, b]) and same_items({"p": a, "q": b}, {"p": a, "q": b})
    assert not same_items([a, b], [a, dict(b)])  # equal, but another object
    assert not same_items({"p": a, "q": b}, {"q": b, "p": a})  # another key order: another JSON text
    assert not same_items([a], (a,)) and not same_items([a], [a, b]) and not same_items(1, 1)


def test_a_large_entry_of_the_first_viewers_objects_is_not_written_again():
    sheets = [{"cells": list(range(400))}, {"cells": list(range(400, 800))}]
    seen: dict = {}
    _, first = entry_texts(seen, None, {"players": list(sheets)})
    _, second = entry_texts(seen, None, {"players": list(sheets)})  # a new list of the same objects
    assert second["players"] is first["players"] and len(first["players"]) > 1024


def test_unchanged_entries_keep_the_previous_texts_objects():
    old = entry_texts(None, None, {"a": [1, 2], "b": {"c": "d"}})[1]
    ops, texts = entry_texts({}, old, {"a": [1, 2], "b": {"c": "e"}})
    assert ops == [["s", ["b", "c"], "e"]]
    assert texts["a"] is old["a"] and texts["b"] == '{"c":"e"}'


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(KEYS, st.integers(0, 3)), max_size=8), st.lists(st.tuples(KEYS, st.integers(0, 3)), max_size=8))
def test_parts_not_the_same_object_are_found_in_order(old_items, new_items):
    """``not_same_object`` gives the keys whose value is not the old object (equal texts made apart count),
    in the new board's order, whether the keys come in the same order or not."""
    texts = [f"<p>{n}</p>" for n in range(4)]
    old = {k: texts[n] for k, n in old_items}
    new = {k: (texts[n] if n % 2 else "".join(["<p>", str(n), "</p>"])) for k, n in new_items}
    want = [k for k, v in new.items() if k not in old or old[k] is not v]
    assert not_same_object(new, old) == want
    assert not_same_object(old, dict(old)) == []


def test_a_memo_draws_equal_values_once_and_tells_types_apart():
    calls = []

    @memo(size=3)
    def draw(value, flag=None):
        calls.append((value, flag))
        return f"<b>{value!r}</b>"

    assert draw({"a": [1, 2]}) == "<b>{'a': [1, 2]}</b>"
    assert draw({"a": [1, 2]}) == "<b>{'a': [1, 2]}</b>" and len(calls) == 1  # equal values: drawn once
    assert draw(1) == "<b>1</b>" and draw(True) == "<b>True</b>" and draw(1.0) == "<b>1.0</b>"
    assert len(calls) == 4  # 1, True and 1.0 are three drawings
    big = {"k": list(range(200))}
    assert draw(big) == draw(dict(big)) and calls[-1] == (big, None) and len(calls) == 5  # a digest key
    assert len(draw.got) <= 3  # bounded: started again when full
    assert draw.__name__ == "draw"  # a wrapper of the function


def test_a_memo_keys_what_json_cannot_hold_by_its_marshal_form():
    """A dict keyed by ints, or a set, is no JSON document: the memo keys it by ``marshal`` instead, still
    drawing equal values once and telling ``{1: ...}`` from ``{"1": ...}`` apart."""
    calls = []

    @memo(size=8)
    def draw(value):
        calls.append(value)
        return f"<i>{value!r}</i>"

    assert draw({1: "a"}) == "<i>{1: 'a'}</i>" and draw({1: "a"}) == "<i>{1: 'a'}</i>" and len(calls) == 1
    assert draw({"1": "a"}) == "<i>{'1': 'a'}</i>" and len(calls) == 2
    assert draw(frozenset({2})) == draw(frozenset({2})) and len(calls) == 3
    assert draw("1") == "<i>'1'</i>" and draw(1) == "<i>1</i>" and draw(None) == "<i>None</i>" and len(calls) == 6


def test_a_memo_draws_every_time_what_is_not_plain_data():
    calls = []
    made = Memo(lambda v: calls.append(v) or "x")
    thing = object()
    assert made(thing) == "x" and made(thing) == "x" and len(calls) == 2


def test_viewers_of_one_revision_share_board_parts_and_observation_entries(tmp_path):
    """After a change seen by four seats and a spectator, their snapshots hold one object for each board
    part and observation entry they have alike, and every connection got its message."""
    m = TableManager(Store(f"sqlite:///{tmp_path / 'share.db'}"), bot_threads=1, search_processes=0,
                     id_factory=lambda: "sharetable", idle_evict=0)
    try:
        m.create("dice-kingdoms-of-valeria", 4, {}, 3, [{"kind": "human"}] * 4, None)
        lt = m.get("sharetable")

        class Inline:
            def call_soon_threadsafe(self, fn, *args):
                fn(*args)

        subs = [Subscriber(key, Inline(), queue.SimpleQueue()) for key in (0, 1, 2, 3, None)]
        for sub in subs:
            m.subscribe(lt, sub)
        rng = random.Random(2)
        for _ in range(6):
            seat = lt.state.to_move[0]
            m.act(lt.id, seat, rng.choice(lt.state.legal_actions(seat)).id, lt.version, minimal=True)
        views = [lt.live[key].view for key in (0, 1, 2, 3, None)]
        spectator = views[-1]
        for view in views[:-1]:
            same_parts = [k for k, html in view["parts"].items() if spectator["parts"].get(k) == html]
            assert len(same_parts) > len(view["parts"]) // 2
            assert all(view["parts"][k] is spectator["parts"][k] for k in same_parts)
            board = view["observation"]["players"]  # the entry's JSON text, one object for every viewer
            assert board == spectator["observation"]["players"] and board is spectator["observation"]["players"]
        assert all(not sub.queue.empty() for sub in subs)
    finally:
        m.close()
        m.store.close()
