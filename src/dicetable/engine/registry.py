"""The game registry: which games exist, their player counts and options.

Each game package under ``dicetable.games`` defines a module-level ``SPEC``
(a :class:`GameSpec`). The registry does not know where the games live: the
``dicetable.games`` package hands it a catalogue (game id -> module path) with
:func:`register_catalogue` when it is imported, which ``import dicetable`` does
(and so does any ``import dicetable.<anything>``, the package being imported
first). A catalogued game's module is imported on first use, alone:
``get_game(id)`` imports only that game, :func:`list_games` all of them. The
engine so never imports the games, and adding a game is one line in
``games/__init__.py``. Tests may :func:`register` extra games.
"""

from __future__ import annotations

import difflib
import importlib
import os
import threading
import re
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, cast

from .errors import GameConfigError, SaveFormatError
from .help import EMPTY_HELP, GameHelp
from .rng import _short, seed_problem
from .state import READABLE_FORMATS, GameState

_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,18}")  # ASCII digits only: str.isdigit() also accepts "²"
_MAX_TEXT = 200  # longest text option value (a list of Captain ids is well under this)


@dataclass(frozen=True)
class OptionSpec:
    """One game option.

    ``choices`` lists the allowed values (None: any value of ``type``);
    ``choices_for(players)`` (optional) lists them instead for an option whose
    allowed values depend on the number of players, such as a first player
    (:func:`first_player_option`: "random" or a seat that exists), see
    :meth:`allowed`; ``players`` restricts the option to those player counts (None: all);
    ``check(value, players)`` (optional) is the game's own test of a value
    that ``choices`` cannot list (e.g. Corsairs' ``captains`` "T1A,T3B,T2A"):
    it returns the value to keep (normalised) or raises ``ValueError`` /
    :class:`GameConfigError` saying what is wrong. Every game's options go
    through :meth:`GameSpec.resolve_options`, the one routine that checks
    option values. ``examples`` are values worth playing besides the default
    for an option without ``choices`` (tests and tools play every one of
    them, at the smallest player count the option applies to).

    For people choosing options (the lobby): ``label`` is the option's name in
    the rulebook's words (e.g. "Hidden Objective Variant"), ``explanation``
    one line saying what it changes in play (at most 160 characters, no line
    break), ``source`` where the rule comes from (``"rulebook: <section>"``,
    or ``"dicetable: ..."`` for an option the rulebook does not have).
    """

    name: str
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None
    type: type = str
    players: tuple[Any, ...] | None = None
    check: Callable[..., Any] | None = None
    examples: tuple[Any, ...] = ()
    label: str = ""
    explanation: str = ""
    source: str = ""
    choices_for: Callable[[int], tuple[Any, ...]] | None = None

    def allowed(self, players: int | None = None) -> tuple[Any, ...] | None:
        """The values allowed with ``players`` players: ``choices_for(players)`` when the option
        has it (None when ``players`` is not given: no count is assumed), else ``choices``.
        None means any value of ``type``."""
        if self.choices_for is not None:
            return self.choices_for(players) if players is not None else None
        return self.choices

    def values(self) -> tuple[Any, ...]:
        """Every value tools should try: ``choices``, both truth values of a bool, else the default and ``examples``."""
        if self.choices is not None:
            return tuple(self.choices)
        if self.type is bool:
            return (False, True)
        return (self.default, *self.examples)

    def coerce(self, value: Any, players: int | None = None) -> Any:
        """Return ``value`` converted to this option's type, or raise GameConfigError.

        Text from a command line is read strictly: a whole number is ASCII
        digits with an optional sign (not "²" or "٣", which ``str.isdigit``
        accepts), a truth value is ``true`` or ``false``; text options are
        printable and at most 200 characters. The value must be one of
        :meth:`allowed` with ``players`` players (the error lists them).
        """
        if isinstance(value, str) and self.type is not str:
            text = value.strip()
            if self.type is bool:
                value = {"true": True, "false": False}.get(text.lower(), value)
            elif self.type is int and _WHOLE_NUMBER.fullmatch(text):
                value = int(text)
        if type(value) is not self.type:  # not True for an int option, nor 1 for a bool one
            raise GameConfigError(self._needs(value))
        if isinstance(value, str) and (len(value) > _MAX_TEXT or not value.isprintable()):
            raise GameConfigError(
                f"option {self.name!r} needs printable text of at most {_MAX_TEXT} characters, got {_short(value)}")
        allowed = self.allowed(players)
        if allowed is not None and value not in allowed:
            with_players = f" with {players} players" if self.choices_for is not None else ""
            raise GameConfigError(
                f"option {self.name!r} cannot be {_short(value)}{with_players}; allowed: "
                + ", ".join(map(str, allowed))
            )
        return value


    def _needs(self, value: Any) -> str:
        kind = {bool: "true or false", int: "a whole number", str: "text"}.get(self.type, self.type.__name__)
        if self.choices and self.type is not bool:
            allowed = f"; allowed: {', '.join(map(str, self.choices))}"
        else:  # no fixed list: the description says what the option takes
            allowed = f"; {self.description}" if self.type is not bool and self.description else ""
        return f"option {self.name!r} needs {kind}, got {_short(value)}{allowed}"


