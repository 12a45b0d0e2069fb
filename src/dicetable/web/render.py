"""Server-side pieces of the browser table that need the engine: boards, rules help, the hand-over rule.

Everything here is drawn from an observation (``state.observation(seat)``,
seat None = spectator) and public game data, never from a state's internals,
so nothing a seat may not see can reach its page (docs/views.md). Replays: :mod:`.stepper`.
"""

from __future__ import annotations

from typing import Any

from dicetable.engine import get_game
from dicetable.engine.markup import as_parts, assemble


def board_parts(game_id: str, obs: dict, actions: list[dict], seat: int | None) -> dict[str, str] | None:
    """The board of ``game_id`` as keyed parts ``{part id: html}`` (root ``"board"``); None without a ``board_view``.

    ``actions`` are ``[{"id", "label"}]`` (the seat's legal actions, [] when
    not to move). A board view that answers one string gives the single part
    ``"board"`` (see :mod:`dicetable.engine.markup`). Raises GameConfigError
    for an unknown game; a board_view that fails on the given observation
    raises ValueError naming the game.
    """
    spec = get_game(game_id)
    if spec.board_view is None:
        return None
    try:
        return as_parts(spec.board_view(obs, actions, seat))
    except Exception as exc:  # a board drawn from a malformed observation sent by a client
        raise ValueError(f"the {spec.name} board cannot be drawn from this observation "
                         f"({type(exc).__name__})") from None


def board_html(game_id: str, obs: dict, actions: list[dict], seat: int | None) -> str | None:
    """The board fragment of ``game_id``: :func:`board_parts` assembled into one HTML string; None without a board.

    Raises as :func:`board_parts` does.
    """
    parts = board_parts(game_id, obs, actions, seat)
    return None if parts is None else assemble(parts)


def board_or_none(game_id: str, obs: dict) -> str | None:
    """The spectator's board of ``game_id`` drawn from ``obs`` (:func:`board_html`); None without a board
    or when the board cannot be drawn from it."""
    try:
        return board_html(game_id, obs, [], None)
    except ValueError:
        return None


def help_for(game_id: str, kind: str | None) -> list[dict]:
    """The rules sections of ``game_id`` behind a Decision of ``kind``: ``[{"id", "title", "text", "source"}]``."""
    spec = get_game(game_id)
    sections = spec.help.for_decision(kind) if kind else []
    return [{"id": s.id, "title": s.title, "text": s.text, "source": s.source} for s in sections]


def components_of(game_id: str, players: int | None = None, options: dict | None = None) -> dict:
    """A game's rules help: ``{"score": str, "sections": [...], "components": [{"id", "name", "text", "source"}]}``.

    With ``players``, only what applies to a table of that many players with
    ``options`` (the table's resolved options; None: the game's defaults):
    :meth:`GameHelp.for_table`. DicetableError for an unknown game or a bad
    player count or option.
    """
    spec = get_game(game_id)
    help_ = spec.help
    if players is not None:
        help_ = help_.for_table(players, options if options is not None else spec.resolve_options(players, None))
    return {
        "score": help_.score,
        "sections": [{"id": s.id, "title": s.title, "text": s.text, "source": s.source,
                      "decisions": list(s.decisions)} for s in help_.section],
        "components": [{"id": c.id, "name": c.name, "text": c.text, "source": c.source}
                       for c in help_.component],
    }


def has_secrets(seat_obs: Any, other_obs: Any) -> bool:
    """True when observation ``seat_obs`` shows, in a field ``other_obs`` also has, something different.

    The top-level ``seat`` field is ignored, and so are fields only
    ``seat_obs`` has (a seat's own conveniences such as Dice Kingdoms'
    ``my_tasks``): a game hides a seat's secret from others by a placeholder
    in the shared structure (Biblios Dice's Gold and face-down card, Card
    Kingdoms' Duke), so a secret shows as a difference there. The page's JS
    has the same function (``hasSecrets``).
    """
    if not isinstance(seat_obs, dict) or not isinstance(other_obs, dict):
        return seat_obs != other_obs
    return any(key != "seat" and key in seat_obs and seat_obs[key] != value
               for key, value in other_obs.items())


def needs_hand_over(next_obs: Any, spectator_obs: Any, current_obs: Any) -> bool:
    """The hot-seat rule (docs/web.md): show a hand-over screen before the next seat's table?

    Yes when the next seat's observation shows something a spectator's does
    not (it has secrets) and the seat now at the screen does not see it
    either; no when nothing is hidden (every observation alike but for the
    ``seat`` field). The page applies the same rule in JS.
    """
    return has_secrets(next_obs, spectator_obs) and has_secrets(next_obs, current_obs)
