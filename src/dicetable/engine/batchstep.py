"""The per-game loop of a batched environment: many games of one configuration stepped in one call.

A batch (:class:`dicetable.rl.batch.BatchEnv`) moves each of its games one step and then shows
each game's next decision: the acting seat's feature vector written into the game's row of the
batch's observation array, and its legal actions as ones in its row of the mask. That loop runs
once per game per step, so it is the batch's own cost; it lives here, numpy-free and beside the
kernel, so that the compiled build compiles it with the engine (docs/compiled.md; the research
package stays pure Python). It reads each game only through the State protocol (``step`` or
``apply``, ``to_move``, ``legal_actions``) and the encoding's direct fill.

The AEC environment (:class:`dicetable.rl.aec.DicetableAEC`) steps one game at a time with the
same parts: :func:`show_aec` for its ``observe`` and :func:`step_aec` for its ``step``, which make
its observation arrays through an :class:`AECShow` and return the observation dictionary already
made, and :class:`AgentIterable` for its ``agent_iter``.
"""

from __future__ import annotations

from array import array
from typing import Any, Callable, Iterator

from .core import Action
from .state import GameState

#: A direct fill ``(state, seat, out)`` (:data:`dicetable.engine.encoding.DirectFill`).
Fill = Callable[[Any, Any, Any], None]
#: What a shown game offers: its acting seat's legal Actions and their catalogue indices, in the same order.
Offered = tuple[tuple[Action, ...], list[int]]
#: A memo of masks for one action catalogue: the offered ids -> (their catalogue indices, the whole
#: mask as an int8 memoryview) (:func:`mark`).
Masks = dict[tuple[str, ...], tuple[list[int], memoryview]]
#: One shown decision of the AEC environment: (the acting seat, its legal Actions, their catalogue
#: indices, its observation dictionary, its agent's name) (:func:`show_aec`).
Shown = tuple[int, tuple[Action, ...], list[int], Any, str]


def show(state: GameState, seat: int, fill: Fill, row: Any, mask_row: Any, index: dict[str, int]) -> Offered:
    """Write ``seat``'s feature vector of ``state`` into ``row`` and its legal actions into ``mask_row``.

    ``row``: a zeroed float buffer of the encoding's size (a memoryview of a float32 row, say);
    ``mask_row``: a zeroed buffer of the catalogue's size, set to 1 at each legal action's
    catalogue index (``index``: action id -> catalogue index). Returns (legal Actions, their
    indices). Raises KeyError for an offered id outside the catalogue (a game's bug).
    """
    fill(state, seat, row)
    legal = state.legal_actions(seat)
    ks = [index[action.id] for action in legal]
    for k in ks:
        mask_row[k] = 1
    return legal, ks


def pick(offered: list[Offered], wanted: list[Any]) -> tuple[list[Action], int]:
    """The Actions chosen by catalogue index: ``wanted[i]`` among ``offered[i]``, for every game.

    Returns (the Actions, -1), or (those before it, ``i``) at the first game ``i`` whose
    ``wanted[i]`` is not an int (exactly: a bool, a numpy integer or a float is not) its offer
    holds: the caller then converts or refuses it, saying why.
    """
    chosen: list[Action] = []
    for i in range(len(wanted)):
        a = wanted[i]
        legal, ks = offered[i]
        if type(a) is not int:
            return chosen, i
        try:
            k = ks.index(a)
        except ValueError:  # not offered
            return chosen, i
        chosen.append(legal[k])
    return chosen, -1


def step_and_show(states: list[GameState], chosen: list[Action], seats: list[int], events: bool, fill: Fill,
                  obs_rows: list[Any], mask_rows: list[Any], index: dict[str, int],
                  offered: list[Offered]) -> list[int]:
    """Play ``chosen[i]`` for seat ``seats[i]`` of game ``states[i]``, for every game, and show each
    game that goes on (:func:`show` into ``obs_rows[i]`` and ``mask_rows[i]``, zeroed before).

    ``chosen[i]`` must be an Action of ``offered[i]`` (what ``legal_actions`` gave for that seat):
    ``events`` False moves by the trusted quiet ``step``, True by ``apply`` (every event logged).
    Updates in place ``seats[i]`` (the next acting seat: the lowest seat to move) and
    ``offered[i]`` of each game that goes on. Returns the indices of the games that ended, in
    order: their rows, seats and offers are left for the caller, which starts their next games.
    """
    ended: list[int] = []
    for i in range(len(states)):
        state = states[i]
        if events:
            state.apply(chosen[i], seats[i])
        else:
            state.step(chosen[i], seats[i])
        to_move = state.to_move
        if not to_move:  # over (to_move is empty only then)
            ended.append(i)
            continue
        seat = min(to_move)
        seats[i] = seat
        # show(), written out: a call per game is a tenth of this loop's own cost in the pure build
        fill(state, seat, obs_rows[i])
        legal = state.legal_actions(seat)
        ks = [index[action.id] for action in legal]
        mask_row = mask_rows[i]
        for k in ks:
            mask_row[k] = 1
        offered[i] = (legal, ks)
    return ended


