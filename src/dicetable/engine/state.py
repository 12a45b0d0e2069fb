"""The State protocol: the one interface every front end, bot and test uses.

A game subclasses :class:`GameState` and fills in a handful of hooks (the
``_``-prefixed methods below). The base class supplies everything that is the
same for every game: seat checks, legal-action caching, refusal of illegal
actions with a clear message and no change, seeded dice with the scripted-dice
hook, the event log, the action history, ``to_dict``/``load_state``,
``clone`` and ``determinize``.

Every public method that takes a seat checks it first, the same way
(:meth:`GameState.check_seat`): an ``int`` in ``0..players-1`` (never a
bool, a float or a string), or ``None`` where a spectator is meant
(``observation``, ``log_for``, ``visible_scores``); anything else raises
:class:`~dicetable.engine.errors.SeatError` naming the seat and the allowed
range. So the game hooks below are only ever called with a real seat (or
None for a spectator) and never need to check it.

Hooks a game implements
-----------------------
``_setup()``                       lay out the table (called once by ``new_game``)
``to_move`` (property)            seats that may act now, ``()`` when over
``_decision(seat)``                a :class:`Decision` for ``seat``, None if it is not to move
``_legal_actions(seat)``           the :class:`Action` s of ``seat`` (list or tuple), None if it is not to move
``_apply(action, seat)``           carry the action out (it is known to be legal)
``is_over``/``scores``/``winners``  properties
``_observation(seat)``             JSON-able view for ``seat`` (None: spectator)
``_visible_scores(seat)``          scores as far as ``seat`` may know them (optional)
``_dump()`` / ``_restore(payload)``  game fields to and from JSON-able data
``_copy_into(other)``              copy the game fields into a bare new object
``_determinize(seat)``             resample what ``seat`` cannot see (optional)

Game code changes state only inside ``_setup`` and ``_apply``; randomness comes
only from :meth:`roll`, :meth:`randbelow` and :meth:`shuffle`, so the same
seed and actions always replay the same game.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, Iterable, Self

from mypy_extensions import i64, mypyc_attr

from .core import Action, Decision, Die, Event, new_event, seat_name
from .eventlog import EventLog, cell_visible_to, cells, compact, loose, pack, unpack
from .errors import GameConfigError, IllegalActionError, SaveFormatError, ScriptedDiceError, SeatError
from .fields import COPY_CODE, Field, collect_fields, default_encode
from .rng import SEED_LIMIT, _draw_below, _draw_choices, _public, _short, _stored, seed_problem, seed_state
from .scoresheet import ScoreSheet, simple_sheet

#: The Action class as a Final: compiled, a C global (an imported class is otherwise looked up in the
#: module's dict at every ``apply``)
_ACTION: Final[type] = Action

SAVE_FORMAT: Final = 2
"""Format of ``to_dict``. Format 1 (before the turn-flow redesign) stored the game fields in each
game's own layout; such saves are still read by the checked path of ``load_state``, which plays
their moves again (see :func:`dicetable.engine.replay.verified_state`)."""
READABLE_FORMATS: Final = (1, SAVE_FORMAT)


Seat = Any
"""The type of the ``seat`` argument of the public methods that check it: an ``int`` seat (or None
where said), declared Any so that compiled code receives a wrong value (``True``, ``0.0``, ``"0"``)
as it is and refuses it with :class:`SeatError`: a parameter typed ``int`` would turn ``True`` into 1
and raise TypeError for a float before the check runs."""


def _chain_history(moves: Iterable[tuple[int, str]]) -> Any:
    """The ``(seat, action id, tail)`` chain of ``moves`` (oldest first), newest first."""
    cell: Any = None
    for seat, aid in moves:
        cell = (seat, aid, cell)
    return cell


def _pack_all(events: Iterable[Event]) -> Any:
    """The log chain of ``events`` (oldest first): :func:`~dicetable.engine.eventlog.pack` cells, newest first."""
    cell: Any = None
    for event in events:
        cell = pack(event, cell)
    return cell


def _declared_attributes(cls: type) -> set[str]:
    """The instance attributes ``cls``'s own body declares.

    Pure Python: the annotated names (ClassVars left out) and ``__slots__``; a mypyc
    native class: every attribute of its C struct (``__mypyc_attrs__``, its bases' too).
    """
    ns = cls.__dict__
    native = ns.get("__mypyc_attrs__")
    if native is not None:
        return set(native)
    annotations = ns.get("__annotations__", {})
    names = {k for k, v in annotations.items() if not str(v).startswith(("ClassVar", "typing.ClassVar"))}
    slots = ns.get("__slots__", ())
    return names | ({slots} if isinstance(slots, str) else set(slots))


def _check_declaration(cls: type, own: tuple[Field[Any], ...]) -> None:
    """Raise TypeError unless ``own`` (the class's ``OWN_FIELDS``) and its attributes agree."""
    stray = [k for k, v in cls.__dict__.items() if isinstance(v, Field)]
    if stray:
        raise TypeError(
            f"{cls.__name__}: {', '.join(stray)} {'is a Field' if len(stray) == 1 else 'are Fields'} "
            "outside OWN_FIELDS: annotate the attribute and declare it in OWN_FIELDS = declare(...)")
    declared = _declared_attributes(cls)
    missing = [f.name for f in own if f.name not in declared]
    if missing:
        raise TypeError(f"{cls.__name__}: OWN_FIELDS names {missing}, which the class does not annotate")
    if "__mypyc_attrs__" not in cls.__dict__:  # a native class lists its bases' attributes too
        names = {f.name for f in own}
        loose = sorted(k for k in declared if not k.startswith("_") and k not in names)
        if loose:
            raise TypeError(f"{cls.__name__}: the attributes {loose} have no Field in OWN_FIELDS "
                            "(an attribute that is neither copied nor saved is private: _name)")


@mypyc_attr(allow_interpreted_subclasses=True)
class GameState:
    """Base class of every game's state; see the module docstring for the hooks.

    Kernel fields: ``players`` (int), ``seed`` (int), ``options`` (dict, never
    mutated after ``new_game``), ``quiet`` (True only inside a quiet step:
    :meth:`emit` records nothing, so games may skip building event text).
    The event log and the action history are immutable chains shared between
    clones, so ``clone()`` costs the same at the start and at the end of a
    game. A game declares its own fields with
    :class:`~dicetable.engine.fields.Field`; clone, save and restore of them
    are generated from that declaration.
    """

    __slots__ = (
        "players",
        "seed",
        "options",
        "quiet",
        "_rng",
        "_script",
        "_script_pos",
        "_history",
        "_log",
        "_legal_seat",
        "_legal_now",
        "_legal_more",
        "_emitted",
    )
    players: int
    seed: int
    options: dict[str, Any]
    quiet: bool
    _rng: i64  # the generator's state as rng.py holds it (_stored): a native i64 in the compiled build
    _script: tuple[Any, ...]
    _script_pos: int
    _history: Any  # a (seat, action id, tail) chain, newest first; None when empty
    _log: Any  # a chain of eventlog cells (pack, or loose until compact_log), newest first; None when empty
    # The legal-actions cache, dropped by apply and step: one seat's tuple in two native fields (the
    # usual case, no dict built per decision), the other seats' of a simultaneous decision in a dict.
    _legal_seat: int  # the seat whose actions _legal_now holds; -1 when none is cached
    _legal_now: tuple[Action, ...]
    _legal_more: dict[int, tuple[Action, ...]] | None  # None when no second seat is cached
    _emitted: list[Event]

    game_id: ClassVar[str] = ""

    OWN_FIELDS: ClassVar[tuple[Field[Any], ...]] = ()
    """The fields the class's own body declares (:func:`dicetable.engine.fields.declare`)."""
    FIELDS: ClassVar[tuple[Field[Any], ...]] = ()
    """Every field of the class, its bases' first (set when the class is created)."""
    _COPY_PLAN: ClassVar[tuple[tuple[str, int], ...]] = ()
    _SAVE_PLAN: ClassVar[tuple[tuple[str, str, Any, Any], ...]] = ()

    #: Public methods a game must not override: they check the seat, then call the hook.
    _CHECKED: ClassVar[dict[str, str | None]] = {
        "decision": "_decision", "observation": "_observation", "legal_actions": "_legal_actions",
        "log_for": None, "visible_scores": "_visible_scores", "determinize": "_determinize", "apply": "_apply"}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Check a new game class and build its plans: fields (:mod:`.fields`), then ``_prepare_class``.

        Raises TypeError for an override of a seat-checking method or a field declaration that does not add up.
        """
        # (no super() call: mypyc's super() inside __init_subclass__ binds the wrong class; object's
        # __init_subclass__ does nothing but refuse keywords, which this does too)
        if kwargs:
            raise TypeError(f"{cls.__name__}: unexpected class keywords {sorted(kwargs)}")
        for name, hook in cls._CHECKED.items():
            if name in vars(cls):
                raise TypeError(
                    f"{cls.__name__} overrides GameState.{name}, which checks its seat argument for "
                    f"every game; " + (f"implement the hook {hook} instead" if hook else "it is the same for every game")
                )
        own: tuple[Field[Any], ...] = vars(cls).get("OWN_FIELDS", ())
        _check_declaration(cls, own)
        fields = collect_fields(cls)
        cls.FIELDS = fields
        # The plans the base class's _copy_into, _dump and _restore follow (a class may write its own).
        cls._COPY_PLAN = tuple((f.name, COPY_CODE[f.copy]) for f in fields)
        cls._SAVE_PLAN = tuple((f.name, f.key, default_encode(f), f.decode) for f in fields if f.key is not None)
        cls._prepare_class()

    @classmethod
    def _prepare_class(cls) -> None:
        """Called once for every new subclass after its fields' plans are built: a base class's own tables."""

    # ------------------------------------------------------------------ hooks
    def _setup(self) -> None:  # pragma: no cover - every game overrides
        raise NotImplementedError

    @property
    def to_move(self) -> tuple[int, ...]:  # pragma: no cover
        """Seats that may act now; several during a simultaneous step; () when over."""
        raise NotImplementedError

    def _decision(self, seat: int) -> Decision | None:  # pragma: no cover
        """The game's :meth:`decision` for a checked seat (None when it is not to move)."""
        raise NotImplementedError

    def _legal_actions(self, seat: int) -> list[Action] | tuple[Action, ...] | None:  # pragma: no cover
        """The legal actions of ``seat`` (a seat of this game), never empty; None when it is not to move.

        The kernel caches them as a tuple; the hook answers both questions at
        once so that a playout's step asks the game once, not twice.
        """
        raise NotImplementedError

    def _apply(self, action: Action, seat: int) -> None:  # pragma: no cover
        raise NotImplementedError

    @property
    def is_over(self) -> bool:  # pragma: no cover
        """True once the game has ended (``to_move`` is then empty)."""
        raise NotImplementedError

    @property
    def scores(self) -> list[Any]:  # pragma: no cover
        """Points per seat (index = seat) as the engine knows them: final once ``is_over``.

        Before the end this is the score as if the game ended now, and it may
        count hidden parts no single seat knows (Biblios Dice counts every
        seat's VP tokens, Gold and Hidden Objective). It is for the engine,
        final tallies and tests; never show it to a person mid-game: front
        ends show :meth:`visible_scores` instead.
        """
        raise NotImplementedError

    def _visible_scores(self, seat: int | None) -> list[Any]:
        """The game's :meth:`visible_scores` before the end, for a checked seat (None: spectator).

        The default is :attr:`scores`, right only for games whose whole score
        is public; games with hidden scoring override it and compute it from
        what ``observation(seat)`` shows.
        """
        return list(self.scores)

    @property
    def winners(self) -> tuple[int, ...]:  # pragma: no cover
        """Seats that won after the rulebook's tie-breaks; () before the end."""
        raise NotImplementedError

    def score_sheet(self) -> ScoreSheet:
        """The score table of the game's end: each rulebook scoring category per seat, the tie-break.

        Every seat's categories add up to its :attr:`scores` entry; a solo
        opponent has its own line. Omniscient like :attr:`scores`: show it
        once :attr:`is_over`, never before. The default is one category
        ("Score"); games override it with their rulebook's categories
        (:mod:`dicetable.engine.scoresheet`).
        """
        return simple_sheet([seat_name(s) for s in range(self.players)], self.scores, self.winners)

    def _observation(self, seat: int | None) -> dict[str, Any]:  # pragma: no cover
        """The game's :meth:`observation` for a checked seat (None: a spectator)."""
        raise NotImplementedError

    def _dump(self) -> dict[str, Any]:
        """The saved fields as JSON-able data, by save key (``to_dict()["state"]``)."""
        return {key: encode(getattr(self, name)) for name, key, encode, _ in self._SAVE_PLAN}

    def _restore(self, payload: dict[str, Any]) -> None:
        """Set every saved field from ``payload`` (each through its ``decode``), then ``_after_restore``.

        Raises KeyError for a missing key and whatever a ``decode`` raises for a wrong value.
        """
        for name, key, _, decode in self._SAVE_PLAN:
            setattr(self, name, decode(payload[key]))
        self._after_restore()

    def _copy_into(self, other: "GameState") -> None:
        """Copy every declared field into ``other``, a bare new state of the same class (``clone``)."""
        for name, how in self._COPY_PLAN:
            value = getattr(self, name)
            if how == 1:
                value = value.copy()
            elif how == 2 and value is not None:
                value = [row.copy() for row in value]
            setattr(other, name, value)

    def _after_restore(self) -> None:
        """Rebuild what is derived from the saved fields (caches, lookups) after ``_restore``.

        Called by ``_restore`` once every declared field is set;
        raise ValueError for a combination of values no game can reach.
        """

    def _determinize(self, seat: int) -> None:
        """Resample, in place, everything ``seat`` cannot see, using this state's dice.

        The default suits games whose only unknown is the future dice: the
        kernel already reseeds them. Games with shuffled decks, secret bids or
        hidden cards override this and must draw the replacement from what
        ``observation(seat)`` shows, never from the hidden values: gather the
        unknown items, put them in a canonical order (sort them), then shuffle
        with ``self.shuffle`` and deal them back, so the result cannot depend
        on how the hidden items happened to be arranged.
        """

    # ------------------------------------------------------------- protocol
    def check_seat(self, seat: Any, spectator: bool = False) -> None:
        """Raise :class:`SeatError` unless ``seat`` is a seat of this game.

        A seat is an ``int`` in ``0..players-1``; a bool, a float, a string,
        a list... is refused (never read as a number: ``True`` is not seat 1
        and ``-1`` is not the last seat). ``spectator=True`` also accepts
        ``None``, a spectator who sees only public information. Every public
        method that takes a seat calls this before the game's hook.
        """
        if type(seat) is int:
            if 0 <= seat < self.players:
                return
            raise SeatError(self._seat_message(seat, spectator))
        if seat is None and spectator:
            return
        raise SeatError(self._seat_message(seat, spectator))

    def _seat_message(self, seat: Any, spectator: bool) -> str:
        allowed = f"seats are 0..{self.players - 1}" + (" or None for a spectator" if spectator else "")
        if type(seat) is int:
            return f"there is no seat {_short(seat)} in this {self.players}-player game: {allowed}"
        if seat is None:
            return f"there is no seat None here (None is a spectator, who has no decisions): {allowed}"
        return f"there is no seat {_short(seat)} (a {type(seat).__name__}, not a whole number): {allowed}"

    def decision(self, seat: Seat) -> Decision | None:
        """What is asked of ``seat`` now, in the rulebook's words; None if it has no decision now.

        Raises :class:`SeatError` when ``seat`` is not a seat of this game.
        """
        if type(seat) is not int or not 0 <= seat < self.players:
            self.check_seat(seat)
        return self._decision(seat)

    def legal_actions(self, seat: Seat = None) -> tuple[Action, ...]:
        """The legal actions of ``seat`` now, a tuple (``()`` if it is not to move).

        ``seat`` may be omitted when exactly one seat is to move
        (:class:`IllegalActionError` otherwise). The tuple is cached until the
        next ``apply`` and is immutable, so no caller can change what another
        caller, or another game in the same process, is offered. Raises
        :class:`SeatError` when ``seat`` is not a seat of this game.
        """
        if seat is None:
            s: int = self._sole_seat()
        elif type(seat) is int:  # not True for seat 1, nor 1.0
            s = seat
        else:
            self.check_seat(seat)  # raises: a seat is an int
            s = seat
        if s >= 0 and s == self._legal_seat:
            return self._legal_now
        return self._find_legal(s)

    def _find_legal(self, seat: int) -> tuple[Action, ...]:
        """:meth:`legal_actions` for an int ``seat`` whose actions are not in the first cache slot:
        the other seats' dict, else the game's hook (cached; a seat that is no seat raises SeatError)."""
        more = self._legal_more
        if more is not None:
            found = more.get(seat)
            if found is not None:
                return found
        if not 0 <= seat < self.players:
            self.check_seat(seat)
        actions = self._legal_actions(seat)
        if actions is None:
            return ()
        cached = tuple(actions)
        if self._legal_seat < 0:
            self._legal_seat = seat
            self._legal_now = cached
        else:
            if more is None:
                more = self._legal_more = {}
            more[seat] = cached
        return cached

    def forget_legal_actions(self) -> None:
        """Drop the cached legal actions, so that the next :meth:`legal_actions` asks the game again.

        Never needed in play (:meth:`apply` and :meth:`step` drop them); for a test or a tool that
        changed the game's fields by hand. Returns None.
        """
        self._legal_seat = -1
        self._legal_now = ()
        self._legal_more = None

    def observation(self, seat: Seat) -> dict[str, Any]:
        """A JSON-able dict of what ``seat`` may see (None: a spectator).

        Never another seat's secret; every view of the game (terminal, page,
        API, log) is drawn from it. Read-only: a game may hand the same inner
        objects to several calls and viewers (Dice Kingdoms of Valeria shares
        an unchanged sheet's view), so a caller that changes it copies it
        first. Raises :class:`SeatError` when ``seat`` is neither a seat of
        this game nor None.
        """
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.players):
            self.check_seat(seat, spectator=True)
        return self._observation(seat)

    def visible_scores(self, seat: Seat) -> list[Any]:
        """The running score of each seat as far as ``seat`` may know it (None: a spectator).

        One entry per seat (index = seat). Front ends show this, never
        :attr:`scores` mid-game: :attr:`scores` is omniscient (it counts
        hidden VP tokens, secret objectives, face-down cards). The result
        depends only on what ``observation(seat)`` shows; an entry is None
        where nothing of that seat's score is public. Once the game is over
        it is the final :attr:`scores` for everyone. Raises
        :class:`SeatError` when ``seat`` is neither a seat nor None.
        """
        self.check_seat(seat, spectator=True)
        if self.is_over:
            return list(self.scores)
        return list(self._visible_scores(seat))

    def scores_all_public(self) -> bool:
        """True when every seat's whole running score is public: the game keeps the default
        ``_visible_scores`` (its :attr:`scores`), so :meth:`visible_scores` is the same list for
        every viewer and :meth:`own_score` is None for every seat. A front end that draws many
        viewers' views of one position asks for the scores once when this holds. False for a
        game with hidden scoring (one that overrides ``_visible_scores``).
        """
        return type(self)._visible_scores is GameState._visible_scores

    def own_score(self, seat: Seat) -> dict[str, Any] | None:
        """``seat``'s running score with the part only it sees: ``{"seat", "total", "hidden"}``.

        Front ends show every seat's public score, ``visible_scores(None)``, which is the
        same for every viewer, so the scores compare and a glance at a screen reveals no
        secret; beside its own public score a seat is shown this. ``total`` is
        ``visible_scores(seat)[seat]`` (counting its secret objective, hidden VP tokens, a
        Duke...) and ``hidden`` is ``total`` minus the public score (``total`` when nothing
        of it is public). None for a spectator, once the game is over (the final scores
        are all public), or when nothing of the seat's score is hidden. Raises
        :class:`SeatError` when ``seat`` is neither a seat nor None.
        """
        self.check_seat(seat, spectator=True)
        if seat is None or self.is_over or self.scores_all_public():
            return None
        total = self.visible_scores(seat)[seat]
        public = self.visible_scores(None)[seat]
        if not isinstance(total, (int, float)) or total == public:
            return None
        hidden = total - public if isinstance(public, (int, float)) else total
        return {"seat": seat, "total": total, "hidden": hidden}

    def apply(self, action: Action | str, seat: Seat = None) -> list[Event]:
        """Carry out ``action`` (an :class:`Action` or its id) for ``seat``.

        Returns the events it produced. Raises :class:`IllegalActionError`,
        leaving the state unchanged, when the seat is not to move or the
        action is not legal for it now; the message lists what is allowed.
        A ``seat`` that is no seat of this game raises :class:`SeatError`
        (an :class:`IllegalActionError`).
        """
        if type(seat) is int and seat >= 0 and seat == self._legal_seat:  # the usual case: cached actions
            s: int = seat
            legal = self._legal_now
        else:
            # Slow path: no cached actions for this seat yet, so check the seat first.
            if seat is not None and type(seat) is not int:  # not True for 1, nor 0.0 for 0
                self.check_seat(seat)
            to_move = self.to_move
            if seat is None:
                if len(to_move) != 1:
                    if not to_move:
                        raise IllegalActionError("the game is over: no seat may act")
                    raise IllegalActionError(
                        "several seats decide now ("
                        + ", ".join(seat_name(t) for t in to_move)
                        + "): say which seat acts"
                    )
                seat = to_move[0]
            elif seat not in to_move:
                if not 0 <= seat < self.players:
                    self.check_seat(seat)
                if not to_move:
                    raise IllegalActionError("the game is over: no seat may act")
                raise IllegalActionError(
                    f"it is not {seat_name(seat)}'s decision now; waiting for "
                    + ", ".join(seat_name(t) for t in to_move)
                )
            s = seat
            legal = self.legal_actions(s)
        chosen: Action | None = None
        if type(action) is _ACTION:  # the usual case: one of the very Actions offered (a pointer compare each)
            for candidate in legal:
                if candidate is action:
                    chosen = candidate
                    break
        if chosen is None:  # an id, or an Action made elsewhere: the offered action of the same id
            aid = action.id if isinstance(action, Action) else action
            for candidate in legal:
                if candidate.id == aid:
                    chosen = candidate
                    break
        if chosen is None:
            shown = ", ".join(a.id for a in legal[:12])
            more = f" and {len(legal) - 12} more" if len(legal) > 12 else ""
            decision = self.decision(s)
            asked = f" ({decision.prompt.rstrip('.')})" if decision is not None else ""
            raise IllegalActionError(
                f"{_short(aid, 80)} is not a legal action for {seat_name(s)} now{asked}; "
                f"legal actions: {shown}{more}"
            )
        self._emitted = []
        self._apply(chosen, s)
        self._history = (s, chosen.id, self._history)
        events = self._emitted
        log = self._log
        for event in events:
            log = loose(event, log)  # packed when a holder of the log asks (compact_log)
        self._log = log
        self._legal_seat = -1
        self._legal_now = ()
        self._legal_more = None
        return events

    def compact_log(self) -> None:
        """Pack the events :meth:`apply` logged since the last call into the log's compact form.

        :meth:`apply` keeps the events it logs as they are (Event objects, about five times the
        memory of the packed form), so a playout or a simulation, which never keeps its log, does
        not pay for packing them. A holder of many long-lived logs (a server's tables) calls this
        after each apply; the log reads the same either way. Returns None.
        """
        self._log = compact(self._log)

    def step(self, action: Action, seat: int) -> None:
        """The quiet, trusted step of search and evaluation: carry out ``action`` for ``seat``.

        ``action`` must be an :class:`Action` this state's
        ``legal_actions(seat)`` just returned (the fast path does not look
        it up again: an action from elsewhere may corrupt the state). No
        event is built or logged (``quiet`` is True while the game's rules
        run, so they skip event text), the move is recorded in the history
        as by :meth:`apply`. The log of a state that took quiet steps lacks
        their events, so save and show only states played with
        :meth:`apply`; search copies are thrown away. Returns None.
        """
        self.quiet = True
        try:
            self._apply(action, seat)
        finally:
            self.quiet = False
        self._history = (seat, action.id, self._history)
        self._legal_seat = -1
        self._legal_now = ()
        self._legal_more = None

    def child(self, action: Action, seat: int) -> Self:
        """A clone that has taken ``action`` for ``seat`` by the quiet :meth:`step`; this state is unchanged.

        The same trust as :meth:`step`: ``action`` comes from ``legal_actions(seat)``.
        """
        other = self.clone()
        other.step(action, seat)
        return other

    @property
    def log(self) -> list[Event]:
        """Every event since set-up, oldest first (all of them: filter with ``visible_to``)."""
        return [unpack(c) for c in cells(self._log)]

    def event_log(self, last: int | None = None) -> EventLog:
        """The log (or its newest ``last`` events) as an :class:`~dicetable.engine.eventlog.EventLog`, oldest first.

        The EventLog shares this state's compact cells, so a holder of the whole log (a server's
        table) keeps no second copy of it; it reads as the list :attr:`log` gives.
        """
        return EventLog(cells(self._log, last))

    def log_for(self, seat: Seat) -> list[Event]:
        """The events ``seat`` may see (None: a spectator), oldest first.

        Raises :class:`SeatError` when ``seat`` is neither a seat nor None.
        """
        self.check_seat(seat, spectator=True)
        return [unpack(c) for c in cells(self._log) if cell_visible_to(c, seat)]

    @property
    def history(self) -> list[tuple[int, str]]:
        """Every applied action as ``(seat, action_id)``, oldest first."""
        return [(c[0], c[1]) for c in cells(self._history, link=2)]

    def clone(self) -> Self:
        """An independent copy; applying to either never changes the other."""
        # The kernel's fields copied inline (search clones millions of times; a call to _kernel,
        # which builds every other new state, costs a fifth of a clone).
        other = type(self).__new__(type(self))
        other.players = self.players
        other.seed = self.seed
        other.options = self.options
        other.quiet = False
        other._rng = self._rng
        other._script = self._script
        other._script_pos = self._script_pos
        other._history = self._history
        other._log = self._log
        other._legal_seat = -1
        other._legal_now = ()
        other._legal_more = None
        other._emitted = []
        self._copy_into(other)
        return other

    def determinize(self, seat: Seat, seed: Any) -> Self:  # Any: see Seat (a wrong seed is refused, not converted)
        """A copy in which everything ``seat`` cannot see is resampled.

        Future dice are reseeded from ``seed`` (which also replaces the
        recorded game seed), the scripted dice are dropped, the log and
        history are emptied (they may hold other seats' secrets) and the
        game's ``_determinize`` reshuffles hidden cards and secret choices
        consistently with ``observation(seat)``. The result depends only on
        what ``seat`` may see and on ``seed`` (two states that look the same
        to ``seat`` give the same copy), so search (ISMCTS) plays on it
        without ever reading hidden state.

        Raises :class:`SeatError` when ``seat`` is not a seat of this game
        and :class:`GameConfigError` when ``seed`` is not an int in
        ``0..2**64-1``.
        """
        self.check_seat(seat)
        problem = seed_problem(seed)
        if problem:
            raise GameConfigError(f"determinize: {problem}")
        other = self._kernel(self.players, seed, self.options, seed_state(seed), (), 0, None, None)
        self._copy_into(other)
        other._determinize(seat)
        other.forget_legal_actions()
        return other

    def to_dict(self, *, log: bool = True) -> dict[str, Any]:
        """A JSON-able dict from which :func:`dicetable.load_state` rebuilds this state exactly.

        ``log=False`` leaves out the ``"log"`` key: a snapshot of everything else, which costs a
        small part of the whole late in a long game (the log is most of it, each event decoded).
        Compare the log apart with :meth:`event_log` (EventLogs compare shared events without
        decoding them). ``load_state`` needs the whole dict.
        """
        d: dict[str, Any] = {
            "format": SAVE_FORMAT,
            "game": self.game_id,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "rng": _public(self._rng),
            "dice": list(self._script),
            "dice_used": self._script_pos,
            "history": [list(h) for h in self.history],
        }
        if log:
            d["log"] = [e.to_json() for e in self.log]
        d["state"] = self._dump()
        return d

    # ------------------------------------------------------------- kernel
    @classmethod
    def _kernel(cls, players: int, seed: int, options: dict[str, Any], rng: int, script: tuple[Any, ...], script_pos: int,
                history: Any, log: Any) -> Self:
        """A bare state of this class with the kernel's fields set: every new state is built here
        (``start``, ``from_dict``, ``determinize``); ``clone`` copies the same fields inline."""
        state = cls.__new__(cls)
        state.players = players
        state.seed = seed
        state.options = options
        state.quiet = False
        state._rng = _stored(rng)
        state._script = script
        state._script_pos = script_pos
        state._history = history
        state._log = log
        state._legal_seat = -1
        state._legal_now = ()
        state._legal_more = None
        state._emitted = []
        return state

    @classmethod
    def start(cls, players: int, seed: int, options: dict[str, Any], dice: tuple[Any, ...] = (),
              quiet: bool = False) -> "GameState":
        """Lay out a new game: the kernel fields, then the game's ``_setup`` and its events.

        Trusted: :func:`dicetable.new_game` checks the player count, options,
        seed (an int in ``0..2**64-1``) and scripted ``dice`` first and is
        what callers use. ``quiet``: ``_setup`` runs as a quiet :meth:`step`
        does, building no event, so the log starts empty; the game is the same.
        The set-up's events are logged as :meth:`apply` logs its own: kept as they are
        until :meth:`compact_log` packs them (a playout never asks).
        """
        state = cls._kernel(players, seed, options, seed_state(seed), tuple(dice), 0, None, None)
        if quiet:
            state.quiet = True
            try:
                state._setup()
            finally:
                state.quiet = False
        else:
            state._setup()
        log = None
        for event in state._emitted:
            log = loose(event, log)  # as apply's: packed when a holder of the log asks (compact_log)
        state._log = log
        state._emitted = []
        return state

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "GameState":
        """Rebuild a state of this class from :meth:`to_dict` output as it stands (trusted).

        Only field types are checked (SaveFormatError otherwise): this is the
        ``verify=False`` path of :func:`dicetable.load_state`, for data this
        process wrote; use ``load_state`` for anything else.
        """
        try:
            rng = int(d["rng"])
            if not 0 <= rng < SEED_LIMIT:  # held in 64 bits (a native i64 in the compiled build)
                raise ValueError(f"rng must be an integer 0..2**64-1, got {_short(rng)}")
            state = cls._kernel(
                int(d["players"]), int(d["seed"]), dict(d["options"]), rng,
                tuple(d.get("dice", ())), int(d.get("dice_used", 0)),
                _chain_history((int(s), str(a)) for s, a in d.get("history", [])),
                _pack_all(Event.from_json(e) for e in d.get("log", [])),
            )
            state._restore(d["state"])
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise SaveFormatError(
                f"saved {cls.game_id} game is malformed: {type(exc).__name__}: {exc}"
            ) from exc
        return state

    def replay_record(self) -> dict[str, Any]:
        """The game as a replay: game id, players, options, seed, scripted dice and actions."""
        record = {
            "format": SAVE_FORMAT,
            "kind": "replay",
            "game": self.game_id,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "dice": list(self._script),
            "actions": [list(h) for h in self.history],
        }
        if self.is_over:
            record["scores"] = list(self.scores)
            record["winners"] = list(self.winners)
        return record

    # ---------------------------------------------------- helpers for games
    def emit(self, kind: str, seat: int | None, text: str, data: dict[str, Any] | None = None,
             visible: tuple[Any, ...] | None = None, effects: list[dict[str, Any]] | None = None) -> None:
        """Record an event (call only from ``_setup``/``_apply``); nothing in a quiet :meth:`step`.

        ``effects`` (made with :mod:`dicetable.engine.effects`) say what the
        event did to the table, for the browser to animate; they are stored
        in ``data["effects"]`` and seen by exactly the seats in ``visible``.
        Building an event's text costs more than most rules: where that
        shows in a profile, a game checks ``if not self.quiet:`` before
        building it.
        """
        if not self.quiet:
            if effects:  # a new dict: the caller's is left as it was
                if data is None:
                    data = {"effects": effects}
                else:  # {**data, "effects": effects}, the copy made whole (a small dict's copy is one block)
                    data = data.copy()
                    data["effects"] = effects
            self._emitted.append(new_event(kind, seat, text, data, visible))

    def randbelow(self, n: int) -> int:
        """A uniform int in ``[0, n)`` from the state's seeded generator (n > 0)."""
        self._rng, out = _draw_below(self._rng, n)
        return out

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle ``items`` in place with the state's generator (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            self._rng, j = _draw_below(self._rng, i + 1)
            items[i], items[j] = items[j], items[i]

    def roll(self, die: Die) -> Any:
        """Roll one die: the next scripted value if any remain, else a seeded face.

        Raises :class:`ScriptedDiceError` when a scripted value is not one of
        ``die.faces`` (a mistake in a test's script, never in play).
        """
        pos = self._script_pos
        if pos < len(self._script):
            value = self._script[pos]
            if value not in die.faces:
                raise ScriptedDiceError(
                    f"scripted die value {value!r} (position {pos}) is not a face of "
                    f"the {die.name}; its faces are {list(dict.fromkeys(die.faces))}"
                )
            self._script_pos = pos + 1
            return value
        faces = die.faces
        self._rng, out = _draw_below(self._rng, len(faces))
        return faces[out]

    def roll_many(self, die: Die, count: int) -> list[Any]:
        """Roll ``count`` dice of one kind; see :meth:`roll` (scripted values first)."""
        if self._script_pos < len(self._script):
            return [self.roll(die) for _ in range(count)]
        self._rng, faces = _draw_choices(self._rng, die.faces, count)
        return faces

    @property
    def chance_mark(self) -> tuple[int, int]:
        """An opaque value that changes whenever the state draws randomness (a die, a shuffle).

        Front ends compare it before and after :meth:`apply` to know whether
        something new came up by chance, e.g. to stop running a line of
        choices a person typed before seeing it.
        """
        return (_public(self._rng), self._script_pos)

    @property
    def scripted_dice_left(self) -> int:
        """How many scripted die values remain unused."""
        return len(self._script) - self._script_pos

    def _sole_seat(self) -> int:
        to_move = self.to_move
        if len(to_move) == 1:
            return int(to_move[0])
        if not to_move:
            raise IllegalActionError("the game is over: no seat may act")
        raise IllegalActionError(
            "several seats decide now (" + ", ".join(seat_name(t) for t in to_move)
            + "): say which seat"
        )