def first_player_choices(players: int) -> tuple[str, ...]:
    """The values of a first-player option with ``players`` players: ``"random"``, then the
    player numbers ``"1"`` .. ``str(players)`` (only seats that exist)."""
    return ("random", *(str(n) for n in range(1, players + 1)))


def first_player_option(explanation: str, source: str) -> OptionSpec:
    """The option ``first_player`` (who takes the first turn), the same for every game that has one:
    ``"random"`` (the default) or a player number from 1 to the number of players
    (:func:`first_player_choices`); a number beyond the players is refused by
    :meth:`GameSpec.resolve_options` with the allowed values named. The state reads
    ``options["first_player"]``, a text: "random" or the player number."""
    return OptionSpec("first_player", "random", "who starts: 'random' or a player number (1 to the number of players)",
                      examples=("1",), label="First player", explanation=explanation, source=source,
                      choices_for=first_player_choices)


@dataclass(frozen=True)
class GameSpec:
    """Everything front ends and bots may know about a game without its internals.

    ``state_class`` is the game's :class:`GameState` subclass. ``render(state,
    seat)`` returns a rich renderable of what ``seat`` sees; ``greedy(state,
    seat)`` returns the game's documented one-step choice; ``evaluate(state,
    seat)`` scores a position for ``seat`` in [0, 1] (used by search as a
    prior and at rollout cut-offs); ``summary`` is a line for ``dicetable
    games``; ``dice_faces`` lists every face any of its dice can show (checked
    against ``dice=`` scripts up front).

    Views, all drawn from ``state.observation(seat)`` only (docs/views.md):
    ``text_view(obs, seat, *, width=120, focus=None)`` returns a rich
    renderable for the terminal (``focus`` = the seat whose board is shown in
    full, e.g. ``show 3``); ``board_view(obs, actions, seat)`` returns the
    browser board as keyed parts ``{part id: HTML}`` with the root ``"board"``
    (:mod:`dicetable.engine.markup`; a single HTML string is the root alone),
    ``actions`` being the seat's legal actions as ``[{"id", "label"}]``; ``stage_words(obs)`` (optional)
    names, in the rulebook's words, a step of the game that the observation's ``round`` and ``turn`` do
    not count, such as a choice made while setting up (Card Kingdoms' Dukes: "Choosing Dukes"), and
    answers None at every other time: the table page's top line and the replay viewer's step line show
    it instead of the round and turn (the view's ``stage``, :meth:`stage`); ``help`` is the game's
    rules help and component reference (:mod:`dicetable.engine.help`). ``render(state,
    seat)`` is the older terminal view, used only where ``text_view`` is
    missing.

    ``action_catalogue(players, options)`` lists every action id the game can
    ever offer at that configuration, once each, in a stable order: the fixed
    action space of the research interfaces (``dicetable.rl``);
    ``observation_encoding(players, options)`` returns the
    :class:`~dicetable.engine.encoding.Encoding` that turns an observation
    into a fixed-length feature vector (their observation space).
    ``balance_facts(final_obs)`` (optional) reads the spectator observation of
    a finished game (``state.observation(None)`` once ``is_over``: everything
    is revealed) and returns the facts a balance report groups results by, as
    ``{name: value}``: a list with one entry per seat for a seat fact (e.g.
    each seat's Captain; an entry may itself be a list, e.g. the Statues a
    seat drafted, or None) or one plain value for a table fact (e.g. the
    setup). Values are JSON-able strings or numbers. ``dicetable simulate``
    records them and ``dicetable analyze`` plots them.
    """

    id: str
    name: str
    min_players: int
    max_players: int
    state_class: type[GameState]
    summary: str = ""
    options: tuple[Any, ...] = ()
    dice_faces: tuple[Any, ...] = ()
    render: Callable[..., Any] | None = None
    text_view: Callable[..., Any] | None = None
    board_view: Callable[..., Any] | None = None
    stage_words: Callable[..., str | None] | None = None
    help: GameHelp = EMPTY_HELP
    action_catalogue: Callable[..., Any] | None = None
    observation_encoding: Callable[..., Any] | None = None
    greedy: Callable[..., Any] | None = None
    evaluate: Callable[..., Any] | None = None
    balance_facts: Callable[..., Any] | None = None
    extras: dict[str, Any] = field(default_factory=dict)

    def stage(self, obs: Any) -> str | None:
        """The view's ``stage`` of observation ``obs``: :attr:`stage_words` of it, None when the game has none."""
        return self.stage_words(obs) if self.stage_words is not None else None

    def throws_turn_away(self, state: GameState, seat: int, action_id: str) -> str | None:
        """Why ``action_id`` would end ``seat``'s turn for nothing (a sentence), or None.

        The game's ``extras["throws_turn_away"]`` hook (docs/engine.md, "Front-end hooks"); None for
        a game without one. Kingdom of Dice's: a result that cannot be valid or has no free space
        for its Crown marker (rulebook, "Checking the result").
        """
        check = self.extras.get("throws_turn_away")
        return check(state, seat, action_id) if check is not None else None

    def confirm_warnings(self, state: GameState, seat: int) -> dict[str, str]:
        """``{action id: sentence}`` for each of ``seat``'s legal actions a front end asks about before
        sending it: those that throw the turn away (:meth:`throws_turn_away`) while another legal
        action would not. Empty when none does, or when every one does (nothing to choose instead:
        the terminal shows such a forced choice and waits for Enter)."""
        if self.extras.get("throws_turn_away") is None:
            return {}
        warnings = {a.id: self.throws_turn_away(state, seat, a.id) for a in state.legal_actions(seat)}
        if all(warnings.values()):
            return {}
        return {a: w for a, w in warnings.items() if w}

    def option(self, name: str) -> OptionSpec:
        """The option called ``name``; GameConfigError listing the options otherwise."""
        for opt in self.options:
            if opt.name == name:
                return cast(OptionSpec, opt)
        allowed = ", ".join(o.name for o in self.options) or "none"
        raise GameConfigError(f"{self.id} has no option {_short(name)}; its options: {allowed}")

    def resolve_options(self, players: int, options: dict[str, Any] | None) -> dict[str, Any]:
        """Check ``options`` and fill in defaults; raise GameConfigError on any bad one.

        The one routine that checks option values for every game: the name
        (:meth:`option`), the player counts it applies to, the type and
        choices (:meth:`OptionSpec.coerce`), then the option's own ``check``.
        """
        if options is not None and not isinstance(options, dict):
            raise GameConfigError(
                f"options must be a dict of NAME: VALUE, got {options!r}; {self.id} options: "
                + (", ".join(o.name for o in self.options) or "none")
            )
        given = dict(options or {})
        out = {}
        for name, value in given.items():
            opt = self.option(name)
            if opt.players is not None and players not in opt.players:
                raise GameConfigError(
                    f"option {name!r} applies only with "
                    + " or ".join(map(str, opt.players)) + f" player(s), not {players}"
                )
            value = opt.coerce(value, players)
            if opt.check is not None:
                try:
                    value = opt.check(value, players)
                except GameConfigError:
                    raise
                except ValueError as exc:
                    raise GameConfigError(f"option {name!r}: {exc}") from None
            out[name] = value
        for opt in self.options:
            if opt.name not in out and (opt.players is None or players in opt.players):
                out[opt.name] = opt.default
        return out


