"""Which build runs: the compiled one (mypyc C extensions) or the pure Python one.

An install made with a C compiler present holds, next to each compiled module's
``.py`` source, a C extension built by mypyc (see ``setup.py`` and
docs/compiled.md); Python imports the extension first. Two things here:

* :func:`build_kind` says which one this process runs (``dicetable --version``
  and ``dicetable bench`` print it);
* the environment variable ``DICETABLE_BUILD=pure`` makes a process of a
  compiled install import every ``dicetable`` module from its ``.py`` source
  instead, so the two builds can run side by side from one install (the
  benchmark and the equivalence test do). It is read once, when
  :mod:`dicetable` is first imported; any other value (or none) changes nothing.

This module is never compiled itself.
"""

from __future__ import annotations

import os
import sys
from importlib.abc import MetaPathFinder
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from importlib.util import spec_from_file_location
from typing import Sequence

PURE_ENV = "DICETABLE_BUILD"
"""Environment variable: ``pure`` runs the ``.py`` sources of a compiled install."""


def build_kind() -> str:
    """Which build of the engine runs in this process: ``"compiled"`` or ``"pure"``.

    ``"compiled"`` when the engine kernel (:mod:`dicetable.engine.state`) was
    loaded from a C extension built by mypyc at install time, ``"pure"`` when
    it runs from its Python source (no C compiler at install time,
    ``DICETABLE_COMPILE=0``, an editable install, or ``DICETABLE_BUILD=pure``).
    Decided from the module actually imported, so it is right whatever was
    installed where.
    """
    from dicetable.engine import state

    origin = state.__file__ or ""
    return "compiled" if origin.endswith(tuple(EXTENSION_SUFFIXES)) else "pure"


def compiled_available() -> bool:
    """True when the installed engine kernel has a compiled C extension next to its source
    (whether or not this process uses it)."""
    import dicetable.engine

    folder = os.path.dirname(dicetable.engine.__file__ or "")
    return any(os.path.isfile(os.path.join(folder, "state" + suffix)) for suffix in EXTENSION_SUFFIXES)


def editable_install() -> bool:
    """True when the installed ``dicetable`` distribution is an editable one (``pip install -e .``,
    ``make dev``), as its PEP 610 ``direct_url.json`` records; False for a regular install, or when
    no installed distribution or record is found (a source tree on ``PYTHONPATH`` alone)."""
    import json
    from importlib import metadata

    try:
        text = metadata.distribution("dicetable").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return False
    try:
        record = json.loads(text or "{}")
        return bool(record.get("dir_info", {}).get("editable"))
    except (ValueError, AttributeError):
        return False


def why_pure_only() -> str:
    """One sentence saying why only the pure build is there (``dicetable bench`` prints it when
    :func:`compiled_available` is False): an editable install runs the pure sources by design; a
    regular install built no extension (no working C compiler then, or ``DICETABLE_COMPILE=0``)."""
    if editable_install():
        return ("This is the editable development install (pip install -e, make dev), which runs the pure "
                "sources: nothing to compare. `pip install .` (or make run's install) builds the compiled one "
                "where a C compiler works.")
    return ("Only the pure build is installed (no extension was built at install time: no working C compiler "
            "then, or DICETABLE_COMPILE=0): nothing to compare. `pip install .` with a C compiler builds the "
            "compiled one.")


class _SourceFirst(MetaPathFinder):
    """Finds ``dicetable.*`` modules as ``.py`` sources, ignoring compiled extensions beside them."""

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: object = None) -> ModuleSpec | None:
        """The spec of ``fullname``'s source file or package, or None to let the usual finders look."""
        if not fullname.startswith("dicetable.") or not path:
            return None
        leaf = fullname.rpartition(".")[2]
        for entry in path:
            folder = os.path.join(entry, leaf)
            init = os.path.join(folder, "__init__.py")
            if os.path.isfile(init):
                return spec_from_file_location(fullname, init, submodule_search_locations=[folder])
            if os.path.isfile(folder + ".py"):
                return spec_from_file_location(fullname, folder + ".py")
        return None


def use_pure_sources() -> None:
    """Import every ``dicetable`` module not yet imported from its ``.py`` source (idempotent)."""
    if not any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirst())


if os.environ.get(PURE_ENV, "").strip().lower() == "pure":
    use_pure_sources()