def mark(legal: tuple[Action, ...], mask_row: Any, index: dict[str, int], masks: Masks) -> list[int]:
    """Write the mask of ``legal`` into ``mask_row`` (an int8 buffer of the catalogue's size,
    zeroed: 1 at each legal action's catalogue index; None: nothing is written) and return those
    indices in ``legal``'s order.

    ``masks``: a memo for ``index``'s catalogue (the caller's, shared by the environments of one
    catalogue), keyed by the offered ids; a known set of ids is copied in one slice, and the list
    returned is the memo's, the same object for the same ids while the memo holds them (read it, do
    not change it; a caller may key its own form of the mask by it). Raises KeyError for an offered
    id outside the catalogue.
    """
    ids = tuple([action.id for action in legal])
    known = masks.get(ids)
    if known is None:
        ks = [index[i] for i in ids]
        # the catalogue's size: the row's, or the index's (one id per catalogue index) without a row
        whole = array("b", bytes(len(mask_row) if mask_row is not None else len(index)))
        for k in ks:
            whole[k] = 1
        if len(masks) > 4096:  # bound the memory of long runs
            masks.clear()
        known = masks[ids] = (ks, memoryview(whole))
    if mask_row is not None:
        mask_row[:] = known[1]
    return known[0]


def show_one(state: GameState, seat: int, fill: Fill | None, row: Any, mask_row: Any,
             index: dict[str, int], masks: Masks | None = None) -> Offered:
    """One environment's decision (the AEC environment's ``observe``): :func:`show`, or only the
    mask when ``fill`` is None (the caller then encodes the observation dictionary itself).

    ``row`` and ``mask_row`` as for :func:`show` (``row`` unused without a fill); the mask is
    written before the fill, as the legal actions are asked for first, through :func:`mark` when
    ``masks`` is given (then ``mask_row`` may be None: no mask is written, and the caller makes its
    own from the indices, the memo's list). Returns (legal Actions, their catalogue indices).
    Raises KeyError for an offered id outside the catalogue.
    """
    legal = state.legal_actions(seat)
    if masks is not None:
        ks = mark(legal, mask_row, index, masks)
    else:
        ks = [index[action.id] for action in legal]
        for k in ks:
            mask_row[k] = 1
    if fill is not None:
        fill(state, seat, row)
    return legal, ks


def step_offered(state: GameState, legal: tuple[Action, ...], ks: list[int], action: Any, seat: int,
                 events: bool) -> int:
    """Play catalogue index ``action`` for ``seat`` when it is among ``ks`` (the indices of
    ``legal``, what ``legal_actions(seat)`` offered): by the quiet ``step``, or ``apply`` when
    ``events``.

    Returns the next acting seat (the lowest seat to move), -1 once no seat is to move (the game
    is over), or -2 without moving when ``action`` is not an int (exactly) among ``ks``: the
    caller then converts or refuses it, saying why.
    """
    if type(action) is not int:
        return -2
    try:
        k = ks.index(action)
    except ValueError:  # not offered
        return -2
    if events:
        state.apply(legal[k], seat)
    else:
        state.step(legal[k], seat)
    to_move = state.to_move
    if not to_move:
        return -1
    return min(to_move)


