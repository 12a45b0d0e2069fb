"""``dicetable train-eval``: fit a game's learned value from self-play (see :mod:`dicetable.bots.value`).

1. **Self-play**: ``games`` seeded games of the greedy bot against itself, each move
   replaced with probability ``epsilon`` by a uniformly random legal one so the data covers
   more than greedy's own lines. Game ``i`` uses seed ``series_seed(seed, i)`` (``seed * 1_000_003 + i``, modulo 2**64).
2. **Positions**: the first decision of every turn (the seat to move changed; search
   evaluates its leaves there) and ``extra`` of the other decisions, drawn at random. For each
   position and each seat: the feature vector of ``observation(seat)``
   (``GameSpec.observation_encoding``) plus the hand-written ``evaluate`` as one more feature
   (:func:`dicetable.bots.value.features`), and the seat's final result: its share of the win
   (2+ players) or its final score (solo).
3. **Fit** on the first 80% of the games: L2-regularised logistic regression by Newton's
   method (win) or ridge regression (solo score), numpy only. The hand-written feature is
   barely penalised, so the fit starts from the hand evaluation and corrects it; the L2 of
   the other features is chosen among 1, 10, ..., 10^6 on the last quarter of those
   games unless given. The last 20% of the games are
   held out to report the fit next to the hand-written ``evaluate`` on the same positions.

The result is a :class:`~dicetable.bots.value.LinearValue` written with its provenance.
Everything is seeded: the same command writes the same weights.
"""

from __future__ import annotations

import json
import math
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from dicetable.engine import GameConfigError, Rng, get_game, new_game, series_seed
from dicetable.extras import require

from .value import FORMAT, LinearValue, features, value_path


def _numpy():
    """numpy; MissingExtra (naming the ``rl`` extra) when it is not installed."""
    return require("numpy", "rl", "train-eval (fitting a learned value)")


def check_train(games: int) -> None:
    """What :func:`train` refuses before it plays: MissingExtra without numpy, GameConfigError for
    fewer than 5 games (no held-out part). The command calls it before its progress bar shows."""
    _numpy()
    if games < 5:
        raise GameConfigError(f"train-eval needs at least 5 games (4 to fit, 1 to check), got {games}")


def self_play(game_id: str, players: int, games: int, seed: int, epsilon: float = 0.1,
              extra: float = 0.15, on_game=None) -> dict:
    """Play ``games`` greedy self-play games; return the recorded positions.

    Returns ``{"x": [feature vectors], "y": [results], "hand": [evaluate values],
    "game": [game index per row], "decisions": total decisions}``, one row per
    (position, seat). Raises GameConfigError for a bad game or player count.
    """
    spec = get_game(game_id)
    if spec.greedy is None or spec.observation_encoding is None:
        raise GameConfigError(f"{game_id} has no greedy policy or observation encoding to learn from")
    xs, ys, hand, index = [], [], [], []
    decisions = 0
    for g in range(games):
        state = new_game(game_id, players, seed=series_seed(seed, g))
        encoding = spec.observation_encoding(players, state.options)
        rng = Rng(seed * 7_919 + g)
        rows = []
        last_seat = None
        while not state.is_over:
            to_move = state.to_move
            seat = to_move[0] if len(to_move) == 1 else to_move[rng.randbelow(len(to_move))]
            if seat != last_seat or rng.random() < extra:
                for s in range(players):
                    x = features(state, s, encoding, spec.evaluate)
                    rows.append((s, x, float(spec.evaluate(state, s)) if spec.evaluate else 0.5))
            last_seat = seat
            legal = state.legal_actions(seat)
            if len(legal) > 1 and rng.random() < epsilon:
                action = legal[rng.randbelow(len(legal))]
            else:
                view = state.determinize(seat, rng.next64())
                chosen = spec.greedy(view, seat).id
                action = next(a for a in legal if a.id == chosen)
            state.step(action, seat)
            decisions += 1
        if players == 1:
            results = [float(state.scores[0])]
        else:
            winners = state.winners
            results = [(1.0 / len(winners) if s in winners else 0.0) for s in range(players)]
        for s, x, h in rows:
            xs.append(x)
            ys.append(results[s])
            hand.append(h)
            index.append(g)
        if on_game:
            on_game(g)
    return {"x": xs, "y": ys, "hand": hand, "game": index, "decisions": decisions}


