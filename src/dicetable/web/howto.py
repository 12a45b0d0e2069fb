"""The "how to play" cards and the bot levels the lobby explains.

Each game ships ``data/howto.toml`` (beside its rules help): ``goal`` (one
sentence), ``turn`` (a turn in one to five lines), ``end`` (how the game ends
and who wins), ``source`` (the rulebook sections it comes from, ``rulebook:
...``) and optionally ``solo`` and ``two_players`` (a line on those set-ups).
:func:`card` reads a game's file once and checks it, raising
:class:`HowToError` (a :class:`dicetable.engine.DicetableError`) naming the
file and what is wrong: a missing or unknown key, a line that is empty,
longer than :data:`MAX_LINE` characters or broken over several lines, more
than five turn lines, a source that does not cite the rulebook.

:data:`BOT_LEVELS` says what each bot level the server offers does and how
strong it is, from docs/bots.md (its levels table and the ladder of
2026-12-02: 100 games a row at 2 players).
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from typing import Any, Iterable

from dicetable.engine import DicetableError

from .gamefiles import game_file

#: Longest line of a card, in characters.
MAX_LINE = 240
#: Lines a turn may take at most.
MAX_TURN = 5
REQUIRED = ("goal", "turn", "end", "source")
OPTIONAL = ("solo", "two_players")

#: What each bot level does and how strong it is (docs/bots.md: "Levels" and the ladder of 2026-12-02).
BOT_LEVELS: dict[str, dict[str, str]] = {
    "random": {"what": "picks any legal move at random",
               "strength": "no plan at all: good for trying out the buttons"},
    "greedy": {"what": "looks one step ahead with the game's own scoring of a position",
               "strength": "a steady beginner; the hard bot beats it in 64-89% of two-player games"},
    "easy": {"what": "a short search (25 tries, at most 0.25 s a decision) that plays a random choice "
                     "in 40% of its decisions",
             "strength": "for learning a game: the medium bot wins 74-100% of two-player games against it"},
    "medium": {"what": "a search of 80 tries (at most 0.5 s a decision), no deliberate mistakes",
               "strength": "a fair opponent for someone who knows the rules"},
    "hard": {"what": "a search of 250 tries (at most 0.9 s a decision, 2.7 s a turn); plans whole turns "
                     "where the game allows",
             "strength": "the strongest quick bot: beats greedy in 64-89% of two-player games"},
    "expert": {"what": "a search of 3,000 tries (up to 6 s a decision, 20 s a turn)",
               "strength": "the most thorough, and the slowest to move"},
}


class HowToError(DicetableError):
    """A game's ``data/howto.toml`` is missing or malformed (the message names the file and the problem)."""


def _line(where: str, key: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise HowToError(f"{where}: {key!r} must be a sentence of text, got {value!r}")
    if "\n" in value.strip() or len(value) > MAX_LINE:
        raise HowToError(f"{where}: {key!r} must be one line of at most {MAX_LINE} characters "
                         f"(it has {len(value)})")
    return value.strip()


def check(data: dict[str, Any], where: str) -> dict[str, Any]:
    """The card of a parsed ``howto.toml`` (``where`` names it in errors); HowToError when it is malformed."""
    unknown = sorted(set(data) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise HowToError(f"{where}: unknown keys {unknown}; allowed: {', '.join(REQUIRED + OPTIONAL)}")
    missing = [k for k in REQUIRED if k not in data]
    if missing:
        raise HowToError(f"{where}: missing {', '.join(missing)}")
    turn = data["turn"]
    if not isinstance(turn, list) or not 1 <= len(turn) <= MAX_TURN:
        raise HowToError(f"{where}: 'turn' must list 1 to {MAX_TURN} lines, got "
                         f"{len(turn) if isinstance(turn, list) else type(turn).__name__}")
    out: dict[str, Any] = {k: _line(where, k, data[k]) for k in ("goal", "end", "source") + OPTIONAL if k in data}
    if not out["source"].startswith("rulebook:"):
        raise HowToError(f"{where}: 'source' must cite the rulebook ('rulebook: <sections>')")
    out["turn"] = [_line(where, f"turn[{i}]", line) for i, line in enumerate(turn)]
    return out


@lru_cache(maxsize=None)
def _card(game_id: str) -> dict[str, Any]:
    raw = game_file(game_id, "data", "howto.toml")
    where = f"{game_id}: data/howto.toml"
    if raw is None:
        raise HowToError(f"{where} is missing (or {game_id!r} is not a game)")
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise HowToError(f"{where} is not valid TOML: {exc}") from None
    return check(data, where)


def card(game_id: str) -> dict[str, Any]:
    """The "how to play" card of ``game_id`` (a copy): ``{"goal", "turn", "end", "source"}`` plus
    ``solo`` / ``two_players`` when the game has them. HowToError when the file is missing or malformed."""
    found = _card(game_id)
    return {**found, "turn": list(found["turn"])}


def cards(game_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The cards of those of ``game_ids`` that ship one (``{game id: card}``, in the given order).

    A registered game without a ``data/howto.toml`` (e.g. a toy game a test registers) is left out;
    a malformed card still raises HowToError.
    """
    return {g: card(g) for g in game_ids if game_file(g, "data", "howto.toml") is not None}
