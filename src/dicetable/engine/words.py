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
"""

from __future__ import annotations

from typing import Final

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
    "Gold", "Silver", "Magic", "Strength", "VP", "VPs", "Ink", "Quills", "Scrolls", "Pigments",
    "Manuscripts", "Bishop", "Wisdom", "Influence",
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
