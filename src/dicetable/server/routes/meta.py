"""The server itself: ``GET /api/health`` and ``GET /api/games`` (the registry and the bot levels)."""

from __future__ import annotations

from fastapi import APIRouter, Request

from dicetable import engine

from ..banks import PRESETS
from ..bots import LEVELS
from .common import READ, errors

router = APIRouter()


def games() -> list[dict]:
    """Every registered game as ``GET /api/games`` lists it: id, name, summary, player range, options, board.

    An option's ``choices`` are its allowed values (None: any); ``choices_by_players`` (None for most
    options) gives them per player count, ``{"2": [...], ...}``, for an option such as ``first_player``
    whose values depend on the count."""
    out = []
    for spec in engine.list_games():
        out.append({
            "id": spec.id, "name": spec.name, "summary": spec.summary,
            "min_players": spec.min_players, "max_players": spec.max_players,
            "options": [{"name": o.name, "default": o.default, "description": o.description,
                         "label": o.label or o.name.replace("_", " "), "explanation": o.explanation,
                         "source": o.source,
                         "choices": list(o.choices) if o.choices is not None else None,
                         # an option whose values depend on the player count (a first player): {count: values}
                         "choices_by_players": {str(n): list(o.allowed(n))
                                                for n in range(spec.min_players, spec.max_players + 1)}
                         if o.choices_for is not None else None,
                         "type": {bool: "bool", int: "int"}.get(o.type, "str"),
                         "players": list(o.players) if o.players is not None else None}
                        for o in spec.options],
            "has_board": spec.board_view is not None,
        })
    return out


@router.get("/api/health", responses=errors(READ))
async def health(request: Request) -> dict:
    """Liveness: ``{"ok": true, "database": dialect}``."""
    return {"ok": True, "database": request.app.state.store.engine.dialect.name}


@router.get("/api/games", responses=errors(READ))
def list_games() -> dict:
    """The registry: every game's id, name, player range and options; the bot levels; the clock presets
    (each a name and the create body's fields it stands for: ``bank`` + ``increment`` [+ ``bank_max``],
    or ``clock``)."""
    # "mcts" is accepted as another name of "medium"; offering both would show one bot twice.
    return {"games": games(), "bot_levels": [level for level in LEVELS if level != "mcts"],
            "clock_presets": [dict(preset) for preset in PRESETS]}
