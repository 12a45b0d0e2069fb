"""Counted nouns for labels, prompts and log lines: "1 die", "2 dice", "1 Gold".

Every game writes counts into sentences; one helper keeps "1 dice" and
"2 card" out of all of them::

    >>> counted(1, "die")
    '1 die'
    >>> counted(3, "die")
    '3 dice'
    >>> counted(1, "Ink die")
    '1 Ink die'
    >>> counted(2, "re-roll")
    '2 re-rolls'
    >>> counted(2, "Gold")
    '2 Gold'
    >>> plural_of("Victory Point")
    'Victory Points'
    >>> counted(0, "pip")
    '0 pips'
    >>> counted(1, "space", word_only=True)
    'space'

A decision shown to someone other than the seat asked (a replay, a
spectator) is put as the question that seat was asked, quoted: the games
write their prompts to the deciding player ("You won the auction..."),
which is right for that player and wrong for anyone else
(``asked_of(asked_now(state))`` for a state)::

    >>> asked_of([(0, "You won the auction: choose a group of dice.")])
    'Player 1 is asked: “You won the auction: choose a group of dice.”'
    >>> asked_of([(0, "Keep one of your two Dukes."), (1, "Keep one of your two Dukes.")])
    'Player 1 and Player 2 are asked: “Keep one of your two Dukes.”'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from .core import seat_name

if TYPE_CHECKING:
    from .state import GameState

#: Nouns whose plural is not the singular plus "s" (the last word of a phrase is looked up).
IRREGULAR: Final[dict[str, str]] = {
    "die": "dice",
    "Die": "Dice",
    "mouse": "mice",
    "man": "men",
    "Man": "Men",
}

#: Words the rulebooks use as mass nouns or units: the same for one or many ("2 Gold", "1 VP").
UNCOUNTED: Final[frozenset[str]] = frozenset({
    "Gold", "Silver", "Magic", "Strength", "VP", "VPs", "Ink", "Bishop", "Wisdom", "Influence",
})


def plural_of(noun: str) -> str:
    """The plural of ``noun``, a word or a phrase whose last word is counted ("Ink die" -> "Ink dice").

    Irregular nouns (:data:`IRREGULAR`) and mass nouns (:data:`UNCOUNTED`)
    are known; otherwise English's regular rules: "-s", "-x", "-ch",
    "-sh" take "es", a consonant + "y" takes "ies", everything else "s".
    """
    head, _, last = noun.rpartition(" ")
    prefix = f"{head} " if head else ""
    if last in IRREGULAR:
        return prefix + IRREGULAR[last]
    if last in UNCOUNTED or not last:
        return noun
    low = last.lower()
    if low.endswith(("s", "x", "ch", "sh")):
        return f"{noun}es"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return f"{noun[:-1]}ies"
    return f"{noun}s"


def counted(n: int, noun: str, plural: str | None = None, *, word_only: bool = False) -> str:
    """``n`` and ``noun`` agreeing in number: "1 die", "0 dice", "4 dice".

    ``plural`` overrides the plural form when :func:`plural_of` would get it
    wrong; ``word_only`` returns the noun alone, in the form ``n`` asks for
    ("a row of 3 " + counted(3, "die", word_only=True)). Only 1 and -1 take
    the singular (English counts 0 and fractions as plural).
    """
    word = noun if n in (1, -1) else (plural if plural is not None else plural_of(noun))
    return word if word_only else f"{n} {word}"


def names_text(seats: Sequence[int]) -> str:
    """The seats' names as a sentence lists them: "Player 1", "Player 1 and Player 2",
    "Player 1, Player 2 and Player 3" ("" for no seat)."""
    names = [seat_name(s) for s in seats]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}" if names else ""


def asked_now(state: GameState) -> list[tuple[int, str | None]]:
    """``(seat, Decision.prompt)`` for every seat to move, in ``state.to_move``'s order (None for a
    seat with no Decision): what :func:`asked_of` words for a reader who is not that seat."""
    asked: list[tuple[int, str | None]] = []
    for seat in state.to_move:
        decision = state.decision(seat)
        asked.append((seat, decision.prompt if decision is not None else None))
    return asked


def asked_of(asked: Sequence[tuple[int, str | None]]) -> str:
    """What the seats to move are asked, worded for someone who is not one of them (a replay's reader).

    ``asked`` holds one ``(seat, prompt)`` pair per seat to move, in the
    order of ``GameState.to_move``: the prompt is the seat's
    ``Decision.prompt`` as the game writes it, to that seat ("You won the
    auction: choose a group of dice."), or None when the seat has no
    Decision. The prompt is quoted, never rewritten:

    - one seat: 'Player 1 is asked: “You won the auction: choose a group of dice.”';
    - several seats asked the same: 'Player 1 and Player 2 are asked: “…”';
    - several seats asked differently (each its own bid and Gold): 'Player 1 and
      Player 2 must decide; Player 1 is asked: “…”' (the first seat's question);
    - no prompt: 'Player 1 must decide' (the live table's words for a seat not the viewer's).

    Returns "" for no seat. The seat's own view keeps its prompt as it is
    ("Player 1: You won the auction..." at a live table): this is for everyone else.
    """
    if not asked:
        return ""
    seats = [seat for seat, _ in asked]
    first = asked[0][1]
    if not first:
        return f"{names_text(seats)} must decide"
    if len(asked) == 1:
        return f"{seat_name(seats[0])} is asked: “{first}”"
    if all(prompt == first for _, prompt in asked):
        return f"{names_text(seats)} are asked: “{first}”"
    return f"{names_text(seats)} must decide; {seat_name(seats[0])} is asked: “{first}”"
