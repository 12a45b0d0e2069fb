"""Optional dependencies (the extras of pyproject.toml) imported with a clear error.

A base install (``pip install dicetable``) has what the games, the terminal and the server
need. Some parts need more: the balance report matplotlib (extra ``report``), the Ray
backend of ``simulate`` Ray (``ray``), ``train-eval`` and the research interfaces
(``dicetable.rl``) numpy, gymnasium, pettingzoo and open_spiel (``rl``). Those parts import
such modules with :func:`require`, never at the top of a module the base install loads, so a
missing extra is reported only when the part that needs it is used, and as a
:class:`MissingExtra` naming the extra to install, not as a bare ModuleNotFoundError. The
command line prints its message as one line (``cli/app.py``, ``guarded``).
"""

from __future__ import annotations

import importlib
import types

__all__ = ["MissingExtra", "require"]


class MissingExtra(ImportError):
    """An optional dependency is not installed (or fails to import).

    ``extra`` is the pyproject extra that brings it; the message ends with the pip command
    that installs it (``pip install 'dicetable[<extra>]'``). An ImportError, so code that
    already catches ImportError keeps working.
    """

    def __init__(self, message: str, *, module: str, extra: str) -> None:
        super().__init__(message, name=module)
        self.extra = extra


def require(module: str, extra: str, purpose: str) -> types.ModuleType:
    """Import ``module`` (a dotted name, e.g. ``"gymnasium.spaces"``) and return it.

    ``extra`` is the pyproject extra that installs it (``"rl"``, ``"report"``, ``"ray"``);
    ``purpose`` names, as the subject of "needs", what wants it (e.g. ``"the balance
    report"``). Raises :class:`MissingExtra` when it is not installed, e.g. "the balance
    report needs matplotlib (the 'report' extra), which is not installed: pip install
    'dicetable[report]'", or when it is installed but fails to import (the cause chained).
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        missing = exc.name or ""
        absent = isinstance(exc, ModuleNotFoundError) and (
            missing == module or module.startswith(missing + ".") or not missing)
        how = f"pip install 'dicetable[{extra}]' (from a source checkout: pip install -e '.[{extra}]')"
        if absent:
            message = f"{purpose} needs {module} (the '{extra}' extra), which is not installed: {how}"
        else:
            message = (f"{purpose} needs {module} (the '{extra}' extra), which is installed but "
                       f"failed to import ({exc}); reinstall it: {how}")
        raise MissingExtra(message, module=module, extra=extra) from exc
