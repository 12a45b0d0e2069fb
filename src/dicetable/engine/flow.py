"""Turn flow: a stack of pending tasks, one handler per task kind, run by the engine.

Every game's turn structure is written the same way. A *task* is a small
tuple of JSON-able values whose first item is its *kind* (a string) and
whose second is the seat it concerns (None or -1 for nobody)::

    ("roll", 2)                  # roll the dice of seat 2
    ("mark", 0, 17)              # seat 0 marks pip 17
    ("choose-lair", 1)           # seat 1 chooses a Monster Lair

Pending tasks wait on a stack (``self.tasks``, the top is the end of the
list). A game declares one handler per kind, with decorators on methods of
its state class:

``@auto(kind)``       ``fn(self, task) -> None``: resolves the task without asking anyone.
``@prompt(kind)``     ``fn(self, task) -> Decision``: what the task asks of ``task[1]``.
``@choices(kind)``    ``fn(self, task) -> Sequence[Action]``: its legal actions (never empty).
``@resolve(kind)``    ``fn(self, task, action) -> None``: carries out the chosen action.

Handlers may live in phase classes that the state class inherits from, so a
game's rules can be split by phase into modules; the usual layout declares
every field on one base class (``XFields(FlowState)``), which each phase class
subclasses (``class RollPhase(XFields): __slots__ = ()``), so every phase sees
every field with its type. A kind is either automatic (``auto``) or a decision (all three of
``prompt``, ``choices``, ``resolve``); the class is refused at creation
otherwise. The engine pops the task before calling ``auto`` or ``resolve``,
and the handler schedules what follows with :meth:`FlowState.then`
(several tasks run in the order given, before anything that was pending).
Outside lanes ``then(task)`` is ``self.tasks.append(task)``; a game's hot
paths may push that way to save the call (Kingdom of Dice, Corsairs and Card
Kingdoms do, each saying so), and ``then`` stays the general form.
After set-up and after every action :meth:`FlowState.run` resolves
automatic tasks until the top of the stack is a decision or the stack is
empty, which ends the game.

Simultaneous decisions (every seat chooses in any order) are *lanes*:
:meth:`FlowState.split` gives each seat its own stack of tasks; while lanes
are open, ``to_move`` is every seat whose lane still holds a task, each seat's
tasks run on its own lane (``then`` inside a lane handler pushes onto that
lane), and once every lane is empty the main stack continues.

From these the base class answers ``to_move``, ``decision``,
``legal_actions``, ``apply`` and ``is_over`` once for every game. The stack
and the lanes are declared fields (:mod:`dicetable.engine.fields`), so they
clone, save and restore with the rest of the state. Reward chains, Harvest
order, bids and end-of-round scoring are ordinary tasks.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Final, Sequence, TypeVar

from mypy_extensions import mypyc_attr

from .core import Action, Decision
from .fields import LIST, ROWS, Field, declare
from .state import GameState

Task = tuple[Any, ...]
"""A pending task: ``(kind, seat, *arguments)``, JSON-able values only."""

_ROLES: Final = ("auto", "prompt", "choices", "resolve")
_ONE: Final = tuple((s,) for s in range(16))


F = TypeVar("F", bound=Callable[..., Any])


# The roles of every marked handler, by id of the function (with the function, so that an id
# reused by another object never matches). Kept here rather than as an attribute of the
# function: a compiled function takes no new attributes.
_MARKED: Final[dict[int, tuple[object, tuple[tuple[str, str], ...]]]] = {}


def _roles_of(fn: object) -> tuple[tuple[str, str], ...]:
    """The ``(role, kind)`` marks of ``fn`` (``()`` for anything unmarked)."""
    entry = _MARKED.get(id(fn))
    return entry[1] if entry is not None and entry[0] is fn else ()


def _marker(role: str, kind: str) -> Callable[[F], F]:
    if not isinstance(kind, str) or not kind:
        raise TypeError(f"a task kind is a non-empty string, got {kind!r}")

    def mark(fn: F) -> F:
        _MARKED[id(fn)] = (fn, _roles_of(fn) + ((role, kind),))
        return fn

    return mark


def auto(kind: str) -> Callable[[F], F]:
    """Mark a method ``fn(self, task) -> None`` as the handler of the automatic task ``kind``."""
    return _marker("auto", kind)


def prompt(kind: str) -> Callable[[F], F]:
    """Mark a method ``fn(self, task) -> Decision`` as what the decision task ``kind`` asks."""
    return _marker("prompt", kind)


def choices(kind: str) -> Callable[[F], F]:
    """Mark a method ``fn(self, task) -> Sequence[Action]`` as the legal actions of task ``kind``."""
    return _marker("choices", kind)


def resolve(kind: str) -> Callable[[F], F]:
    """Mark a method ``fn(self, task, action) -> None`` as carrying out the choice of task ``kind``."""
    return _marker("resolve", kind)


def task_list(value: Any) -> list[Task]:
    """A saved task stack (a list of lists) as a list of task tuples."""
    return [tuple(t) for t in value]


def lanes_of(value: Any) -> list[list[Task]] | None:
    """Saved lanes (None, or one list of tasks per seat) as lists of task tuples."""
    return None if value is None else [[tuple(t) for t in lane] for lane in value]


def _encode_tasks(value: list[Task]) -> list[list[Any]]:
    return [list(t) for t in value]


def _encode_lanes(value: list[list[Task]] | None) -> list[list[list[Any]]] | None:
    return None if value is None else [[list(t) for t in lane] for lane in value]


def _handler_tables(cls: type) -> dict[str, dict[str, Callable[..., Any]]]:
    """The handlers of ``cls`` and its bases, by role and kind; TypeError for an incomplete or doubled kind."""
    name = cls.__name__
    tables: dict[str, dict[str, Callable[..., Any]]] = {r: {} for r in _ROLES}
    for klass in reversed(cls.__mro__):  # mixins too: a game may split its handlers by phase
        own: set[tuple[str, str]] = set()
        for fn in klass.__dict__.values():
            for role, kind in _roles_of(fn):
                if (role, kind) in own:
                    raise TypeError(f"{klass.__name__}: two {role} handlers for task kind {kind!r}")
                own.add((role, kind))
                tables[role][kind] = fn
    for kind in tables["auto"]:
        if any(kind in tables[r] for r in ("prompt", "choices", "resolve")):
            raise TypeError(f"{name}: task kind {kind!r} is both automatic and a decision")
    decided = set(tables["prompt"]) | set(tables["choices"]) | set(tables["resolve"])
    for kind in decided:
        missing = [r for r in ("prompt", "choices", "resolve") if kind not in tables[r]]
        if missing:
            raise TypeError(f"{name}: decision task {kind!r} has no {' or '.join(missing)} handler")
    return tables


@mypyc_attr(allow_interpreted_subclasses=True)
class FlowState(GameState):
    """A game state whose turns are a stack of tasks (see the module docstring).

    Fields: ``tasks`` (list of task tuples, top last; empty with no lanes
    open = the game is over) and ``lanes`` (None, or one task list per seat
    while several seats decide at once). A game implements ``_setup`` (lay
    out the table, push the first tasks with :meth:`then`, call
    :meth:`run`), its task handlers, ``scores``, ``winners``,
    ``_observation`` and, where hidden information exists,
    ``_determinize`` / ``_visible_scores``.
    """

    # _lane: the seat whose lane a handler runs on now (-1 or unset: the main stack); never saved
    # nor cloned (a clone is made between actions, when it is -1), so no kernel hook has to set it.
    __slots__ = ("tasks", "lanes", "_lane")

    tasks: list[Task]
    lanes: list[list[Task]] | None
    _lane: int

    OWN_FIELDS: ClassVar[tuple[Field[Any], ...]] = declare(
        tasks=Field(task_list, copy=LIST, encode=_encode_tasks),
        lanes=Field(lanes_of, copy=ROWS, encode=_encode_lanes),
    )

    # The dispatch tables, built from the handlers when a subclass is created (__init_subclass__).
    _FLOW: ClassVar[dict[str, dict[str, Callable[..., Any]]]] = {}
    _AUTO: ClassVar[dict[str, Callable[..., Any] | None]] = {}
    _PROMPT: ClassVar[dict[str, Callable[..., Any]]] = {}
    _CHOICES: ClassVar[dict[str, Callable[..., Any]]] = {}
    _RESOLVE: ClassVar[dict[str, Callable[..., Any]]] = {}
    TASK_KINDS: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def _prepare_class(cls) -> None:
        """Collect the class's handlers into its dispatch tables (TypeError if one is missing or doubled)."""
        tables = _handler_tables(cls)
        decided = set(tables["prompt"])
        cls._FLOW = tables
        # One dict per role, read directly on the hot path (one lookup less per dispatch); _AUTO
        # holds every kind, None for a decision, so the loop asks one subscript, not a call.
        cls._AUTO = {kind: None for kind in decided} | tables["auto"]
        cls._PROMPT, cls._CHOICES, cls._RESOLVE = tables["prompt"], tables["choices"], tables["resolve"]
        cls.TASK_KINDS = frozenset(tables["auto"]) | frozenset(decided)

    # ------------------------------------------------------------ scheduling
    def then(self, *tasks: Task) -> None:
        """Schedule ``tasks`` to run next, in the order given, before every task already pending.

        Inside a lane's handler they go onto that lane; otherwise onto the
        main stack.
        """
        stack = self.tasks if self.lanes is None else self._stack_now()
        if len(tasks) == 1:  # the usual case, without building a reversed copy
            stack.append(tasks[0])
        else:
            stack += tasks[::-1]

    def split(self, per_seat: Sequence[Sequence[Task]]) -> None:
        """Open lanes: ``per_seat[s]`` are seat ``s``'s tasks (run in the order given), all seats at once.

        The main stack waits until every lane is empty. Raises ValueError
        when lanes are open already or ``per_seat`` has not one entry per seat.
        """
        if self.lanes is not None:
            raise ValueError("lanes are open already: a simultaneous step cannot start inside another")
        if len(per_seat) != self.players:
            raise ValueError(f"split needs one list of tasks per seat ({self.players}), got {len(per_seat)}")
        self.lanes = [list(reversed(tasks)) for tasks in per_seat]

    def _stack_now(self) -> list[Task]:
        lanes = self.lanes
        lane = getattr(self, "_lane", -1)
        if lanes is not None and lane >= 0:
            return lanes[lane]
        return self.tasks

    # ------------------------------------------------------------ the loop
    def run(self) -> None:
        """Resolve automatic tasks until a decision is pending or the game is over.

        Lanes first (each seat's in seat order), then the main stack. Called
        at the end of ``_setup``; ``apply`` calls it after every action.
        """
        autos = self._AUTO
        while True:
            if self.lanes is not None and not self._run_lanes():
                return
            tasks = self.tasks
            while tasks:
                handler = autos[tasks[-1][0]]
                if handler is None:  # a decision
                    return
                handler(self, tasks.pop())
                if self.lanes is not None:  # the handler opened lanes: they run first
                    break
            else:
                return

    def _run_lanes(self) -> bool:
        """Resolve the lanes' automatic tasks, seat by seat; True once every lane is empty (closed)."""
        autos = self._AUTO
        lanes = self.lanes
        assert lanes is not None
        waiting = False
        for seat, lane in enumerate(lanes):
            self._lane = seat
            while lane:
                handler = autos[lane[-1][0]]
                if handler is None:
                    waiting = True
                    break
                handler(self, lane.pop())
            if self.lanes is None:  # a handler closed the lanes (e.g. the game ended)
                break
        self._lane = -1
        if waiting:
            return False
        self.lanes = None
        return True

    def end_game(self) -> None:
        """Drop every pending task and lane: the game is over (``to_move`` is then empty)."""
        self.tasks.clear()
        self.lanes = None

    def pending(self, seat: int) -> Task | None:
        """The task ``seat`` is to decide now, or None (read-only; views and policies use it)."""
        lanes = self.lanes
        if lanes is not None:
            lane = lanes[seat]
            return lane[-1] if lane else None
        tasks = self.tasks
        if tasks and tasks[-1][1] == seat:
            return tasks[-1]
        return None

    # ------------------------------------------------------------ protocol
    @property
    def to_move(self) -> tuple[Any, ...]:
        """Seats with a decision now: the top task's seat, or every seat with an open lane."""
        lanes = self.lanes
        if lanes is not None:
            return tuple([s for s, lane in enumerate(lanes) if lane])
        tasks = self.tasks
        if not tasks:
            return ()
        return _ONE[tasks[-1][1]]

    @property
    def is_over(self) -> bool:
        """True once no task is pending."""
        return not self.tasks and self.lanes is None

    def _decision(self, seat: int) -> Decision | None:
        task = self.pending(seat)
        if task is None:
            return None
        decision: Decision = self._PROMPT[task[0]](self, task)
        return decision

    def _legal_actions(self, seat: int) -> list[Action] | tuple[Action, ...] | None:
        # The top task of the main stack (or of the seat's lane) is the seat's decision, if it is its own.
        lanes = self.lanes
        if lanes is None:
            tasks = self.tasks
            if not tasks or tasks[-1][1] != seat:
                return None
            task = tasks[-1]
        else:
            lane = lanes[seat]
            if not lane:
                return None
            task = lane[-1]
        actions: list[Action] | tuple[Action, ...] = self._CHOICES[task[0]](self, task)
        return actions

    def _apply(self, action: Action, seat: int) -> None:
        lanes = self.lanes
        if lanes is None:
            task = self.tasks.pop()
            self._RESOLVE[task[0]](self, task, action)
        else:
            self._lane = seat
            task = lanes[seat].pop()
            try:
                self._RESOLVE[task[0]](self, task, action)
            finally:
                self._lane = -1
        if self.lanes is None:  # the common case, without a call: run() would stop at once
            tasks = self.tasks
            if not tasks or self._AUTO[tasks[-1][0]] is None:
                return
        self.run()