class AECShow:
    """What the AEC environment's compiled show (:func:`show_aec`) needs: its game's direct fill,
    action index and agents' names, and the makers of its observation arrays (this module imports
    no numpy, so the caller makes them).

    ``new_vector()`` returns a new zeroed float32 array of the encoding's size, its own memory (a copy
    of a zero template, say); its ``data`` memoryview is what the fill writes into. ``new_mask(ks)``
    returns the mask of catalogue indices ``ks`` (an int8 array of the catalogue's size, 1 at each of
    ``ks``), made once per offered set and kept in ``arrays``; each observation gets a ``copy()`` of
    it. ``arrays``: offered ids -> (their catalogue indices, that mask), the caller's memo (shared by
    the environments of one catalogue; at most 4,097 entries: emptied when fuller).
    """

    def __init__(self, fill: Fill, index: dict[str, int], agents: list[str], new_vector: Callable[[], Any],
                 new_mask: Callable[[list[int]], Any], arrays: dict[tuple[str, ...], tuple[list[int], Any]]) -> None:
        self.fill = fill
        self.index = index
        self.agents = agents
        self.new_vector = new_vector
        self.new_mask = new_mask
        self.arrays = arrays


def show_aec(state: GameState, seat: int, show: AECShow) -> Shown:
    """``seat``'s decision in ``state`` as the AEC environment hands it out: a new vector (``show``'s
    ``new_vector()``, written by its fill) and a new mask (a copy of the kept mask of the offered set).

    Returns (``seat``, its legal Actions, their catalogue indices in the legal actions' order (the
    memo's list: read it, do not change it), the dictionary ``{"observation": the vector,
    "action_mask": the mask}``, the seat's agent). Each array is the caller's own: no other
    observation shares its memory. Raises KeyError for an offered id outside the catalogue.
    """
    vector = show.new_vector()
    legal = state.legal_actions(seat)
    ids = tuple([action.id for action in legal])
    arrays = show.arrays
    known = arrays.get(ids)
    if known is None:
        index = show.index
        ks = [index[i] for i in ids]
        if len(arrays) > 4096:  # bound the memory of long runs
            arrays.clear()
        known = arrays[ids] = (ks, show.new_mask(ks))
    show.fill(state, seat, vector.data)
    return seat, legal, known[0], {"observation": vector, "action_mask": known[1].copy()}, show.agents[seat]


def step_aec(state: GameState, offered: Shown | None, action: Any, agent: str, events: bool,
             show: AECShow) -> Shown:
    """The AEC environment's ``step``: when ``offered`` is what :func:`show_aec` showed for ``agent``
    (the same string object), :func:`step_offered` of ``action`` among it, then :func:`show_aec` of
    the next acting seat when the game goes on.

    Returns what :func:`show_aec` returns, or (-1, (), [], None, "") once no seat is to move, or
    (-2, (), [], None, "") without moving when ``offered`` is None or another agent's, or ``action``
    is not an int (exactly) among its indices: the caller then converts or refuses it, saying why.
    Raises KeyError for an offered id outside the catalogue.
    """
    if offered is None or offered[4] is not agent:
        return -2, (), [], None, ""
    following = step_offered(state, offered[1], offered[2], action, offered[0], events)
    if following < 0:
        return following, (), [], None, ""
    return show_aec(state, following, show)


class AgentIterable:
    """PettingZoo's ``agent_iter(max_iter)`` of an AEC environment (``env``: any object with ``agents``
    and ``agent_selection``), compiled: each ``iter()`` gives a new :class:`AgentIterator`. ``max_iter``
    is what PettingZoo takes: an int, or any number (a float, a numpy integer) compared and counted down
    as PettingZoo's iterator does."""

    def __init__(self, env: Any, max_iter: Any) -> None:
        self.env = env
        self.max_iter = max_iter

    def __iter__(self) -> AgentIterator:
        return AgentIterator(self.env, self.max_iter)


class AgentIterator:
    """What PettingZoo's ``AECIterator`` yields: the environment's ``agent_selection`` while it has
    agents, at most ``max_iter`` times (none when ``max_iter`` <= 0); both read afresh at each ``next()``."""

    def __init__(self, env: Any, max_iter: Any) -> None:
        self.env = env
        # an int (exactly) is counted in a machine word: a compiled int this size is one (PettingZoo's
        # default 2**63 is not, and each decrement would make a new object); no loop runs 2**62 times.
        # Any other number is counted as it is, as PettingZoo's iterator counts it.
        self.exact = type(max_iter) is int
        self.left: int = min(max_iter, 2**62 - 1) if self.exact else 0  # typed: min() of Any is Any
        self.other: Any = None if self.exact else max_iter

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        env = self.env
        if not env.agents:
            raise StopIteration
        if self.exact:
            if self.left <= 0:
                raise StopIteration
            self.left -= 1
        else:
            if self.other <= 0:
                raise StopIteration
            self.other -= 1
        return env.agent_selection