def _penalty(d: int, l2: float):
    """The L2 weight of each parameter: ``l2`` for the encoding's features, almost none for the
    last feature (the hand-written evaluation, so the fit starts from it) and none for the bias."""
    np = _numpy()
    reg = np.full(d + 1, float(l2))
    reg[-2] = 1e-3
    reg[-1] = 0.0
    return reg


def fit_logistic(X, y, l2: float = 1.0, steps: int = 25):
    """Weights and bias of an L2-regularised logistic regression (Newton's method).

    ``X`` is (rows, features), the last feature the hand-written evaluation (barely
    penalised, see :func:`_penalty`), ``y`` in [0, 1] (shares allowed). Returns ``(w, b)``.
    """
    np = _numpy()
    n, d = X.shape
    A = np.hstack([X, np.ones((n, 1))])
    theta = np.zeros(d + 1)
    reg = _penalty(d, l2)
    for _ in range(steps):
        z = np.clip(A @ theta, -30, 30)
        p = 1.0 / (1.0 + np.exp(-z))
        grad = A.T @ (p - y) + reg * theta
        W = p * (1 - p)
        H = (A * W[:, None]).T @ A + np.diag(reg + 1e-9)
        delta = np.linalg.solve(H, grad)
        theta -= delta
        if np.max(np.abs(delta)) < 1e-6:
            break
    return theta[:-1], float(theta[-1])


def fit_ridge(X, y, l2: float = 1.0):
    """Weights and bias of ridge regression (penalties as :func:`_penalty`); returns ``(w, b)``."""
    np = _numpy()
    n, d = X.shape
    A = np.hstack([X, np.ones((n, 1))])
    theta = np.linalg.solve(A.T @ A + np.diag(_penalty(d, l2) + 1e-9), A.T @ y)
    return theta[:-1], float(theta[-1])


def _log_loss(p, y) -> float:
    np = _numpy()
    p = np.clip(p, 1e-3, 1 - 1e-3)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def _corr(a, b) -> float | None:
    """Pearson correlation, None when either side is constant (or too short)."""
    np = _numpy()
    if len(a) < 3 or np.std(a) == 0 or np.std(b) == 0:
        return None
    return float(np.corrcoef(a, b)[0, 1])