_REGISTRY: dict[str, GameSpec] = {}
_CATALOGUE: dict[str, str] = {}    # game id -> module defining its SPEC, not imported yet
_LOADING: set[str] = set()         # catalogued games being imported (by the thread holding the lock)
_LOCK = threading.RLock()


def register(spec: GameSpec) -> GameSpec:
    """Add a game to the registry (games do this through their ``SPEC``); returns it."""
    if not spec.state_class.game_id:
        spec.state_class.game_id = spec.id
    if spec.state_class.game_id != spec.id:
        raise GameConfigError(f"state class of {spec.id} says it is {spec.state_class.game_id}")
    _REGISTRY[spec.id] = spec
    return spec


def register_catalogue(modules: Mapping[str, str]) -> None:
    """Declare games without importing them: ``{game id: module path}``, each module (a game
    package) defining ``SPEC`` with that id. The module is imported on the game's first use
    (:func:`get_game`, :func:`new_game`, :func:`list_games`...). A game already registered
    keeps its spec."""
    with _LOCK:
        for game_id, module in modules.items():
            if game_id not in _REGISTRY:
                _CATALOGUE[game_id] = module


def _load(game_id: str) -> GameSpec | None:
    """The spec of a catalogued game, its module imported and its ``SPEC`` registered now.

    None when ``game_id`` is neither registered nor catalogued, or while its module is being
    imported (a game module that asks the registry during its own import, on the thread
    importing it, gets what is registered so far instead of a deadlock). Other threads wait.
    GameConfigError if the module defines no ``SPEC`` of that id.
    """
    with _LOCK:
        spec = _REGISTRY.get(game_id)
        path = _CATALOGUE.get(game_id)
        if spec is not None or path is None or game_id in _LOADING:
            return spec
        _LOADING.add(game_id)
        try:
            module = importlib.import_module(path)
        finally:
            _LOADING.discard(game_id)
        spec = getattr(module, "SPEC", None)
        if not isinstance(spec, GameSpec) or spec.id != game_id:
            raise GameConfigError(f"{path} is catalogued as game {game_id!r} but defines no SPEC of that id")
        del _CATALOGUE[game_id]
        return register(spec)


