"""The end-of-game score sheet: each scoring category of a rulebook per seat, and the tie-break.

Every game answers :meth:`GameState.score_sheet` with a :class:`ScoreSheet`:
the rulebook's scoring categories (columns whose points add up to a seat's
score), one :class:`ScoreLine` per seat and per solo opponent (the
Mischievous Cat, Cadfael, the Dark Lord), the rulebook's tie-break measures
(shown, never added) and one sentence saying who won and why, naming the
rulebook section of the tie-break when it decided.

The sheet is omniscient (it counts every hidden VP, Duke and objective): it
is for the end of the game, when every score is public. Front ends show it
once ``is_over`` and never before.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence


@dataclass(frozen=True)
class TieMeasure:
    """One tie-break of a rulebook, in the order it applies.

    ``name`` says what is compared as the sentence uses it after "more" or
    "fewer" (``"Silver"``, ``"Gold left"``); ``higher_wins`` is False when
    the lower value wins (Card Kingdoms: fewer cards in the tableau);
    ``phrase`` replaces "more <name>" / "fewer <name>" when given
    (``"a higher best Influence card"``); ``shown`` is False for a measure
    whose values mean nothing to read (an arrival order), left out of tables.
    """

    name: str
    higher_wins: bool = True
    phrase: str = ""
    shown: bool = True

    def wins_on(self) -> str:
        """The words after "wins on": ``"more Silver"``, ``"fewer cards in the tableau"``, or ``phrase``."""
        if self.phrase:
            return self.phrase
        return ("more " if self.higher_wins else "fewer ") + self.name


@dataclass(frozen=True)
class ScoreLine:
    """One seat's (or a solo opponent's) row of the sheet.

    ``name``: as the game names it (``"Player 2"``, ``"the Mischievous
    Cat"``); ``seat``: the seat, None for a solo opponent; ``points``: one
    int per category of the sheet (a penalty is negative); ``total``: the
    score, ``sum(points)``; ``ties``: the value of each tie measure (None
    where it does not apply); ``won``: True for a winner; ``contender``:
    False for a line that cannot win whatever it scores (Biblios Dice's
    Cadfael), left out of the winner's sentence.
    """

    name: str
    seat: int | None
    points: tuple[int, ...]
    total: int
    ties: tuple[Any, ...] = ()
    won: bool = False
    contender: bool = True

    def __post_init__(self) -> None:
        if sum(self.points) != self.total:
            raise ValueError(f"{self.name}'s categories add up to {sum(self.points)}, not to the total {self.total}")


@dataclass(frozen=True)
class ScoreSheet:
    """A finished game's score table (see the module docstring).

    ``categories``: the rulebook's scoring categories, in its order;
    ``lines``: seats in seat order, then any solo opponent; ``measures``: the
    rulebook's tie-breaks in order; ``outcome``: who won and why (the
    tie-break applied, with its rulebook section); ``source``: the rulebook
    section of the scoring, e.g. ``"rulebook: Scoring"``.
    """

    categories: tuple[str, ...]
    lines: tuple[ScoreLine, ...]
    outcome: str
    source: str
    measures: tuple[TieMeasure, ...] = field(default=())

    def __post_init__(self) -> None:
        for line in self.lines:
            if len(line.points) != len(self.categories):
                raise ValueError(f"{line.name} has {len(line.points)} category points for "
                                 f"{len(self.categories)} categories")

    def places(self) -> tuple[int, ...]:
        """Each seat's place, in seat order: 1 for a winner, shared places repeat ("1, 2, 2, 4").

        The order is the rulebook's: the lines that ``won`` first (the
        game's :attr:`GameState.winners`, which apply every tie-break and any
        instant win); then every other line by ``total``, higher first, and
        on equal totals by each tie measure in order (``higher_wins`` says
        which way; a measure a line has no value for (None) ranks it last on
        that measure). Lines equal on the total and every measure share a
        place; the next place skips as many as shared. A solo opponent's line
        (``seat`` None) takes a place too when it won or beats a seat (a solo
        game lost to the Cat gives the seat place 2), but only seats are
        returned. A line that cannot win (``contender`` False: Biblios Dice's
        Cadfael) takes no place. A seat that did not win is never 1st (Dice
        Kingdoms solo below 60 VP: place 2).
        """
        ranked = [ln for ln in self.lines if ln.contender]

        def key(line: ScoreLine) -> tuple[Any, ...]:
            measures = []
            for i, m in enumerate(self.measures):
                value = line.ties[i] if i < len(line.ties) else None
                measures.append((0, 0) if value is None else (1, value if m.higher_wins else -value))
            return (line.won, line.total, *measures)

        keys = [key(ln) for ln in ranked]
        out = []
        for ln in self.lines:
            if ln.seat is None:
                continue
            if not ln.contender:
                raise ValueError(f"{ln.name} is a seat that cannot win: a seat always takes a place")
            mine = key(ln)
            ahead = sum(1 for k in keys if (k[0] and not mine[0]) or (k[0] == mine[0] and not k[0] and k > mine))
            out.append(1 + (ahead if mine[0] else max(ahead, 1)))  # a seat that did not win is never 1st
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        """``{"categories", "measures": [{"name", "shown"}], "lines": [{"name", "seat", "points", "total", "ties", "won"}],
        "contender"}], "outcome", "source"}``: plain JSON types."""
        return {
            "categories": list(self.categories),
            "measures": [{"name": m.name, "shown": m.shown} for m in self.measures],
            "lines": [{"name": ln.name, "seat": ln.seat, "points": list(ln.points), "total": ln.total,
                       "ties": list(ln.ties), "won": ln.won, "contender": ln.contender} for ln in self.lines],
            "outcome": self.outcome,
            "source": self.source,
        }


def _joined(names: Sequence[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def outcome_text(lines: Sequence[ScoreLine], measures: Sequence[TieMeasure], tie_source: str) -> str:
    """See :func:`_outcome`; the sentence starts with a capital ("The Mischievous Cat wins with 85.")."""
    text = _outcome(lines, measures, tie_source)
    return text[:1].upper() + text[1:]


def _outcome(lines: Sequence[ScoreLine], measures: Sequence[TieMeasure], tie_source: str) -> str:
    """The sentence of who won and why, from ``lines`` whose ``won`` flags the rulebook's winners.

    Without a tie on the top total: "Player 2 wins with 31." With one, the
    first measure that separates the winners from the other tied lines is
    named: "Player 1 and Player 2 tied on 31; Player 2 wins on more Gold left
    (rulebook: Determining a Winner)."; when none does, the win is shared.
    ``tie_source`` is the rulebook section of the tie-break
    (``"rulebook: Ending the Game"``). Lines with no winner (a solo game
    lost to nobody) give "Nobody wins." Raises ValueError without lines.
    """
    lines = [ln for ln in lines if ln.contender]
    if not lines:
        raise ValueError("a score sheet needs at least one line that can win")
    winners = [ln for ln in lines if ln.won]
    top = max(ln.total for ln in lines)
    tied = [ln for ln in lines if ln.total == top]
    if not winners:
        return "Nobody wins."
    names = _joined([ln.name for ln in winners])  # noqa: the winners' names
    if len(tied) == 1:
        verb = "wins" if len(winners) == 1 else "win"
        return f"{names} {verb} with {top}."
    tied_names = _joined([ln.name for ln in tied])
    losers = [ln for ln in tied if not ln.won]
    if not losers:
        return (f"{tied_names} tied on {top}"
                + (f" and on every tie-break ({', '.join(m.name for m in measures)})" if measures else "")
                + f": they share the victory ({tie_source}).")
    # the first measure on which the winners beat every tied loser still in the running
    alive = list(tied)
    for i, m in enumerate(measures):
        values = [ln.ties[i] if i < len(ln.ties) else None for ln in alive]
        known = [v for v in values if v is not None]
        if not known:
            continue
        best = max(known) if m.higher_wins else min(known)
        alive = [ln for ln, v in zip(alive, values) if v == best]
        if all(ln.won for ln in alive):
            verb = "wins" if len(winners) == 1 else "share the win"
            return f"{tied_names} tied on {top}; {names} {verb} on {m.wins_on()} ({tie_source})."
    return f"{tied_names} tied on {top}; the tie-break gives the win to {names} ({tie_source})."


def places(state: Any) -> tuple[int, ...]:
    """Each seat's place at the end of ``state``'s game (a finished :class:`GameState`), in seat order.

    ``state.score_sheet().places()`` (see :meth:`ScoreSheet.places`): winners
    1, the others after them by the rulebook's score and tie-breaks, shared
    places where nothing separates them. Like the sheet it is omniscient: call it once
    ``state.is_over`` (before, nobody has won yet, so nobody is placed 1st).
    """
    sheet: ScoreSheet = state.score_sheet()
    return sheet.places()


def simple_sheet(names: Sequence[str], scores: Sequence[Any], winners: Sequence[int]) -> ScoreSheet:
    """A one-category sheet ("Score") for a game without its own: each seat's score as its total."""
    lines = tuple(ScoreLine(names[s], s, (int(v),), int(v), (), s in winners) for s, v in enumerate(scores))
    return ScoreSheet(("Score",), lines, outcome_text(lines, (), "rulebook"), "rulebook")


__all__ = ["ScoreLine", "ScoreSheet", "TieMeasure", "outcome_text", "places", "simple_sheet"]
