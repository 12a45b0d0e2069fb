"""Replays: a finished (or unfinished) game as its set-up and its actions.

A replay record is ``{"kind": "replay", "game", "players", "seed",
"options", "dice", "actions": [[seat, action_id], ...]}`` plus, for a
finished game, the ``scores`` and ``winners`` it reached, which
:func:`run_replay` checks so a replay that no longer reproduces is caught.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import tempfile
import time
from pathlib import Path
from typing import IO, Any

from .errors import DicetableError, SaveFormatError
from .registry import check_save_header, new_game
from .rng import _short, seed_problem
from .state import SAVE_FORMAT, GameState

MAX_FILE_BYTES = 20 * 1024 * 1024
"""Largest saved game or replay file read (20 MB; a long game's save is well under 1 MB)."""

#: The fields of a saved game (``GameState.to_dict``): all required, no others allowed.
SAVE_FIELDS = ("format", "game", "players", "seed", "options", "rng", "dice", "dice_used",
               "history", "log", "state")


def run_replay(record: dict[str, Any]) -> GameState:
    """Play ``record`` again from its seed and return the final state.

    Raises :class:`SaveFormatError` naming the step when an action is
    refused or the outcome differs from the recorded scores and winners.
    """
    if not isinstance(record, dict) or record.get("kind") != "replay":
        raise SaveFormatError("not a replay record (expected \"kind\": \"replay\")")
    return _play_back(record, "actions", "replay")


def _play_back(record: dict[str, Any], actions_key: str, what: str) -> GameState:
    """Set up ``record``'s game and apply its ``[seat, action_id]`` list (a replay's or a save's)."""
    for key in ("game", "players", "seed", actions_key):
        if key not in record:
            raise SaveFormatError(f"{what} is missing the field {key!r}")
    if type(record["seed"]) is not int:  # None would mean "a fresh random seed" to new_game
        raise SaveFormatError(f"{what} set-up failed: seed must be an integer, got {record['seed']!r}")
    try:
        state = new_game(
            record["game"], record["players"], seed=record["seed"],
            options=record.get("options"), dice=record.get("dice"),
        )
    except DicetableError as exc:
        raise SaveFormatError(f"{what} set-up failed: {exc}") from None
    actions = record[actions_key]
    if not isinstance(actions, list):
        raise SaveFormatError(
            f"{what} field {actions_key!r} must be a list of [seat, action id] pairs, got {type(actions).__name__}"
        )
    for step, entry in enumerate(actions):
        if (not isinstance(entry, list) or len(entry) != 2 or type(entry[0]) is not int
                or not isinstance(entry[1], str)):
            raise SaveFormatError(
                f"{what} step {step} ({entry!r}) failed: a step is a [seat, action id] pair such as [0, \"roll\"]"
            )
        try:
            state.apply(entry[1], entry[0])
        except DicetableError as exc:
            raise SaveFormatError(f"{what} step {step} ({entry!r}) failed: {exc}") from None
    for key, reached in (("scores", list(state.scores)), ("winners", list(state.winners))):
        if key in record and reached != record[key]:
            raise SaveFormatError(f"{what} reached {key} {reached}, the record says {record[key]}")
    return state


def _first_difference(got: Any, want: Any, where: str = "") -> str | None:
    """The path of the first place two JSON values differ (``state.board[6]``), or None."""
    if isinstance(got, dict) and isinstance(want, dict):
        for key in list(want) + [k for k in got if k not in want]:
            if key not in got:
                return f"{where}.{key}".lstrip(".") + " (not expected in a save)"
            if key not in want:
                return f"{where}.{key}".lstrip(".") + " (missing)"
            found = _first_difference(got[key], want[key], f"{where}.{key}")
            if found:
                return found
        return None
    if isinstance(got, list) and isinstance(want, list):
        for i, (a, b) in enumerate(zip(got, want)):
            found = _first_difference(a, b, f"{where}[{i}]")
            if found:
                return found
        if len(got) != len(want):
            return f"{where} (length {len(want)}, expected {len(got)})".lstrip(".")
        return None
    if got != want or type(got) is not type(want):
        return f"{where} (saved {_short(want, 60)}, expected {_short(got, 60)})".lstrip(".")
    return None


def _json_text(data: Any, what: str) -> str:
    """``data`` as canonical JSON text (keys sorted); SaveFormatError if it is not plain JSON data."""
    try:
        return json.dumps(data, allow_nan=False, sort_keys=True)
    except (TypeError, ValueError, RecursionError) as exc:
        raise SaveFormatError(f"{what} is not plain JSON data: {type(exc).__name__}: {exc}") from None


def verified_state(data: Any) -> GameState:
    """Rebuild a saved game (``to_dict`` output) by playing its moves again, and check it.

    The one check behind :func:`dicetable.load_state` and
    :func:`load_saved_game`: the header (format, game, players, seed,
    options, scripted dice) sets up a new game through ``new_game`` (so
    player counts, the 64-bit seed and every option are checked as for a
    new game), the ``history`` is applied move by move through ``apply``
    (so every move was legal for the seat that made it), and the result's
    ``to_dict`` must equal the save field for field (the random state and
    every game field: so the game's invariants hold, since they hold in every
    state ``apply`` reaches). The log is not compared: the rebuilt state's
    log is drawn again from the moves, with this version's texts and effects. A save that was edited, truncated or
    corrupted (a score, a card id, a seat, a 99-player game) is refused with
    a :class:`SaveFormatError` naming the first field that is wrong; nothing
    else is ever raised for bad data.
    """
    if not isinstance(data, dict):
        raise SaveFormatError(f"a saved game is a JSON object, got {type(data).__name__}")
    check_save_header(data)  # the format and game checks, with their messages
    text = _json_text(data, "saved game")
    data = json.loads(text)  # as it reads back from a file: tuples become lists
    for key in SAVE_FIELDS:
        if key not in data:
            raise SaveFormatError(f"saved game is missing the field {key!r}")
    state = _play_back(data, "history", "saved game")
    if data["format"] != SAVE_FORMAT:
        # An older format stored the game fields in another layout: every other field must still match.
        data = {**data, "format": SAVE_FORMAT, "state": state.to_dict()["state"]}
        text = _json_text(data, "saved game")
    # The log is drawn again from the moves (with the event texts and effects of this version), so
    # it is not compared: a save from before a log line was reworded, or before effects, still loads.
    data = {**data, "log": None}
    rebuilt = _json_text({**state.to_dict(), "log": None}, "the replayed game")
    text = _json_text(data, "saved game")
    if rebuilt == text:  # the same JSON text: same values and same types (1, 1.0 and true differ)
        return state
    where = _first_difference(json.loads(rebuilt), data) or "a value's type"
    if where:
        raise SaveFormatError(
            f"saved game was changed or damaged: {where}; its moves played again from its seed give "
            "a different game (saves must be left as written)"
        )
    return state


def load_saved_game(data: Any) -> GameState:
    """Rebuild a saved game or a replay record, checked; SaveFormatError naming what is wrong.

    A save (``to_dict`` output) goes through :func:`verified_state` (the
    same check as :func:`dicetable.load_state`); a replay record (``"kind":
    "replay"``) through :func:`run_replay`.
    """
    if isinstance(data, dict) and data.get("kind") == "replay":
        return run_replay(data)
    return verified_state(data)


BACKUP_SUFFIX = ".bak"


def _write_text(handle: IO[str], text: str) -> None:
    """Write ``text`` to an open file (a seam: the interrupted-save test slows it down)."""
    handle.write(text)


def write_json(path: str | Path, data: dict[str, Any], *, backup: bool = True) -> Path:
    """Write ``data`` as indented JSON to ``path`` atomically (parents created); return the path.

    The text goes to a temporary file in the same folder, is flushed and
    fsynced, then renamed over ``path`` (``os.replace``), so a crash or a kill
    at any moment leaves either the old file or the new one, never half of
    one. With ``backup`` the file being replaced is kept first as
    ``path + ".bak"`` (one generation). Raises :class:`SaveFormatError`
    naming the path and the reason when the file cannot be written (a folder,
    a read-only place, a missing drive, a NUL byte in the name).
    """
    path = Path(path)
    if path.is_dir():
        raise SaveFormatError(f"cannot save to {path}: it is a folder; give a file name such as {path / 'game.json'}")
    # missing folders are made; a file where a folder should be is named (mkdir would say "File exists")
    try:
        nearest = next((p for p in path.parents if p.exists()), None)
    except ValueError:  # a NUL byte: refused below with the reason
        nearest = None
    if nearest is not None and not nearest.is_dir():
        raise SaveFormatError(f"cannot save to {path!s}: {nearest!s} is a file, not a folder; "
                              "give a file path in a folder you can write to")
    text = json.dumps(data, indent=1) + "\n"
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            _write_text(handle, text)
            handle.flush()
            os.fsync(handle.fileno())
        if backup and path.is_file():
            _keep_backup(path)
        os.replace(tmp, path)
        tmp = None
        _fsync_dir(path.parent)
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
        reason = getattr(exc, "strerror", None) or str(exc)
        raise SaveFormatError(
            f"cannot save to {path!s}: {reason}; give a file path in a folder you can write to"
        ) from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return path


def _keep_backup(path: Path) -> None:
    """Copy ``path`` to ``path.bak`` atomically (a hard link when the file system allows it).

    ``path`` itself is never moved, so it stays whole until the new file replaces it.
    """
    bak = path.with_name(path.name + BACKUP_SUFFIX)
    fd, tmp = tempfile.mkstemp(prefix=f".{bak.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        os.unlink(tmp)
        try:
            os.link(path, tmp)
        except OSError:  # no hard links here (some network or FAT file systems)
            shutil.copyfile(path, tmp)
        os.replace(tmp, bak)
    finally:
        if os.path.lexists(tmp):
            os.unlink(tmp)


def _fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (POSIX); a no-op where folders cannot be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def new_file_path(folder: str | Path, game_id: str, suffix: str = ".json") -> Path:
    """A fresh file name in ``folder`` for a game's save or replay: never an existing file.

    The name carries the game, the local time and a short random part
    (``kingdom-of-dice-20261201-112233-3f9a1c.json``); it never carries the
    seed, which is the key to every hidden card and future die.
    """
    folder = Path(folder)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    while True:
        path = folder / f"{game_id}-{stamp}-{secrets.token_hex(3)}{suffix}"
        if not os.path.lexists(path):
            return path


def read_json(path: str | Path) -> Any:
    """Read a JSON file (UTF-8, a byte-order mark allowed); SaveFormatError with the reason otherwise.

    Files larger than :data:`MAX_FILE_BYTES` (20 MB) are refused before
    they are parsed, as are folders, devices, pipes, missing files, text
    that is not UTF-8 or not JSON, and JSON nested too deeply or with
    numbers too long to read. Returns the parsed value (a saved game or a
    replay is a dict; the loaders check that).
    """
    try:
        path = Path(path)
        if path.is_dir():
            raise SaveFormatError(f"{path} is a folder, not a saved game or replay file")
        if path.exists() and not path.is_file():
            raise SaveFormatError(f"{path} is not a regular file (a device or a pipe), not a saved game or replay")
        with path.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            raw = handle.read(MAX_FILE_BYTES + 1) if size <= MAX_FILE_BYTES else b""
    except SaveFormatError:
        raise
    except FileNotFoundError:
        raise SaveFormatError(f"no such file: {path}") from None
    except OSError as exc:
        raise SaveFormatError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (TypeError, ValueError) as exc:  # a NUL byte in the path, or no path at all
        raise SaveFormatError(f"cannot read {path!r}: {exc}") from None
    if size > MAX_FILE_BYTES or len(raw) > MAX_FILE_BYTES:
        raise SaveFormatError(
            f"{path} is {max(size, len(raw)):,} bytes; saved games and replays are at most "
            f"{MAX_FILE_BYTES:,} bytes (20 MB), so this is not one")
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise SaveFormatError(f"{path} is not a JSON file: it is not UTF-8 text ({exc.reason})") from None
    except json.JSONDecodeError as exc:
        raise SaveFormatError(f"{path} is not a JSON file: {exc}") from None
    except RecursionError:
        raise SaveFormatError(f"{path} is not a saved game or replay: its JSON is nested too deeply") from None
    except ValueError as exc:  # e.g. a number with more digits than Python reads
        raise SaveFormatError(f"{path} is not a saved game or replay: {exc}") from None


def load_game_file(path: str | Path) -> GameState:
    """Open a saved game (``to_dict`` output, checked by :func:`load_saved_game`) or a replay file."""
    return load_saved_game(read_json(path))


def load_state(data: dict[str, Any], *, verify: bool = True) -> GameState:
    """Rebuild a state from :meth:`GameState.to_dict` output; SaveFormatError if it is not one.

    By default the save is checked, not trusted: its header sets up a new
    game (players, 64-bit seed, options and scripted dice checked as by
    :func:`new_game`), its ``history`` is played again through ``apply``
    and the result must equal the save field for field
    (:func:`verified_state`); the error names the
    first field that is wrong. A save that was edited, truncated or made up
    is refused whatever it contains.

    ``verify=False`` is the trusted fast path, for data this process or a
    worker it started has just written with ``to_dict`` (search workers,
    tests of ``_restore``): it checks only the header and the field types
    and restores the stored game fields as they are. Never use it on data a
    person or another program could have changed.
    """
    if verify:
        return verified_state(data)
    spec = check_save_header(data)
    if data["format"] != SAVE_FORMAT:
        raise SaveFormatError(f"a format-{data['format']} save is read only with verify=True (its moves are "
                              f"played again); this trusted path reads format {SAVE_FORMAT}")
    for key in ("players", "seed"):
        if type(data.get(key)) is not int:
            raise SaveFormatError(f"saved game field {key!r} must be a whole number, got {_short(data.get(key))}")
    if not spec.min_players <= data["players"] <= spec.max_players:
        raise SaveFormatError(f"saved game field 'players': {spec.name} is for "
                              f"{spec.min_players}-{spec.max_players} players, not {data['players']}")
    problem = seed_problem(data["seed"])
    if problem:
        raise SaveFormatError(f"saved game field 'seed': {problem}")
    return spec.state_class.from_dict(data)
