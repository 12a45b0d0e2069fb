"""Errors raised by the engine kernel.

Every error is a :class:`ValueError` so callers that validate user input can
catch one type; each message names what was wrong and what is allowed.
"""

from __future__ import annotations


class DicetableError(ValueError):
    """Base class of every error the engine raises on bad input."""


class IllegalActionError(DicetableError):
    """An action was refused; the state it was offered to is unchanged.

    Raised by :meth:`dicetable.engine.GameState.apply` when the seat may not
    act now or the action is not among ``legal_actions(seat)``. The message
    says what was refused and lists what is allowed instead.
    """


class SeatError(IllegalActionError):
    """A ``seat`` argument is not a seat of this game.

    Raised by every State method that takes a seat (``apply``, ``decision``,
    ``legal_actions``, ``observation``, ``log_for``, ``visible_scores``,
    ``determinize``) when the seat is not an ``int`` in ``0..players-1``
    (a bool, a float, a string or a list is refused, never read as a
    number), or is ``None`` where no spectator is meant. It is a
    :class:`IllegalActionError`, hence a ``ValueError``: one ``except
    ValueError`` covers every bad input to the engine. The message names the
    seat given and the seats allowed.
    """


class GameConfigError(DicetableError):
    """``new_game`` was given an unknown game, a bad player count or a bad option."""


class SaveFormatError(DicetableError):
    """A saved game or replay could not be read (missing field, wrong game, bad value)."""


class ScriptedDiceError(DicetableError):
    """A scripted die value (the ``dice=`` hook) is not a face of the die being rolled."""
