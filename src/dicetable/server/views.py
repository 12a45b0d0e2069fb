"""Views of a table: what one viewer (a seat, or None: a spectator) may see of it, and what changed.

Views come only from the State protocol: ``observation(seat)``,
``decision(seat)``, ``legal_actions(seat)``, the log filtered with
``Event.visible_to(seat)``, ``visible_scores(seat)`` and the game's
``board_view(obs, actions, seat)``. Nothing else of the state reaches a
client; the seed and the record stay on the server until the game is over.

:class:`Views` builds the HTTP view (:meth:`Views.view`), the live full view
(:meth:`Views.live_view`) and each viewer's :class:`Snapshot` once per table
revision with its change message (LIVE.md section 4). Every method expects
the table's lock held by its caller, or takes it itself (it is reentrant).
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from itertools import compress
from operator import is_not
from typing import Iterator

from dicetable.engine import GameState, get_game, places
from dicetable.engine.markup import as_parts, assemble

from .accounts import DELETED_NAME
from .banks import places_with_forfeits
from .delta import decoded, entry_texts, same
from .live import LiveTable, Round, Snapshot, compact

log = logging.getLogger("dicetable.server")

#: View fields a change message carries in their own entries rather than in ``set``.
_NOT_SET = frozenset({"log", "parts", "observation"})


def offered(game_id: str, state: GameState, seat: int) -> list[dict]:
    """The legal actions of ``seat``, ``[{"id", "label"}]``, in the view's ``legal_actions`` field.

    An action the game flags (``GameSpec.confirm_warnings``: Kingdom of Dice's choice that ends the
    turn with no Crown marker while another would not, rulebook "Checking the result") also carries ``"confirm"``, the
    warning to show before it is sent; the terminal asks the same question (docs/web.md, "Asking
    before a turn is thrown away").
    """
    actions = [a.to_json() for a in state.legal_actions(seat)]
    warnings = get_game(game_id).confirm_warnings(state, seat)
    for action in actions:
        if action["id"] in warnings:
            action["confirm"] = warnings[action["id"]]
    return actions


class Views:
    """Builds views and snapshots of live tables; ``builds`` counts the snapshots built (each viewer's
    live view, once per table revision)."""

    def __init__(self) -> None:
        self.builds = 0

    def view(self, lt: LiveTable, seat: int | None) -> dict:
        """What ``seat`` (None: a spectator) may see of ``lt`` now (WEB.md's view, plus seats and board).

        Beside WEB.md's fields: ``status`` (``running``, ``over`` or ``abandoned``), ``undos`` (actions
        taken back at this table; views are ordered by ``(undos, version)``), ``own_score`` (``GameState.own_score``; ``scores`` is the public
        ``visible_scores(None)``, the final scores once over), ``seats``, ``clock``, ``can_undo``,
        ``options`` (the game's options, defaults filled in), ``undo_seat`` (the seat that may take back the table's last move now, for every viewer: a
        hot-seat page holding that seat's token offers its undo; None when no move can be taken back),
        ``rematch`` (``{"table_id", "by"}``: the table replaying this finished one with the same seats, and
        the name of the seat that started it; None: none), ``stage`` (``GameSpec.stage(obs)``: a step its round and turn do not count, such as
        Card Kingdoms' "Choosing Dukes"; None at other times), ``confirm`` on a ``legal_actions`` item
        that throws the turn away (:func:`offered`)
        and ``board`` (the board's HTML, its keyed parts assembled; None without a board).
        """
        with lt.lock:
            snap = lt.live.get(seat)
            if snap is not None and snap.rev == lt.rev and snap.epoch == lt.epoch:
                view = {k: v for k, v in snap.view.items() if k not in ("parts", "last")}
                view["observation"] = decoded(view["observation"])
                parts = snap.view["parts"]
            else:
                view, parts = self.fields(lt, seat)
                view["log"] = self.log_lines(lt, seat)
            view["board"] = assembled(lt.game, parts)
            return view

    def fields(self, lt: LiveTable, seat: int | None) -> tuple[dict, dict | None]:
        """The view's fields but the log (set to None, in its place) and the board's parts (lock held).

        The fields that are the same for every viewer are made once per
        :meth:`sharing` round and the same objects put in every viewer's view.
        """
        state = lt.state
        over = state.is_over
        actions = []
        decision = None
        if seat is not None and not over and seat in state.to_move and not lt.seats[seat].autoplay:
            actions = offered(lt.game, state, seat)
            decision = state.decision(seat)  # never None for a seat to move (the engine's promise)
        obs = state.observation(seat)
        rnd = lt.round
        common = rnd.common if rnd is not None and rnd.common is not None else self.common(lt)
        if rnd is not None:
            rnd.common = common
        to_move, scores, winners, seats, bank, undo_seat = common
        view = {
            "table_id": lt.id,
            "game": lt.game,
            "version": lt.version,
            "undos": lt.undos,
            "over": over,
            "status": lt.status,
            "to_move": to_move,
            "decision": decision.to_json() if decision is not None else None,
            "legal_actions": actions,
            "observation": obs,
            "stage": get_game(lt.game).stage(obs),
            "log": None,
            "scores": scores,
            "own_score": self.own_score(lt, seat, scores),
            "winners": winners,
            "seat": seat,
            "players": lt.players,
            "options": lt.options,
            "seats": seats,
            "clock": lt.clock,
            "time_bank": bank,
            "can_undo": bool(seat is not None and lt.actions and lt.actions[-1] == (seat, "seat", True)
                             and not over),
            "undo_seat": undo_seat,
            "rematch": {"table_id": lt.rematch[0], "by": lt.rematch[1]} if lt.rematch is not None else None,
        }
        return view, self.parts(lt, obs, actions, seat)

    @staticmethod
    def own_score(lt: LiveTable, seat: int | None, public: list) -> dict | None:
        """``state.own_score(seat)``, given ``public`` (``visible_scores(None)``, already made for the view):
        ``GameState.own_score`` asks for it again per seat, which some games compute from scratch."""
        state = lt.state
        if type(state).own_score is not GameState.own_score:
            return state.own_score(seat)
        if seat is None or state.is_over or state.scores_all_public():  # GameState.own_score, public given
            return None
        total = state.visible_scores(seat)[seat]
        if not isinstance(total, (int, float)) or total == public[seat]:
            return None
        hidden = total - public[seat] if isinstance(public[seat], (int, float)) else total
        return {"seat": seat, "total": total, "hidden": hidden}

    def common(self, lt: LiveTable) -> tuple:
        """The view fields that are the same for every viewer: ``(to_move, scores, winners, seats, time_bank,
        undo_seat)`` (lock held)."""
        state = lt.state
        over = state.is_over
        return (list(state.to_move), list(state.visible_scores(None)), table_winners(lt) if over else [],
                self.seats_view(lt), lt.bank.to_view() if lt.bank is not None else None,
                lt.actions[-1][0] if lt.actions and lt.actions[-1][1:] == ("seat", True) and not over else None)

    @contextmanager
    def sharing(self, lt: LiveTable) -> Iterator[None]:
        """Build the snapshots of one revision inside this: what is the same for several viewers (the
        common fields, observation parts and their patches, board parts, events) is made once and
        shared (lock held). Nothing is kept past the block, so a later view sees the table afresh."""
        lt.round = Round()
        try:
            yield
        finally:
            lt.round = None

    def seats_view(self, lt: LiveTable) -> list[dict]:
        """The ``seats`` field, the same for every viewer: made once per revision (every change of a seat,
        its connections or its clock is published, which starts a revision) and shared."""
        stamp = (lt.rev, lt.epoch, len(lt.subscribers))
        if lt.seats_view is not None and lt.seats_view[0] == stamp:
            return lt.seats_view[1]
        connected = {sub.key for sub in lt.subscribers}
        out = [{"seat": s.seat, "name": s.name, "kind": s.kind, "level": s.level if s.by_bot else None,
                "autoplay": s.autoplay, "connected": s.seat in connected if s.kind == "human" else True,
                "timed_out": s.seat in lt.timed_out, "claimed": s.claimed,
                "account": s.player_id is not None and s.name != DELETED_NAME} for s in lt.seats]
        lt.seats_view = (stamp, out)
        return out

    def parts(self, lt: LiveTable, obs: dict, actions: list, seat: int | None) -> dict | None:
        """The board as keyed parts ``{part id: html}`` (None without a board, or when drawing fails)."""
        board_view = get_game(lt.game).board_view
        if board_view is None:
            return None
        try:
            return as_parts(board_view(obs, actions, seat))
        except Exception:  # a drawing bug must not take the table down: the page falls back to buttons
            log.exception("board_view of %s failed", lt.game)
            return None

    def log_lines(self, lt: LiveTable, seat: int | None, start: int = 0, skip: int = 0) -> list[str]:
        """The log lines ``seat`` may see from log position ``start`` on (server notes included), leaving
        out the first ``skip`` notes at ``start`` (those a view up to ``start`` showed already)."""
        events = lt.events  # an EventLog: text and audience read without decoding an event
        if not lt.notes:
            return [events.text(i) for i in range(start, len(events)) if events.visible_to(i, seat)]
        out: list[str] = []
        for i in range(start, lt.log_len):
            out.extend(lt.notes.get(i, ())[skip if i == start else 0:])
            if events.visible_to(i, seat):
                out.append(events.text(i))
        out.extend(lt.notes.get(lt.log_len, ())[skip if start == lt.log_len else 0:])
        return out

    def last(self, lt: LiveTable, seat: int | None, start: int = 0, last: dict | None = None) -> dict:
        """``{"<seat>": text}``: each seat's latest event ``seat`` may see, from ``last`` (up to log
        position ``start``) and the events after it."""
        out = dict(last or {})
        events = lt.events
        if start == 0 and not out:  # from scratch: look back until every seat is found
            for i in range(len(events) - 1, -1, -1):
                by = events.seat(i)
                if by is not None and str(by) not in out and events.visible_to(i, seat):
                    out[str(by)] = events.text(i)
                    if len(out) == lt.players:
                        break
            return {str(s): out[str(s)] for s in range(lt.players) if str(s) in out}
        for i in range(start, len(events)):
            by = events.seat(i)
            if by is not None and events.visible_to(i, seat):
                out[str(by)] = events.text(i)
        return {str(s): out[str(s)] for s in range(lt.players) if str(s) in out}

    def snapshot(self, lt: LiveTable, seat: int | None) -> Snapshot:
        """``seat``'s (None: the spectators') :class:`Snapshot` of ``lt`` now, built once per revision.

        The snapshot's view holds the observation as its entries' JSON texts
        (``delta.entry_texts``: strings, which the cyclic collector does not
        track), not as the game's nested lists and dicts.

        A new snapshot is built from the previous one of the same viewer
        when there is one of this epoch: its log lines and ``last`` are
        carried on, and its ``change`` message (LIVE.md section 4) is made
        here, once, for every connection of the viewer.
        """
        with lt.lock:
            prev = lt.live.get(seat)
            if prev is not None and prev.rev == lt.rev and prev.epoch == lt.epoch:
                return prev
            if prev is not None and (prev.epoch != lt.epoch or prev.log_len > lt.log_len):
                prev = None
            tail = len(lt.notes.get(lt.log_len, ()))
            if prev is None:
                view = self.live_view(lt, seat)
                rnd = lt.round
                _, view["observation"] = entry_texts(rnd.observation if rnd is not None else None, None,
                                                     view["observation"])
                other = next((o for k, o in lt.live.items() if k != seat and o.epoch == lt.epoch), None)
                if other is not None:
                    share_equal(view, other.view)
                snap = Snapshot(lt.rev, lt.epoch, view, lt.log_len, tail)
            else:
                view, parts = self.fields(lt, seat)
                old = prev.view
                lines = self.log_lines(lt, seat, prev.log_len, prev.tail)
                view["log"] = old["log"] + lines if lines else old["log"]
                view["parts"] = parts
                view["last"] = self.last(lt, seat, prev.log_len, old["last"])
                snap = Snapshot(lt.rev, lt.epoch, view, lt.log_len, tail, base=prev.rev)
                snap.change = self.change(lt, seat, prev, view, lines)
            lt.live[seat] = snap
            self.builds += 1
            return snap

    def change(self, lt: LiveTable, seat: int | None, prev: Snapshot, view: dict, lines: list[str]) -> str:
        """The change message from ``prev`` to ``view`` ("" when nothing ``seat`` sees changed).

        ``view``'s observation (the game's, as :meth:`fields` made it) is put
        in it as its entries' JSON texts (``delta.entry_texts``), compared
        with ``prev``'s texts. Within a :meth:`sharing` round, what another
        viewer's message already made is reused: an event's JSON, an
        observation entry's text and its patch, a part's HTML. ``view``'s
        observation and parts then hold the shared objects (equal values), and
        an unchanged entry or part keeps the object of ``prev``, so snapshots
        share memory and the next comparison is by identity.
        """
        old = prev.view
        rnd = lt.round
        events = []
        for i in range(prev.log_len, lt.log_len):
            if lt.events.visible_to(i, seat):
                shown = rnd.events.get(i) if rnd is not None else None
                if shown is None:
                    shown = lt.events[i].to_json()
                    shown.pop("visible", None)
                    if rnd is not None:
                        rnd.events[i] = shown
                events.append(shown)
        changed = {k: v for k, v in view.items() if k not in _NOT_SET and not same(old.get(k), v)}
        patch, view["observation"] = entry_texts(rnd.observation if rnd is not None else None,
                                                 old["observation"], view["observation"])
        new_parts, old_parts = view["parts"] or {}, old["parts"] or {}
        shared = rnd.parts if rnd is not None else None
        parts: dict[str, str | None] = {}
        was_of = old_parts.get
        for k in not_same_object(new_parts, old_parts):  # most parts are the previous snapshot's objects
            html, was = new_parts[k], was_of(k)
            if was == html:
                new_parts[k] = was  # the same text: keep one object
                continue
            if shared is not None:
                other = shared.setdefault(k, html)
                if other is not html and other == html:
                    new_parts[k] = html = other
            parts[k] = html
        if len(old_parts) > len(new_parts) or old_parts.keys() != new_parts.keys():  # parts no longer drawn
            parts.update((k, None) for k in old_parts if k not in new_parts)
        if not (events or lines or changed or patch or parts):
            return ""
        return compact({"type": "change", "undos": view["undos"], "version": view["version"],
                      "base": [old["undos"], old["version"]], "events": events, "log": lines,
                      "set": changed, "patch": patch, "parts": parts})

    def live_view(self, lt: LiveTable, seat: int | None) -> dict:
        """``seat``'s full view of the wire, built from scratch now: :meth:`view`'s fields with the board
        as keyed ``parts`` (``{part id: html}``, None without a board) instead of ``board``, and ``last``
        (``{"<seat>": text of that seat's latest event ``seat`` may see}``)."""
        with lt.lock:
            view, parts = self.fields(lt, seat)
            view["log"] = self.log_lines(lt, seat)
            view["parts"] = parts
            view["last"] = self.last(lt, seat)
            return view



def not_same_object(new: dict, old: dict) -> list:
    """The keys of ``new`` whose value is not the very object ``old`` holds under that key (new keys
    included), in ``new``'s order. Two boards of one table mostly have the same parts in the same order:
    then the values are paired in one pass in C rather than looked up one by one."""
    keys = list(new)
    if keys == list(old):
        return list(compress(keys, map(is_not, new.values(), old.values())))
    was = old.get
    return [k for k, v in new.items() if was(k) is not v]


def share_equal(view: dict, other: dict) -> None:
    """Put in ``view`` (a snapshot's view) the objects of ``other`` (another viewer's) where they hold the
    same: observation entries of the same JSON text, board parts with the same HTML; one copy is kept."""
    theirs = other["observation"]
    obs = view["observation"]
    for k, text in obs.items():
        shared = theirs.get(k)
        if shared is not None and shared is not text and shared == text:
            obs[k] = shared
    parts, their_parts = view["parts"], other["parts"]
    if parts and their_parts:
        for k, html in parts.items():
            shared = their_parts.get(k)
            if shared is not None and shared is not html and shared == html:
                parts[k] = shared


def assembled(game: str, parts: dict | None) -> str | None:
    """The board's parts assembled into one HTML string (None without parts, or when they do not fit)."""
    if parts is None:
        return None
    try:
        return assemble(parts)
    except ValueError:  # a drawing bug must not take the table down: the page falls back to buttons
        log.exception("the board parts of %s do not assemble", game)
        return None


def table_winners(lt: LiveTable) -> list[int]:
    """The seats that won ``lt``'s finished game: the rulebook's winners, unless a seat forfeited (its
    time bank ran out under the forfeit rule: docs/lobby.md), when the winners are the seats placed
    first once every forfeit is placed last (:func:`~dicetable.server.banks.places_with_forfeits`)."""
    state = lt.state
    if lt.bank is None or not lt.bank.forfeited:
        return list(state.winners)
    final = places_with_forfeits(places(state), lt.bank.forfeited)
    return [seat for seat, place in enumerate(final) if place == 1]
