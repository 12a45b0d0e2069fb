"""Learned position values: a small linear model per game and player count, read from a data file.

A value model turns what ``seat`` observes into the game's fixed-length feature vector
(``GameSpec.observation_encoding``, written by the game's direct fill where it has one, so no
observation dictionary is built: :func:`features`) and maps it to

* with 2 or more players: the chance that ``seat`` wins (logistic regression; a shared win
  counts as its share), renormalised over the seats so the chances sum to 1;
* solo: the expected final score (ridge regression), reported to search as ``score / scale``.

The parameters are fitted by ``dicetable train-eval`` (:mod:`dicetable.bots.train`) and live in
the game package's data folder, ``games/<package>/data/value_<players>p.json``, with their
provenance (games, seeds, date, command). Only this module reads them: a game's rules never do.
Evaluation needs no numpy: one feature vector and one dot product per seat. This module is in
the compiled build (setup.py's ``COMPILED``), as the search calls it at every leaf.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from importlib import import_module, resources
from pathlib import Path
from typing import Callable

from mypy_extensions import mypyc_attr

from dicetable.engine import GameConfigError, GameState, get_game
from dicetable.engine.encoding import Encoding

FORMAT = 1
"""Version of the value file layout (the ``format`` field)."""


def value_path(game_id: str, players: int) -> Path:
    """Where the value file of ``game_id`` at ``players`` seats lives (it may not exist).

    ``games/<package>/data/value_<players>p.json``, the package being the game's package under
    ``dicetable.games`` (its rules may sit in a subpackage, e.g. ``corsairs_of_valeria.rules.state``),
    or for a game registered elsewhere the package that holds its state class. Raises
    GameConfigError for an unknown game.
    """
    spec = get_game(game_id)
    module: str = getattr(spec.state_class, "__module__")  # compiled code reads a class's module this way
    parts = module.split(".")
    if parts[:2] == ["dicetable", "games"] and len(parts) > 3:
        package = ".".join(parts[:3])
    else:
        package = module.rpartition(".")[0]
    root = resources.files(import_module(package))
    return Path(str(root)) / "data" / f"value_{players}p.json"


def hand_feature(value: float) -> float:
    """The hand-written evaluation (0-1) as the model's last feature: its logit, clipped to +-6."""
    v = min(max(value, 0.0025), 0.9975)
    return math.log(v / (1.0 - v))


def features(state: GameState, seat: int, encoding: Encoding,
             evaluate: Callable[[GameState, int], float] | None = None) -> list[float]:
    """The model's input for ``seat`` (``encoding.size + 1`` floats): the game's feature vector of
    ``observation(seat)``, then :func:`hand_feature` of ``evaluate(state, seat)`` (0 when the game has
    no ``evaluate``).

    The vector comes from the game's direct fill where it has one
    (:meth:`~dicetable.engine.encoding.Encoding.encode_state`: no observation dictionary is built),
    which gives the dictionary encoding's values as float32 numbers: the same up to float32 rounding
    (a relative 6e-8; a search may then break a near-tie the other way).
    """
    out: list[float] = encoding.encode_state(state, seat)
    out.append(hand_feature(float(evaluate(state, seat))) if evaluate is not None else 0.0)
    return out


@mypyc_attr(native_class=False)  # a plain class: a compiled frozen dataclass cannot be unpickled
@dataclass(frozen=True)
class LinearValue:
    """A fitted model for one game and player count.

    ``kind`` is ``"win"`` (logistic: ``P(win) = 1 / (1 + exp(-(w . x + b)))``) or ``"score"``
    (solo ridge: ``score = w . x + b``); ``scale`` turns a solo score into a search reward in
    about [0, 1] (``score / scale``); ``size`` is the input's length (the game's feature vector
    plus one: the hand-written evaluation, see :func:`features`), checked on load. ``provenance`` records how it was made.
    """

    game: str
    players: int
    kind: str
    weights: tuple[float, ...]
    bias: float
    scale: float
    size: int
    provenance: dict

    # ------------------------------------------------------------ evaluation
    def raw(self, features: list[float]) -> float:
        """``w . x + b`` for one feature vector (length ``size``), summed in the features' order."""
        total = self.bias
        weights = self.weights
        for i in range(min(len(weights), len(features))):
            x = features[i]
            if x:
                total += weights[i] * x
        return total

    def seat_value(self, state: GameState, seat: int, encoding: Encoding,
                   evaluate: Callable[[GameState, int], float] | None = None) -> float:
        """Win chance (``kind == "win"``, in (0, 1)) or expected score (``"score"``) of ``seat``.

        ``evaluate`` is the game's hand-written evaluation, the model's last feature.
        """
        z = self.raw(features(state, seat, encoding, evaluate))
        if self.kind == "score":
            return z
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def rewards(self, state: GameState, encoding: Encoding,
                evaluate: Callable[[GameState, int], float] | None = None) -> list[float]:
        """Search rewards of every seat: win chances summing to 1, or solo ``score / scale``."""
        if self.kind == "score":
            return [self.seat_value(state, 0, encoding, evaluate) / self.scale]
        chances = [self.seat_value(state, s, encoding, evaluate) for s in range(state.players)]
        total = sum(chances)
        return [c / total for c in chances] if total > 0 else [1.0 / state.players] * state.players

    # ------------------------------------------------------------ files
    def to_json(self) -> dict:
        """The JSON-able file content (see :func:`load_value` for the fields)."""
        return {"format": FORMAT, "game": self.game, "players": self.players, "kind": self.kind,
                "size": self.size, "scale": self.scale, "bias": self.bias,
                "weights": [round(w, 6) for w in self.weights], "provenance": self.provenance}