def choose_l2(X, y, games, kind: str, grid=(1.0, 10.0, 100.0, 1e3, 1e4, 1e5, 1e6)) -> float:
    """The L2 of ``grid`` that fits best on the last quarter of the given games (fitted on the rest)."""
    np = _numpy()
    cut = np.quantile(games, 0.75)
    tr, va = games < cut, games >= cut
    if tr.sum() == 0 or va.sum() == 0:
        return grid[len(grid) // 2]
    best, best_loss = grid[0], float("inf")
    for l2 in grid:
        if kind == "win":
            w, b = fit_logistic(X[tr], y[tr], l2)
            loss = _log_loss(1 / (1 + np.exp(-np.clip(X[va] @ w + b, -30, 30))), y[va])
        else:
            w, b = fit_ridge(X[tr], y[tr], l2)
            loss = float(np.mean((X[va] @ w + b - y[va]) ** 2))
        if loss < best_loss:
            best, best_loss = l2, loss
    return best


def train(game_id: str, players: int, games: int, seed: int, command: str, epsilon: float = 0.1,
          l2: float | None = None, on_game=None) -> tuple[LinearValue, dict]:
    """Self-play, fit and check a value model; returns ``(model, report)``.

    ``report`` holds the held-out comparison with the hand-written ``evaluate``: for win
    models the log loss and Brier score of both (the hand value read as a win chance) and
    how often each ranks the eventual winner first; for solo the mean absolute error of the
    learned score and the correlation of both with the final score. Raises GameConfigError
    for fewer than 5 games (no held-out part) or a bad game or player count, MissingExtra
    (before any game is played) without numpy (the ``rl`` extra).
    """
    check_train(games)
    np = _numpy()
    t0 = time.perf_counter()
    data = self_play(game_id, players, games, seed, epsilon, on_game=on_game)
    X = np.asarray(data["x"], dtype=float)
    y = np.asarray(data["y"], dtype=float)
    hand = np.asarray(data["hand"], dtype=float)
    gidx = np.asarray(data["game"])
    cut = max(1, int(games * 0.8))
    fit, held = gidx < cut, gidx >= cut
    kind = "score" if players == 1 else "win"
    report: dict = {"rows": int(len(y)), "fit_rows": int(fit.sum()), "held_rows": int(held.sum()),
                    "decisions": data["decisions"]}
    if l2 is None:
        l2 = choose_l2(X[fit], y[fit], gidx[fit], kind)
    report["l2"] = l2
    if kind == "win":
        w, b = fit_logistic(X[fit], y[fit], l2)
        z = np.clip(X[held] @ w + b, -30, 30)
        p = 1 / (1 + np.exp(-z))
        yh = y[held]
        hp = np.clip(hand[held], 1e-3, 1 - 1e-3)
        lp = np.clip(p, 1e-3, 1 - 1e-3)
        report["learned_log_loss"] = float(-np.mean(yh * np.log(lp) + (1 - yh) * np.log(1 - lp)))
        report["hand_log_loss"] = float(-np.mean(yh * np.log(hp) + (1 - yh) * np.log(1 - hp)))
        report["learned_brier"] = float(np.mean((p - yh) ** 2))
        report["hand_brier"] = float(np.mean((hand[held] - yh) ** 2))
        # rows come in groups of `players` (one position, every seat): who is ranked first?
        groups = len(yh) // players
        pg, hg, yg = (a[: groups * players].reshape(groups, players) for a in (p, hand[held], yh))
        top = yg.max(axis=1) > 0
        report["learned_picks_winner"] = float(np.mean(yg[np.arange(groups), pg.argmax(axis=1)][top] > 0))
        report["hand_picks_winner"] = float(np.mean(yg[np.arange(groups), hg.argmax(axis=1)][top] > 0))
        scale = 1.0
    else:
        w, b = fit_ridge(X[fit], y[fit], l2)
        pred = X[held] @ w + b
        report["learned_mae"] = float(np.mean(np.abs(pred - y[held])))
        report["learned_corr"] = _corr(pred, y[held])
        report["hand_corr"] = _corr(hand[held], y[held])
        report["mean_score"] = float(np.mean(y))
        scale = float(max(1.0, math.ceil(1.25 * float(np.max(y)))))
    report["seconds"] = round(time.perf_counter() - t0, 1)
    report = {k: (round(v, 4) if isinstance(v, float) else v) for k, v in report.items()}
    provenance = {
        "games": games, "seed": seed, "epsilon": epsilon, "l2": l2,
        "bots": "greedy self-play", "game_seeds": f"seed * 1000003 + i for i in 0..{games - 1}",
        "date": datetime.now(timezone.utc).replace(microsecond=0).isoformat(),
        "command": command, "python": sys.version.split()[0], "held_out": report,
    }
    spec = get_game(game_id)
    assert spec.observation_encoding is not None  # refused at the start of this function otherwise
    size = spec.observation_encoding(players, spec.resolve_options(players, None)).size + 1
    model = LinearValue(spec.id, players, kind, tuple(float(v) for v in w), b, scale, size, provenance)
    return model, report


def write_model(model: LinearValue, path: Path | None = None) -> Path:
    """Write ``model`` as JSON to ``path`` (default: the game's data file); returns the path."""
    target = path or value_path(model.game, model.players)
    target.parent.mkdir(parents=True, exist_ok=True)
    data = model.to_json()
    assert data["format"] == FORMAT
    target.write_text(json.dumps(data) + "\n", encoding="utf-8")
    from .value import load_value

    load_value.cache_clear()
    return target