def list_games() -> list[GameSpec]:
    """Every registered game's :class:`GameSpec`, sorted by id (a new list each call); the
    catalogued games not used yet are imported first."""
    for game_id in sorted(_CATALOGUE):
        _load(game_id)
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def games() -> list[GameSpec]:
    """Deprecated name of :func:`list_games` (DeprecationWarning).

    ``dicetable.games`` is also the package holding the games, so the
    function of that name could not stay: use ``list_games()``.
    """
    warnings.warn("dicetable.engine.games() is deprecated; use list_games()", DeprecationWarning, stacklevel=2)
    return list_games()


def _spelled(game_id: str) -> str:
    """``game_id`` as the ids are written: lower case, words joined by ``-`` (``Kingdom_of_Dice``:
    ``kingdom-of-dice``)."""
    return game_id.lower().replace("_", "-")


def get_game(game_id: str) -> GameSpec:
    """The spec of ``game_id`` (importing that game's module on its first use, no other).

    The id may differ from the game's in case and in ``_`` for ``-`` (``kingdom_of_dice``,
    ``Biblios-Dice``): the spec returned carries the canonical ``id``, which is what callers store
    and show. GameConfigError naming the known games otherwise, and the nearest id when one is close
    (``did you mean 'biblios-dice'?``).
    """
    if not isinstance(game_id, str):
        spec = None
    else:
        spec = _REGISTRY.get(game_id) or _load(game_id)
        if spec is None:
            spelled = _spelled(game_id)
            known = {_spelled(k): k for k in (*_REGISTRY, *_CATALOGUE)}
            if spelled in known:
                spec = _REGISTRY.get(known[spelled]) or _load(known[spelled])
    if spec is None:
        ids = sorted({*_REGISTRY, *_CATALOGUE})
        near: list[str] = []
        if isinstance(game_id, str) and game_id:
            starts = [k for k in ids if k.startswith(_spelled(game_id))]  # corsairs: corsairs-of-valeria
            near = starts if len(starts) == 1 else difflib.get_close_matches(_spelled(game_id), ids, n=1)
        hint = f"did you mean {near[0]!r}? " if near else ""
        raise GameConfigError(f"unknown game {_short(game_id)}; {hint}known games: " + ", ".join(ids))
    return spec


