"""Files a game package ships beside its code (``games/<pkg>/static/board.css``, ``games/<pkg>/data/howto.toml``)."""

from __future__ import annotations

from importlib import resources

from dicetable.engine import list_games


def game_file(game_id: str, *parts: str) -> bytes | None:
    """The bytes of ``<game package>/<parts...>`` for a registered game id; None for an unknown game or no file.

    The game's package is the nearest package above its state class's module
    that has the file (the state class may live in a ``rules`` subpackage).
    """
    spec = next((g for g in list_games() if g.id == game_id), None)
    if spec is None:
        return None
    names = spec.state_class.__module__.split(".")
    while len(names) > 1:
        names.pop()
        try:
            ref = resources.files(".".join(names)).joinpath(*parts)
            if ref.is_file():
                return ref.read_bytes()
        except (ModuleNotFoundError, OSError, TypeError):
            return None
    return None
