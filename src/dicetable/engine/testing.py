"""The conformance check every game's test suite runs.

:func:`check_conformance` plays a seeded random game and, along the way,
asserts the State protocol's promises:

- random legal play ends (``is_over``, nobody to move, final scores);
- ``load_state(to_dict(s))`` survives a JSON round trip and continues
  identically under the same choices: along the game through the trusted
  path (``verify=False``, which search workers use, so ``_restore`` is
  tested) and at the end through the checked path, which replays the whole
  history from the seed;
- a clone is independent of its original in both directions;
- illegal actions (unknown ids, wrong seats, seats not to move) raise
  :class:`IllegalActionError` and leave ``to_dict()`` unchanged;
- the same seed and actions give the same game (determinism), and the
  game's replay record reproduces it;
- ``observation(seat)`` and ``decision(seat)`` are JSON-able for every seat
  and for a spectator; every seat to move has a Decision and legal actions,
  no other seat has either;
- the quiet step (``child``) plays the same move as ``apply`` without
  logging and leaves its parent unchanged;
- ``determinize(seat, k)`` changes nothing that ``seat`` can observe or
  decide: its observation, visible scores, decision and legal action ids are
  equal to the real state's. Because ``determinize`` resamples all hidden information,
  this also shows an observation carries no hidden information;
- ``determinize(seat, k)`` depends only on what ``seat`` sees: two states
  that differ only in hidden parts give the same determinized copy, which
  is what lets search bots decide without reading hidden state.

Failures raise ``AssertionError`` with the game, seed and step, so pytest
reports them like any assertion.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterator

from .core import Decision
from .eventlog import EventLog
from .errors import IllegalActionError
from .registry import GameSpec, new_game
from .replay import load_state
from .replay import run_replay
from .rng import Rng
from .state import GameState


@dataclass
class PlayoutResult:
    """What :func:`random_playout` did: the final state and the number of actions."""

    state: GameState
    steps: int


def random_step(state: GameState, rng: Rng) -> tuple[int, str]:
    """Apply one uniformly random legal action for a random seat to move; return (seat, id)."""
    seats = state.to_move
    seat = seats[rng.randbelow(len(seats))]
    actions = state.legal_actions(seat)
    assert actions, f"{state.game_id}: seat {seat} is to move but has no legal action"
    action = actions[rng.randbelow(len(actions))]
    state.apply(action, seat)
    return seat, action.id


def random_playout(state: GameState, rng: Rng, max_steps: int = 200_000) -> PlayoutResult:
    """Play random legal actions until the game ends (AssertionError after ``max_steps``)."""
    steps = 0
    while not state.is_over:
        assert steps < max_steps, (
            f"{state.game_id} seed {state.seed}: no end after {max_steps} random actions"
        )
        random_step(state, rng)
        steps += 1
    return PlayoutResult(state, steps)


def _json_round(data: Any) -> Any:
    return json.loads(json.dumps(data))


def check_json_views(state: GameState) -> None:
    """Assert observations and decisions are JSON-able for every seat and a spectator."""
    for seat in [None, *range(state.players)]:
        obs = state.observation(seat)
        assert isinstance(obs, dict), f"observation({seat}) is not a dict"
        assert _json_round(obs) == obs, f"observation({seat}) does not survive JSON"
    for seat in state.to_move:
        dec = state.decision(seat)
        assert dec is not None and dec.seat == seat and dec.prompt, f"decision({seat}) lacks a seat or prompt"
        json.dumps(dec.to_json())
        for action in state.legal_actions(seat):
            assert isinstance(action.id, str) and action.id, "action ids are non-empty strings"
            assert isinstance(action.label, str) and action.label, "actions need a label"
        ids = [a.id for a in state.legal_actions(seat)]
        assert len(ids) == len(set(ids)), f"duplicate action ids for seat {seat}: {ids}"


def check_round_trip(state: GameState, rng_seed: int, steps: int = 8, verify: bool = True) -> None:
    """Assert ``load_state(to_dict(), verify=verify)`` through JSON text continues identically."""
    saved = state.to_dict()
    text = json.dumps(saved)
    loaded = load_state(json.loads(text), verify=verify)
    assert loaded.to_dict() == saved, "to_dict -> load_state -> to_dict differs"
    a, b = state.clone(), loaded
    ra, rb = Rng(rng_seed), Rng(rng_seed)
    for _ in range(steps):
        if a.is_over:
            break
        assert a.to_move == b.to_move, "loaded state has a different seat to move"
        random_step(a, ra)
        random_step(b, rb)
        assert a.chance_mark == b.chance_mark, "loaded state rolled different dice"
    # One full comparison after the steps (to_dict is dear late in a long game).
    assert snapshot(a) == snapshot(b), "loaded state diverged from the original"


def snapshot(state: GameState) -> tuple[dict[str, Any], EventLog]:
    """What ``to_dict()`` holds, taken cheaply: ``(to_dict(log=False), event_log())``.

    Two snapshots are equal exactly when the two ``to_dict()`` would be; events the states
    share (a clone's, a determinized copy's) compare without being decoded, which late in a
    long game is most of what ``to_dict()`` costs.
    """
    return state.to_dict(log=False), state.event_log()


def check_clone_independence(state: GameState, rng_seed: int) -> None:
    """Assert that acting on a clone leaves the original alone, and the reverse."""
    if state.is_over:
        return
    before = snapshot(state)
    twin = state.clone()
    assert snapshot(twin) == before, "clone differs from its original"
    random_step(twin, Rng(rng_seed))
    assert snapshot(state) == before, "acting on a clone changed the original"
    twin_before = snapshot(twin)
    other = state.clone()
    random_step(other, Rng(rng_seed + 1))
    assert snapshot(twin) == twin_before, "acting on one clone changed another"


def _illegal_attempts(state: GameState, rng: Rng) -> Iterator[tuple[str, int | None]]:
    to_move = state.to_move
    yield "no-such-action", (to_move[0] if to_move else 0)
    for seat in to_move:
        legal_ids = {a.id for a in state.legal_actions(seat)}
        for action in state.legal_actions(seat)[:3]:
            for bad in ("x" + action.id, action.id + "!", action.id.upper() + "?"):
                if bad not in legal_ids:
                    yield bad, seat
        for other in to_move:
            for action in state.legal_actions(other):
                if action.id not in legal_ids:
                    yield action.id, seat
                    break
    not_moving = [s for s in range(state.players) if s not in to_move]
    for seat in not_moving[:2]:
        anything = state.legal_actions(to_move[0])[0].id if to_move else "pass"
        yield anything, seat
    yield "pass", -1
    yield "pass", state.players
    if len(to_move) > 1:
        yield state.legal_actions(to_move[0])[0].id, None


def check_illegal_rejected(state: GameState, rng_seed: int) -> int:
    """Assert each illegal attempt raises IllegalActionError and changes nothing; return the count."""
    before = snapshot(state)
    count = 0
    attempts = list(_illegal_attempts(state, Rng(rng_seed)))
    for action_id, seat in attempts:
        try:
            state.apply(action_id, seat)
        except IllegalActionError as exc:
            assert str(exc), "IllegalActionError needs a message"
        else:
            raise AssertionError(
                f"{state.game_id}: illegal action {action_id!r} by seat {seat} was accepted"
            )
        count += 1
    if snapshot(state) != before:  # compared once (dear late in a game); then find the culprit
        saved = before[0]  # loads with an empty log, enough to find which action changed the rest
        for action_id, seat in attempts:
            probe = load_state(saved, verify=False)
            try:
                probe.apply(action_id, seat)
            except IllegalActionError:
                pass
            assert probe.to_dict(log=False) == saved, f"refused action {action_id!r} by seat {seat} changed the state"
        raise AssertionError(f"{state.game_id}: refused actions changed the state")
    return count


def check_determinize(state: GameState, seed: int) -> None:
    """Assert ``determinize(seat, k)`` keeps everything ``seat`` can observe and decide."""
    for seat in range(state.players):
        det = state.determinize(seat, seed)
        assert det.observation(seat) == state.observation(seat), (
            f"{state.game_id}: determinize({seat}) changed what seat {seat} observes "
            "(either determinize resampled something visible, or the observation "
            "shows hidden information)"
        )
        assert det.visible_scores(seat) == state.visible_scores(seat), (
            f"{state.game_id}: determinize({seat}) changed the scores seat {seat} may see "
            "(visible_scores reads hidden information)"
        )
        assert det.to_move == state.to_move, "determinize changed who is to move"
        if seat in state.to_move:
            assert det.decision(seat) == state.decision(seat), "determinize changed the decision"
            assert [a.id for a in det.legal_actions(seat)] == [
                a.id for a in state.legal_actions(seat)
            ], "determinize changed the seat's legal actions"


def check_determinize_ignores_hidden_state(state: GameState, seed: int) -> None:
    """Assert ``determinize(seat, k)`` depends only on what ``seat`` sees.

    A state is compared with another one that looks the same to ``seat``
    but whose hidden parts differ (itself determinized with another seed):
    determinizing both with the same ``k`` must give identical states.
    """
    for seat in range(state.players):
        twin = state.determinize(seat, seed ^ 0xA5A5)
        a = snapshot(state.determinize(seat, seed))
        b = snapshot(twin.determinize(seat, seed))
        assert a == b, (
            f"{state.game_id}: determinize({seat}) depends on hidden state (sort the "
            "unknown items before shuffling them back)"
        )


def check_final(state: GameState) -> None:
    """Assert the end-of-game promises: nobody to move, scores per seat, winners are seats."""
    assert state.is_over
    assert state.to_move == (), "a finished game still has seats to move"
    assert len(state.scores) == state.players, "scores need one entry per seat"
    assert all(0 <= w < state.players for w in state.winners), "winners must be seats"
    for seat in range(state.players):
        assert state.legal_actions(seat) == (), "a finished game offers no actions"


def shipped_games() -> list[GameSpec]:
    """The :class:`GameSpec` of every game found in the ``dicetable.games`` package, by id.

    ``list_games()`` also holds games a test registered by hand (the kernel's
    toy games); tests and tools that mean "every game we ship" use this.
    """
    from .registry import list_games

    return [s for s in list_games() if s.state_class.__module__.startswith("dicetable.games.")]


def configurations(spec: GameSpec) -> list[tuple[str, int, dict[str, Any]]]:
    """``(name, players, options)`` of every configuration of a game worth playing in tests and tools.

    Every player count with the default options, then every other value of
    every option (:meth:`OptionSpec.values`) at the smallest player count the
    option applies to, e.g. ``("1p-cat_level=3", 1, {"cat_level": 3})``.
    """
    out: list[tuple[str, int, dict[str, Any]]] = [(f"{p}p", p, {}) for p in range(spec.min_players, spec.max_players + 1)]
    for opt in spec.options:
        players = min(opt.players) if opt.players else spec.min_players
        for value in opt.values():
            if value != opt.default:
                out.append((f"{players}p-{opt.name}={value}", players, {opt.name: value}))
    return out


def check_decisions(state: GameState) -> None:
    """Assert every seat to move has a :class:`Decision` and legal actions, and no other seat has."""
    to_move = state.to_move
    for seat in range(state.players):
        decision = state.decision(seat)
        if seat in to_move:
            assert isinstance(decision, Decision) and decision.seat == seat and decision.prompt, (
                f"{state.game_id}: seat {seat} is to move but decision() gave {decision!r}")
            assert state.legal_actions(seat), f"{state.game_id}: seat {seat} is to move but has no legal action"
        else:
            assert decision is None, f"{state.game_id}: seat {seat} is not to move but has a decision"
            assert state.legal_actions(seat) == ()


def check_quiet_step(state: GameState, rng_seed: int) -> None:
    """Assert the quiet ``child`` reaches the same state as ``apply``, and leaves the original alone."""
    rng = Rng(rng_seed)
    seat = state.to_move[rng.randbelow(len(state.to_move))]
    actions = state.legal_actions(seat)
    action = actions[rng.randbelow(len(actions))]
    before = snapshot(state)
    quiet = state.child(action, seat)
    assert snapshot(state) == before, "child() changed its parent"
    loud = state.clone()
    loud.apply(action.id, seat)
    for viewer in (*range(state.players), None):
        assert quiet.observation(viewer) == loud.observation(viewer), "the quiet step played a different move"
    assert quiet.to_move == loud.to_move and quiet.history == loud.history and quiet.scores == loud.scores
    assert len(quiet.event_log()) == len(state.event_log()), "a quiet step logged events"


def check_conformance(
    game_id: str,
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    density: int = 6,
    max_steps: int = 200_000,
) -> GameState:
    """Run every protocol check on one seeded random game; return its final state.

    Per-state checks run at the first step and then at gaps that grow with
    the game (the next check comes ``1 + steps // density`` actions later),
    about ``density * ln(steps)`` checks a game: dense in the opening where
    set-up bugs show, and still spread over the whole game.
    """
    state = new_game(game_id, players, seed=seed, options=options)
    fresh = new_game(game_id, players, seed=seed, options=options)
    assert state.to_dict() == fresh.to_dict(), "same seed gave different set-ups"
    rng = Rng(seed ^ 0x5EED)
    steps = 0
    actions = []
    next_check = 0
    while not state.is_over:
        assert steps < max_steps, f"{game_id} seed {seed}: no end after {max_steps} actions"
        if steps == next_check:
            next_check = steps + 1 + steps // density
            check_json_views(state)
            check_decisions(state)
            check_quiet_step(state, seed + steps)
            check_illegal_rejected(state, seed + steps)
            check_clone_independence(state, seed + steps)
            check_round_trip(state, seed + steps, steps=4, verify=False)
            check_determinize(state, seed + steps)
            check_determinize_ignores_hidden_state(state, seed + steps)
        actions.append(random_step(state, rng))
        steps += 1
    check_final(state)
    check_json_views(state)
    check_round_trip(state, seed)
    # Determinism: the same seed and actions rebuild the same game.
    for seat, action_id in actions:
        fresh.apply(action_id, seat)
    assert fresh.to_dict() == state.to_dict(), "same seed + same actions gave a different game"
    replayed = run_replay(json.loads(json.dumps(state.replay_record())))
    assert replayed.to_dict() == state.to_dict(), "the replay record does not reproduce the game"
    return state
