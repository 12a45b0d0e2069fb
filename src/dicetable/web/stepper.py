"""Stepping through a finished table's record at the same cost at any step: :class:`ReplayCursor`.

A cursor replays the public record (seed, options, actions) through the
engine once, forward: it keeps the state it is at, a clone every
``every`` actions (checkpoints, for jumps and steps back) and, for every
step reached so far, the spectator's log length, the action taken with its
label, and the round and turn starts. A step forward is one action applied;
a jump is a clone of the nearest checkpoint at or before it plus at most
``every - 1`` actions. The counters :attr:`ReplayCursor.rebuilds` (states
built from the record's set-up) and :attr:`ReplayCursor.applied` (actions
applied) say what it cost.

Everything shown is drawn from ``observation(None)`` and the events a
spectator may see (docs/views.md).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from dicetable.engine import DicetableError, GameState, asked_now, asked_of, get_game, new_game, seat_name
from dicetable.engine.effects import effects_of
from dicetable.engine.errors import SaveFormatError

from .render import board_or_none

#: Largest number of actions a replay record may hold (a long Kingdom of Dice game has ~2,500).
MAX_REPLAY_ACTIONS = 20_000
#: Actions between two checkpoints: a jump or a step back applies fewer than this many actions.
CHECKPOINT_EVERY = 50


def record_steps(record: Any) -> list[tuple[int, str]]:
    """The ``(seat, action id)`` steps of a replay record, checked; SaveFormatError naming what is wrong.

    ``record`` is a dict with ``game``, ``players``, an int ``seed``, optional
    ``options`` and ``dice``, and ``actions`` as ``[seat, action id]`` pairs
    or ``{"seat", "action"}`` dicts, at most :data:`MAX_REPLAY_ACTIONS`.
    """
    if not isinstance(record, dict):
        raise SaveFormatError("a replay record is a JSON object with game, players, seed, options and actions")
    for key in ("game", "players", "seed"):
        if key not in record:
            raise SaveFormatError(f"the record is missing the field {key!r}")
    if type(record["seed"]) is not int:
        raise SaveFormatError(f"the record's seed must be an integer, got {record['seed']!r}")
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise SaveFormatError("the record's 'actions' must be a list of [seat, action id] pairs")
    if len(actions) > MAX_REPLAY_ACTIONS:
        raise SaveFormatError(f"the record has {len(actions)} actions; at most {MAX_REPLAY_ACTIONS} are replayed")
    steps = []
    for i, entry in enumerate(actions):
        if isinstance(entry, dict):
            entry = [entry.get("seat"), entry.get("action", entry.get("action_id"))]
        if (not isinstance(entry, (list, tuple)) or len(entry) != 2 or type(entry[0]) is not int
                or not isinstance(entry[1], str)):
            raise SaveFormatError(f"record step {i} ({entry!r}) is not a [seat, action id] pair such as [0, \"roll\"]")
        steps.append((entry[0], entry[1]))
    return steps


class ReplayCursor:
    """A finished table's record, stepped through incrementally (see the module docstring).

    Thread-safe (one lock per cursor). Raises SaveFormatError from the
    constructor for a malformed record or a set-up that fails, and from
    :meth:`view` / :meth:`index` when a recorded action no longer applies.
    """

    def __init__(self, record: Any, every: int = CHECKPOINT_EVERY) -> None:
        if type(every) is not int or every < 1:
            raise ValueError(f"checkpoints are every 1 or more actions, got {every!r}")
        self.steps = record_steps(record)
        self.record = record
        self.every = every
        #: States built from the record's set-up (one per cursor: every later state comes from it).
        self.rebuilds = 0
        #: Actions applied so far, on the way forward and after jumps.
        self.applied = 0
        self._lock = threading.Lock()
        self._state = self._fresh()
        self._at = 0
        self._checkpoints: dict[int, GameState] = {0: self._state.clone()}
        self._lines = [e.text for e in self._state.log_for(None)]
        self._log_len = [len(self._lines)]       # per step reached: the spectator's log lines by then
        self._last: list[dict | None] = [None]   # per step reached: the action just taken
        self._marks: list[dict] = []             # round and turn starts found so far
        self._spec = get_game(self._state.game_id)
        self._note_marks(self._state, self._state.log, 0)

    @property
    def total(self) -> int:
        """The number of actions in the record."""
        return len(self.steps)

    def _fresh(self) -> GameState:
        record = self.record
        try:
            state = new_game(record["game"], record["players"], seed=record["seed"],
                             options=record.get("options") or {}, dice=record.get("dice"))
        except DicetableError as exc:
            raise SaveFormatError(f"the record's set-up failed: {exc}") from None
        self.rebuilds += 1
        return state

    def _note_marks(self, state: GameState, events: list, step: int) -> None:
        """A mark for ``step`` (``state`` is the table after it) when ``events`` begin a round or a turn: the
        words the page's counter says there come from the view's own fields (see :meth:`index`)."""
        seat: int | None = None
        begins = False
        for event in events:
            for effect in effects_of(event.data):
                if effect.get("type") == "round":
                    begins = True
                elif effect.get("type") == "turn" and isinstance(effect.get("seat"), int):
                    begins, seat = True, effect["seat"]
        if not begins:
            return
        obs = state.observation(None)
        mark: dict[str, Any] = {"step": step, "kind": "round" if seat is None else "turn",
                                "stage": self._spec.stage(obs), "round": _count(obs, "round"), "turn": _count(obs, "turn")}
        if seat is not None:
            mark["seat"] = seat
        self._marks.append(mark)

    def _forward(self, to: int) -> None:
        """Apply the recorded actions from the cursor's step up to step ``to``, noting what is new."""
        state = self._state
        for i in range(self._at, to):
            seat, action_id = self.steps[i]
            new = i + 1 >= len(self._log_len)
            label = action_id
            if new:
                label = next((a.label for a in state.legal_actions(seat) if a.id == action_id), action_id) \
                    if seat in state.to_move else action_id
            try:
                events = state.apply(action_id, seat)
            except DicetableError as exc:
                raise SaveFormatError(f"record step {i} ({seat}, {action_id!r}) failed: {exc}") from None
            state.compact_log()  # the cursor and its checkpoints live on in the server's cache
            self.applied += 1
            if new:
                self._lines.extend(e.text for e in events if e.visible_to(None))
                self._log_len.append(len(self._lines))
                self._last.append({"seat": seat, "player": seat_name(seat), "action": action_id, "label": label})
                self._note_marks(state, events, i + 1)
            if (i + 1) % self.every == 0 and i + 1 not in self._checkpoints:
                self._checkpoints[i + 1] = state.clone()
        self._at = to

    def _goto(self, step: int) -> None:
        if step == self._at:
            return
        base = max(k for k in self._checkpoints if k <= step)
        if not self._at <= step or self._at < base:  # behind us, or a checkpoint is nearer than we are
            self._state = self._checkpoints[base].clone()
            self._at = base
        self._forward(step)

    def state_at(self, step: int) -> GameState:
        """A copy of the state after ``step`` actions (clamped to 0..total)."""
        with self._lock:
            self._goto(max(0, min(step, self.total)))
            return self._state.clone()

    def view(self, step: int, log_tail: int | None = None) -> dict:
        """The table as a spectator saw it after ``step`` actions (clamped to 0..total).

        Returns ``{"step", "total", "game", "board", "observation", "stage",
        "log", "log_from", "log_total", "to_move", "prompt", "last", "scores",
        "winners", "over"}``: ``prompt`` is what the seats to move are asked, put
        for the replay's reader (``engine.asked_of``: 'Player 1 is asked: “You won
        the auction: choose a group of dice.”'), "" when nobody is to move;
        ``stage`` is what the live view says
        (``GameSpec.stage``: Card Kingdoms' "Choosing Dukes", else None);
        ``log`` is the spectator's log by then, only its last ``log_tail`` lines when given (``log_from`` is the number of the
        lines left out before them, ``log_total`` all lines by then);
        ``board`` is None for a game without a ``board_view``. Raises
        SaveFormatError when a recorded action fails, TypeError for a step
        that is not a whole number.
        """
        if type(step) is not int:
            raise TypeError(f"step must be a whole number, got {step!r}")
        with self._lock:
            step = max(0, min(step, self.total))
            self._goto(step)
            state = self._state
            obs = state.observation(None)
            to_move = list(state.to_move)
            prompt = asked_of(asked_now(state))
            n = self._log_len[step]
            start = 0 if log_tail is None else max(0, n - log_tail)
            return {
                "step": step,
                "total": self.total,
                "game": state.game_id,
                "board": board_or_none(state.game_id, obs),
                "observation": obs,
                "stage": get_game(state.game_id).stage(obs),
                "log": self._lines[start:n],
                "log_from": start,
                "log_total": n,
                "to_move": to_move,
                "prompt": prompt,
                "last": self._last[step],
                "scores": state.visible_scores(None),
                "winners": list(state.winners),
                "over": state.is_over,
            }

    def index(self) -> dict:
        """``{"total", "marks"}``: every round and turn start of the record (one pass to the end, once).

        ``marks`` are one per step where a turn or a round begins (the record's ``turn`` and ``round``
        effects), in step order; step N is the table right after the action that began it:
        ``{"step", "kind" ("turn", or "round" when no turn begins there), "seat" (a turn's), "stage",
        "round", "turn"}``. ``stage``, ``round`` and ``turn`` are what the page's counter is drawn from
        at that step, the same as :meth:`view` gives (``GameSpec.stage`` of the observation, and the
        observation's ``round`` and ``turn``, None when it has none): the page words them with
        board.js's ``counterText``, as the table page's top line, so a title that counts turns and no
        rounds (Corsairs, Card Kingdoms) is listed by its turns. Raises SaveFormatError as
        :meth:`view` does.
        """
        with self._lock:
            if len(self._log_len) <= self.total:
                here = self._at
                self._goto(len(self._log_len) - 1)
                self._forward(self.total)
                self._goto(here)
            return {"total": self.total, "marks": list(self._marks)}

    def score_sheet(self) -> dict | None:
        """The end's score sheet (``GameState.score_sheet().to_json()``), or None when the record
        does not reach the end of the game (an abandoned table)."""
        end = self.state_at(self.total)
        return end.score_sheet().to_json() if end.is_over else None


def _count(obs: Any, key: str) -> int | None:
    """The observation's whole number ``key`` (its ``round`` or ``turn``), None when it has none."""
    value = obs.get(key) if isinstance(obs, Mapping) else None
    return value if type(value) is int else None


def replay_step(record: Any, step: int) -> dict:
    """The table as a spectator saw it after ``step`` actions of a finished table's ``record``.

    ``record`` as :func:`record_steps` takes it; ``step`` is clamped to
    0..len(actions). Returns :meth:`ReplayCursor.view` with the whole log.
    A new cursor each call, so it replays from the start: the server keeps
    its cursors between steps instead (:mod:`dicetable.web.replays`).
    Raises SaveFormatError naming what is wrong with the record or the step.
    """
    if type(step) is not int:
        raise SaveFormatError(f"step must be a whole number, got {step!r}")
    return ReplayCursor(record).view(step)


__all__ = ["CHECKPOINT_EVERY", "MAX_REPLAY_ACTIONS", "ReplayCursor", "record_steps", "replay_step"]
