"""The ``rl`` extra's modules, checked before the research interfaces import them.

Every module of :mod:`dicetable.rl` (the package first) calls :func:`require_rl` with the
third-party modules it imports, so that without the extra the import fails with
:class:`~dicetable.extras.MissingExtra` naming ``rl`` and how to install it, never with a
bare ModuleNotFoundError. A leaf module: the package's own ``__init__`` imports the others.
"""

from __future__ import annotations

from dicetable.extras import require

PURPOSE = "dicetable.rl (the reinforcement-learning environments)"


def require_rl(*modules: str) -> None:
    """Import each of ``modules`` (e.g. ``"numpy"``, ``"pyspiel"``) or raise MissingExtra naming ``rl``."""
    for module in modules:
        require(module, "rl", PURPOSE)
