"""One package per game; each defines ``SPEC`` (see dicetable.engine.registry).

The registry imports these packages on first use (``dicetable.list_games()``,
``new_game``...). This package object is callable only for the deprecated
``dicetable.games()``, which once was the registry function of that name and
now warns (DeprecationWarning) and returns ``dicetable.list_games()``.
"""

import sys as _sys
import types as _types
import warnings as _warnings


class _GamesPackage(_types.ModuleType):
    """The ``dicetable.games`` package, callable as the deprecated ``dicetable.games()``."""

    def __call__(self):
        _warnings.warn("dicetable.games() is deprecated; use dicetable.list_games()",
                       DeprecationWarning, stacklevel=2)
        from dicetable.engine.registry import list_games

        return list_games()


_sys.modules[__name__].__class__ = _GamesPackage
