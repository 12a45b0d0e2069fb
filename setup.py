"""Build hook: compile the engine and the games' rules with mypyc when a C compiler is present.

Everything else about the package is declared in pyproject.toml; this file only
adds the C extensions. The modules compiled are the one list ``COMPILED``
below (dotted module names; a package's name means its ``__init__``; a name ending in ``.*`` means every module of
that package). The web, CLI, server and research layers and the games' text and
board views stay pure Python: they are not on the hot path of a playout.

``DICETABLE_COMPILE`` chooses:

``0``        always the pure build (no compiler asked for);
``1``        the compiled build, or a loud failure when compiling fails;
unset/auto   compiled when mypyc and a working C compiler are present, the pure
             build otherwise (a warning says why). An editable install
             (``pip install -e .``) is pure unless ``DICETABLE_COMPILE=1``: its
             point is that an edited ``.py`` file takes effect at once, which a
             compiled module next to it would hide.

mypyc writes one C file per module and :class:`BuildExt` compiles them side by side, one compiler
process per core this process may use (docs/compiled.md, "Installing": a third of the time of one
large file, and the same speed).

At run time :func:`dicetable.build_kind` says which build is running.
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
SRC = ROOT / "src"

#: The modules compiled by mypyc (the hot path of a playout): the engine kernel and, per game,
#: its rules, components and policies. A title joins the compiled build by adding its lines here.
COMPILED: list[str] = [
    # the engine package itself: its imports give compiled code the modules its re-exported names live in
    "dicetable.engine",
    "dicetable.engine.core",
    "dicetable.engine.effects",
    "dicetable.engine.errors",
    "dicetable.engine.eventlog",
    "dicetable.engine.flow",
    "dicetable.engine.rng",
    "dicetable.engine.scoresheet",
    "dicetable.engine.state",
    "dicetable.engine.words",
    "dicetable.engine.batchstep",
    "dicetable.engine.playout",
    "dicetable.games.kingdom_of_dice.consts",
    "dicetable.games.kingdom_of_dice.rules",
    "dicetable.games.kingdom_of_dice.rolls",
    "dicetable.games.kingdom_of_dice.solo_round",
    "dicetable.games.kingdom_of_dice.policy",
    "dicetable.games.corsairs_of_valeria.rules.*",
    "dicetable.games.corsairs_of_valeria.policy",
    "dicetable.games.corsairs_of_valeria.planner",
    "dicetable.games.biblios_dice.rules.*",
    "dicetable.games.biblios_dice.policy",
    "dicetable.games.biblios_dice.keys",  # the board keys the rules' effects name, built at every event
    "dicetable.games.dice_kingdoms_of_valeria.sheet",
    "dicetable.games.dice_kingdoms_of_valeria.layout",
    "dicetable.games.dice_kingdoms_of_valeria.rules.*",
    "dicetable.games.dice_kingdoms_of_valeria.policy",
    "dicetable.games.valeria_card_kingdoms.rules.*",
    "dicetable.games.valeria_card_kingdoms.policy",
    # the search (its tree and rollouts) and its learned leaf value (a dot product per seat and leaf)
    "dicetable.bots.mcts",
    "dicetable.bots.value",
    # the research observation fills (each game's direct encoding: no numpy in them)
    "dicetable.games.kingdom_of_dice.encoding",
    "dicetable.games.corsairs_of_valeria.encoding",
    "dicetable.games.biblios_dice.encoding",
    "dicetable.games.dice_kingdoms_of_valeria.encoding",
    "dicetable.games.valeria_card_kingdoms.encoding",
]


def module_paths(names: list[str]) -> list[str]:
    """The source files of ``names`` (see ``COMPILED``), relative to this folder; raises ValueError for a missing one."""
    paths: list[str] = []
    for name in names:
        if name.endswith(".*"):
            folder = SRC / name[:-2].replace(".", "/")
            found = sorted(p for p in folder.glob("*.py"))
            if not found:
                raise ValueError(f"{name}: no modules in {folder}")
            paths += [str(p.relative_to(ROOT)) for p in found]
        else:
            path = SRC / (name.replace(".", "/") + ".py")
            if not path.is_file():  # a package: its __init__
                path = SRC / name.replace(".", "/") / "__init__.py"
            if not path.is_file():
                raise ValueError(f"{name}: no file {path}")
            paths.append(str(path.relative_to(ROOT)))
    return paths


def _mode() -> str:
    """``pure``, ``compiled`` or ``auto``, from DICETABLE_COMPILE and the kind of install."""
    value = os.environ.get("DICETABLE_COMPILE", "").strip().lower()
    if value in ("0", "no", "false", "pure"):
        return "pure"
    if value in ("1", "yes", "true", "compiled"):
        return "compiled"
    if value not in ("", "auto"):
        raise SystemExit(f"DICETABLE_COMPILE={value!r}: use 0 (pure), 1 (compiled, fail loudly) or leave it unset (auto)")
    if "editable_wheel" in sys.argv or "develop" in sys.argv:
        return "pure"
    return "auto"


def _compiler_works() -> str | None:
    """None when a C compiler builds a trivial extension source, else the reason it does not."""
    import tempfile
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler

    compiler = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "probe.c"
        probe.write_text("int dicetable_probe(void) { return 0; }\n")
        try:
            compiler.compile([str(probe)], output_dir=tmp)
        except Exception as exc:  # any compiler failure means: no usable C compiler
            return f"no working C compiler ({exc})"
    return None


def _extensions(mode: str) -> list:
    """The mypyc extension modules for ``mode``; [] for the pure build."""
    if mode == "pure":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as exc:
        if mode == "compiled":
            raise SystemExit(f"DICETABLE_COMPILE=1 but mypyc cannot be imported: {exc}") from exc
        print(f"dicetable: building the pure Python version (mypyc is missing: {exc})", file=sys.stderr)
        return []
    problem = _compiler_works()
    if problem:
        if mode == "compiled":
            raise SystemExit(f"DICETABLE_COMPILE=1 but {problem}")
        print(f"dicetable: building the pure Python version ({problem})", file=sys.stderr)
        return []
    os.chdir(ROOT)  # mypyc writes its C sources under ./build and names modules from the paths
    try:
        # pyproject's mypy overrides name modules outside this list: not an error here
        paths = module_paths(COMPILED)
        return mypycify(["--no-warn-unused-configs", *paths], only_compile_paths=paths,
                        opt_level="3", debug_level="0", group_name="dicetable_compiled",
                        multi_file=True)
    except BaseException as exc:  # a type error stops mypyc with SystemExit
        if mode == "compiled":
            raise
        print(f"dicetable: building the pure Python version (mypyc failed: {exc})", file=sys.stderr)
        return []


class BuildExt(build_ext):
    """``build_ext`` that compiles an extension's C files side by side (one compiler process per core)
    and falls back to the pure build in auto mode when a C file fails to compile."""

    def build_extension(self, ext) -> None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        jobs = min(len(ext.sources), cores)
        if jobs < 2:
            super().build_extension(ext)
            return
        compile_one = self.compiler.compile

        def compile_all(sources, *args, **kwargs):
            # the largest files first, so that no long compile starts last; objects in the sources' order
            order = sorted(sources, key=lambda s: -os.path.getsize(s) if os.path.exists(s) else 0)
            with ThreadPoolExecutor(jobs) as pool:
                done = dict(zip(order, pool.map(lambda s: compile_one([s], *args, **kwargs), order)))
            return [obj for source in sources for obj in done[source]]

        self.compiler.compile = compile_all
        try:
            super().build_extension(ext)
        finally:
            del self.compiler.compile  # the compiler's own method again

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # compiler errors come as several distutils error classes
            if _mode() != "auto":
                raise
            print(f"dicetable: building the pure Python version (compiling failed: {exc})", file=sys.stderr)
            self.extensions = []
            self.distribution.ext_modules = []


if __name__ == "__main__":
    setup(ext_modules=_extensions(_mode()), cmdclass={"build_ext": BuildExt})
