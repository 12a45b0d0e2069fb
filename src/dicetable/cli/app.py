"""The ``dicetable`` Typer app and what every command shares: the console, ``fail``, ``guarded``.

The commands are defined in :mod:`dicetable.cli.main` (which imports the other command
modules: :mod:`.serve`, :mod:`.analyze`, :mod:`.bots`); they all take these from here, so
no command module imports ``main`` and ``main`` can import them without an import cycle.
"""

from __future__ import annotations

import functools
import shlex
import shutil
import sys
from pathlib import Path
from typing import Callable, NoReturn, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from dicetable.engine import DicetableError
from dicetable.extras import MissingExtra

__all__ = ["app", "console", "fail", "guarded", "line_editing", "program_name", "read_line"]


def _stdout_is_terminal() -> bool:
    """Whether standard output is a terminal (False when it is closed or replaced by an object without ``isatty``)."""
    try:
        return bool(sys.stdout.isatty())
    except (AttributeError, ValueError):
        return False


app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Five tabletop dice games on one rules engine.")
# emoji off: action ids like "steal:bank:gold" must print as typed. Output that is not a terminal (a log,
# a pipe to grep) gets whole lines: rich would wrap text at its default 80 columns there (soft_wrap:
# text is not wrapped or cropped; tables and panels still fit the width)
console = Console(emoji=False, soft_wrap=not _stdout_is_terminal())


def line_editing() -> bool:
    """True when typed lines are read with the standard library's ``readline`` (arrow keys, Ctrl-L,
    history of this run): standard input and output are terminals and the module exists (it does
    not on some platforms, e.g. Windows without a port). No history file is read or written."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    try:
        import readline  # noqa: F401  (importing it is what gives input() line editing)
    except ImportError:
        return False
    return True


def read_line(prompt: str, on: Console | None = None) -> str:
    """One typed line after ``prompt`` (plain text, no markup), shown on console ``on`` (default:
    :data:`console`). On a terminal with :func:`line_editing`, ``input(prompt)`` hands the prompt
    to readline, so it is redrawn with the line (Ctrl-L, a recalled line); otherwise the console
    prints the prompt and reads the line (piped input, tests). Raises EOFError at the end of input."""
    on = on or console
    if on.is_terminal and line_editing():
        on.file.flush()
        return input(prompt)
    return on.input(escape(prompt))


def program_name(argv0: str | None = None, which: Callable[[str], str | None] = shutil.which) -> str:
    """How to name this program in a command to copy: ``dicetable`` when that name on PATH is the
    program that runs (or when started another way, e.g. ``python -m`` or a test), else the path it
    was started by, quoted for the shell (``.venv/bin/dicetable``). ``argv0`` defaults to
    ``sys.argv[0]``; ``which`` finds a command on PATH (``shutil.which``)."""
    started = sys.argv[0] if argv0 is None else argv0
    if Path(started).name != "dicetable":
        return "dicetable"
    found = which("dicetable")
    try:
        if found is not None and Path(found).resolve() == Path(started).resolve():
            return "dicetable"
    except OSError:
        pass
    return shlex.quote(started)


def _print_version(value: bool) -> None:
    if value:
        from dicetable import __version__, build_kind

        console.print(f"dicetable {__version__} ({build_kind()})")
        raise typer.Exit()


@app.callback()
def _options(version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                          # a flag takes no value: no "<bool>" after it in --help (typer
                                          # 0.29 prints one for every bool option without a metavar)
                                          metavar="",
                                          help="print the version and the build (compiled or pure), then exit")) -> None:
    """Five tabletop dice games on one rules engine."""


def fail(message: str) -> NoReturn:
    """Print a clear one-line error and exit with status 2."""
    console.print(f"[red]error:[/red] {escape(' '.join(str(message).split()))}", soft_wrap=True)
    raise typer.Exit(2)


P = ParamSpec("P")
R = TypeVar("R")


def guarded(command: Callable[P, R]) -> Callable[P, R]:
    """Wrap a command so no traceback reaches the user: every error becomes one line and exit 2.

    Bad input (``DicetableError``, ``ValueError``, a file that cannot be read)
    says what was wrong, a missing optional extra (``MissingExtra``) how to install it;
    anything else is reported as a bug in one line.
    Ctrl-C outside a game exits with status 130.
    """
    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:  # the command, with errors turned into one line
        try:
            return command(*args, **kwargs)
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            console.print("\n[red]interrupted[/red]")  # on a line of its own, not after a prompt's "^C"
            raise typer.Exit(130) from None
        except EOFError:  # the input ended before a game began (a menu question): nothing to save
            console.print("\nThe input ended before a game began; nothing was played.")
            raise typer.Exit(1) from None
        except (DicetableError, ValueError, OSError, MissingExtra) as exc:
            fail(str(exc) or type(exc).__name__)
        except RecursionError:
            fail("the input is nested too deeply to read")
        except Exception as exc:  # a bug: still one line, never a traceback
            fail(f"unexpected {type(exc).__name__}: {exc} (this is a bug in dicetable; please report it)")
    return wrapper
