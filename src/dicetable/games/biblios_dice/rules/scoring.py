"""Game End and Scoring (rulebook: Game End, Scoring, Hidden Objective Variant, Rules for
2 Players): the first rule class of :class:`~.state.BibliosDiceState` (on the fields).
"""

from __future__ import annotations

from typing import Any, Final

from dicetable.engine import effects as fx
from dicetable.engine import ScoreLine, ScoreSheet, TieMeasure, outcome_text, seat_name

from ..components import place_points, ratio_at
from .consts import BISHOP, NRES, NTRACKS, N_PLACES, PENALTY, PLACES_FROM, PLACE_VP, RESOURCE_NAMES, SCORING
from ..keys import places_key
from .common import OVER
from .fields import BibliosFields, ScoreRow


#: True in the compiled build (this module loaded from its C extension): see ``ScoringRules._ranked``.
_NATIVE: Final = not __file__.endswith(".py")


class ScoringRules(BibliosFields):
    """Scoring as if the game ended now, the game's end and its winner (see the module docstring)."""

    __slots__ = ()

    def breakdown(self) -> list[ScoreRow]:
        """Scoring (rulebook Scoring) per marker as if the game ended now.

        Returns one :class:`~.fields.ScoreRow` per marker (seats, then
        Cadfael): ``tracks`` (VPs per Resource Track place), ``penalty`` (VPs
        lost, positive), ``tokens`` (VP tokens), ``gold_vp``, ``gold_left``,
        ``objective`` and ``total``.
        """
        nm = self.nm
        n = self.players
        track_vp = [[0] * NRES for _ in range(nm)]
        firsts = [-1] * NRES
        for t in range(NRES):
            ranked = self._ranked(t)
            for place, m in enumerate(ranked[:len(SCORING.place_multipliers)]):
                track_vp[m][t] = place_points(place, self.value[t])
            if ranked:
                firsts[t] = ranked[0]
        out: list[ScoreRow] = []
        for m in range(nm):
            penalty = sum(PENALTY[t].get(self.pos[t * nm + m], 0) for t in range(NTRACKS))
            tokens = gold_vp = gold_left = objective = 0
            if m < n:
                ratio = ratio_at(self.pos[BISHOP * nm + m])
                gold_vp = self.gold[m] // ratio if ratio else 0
                tokens = self.vp[m]
                gold_left = self.gold[m] - gold_vp * ratio
                obj = self.objectives[m]
                if obj >= 0 and firsts[obj] == m:
                    objective = SCORING.objective_bonus
            tracks = track_vp[m]
            out.append({"tracks": tracks, "penalty": penalty, "tokens": tokens, "gold_vp": gold_vp,
                        "gold_left": gold_left, "objective": objective,
                        "total": sum(tracks) - penalty + tokens + gold_vp + objective})
        return out

    def _ranked(self, t: int) -> list[int]:
        """The markers on Resource Track ``t`` that score a place, best first (further up, then arrived earlier)."""
        nm = self.nm
        pos = self.pos
        stamp = self.stamp
        if not _NATIVE:
            return [m for _, _, m in sorted([(-pos[t * nm + m], stamp[t * nm + m], m)
                                             for m in range(nm) if pos[t * nm + m] >= PLACES_FROM])]
        # compiled: an insertion sort on native ints (a sort of tuples compares them generically);
        # the same order, as the markers come in ascending order and a tie of space and arrival keeps it
        b = t * nm
        out: list[int] = []
        for m in range(nm):
            p = pos[b + m]
            if p < PLACES_FROM:
                continue
            s = stamp[b + m]
            i = len(out)
            out.append(m)
            while i > 0:
                o = out[i - 1]
                q = pos[b + o]
                if q > p or (q == p and stamp[b + o] <= s):  # o ranks before m
                    break
                out[i] = o
                i -= 1
            out[i] = m
        return out

    def _track_points(self, t: int) -> list[int]:
        """Each marker's VPs for its place on Resource Track ``t`` now (rulebook Scoring)."""
        out = [0] * self.nm
        pips = self.value[t]
        ranked = self._ranked(t)
        if 0 <= pips < len(PLACE_VP):
            vps = PLACE_VP[pips]
            for place in range(min(len(ranked), N_PLACES)):
                out[ranked[place]] = vps[place]
        else:  # not a face of the Value Die (a hand-made state): the rule itself
            for place in range(min(len(ranked), N_PLACES)):
                out[ranked[place]] = place_points(place, pips)
        return out

    def places(self) -> list[int]:
        """Each marker's public places score now: the VPs of its Resource Track places (rulebook Scoring),
        the sum of :meth:`breakdown`'s ``tracks`` without the rest of the breakdown."""
        out = [0] * self.nm
        for t in range(NRES):
            for m, vp in enumerate(self._track_points(t)):
                out[m] += vp
        return out

    def _track_effects(self, t: int, before: list[int]) -> list[dict[str, Any]]:
        """:meth:`places_effects` after a change to Resource Track ``t`` alone (``before``: its
        :meth:`_track_points` then): the other tracks' places are not ranked again unless one changed."""
        after = self._track_points(t)
        if after == before:
            return []
        now = self.places()
        return [fx.count(places_key(self.marker_id(m)), after[m] - before[m], now[m])
                for m in range(self.nm) if after[m] != before[m]]

    def places_effects(self, before: list[int]) -> list[dict[str, Any]]:
        """``count`` effects for every marker whose places score differs from ``before`` (:meth:`places`)."""
        return [fx.count(places_key(self.marker_id(m)), now - was, now)
                for m, (was, now) in enumerate(zip(before, self.places())) if now != was]

    def _finish(self, why: str) -> None:
        """Game End: score, name the winner, drop every pending task."""
        self.phase = OVER
        self.end_game()
        self.final = self.breakdown()
        if self.quiet:
            return
        self.emit("game-end", None, f"The game ends: {why}.")
        text = "Final scores: " + ", ".join(f"{self.who(m)} {row['total']}" for m, row in enumerate(self.final))
        self.emit("game-over", None, text + ". Winner: " + ", ".join(seat_name(s) for s in self.winners) + ".",
                  {"scores": self.scores, "winners": list(self.winners),
                   "gold": list(self.gold), "vp_tokens": list(self.vp)},
                  effects=[fx.reveal(f"p-{s}-shield", f"p-{s}") for s in range(self.players)])

    @property
    def scores(self) -> list[int]:
        """VPs per seat: final once the game is over, else as if it ended now."""
        rows = self.final if self.final is not None else self.breakdown()
        return [rows[s]["total"] for s in range(self.players)]

    def _visible_scores(self, seat: int | None) -> list[int]:
        """VPs per seat as ``seat`` may count them now (rulebook Scoring; None: a spectator).

        Everyone sees the Resource Track places and the penalties (the
        tracks, Value Dice and markers are public); only ``seat`` sees its own
        VP tokens, its Gold (converted at its Bishop Track ratio) and its
        Hidden Objective, which stay behind the others' shields until the
        end. So another seat's entry is its track VPs minus penalties.
        """
        rows = self.breakdown()
        return [rows[s]["total"] if s == seat else sum(rows[s]["tracks"]) - rows[s]["penalty"]
                for s in range(self.players)]

    def score_sheet(self) -> ScoreSheet:
        """The score table (rulebook: Scoring; Determining a Winner; Rules for 2 Players: Game End and Scoring).

        Categories, as the rulebook's Scoring lists them: the VPs for
        Resources of each Resource Track, VPs for Gold, Losing VPs (negative),
        the VP tokens taken, and the Hidden Objective's bonus when the variant
        is played. Cadfael (2 players) scores his track places and penalties
        and cannot win. Tie-breaks (Determining a Winner): the most remaining
        Gold, then the furthest up the Bishop Track (on the same space, the
        marker further left, which arrived first).
        """
        rows = self.final if self.final is not None else self.breakdown()
        objective = bool(self.options.get("hidden_objectives"))
        categories = tuple(f"{name} Track" for name in RESOURCE_NAMES) + ("Gold", "Losing VPs", "VP tokens")
        categories += ("Hidden Objective",) if objective else ()
        measures = (TieMeasure("Gold left"),
                    TieMeasure("Bishop Track space", True, "being further up the Bishop Track"),
                    TieMeasure("earlier arrival on the Bishop Track space", True,
                               "arriving first on that Bishop Track space (the marker further left)", False))
        winners = self.winners
        lines = []
        for m, row in enumerate(rows):
            points = (*row["tracks"], row["gold_vp"], -row["penalty"], row["tokens"])
            points += (row["objective"],) if objective else ()
            seat = None if m == self.cad else m
            space, stamp = self.bishop_key(m)
            ties = (row["gold_left"] if seat is not None else None, -space, -stamp)
            lines.append(ScoreLine(self.who(m), seat, points, row["total"], ties, m in winners, seat is not None))
        source = "rulebook: Scoring"
        return ScoreSheet(categories, tuple(lines), outcome_text(lines, measures, "rulebook: Determining a Winner"),
                          source, measures)

    @property
    def cadfael_score(self) -> int | None:
        """Cadfael's VPs (track places and penalties; 2 players only), else None."""
        if self.cad < 0:
            return None
        rows = self.final if self.final is not None else self.breakdown()
        return rows[self.cad]["total"]

    @property
    def winners(self) -> tuple[int, ...]:
        """Most VPs; ties: most Gold left after conversion, then further up the Bishop Track."""
        rows = self.final
        if self.phase != OVER or rows is None:    # final is set whenever the phase is OVER
            return ()
        best = min([(-rows[s]["total"], -rows[s]["gold_left"]) + self.bishop_key(s) + (s,)
                    for s in range(self.players)])
        return (best[-1],)

