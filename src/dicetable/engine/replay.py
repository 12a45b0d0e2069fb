"""Replays: a finished (or unfinished) game as its set-up and its actions.

A replay record is ``{"kind": "replay", "game", "players", "seed",
"options", "dice", "actions": [[seat, action_id], ...]}`` plus, for a
finished game, the ``scores`` and ``winners`` it reached, which
:func:`run_replay` checks so a replay that no longer reproduces is caught.
"""

from __future__ import annotations

import json
from pathlib import Path

from .errors import DicetableError, SaveFormatError
from .registry import load_state, new_game
from .state import GameState


def run_replay(record: dict) -> GameState:
    """Play ``record`` again from its seed and return the final state.

    Raises :class:`SaveFormatError` naming the step when an action is
    refused or the outcome differs from the recorded scores and winners.
    """
    if not isinstance(record, dict) or record.get("kind") != "replay":
        raise SaveFormatError("not a replay record (expected \"kind\": \"replay\")")
    try:
        state = new_game(
            record["game"], record["players"], seed=record["seed"],
            options=record.get("options"), dice=record.get("dice"),
        )
        actions = record["actions"]
    except KeyError as exc:
        raise SaveFormatError(f"replay is missing the field {exc.args[0]!r}") from None
    except DicetableError as exc:
        raise SaveFormatError(f"replay set-up failed: {exc}") from None
    for step, entry in enumerate(actions):
        try:
            seat, action_id = entry
            state.apply(action_id, int(seat))
        except (DicetableError, ValueError, TypeError) as exc:
            raise SaveFormatError(f"replay step {step} ({entry!r}) failed: {exc}") from None
    if "scores" in record and list(state.scores) != list(record["scores"]):
        raise SaveFormatError(
            f"replay reached scores {list(state.scores)}, the record says {record['scores']}"
        )
    if "winners" in record and list(state.winners) != list(record["winners"]):
        raise SaveFormatError(
            f"replay reached winners {list(state.winners)}, the record says {record['winners']}"
        )
    return state


def write_json(path: str | Path, data: dict) -> Path:
    """Write ``data`` as indented JSON to ``path`` (parents created); return the path.

    Raises :class:`SaveFormatError` naming the path and the reason when the
    file cannot be written (a folder, a read-only place, a missing drive).
    """
    path = Path(path)
    if path.is_dir():
        raise SaveFormatError(f"cannot save to {path}: it is a folder; give a file name such as {path / 'game.json'}")
    text = json.dumps(data, indent=1) + "\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
        reason = getattr(exc, "strerror", None) or str(exc)
        raise SaveFormatError(
            f"cannot save to {path!s}: {reason}; give a file path in a folder you can write to"
        ) from None
    return path


def read_json(path: str | Path) -> dict:
    """Read a JSON file; SaveFormatError with the reason when it is missing or not JSON."""
    path = Path(path)
    if path.is_dir():
        raise SaveFormatError(f"{path} is a folder, not a saved game or replay file")
    if path.exists() and not path.is_file():
        raise SaveFormatError(f"{path} is not a regular file (a device or a pipe), not a saved game or replay")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SaveFormatError(f"no such file: {path}") from None
    except OSError as exc:
        raise SaveFormatError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SaveFormatError(f"{path} is not a JSON file: {exc}") from None
    except RecursionError:
        raise SaveFormatError(f"{path} is not a saved game or replay: its JSON is nested too deeply") from None
    except ValueError as exc:  # a NUL byte in the path
        raise SaveFormatError(f"cannot read {path!r}: {exc}") from None


def load_game_file(path: str | Path) -> GameState:
    """Open a saved game (``to_dict`` output) or a replay file as a state."""
    data = read_json(path)
    if isinstance(data, dict) and data.get("kind") == "replay":
        return run_replay(data)
    return load_state(data)