def spec_of(state: GameState) -> GameSpec:
    """The spec of the game a state belongs to."""
    return get_game(state.game_id)


def new_game(
    game_id: str,
    players: int,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    dice: Iterable[Any] | None = None,
    *,
    quiet: bool = False,
) -> GameState:
    """Set up a new game and return its state.

    ``players`` is the number of seats (the game's range, e.g. 1-4);
    ``seed`` fixes every random outcome, an int in ``0..2**64-1`` (None: a
    fresh random seed, recorded in the state). The seed is the key to every
    hidden card and every future die, so front ends never show it while the
    game runs. ``options`` are checked against the game's options;
    ``dice`` scripts the next die rolls (each value a face of the die rolled
    then), after which the seed continues. ``quiet=True`` sets it up as the
    engine's quiet ``step`` moves (no event is built: the log starts empty;
    the game is the same), for games that are played by quiet steps and never
    shown or saved, as training batches are. Raises :class:`GameConfigError`.
    """
    spec = get_game(game_id)
    if isinstance(players, bool) or not isinstance(players, int):
        raise GameConfigError(f"players must be a whole number, got {_short(players)}")
    if not spec.min_players <= players <= spec.max_players:
        raise GameConfigError(
            f"{spec.name} is for {spec.min_players}-{spec.max_players} players, not {players}"
        )
    resolved = spec.resolve_options(players, options)
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little") >> 1
    problem = seed_problem(seed)
    if problem:
        raise GameConfigError(problem)
    if dice is not None and (isinstance(dice, (str, bytes, dict)) or not hasattr(dice, "__iter__")):
        raise GameConfigError(f"dice must be a list of die faces to roll first, got {_short(dice)}")
    script = tuple(dice or ())
    if spec.dice_faces:
        faces = spec.dice_faces
        for pos, value in enumerate(script):
            if not any(type(value) is type(face) and value == face for face in faces):  # not True for 1
                raise GameConfigError(
                    f"scripted die value {_short(value)} (position {pos}) is not a face of any "
                    f"{spec.name} die; faces: {list(spec.dice_faces)}"
                )
    return spec.state_class.start(players, seed, resolved, script, quiet=quiet)


def check_save_header(data: dict[str, Any]) -> GameSpec:
    """The spec of a saved game's ``game``; SaveFormatError unless the format and game are right."""
    if not isinstance(data, dict):
        raise SaveFormatError(f"a saved game is a JSON object, got {type(data).__name__}")
    if data.get("kind") == "replay":
        raise SaveFormatError("this file is a replay (actions only): use `dicetable replay`")
    if "format" not in data:
        raise SaveFormatError(
            "this JSON is not a dicetable saved game: it has no 'format' field. A save is the object "
            "the save command of `dicetable play` writes: {\"format\": "
            + " or ".join(map(str, READABLE_FORMATS))
            + ', "game": "<game id>", "players": N, "seed": N, "options": {...}, "history": [...], ...}'
        )
    if data.get("format") not in READABLE_FORMATS or type(data.get("format")) is not int:
        raise SaveFormatError(
            f"unsupported save format {_short(data.get('format'))}; this version reads formats "
            + " and ".join(map(str, READABLE_FORMATS))
        )
    try:
        return get_game(data["game"])
    except KeyError:
        raise SaveFormatError("saved game has no 'game' field") from None
    except GameConfigError as exc:
        raise SaveFormatError(str(exc)) from None