def parse_value(data: dict, game_id: str, players: int, where: str = "value file") -> LinearValue:
    """Check the content of a value file and build the model; ValueError naming the bad field.

    Fields: ``format`` (1), ``game`` and ``players`` (must match), ``kind`` (``win`` with 2+
    players, ``score`` solo), ``size`` (the game encoding's length at that player count with
    default options, plus one), ``weights`` (``size`` numbers), ``bias``, ``scale`` (> 0) and
    ``provenance`` (a dict with ``games``, ``seed``, ``date`` and ``command``).
    """
    def bad(msg: str) -> ValueError:
        return ValueError(f"{where}: {msg}")

    if not isinstance(data, dict):
        raise bad("is not a JSON object")
    if data.get("format") != FORMAT:
        raise bad(f"format must be {FORMAT}, got {data.get('format')!r}")
    if data.get("game") != game_id or data.get("players") != players:
        raise bad(f"is for {data.get('game')!r} at {data.get('players')!r} players, not {game_id} at {players}")
    kind = data.get("kind")
    want = "score" if players == 1 else "win"
    encoding = get_game(game_id).observation_encoding
    if encoding is None:
        raise bad(f"{game_id} has no observation encoding to learn a value from")
    if kind != want:
        raise bad(f"kind must be {want!r} at {players} player(s), got {kind!r}")
    size = encoding(players, get_game(game_id).resolve_options(players, None)).size + 1
    weights = data.get("weights")
    if data.get("size") != size or not isinstance(weights, list) or len(weights) != size:
        raise bad(f"needs {size} weights (the game's feature vector), got size {data.get('size')!r} "
                  f"and {len(weights) if isinstance(weights, list) else 'no'} weights")
    numbers = weights + [data.get("bias"), data.get("scale")]
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in numbers):
        raise bad("weights, bias and scale must be finite numbers")
    if data["scale"] <= 0:
        raise bad(f"scale must be above 0, got {data['scale']}")
    prov = data.get("provenance")
    if not isinstance(prov, dict):
        raise bad("provenance must be an object with games, seed, date and command")
    missing = [k for k in ("games", "seed", "date", "command") if k not in prov]
    if missing:
        raise bad(f"provenance lacks {', '.join(missing)}")
    try:
        datetime.fromisoformat(str(prov["date"]))
    except ValueError:
        raise bad(f"provenance date {prov['date']!r} is not an ISO date") from None
    return LinearValue(game_id, players, kind, tuple(float(w) for w in weights), float(data["bias"]),
                       float(data["scale"]), size, dict(prov))


@lru_cache(maxsize=None)
def load_value(game_id: str, players: int) -> LinearValue | None:
    """The shipped model of ``game_id`` at ``players`` seats, None when there is no file.

    Raises ValueError (naming the file and field) when the file exists but is not valid.
    """
    path = value_path(game_id, players)
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not JSON ({exc})") from None
    return parse_value(data, game_id, players, where=str(path))


class Evaluator:
    """Scores a search leaf for every seat: the learned model when there is one, else ``evaluate``.

    ``mode`` is ``"learned"`` (GameConfigError if no model ships for this game and player
    count), ``"hand"`` (the game's hand-written ``evaluate``) or ``"auto"`` (learned when
    available). ``model`` is the :class:`LinearValue` in use (None for hand); ``kind`` is
    ``"win"`` (2+ players: rewards read as win chances; the hand evaluation is meant as one),
    ``"score"`` (solo with a model: rewards are ``score / scale``) or ``"hand"`` (solo
    without a model: the hand evaluation's 0-1 scale).
    """

    def __init__(self, game_id: str, players: int, options: dict, mode: str = "auto",
                 model: LinearValue | None = None) -> None:
        if mode not in ("auto", "learned", "hand"):
            raise GameConfigError(f"value mode is auto, learned or hand, not {mode!r}")
        spec = get_game(game_id)
        self.players = players
        self.evaluate = spec.evaluate
        if model is None and mode != "hand":
            model = load_value(game_id, players)
            if model is None and mode == "learned":
                raise GameConfigError(f"no learned value for {game_id} at {players} player(s): "
                                      f"run dicetable train-eval {game_id} --players {players}")
        layout = spec.observation_encoding
        encoding = layout(players, options) if model is not None and layout is not None else None
        if model is not None and (encoding is None or encoding.size + 1 != model.size):
            model, encoding = None, None  # options that change the feature layout: the model does not apply
        self.model = model
        self.encoding = encoding  # the layout is built once (a search makes one Evaluator)
        self.kind = model.kind if model is not None else ("win" if players > 1 else "hand")
        self.scale = model.scale if model is not None else 1.0

    def rewards(self, state: GameState) -> list[float]:
        """Every seat's value in about [0, 1] for a position that is not over."""
        if self.model is not None and self.encoding is not None:  # a model is kept only with its encoding
            return self.model.rewards(state, self.encoding, self.evaluate)
        if self.evaluate is None:
            return [0.5] * state.players
        return [float(self.evaluate(state, s)) for s in range(state.players)]

    def terminal(self, state: GameState) -> list[float]:
        """Every seat's reward at the end: its share of the win; solo ``score / scale`` (or ``evaluate``)."""
        n = state.players
        if n == 1:
            if self.kind == "score":
                return [float(state.scores[0]) / self.scale]
            if self.evaluate is not None:
                return [float(self.evaluate(state, 0))]
            return [1.0 if state.winners else 0.0]
        winners = state.winners
        share = 1.0 / len(winners) if winners else 0.0
        return [share if s in winners else 0.0 for s in range(n)]

    def shown(self, reward: float) -> float:
        """A reward as people read it: a win chance (0-1), or an expected solo score."""
        return reward * self.scale if self.kind == "score" else reward
