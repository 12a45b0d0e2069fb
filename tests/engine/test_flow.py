"""The engine's turn flow, declared fields, quiet step and older saves (docs/engine.md, "Writing a game")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dicetable.engine import (
    LIST, ROWS, Action, Decision, Field, FlowState, Rng, SaveFormatError, auto, choices, declare, int_list,
    load_state, new_game, prompt, resolve,
)
from dicetable.engine.state import SAVE_FORMAT
from dicetable.engine.testing import shipped_games

from . import toy_game  # noqa: F401  (registers the toy games)

FORMAT1 = Path(__file__).resolve().parents[1] / "data" / "format1"


def test_the_toy_game_declares_its_fields_and_gets_clone_save_and_restore():
    names = [f.name for f in toy_game.SecretHighCard.FIELDS]
    assert names == ["tasks", "lanes", "hands", "deck", "played", "points", "trick", "coin"]
    state = new_game("toy-secret-high-card", 3, seed=5)
    saved = state.to_dict()["state"]
    assert set(saved) == set(names)
    copy = state.clone()
    copy.hands[0].append(99)
    copy.played[1] = 7
    assert 99 not in state.hands[0] and state.played[1] == 0
    back = load_state(json.loads(json.dumps(state.to_dict())), verify=False)
    assert back.to_dict() == json.loads(json.dumps(state.to_dict()))


def test_lanes_let_every_seat_decide_in_any_order_then_the_main_stack_runs():
    state = new_game("toy-secret-high-card", 3, seed=11)
    assert state.to_move == (0, 1, 2)
    state.apply(state.legal_actions(2)[0], 2)
    assert state.to_move == (0, 1)
    state.apply(state.legal_actions(0)[0], 0)
    events = state.apply(state.legal_actions(1)[0], 1)
    assert [e.kind for e in events] == ["play", "reveal"]  # the automatic task ran once the lanes emptied
    assert state.to_move == (0, 1, 2) and state.trick == 2


def test_the_game_ends_when_no_task_is_pending():
    state = new_game("toy-secret-high-card", 2, seed=3)
    while not state.is_over:
        seat = state.to_move[0]
        state.apply(state.legal_actions(seat)[0], seat)
    assert state.tasks == [] and state.lanes is None and state.to_move == ()
    assert sum(state.points) == 3


@pytest.mark.parametrize("spec", shipped_games(), ids=lambda s: s.id)
def test_every_declared_field_is_cloned_equal_and_its_lists_not_shared(spec):
    # whichever _copy_into the class uses (the engine's plan, generated or hand-written)
    state = new_game(spec.id, spec.min_players, seed=21)
    rng = Rng(4)
    for _ in range(40):
        if state.is_over:
            break
        seat = state.to_move[0]
        acts = state.legal_actions(seat)
        state.apply(acts[rng.randbelow(len(acts))], seat)
    copy = state.clone()
    assert type(state).FIELDS, "a shipped game declares its fields"
    for f in type(state).FIELDS:
        mine, theirs = getattr(state, f.name), getattr(copy, f.name)
        assert theirs == mine, f.name
        if f.copy in (LIST, ROWS) and mine is not None:
            assert theirs is not mine, f"{f.name} is shared between a state and its clone"
            if f.copy == ROWS:
                assert all(a is not b for a, b in zip(mine, theirs)), f"{f.name}'s rows are shared"
    assert copy.to_dict() == state.to_dict()


@pytest.mark.parametrize("spec", shipped_games(), ids=lambda s: s.id)
def test_quiet_steps_play_the_same_game_as_apply_without_events(spec):
    for players in range(spec.min_players, spec.max_players + 1):
        loud = new_game(spec.id, players, seed=77)
        quiet = loud.clone()
        rng = Rng(players)
        while not loud.is_over:
            seat = loud.to_move[rng.randbelow(len(loud.to_move))]
            actions = loud.legal_actions(seat)
            action = actions[rng.randbelow(len(actions))]
            assert quiet.legal_actions(seat) == actions
            before = len(quiet.log)
            assert quiet.step(quiet.legal_actions(seat)[actions.index(action)], seat) is None
            assert len(quiet.log) == before  # no event logged in a quiet step
            loud.apply(action, seat)
            assert quiet.observation(seat) == loud.observation(seat)
        assert quiet.is_over and quiet.scores == loud.scores and quiet.winners == loud.winners
        assert quiet.history == loud.history


def test_child_leaves_its_parent_unchanged():
    state = new_game("toy-secret-high-card", 2, seed=9)
    before = state.to_dict()
    kid = state.child(state.legal_actions(0)[0], 0)
    assert state.to_dict() == before
    assert kid.to_move == (1,)


@pytest.mark.parametrize("path", sorted(FORMAT1.glob("*.json")), ids=lambda p: p.stem)
def test_format_1_saves_are_still_read_by_playing_their_moves_again(path):
    data = json.loads(path.read_text())
    assert data["format"] == 1
    state = load_state(data)
    assert state.to_dict()["format"] == SAVE_FORMAT
    assert state.history == [tuple(h) for h in data["history"]]
    # the log is drawn again from the moves: every saved event is there, in order, among today's events
    # (which may add events, effects (engine.effects) and say them in other words)
    def same(event, saved) -> bool:
        return (event.kind == saved["kind"] and event.seat == saved["seat"]
                and all(event.data.get(k) == v for k, v in saved.get("data", {}).items()))
    events = iter(state.log)
    assert all(any(same(e, saved) for e in events) for saved in data["log"])
    tampered = dict(data, rng=data["rng"] ^ 1)
    with pytest.raises(SaveFormatError):
        load_state(tampered)
    with pytest.raises(SaveFormatError, match="verify=True"):
        load_state(data, verify=False)


def _tiny(annotations=None, **handlers):
    return type("Tiny", (FlowState,), {"__module__": __name__, "__annotations__": annotations or {}, **handlers})


def test_a_decision_kind_without_all_three_handlers_is_refused_at_class_creation():
    with pytest.raises(TypeError, match="no choices or resolve"):
        _tiny(p=prompt("pick")(lambda self, task: Decision(task[1], "pick", "Pick.")))


def test_a_kind_cannot_be_both_automatic_and_a_decision():
    with pytest.raises(TypeError, match="both automatic and a decision"):
        _tiny(a=auto("x")(lambda self, task: None),
              p=prompt("x")(lambda self, task: None),
              c=choices("x")(lambda self, task: [Action("a", "A")]),
              r=resolve("x")(lambda self, task, action: None))


def test_two_handlers_for_one_kind_are_refused():
    with pytest.raises(TypeError, match="two auto handlers"):
        _tiny(a=auto("x")(lambda self, task: None), b=auto("x")(lambda self, task: None))


def test_two_fields_saved_under_one_key_are_refused():
    with pytest.raises(TypeError, match="same key"):
        _tiny({"a": "int", "b": "int"}, OWN_FIELDS=declare(a=Field(int, save="n"), b=Field(int, save="n")))


def test_a_field_of_an_attribute_the_class_does_not_annotate_is_refused():
    with pytest.raises(TypeError, match=r"OWN_FIELDS names \['b'\], which the class does not annotate"):
        _tiny({"a": "int"}, OWN_FIELDS=declare(a=Field(int), b=Field(int)))


def test_a_public_attribute_without_a_field_is_refused_and_a_private_one_allowed():
    with pytest.raises(TypeError, match=r"the attributes \['b'\] have no Field"):
        _tiny({"a": "int", "b": "int"}, OWN_FIELDS=declare(a=Field(int)))
    cls = _tiny({"a": "int", "_scratch": "int", "K": "ClassVar[int]"}, OWN_FIELDS=declare(a=Field(int)))
    assert [f.name for f in cls.FIELDS] == ["tasks", "lanes", "a"]


def test_a_field_left_as_a_class_attribute_is_refused():
    with pytest.raises(TypeError, match="a is a Field outside OWN_FIELDS"):
        _tiny({"a": "int"}, a=Field(int))


def test_an_unknown_copy_rule_is_refused():
    with pytest.raises(ValueError, match="copy must be one of"):
        Field(int, copy="deep")


def test_a_field_list_is_copied_not_shared():
    cls = _tiny({"xs": "list[int]"}, OWN_FIELDS=declare(xs=Field(int_list, copy=LIST)))
    a = cls.__new__(cls)
    a.tasks, a.lanes, a.xs = [("t", 0)], None, [1, 2]
    b = cls.__new__(cls)
    a._copy_into(b)
    b.xs.append(3)
    b.tasks.append(("u", 1))
    assert a.xs == [1, 2] and a.tasks == [("t", 0)]
