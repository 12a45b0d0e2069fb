"""The open lobby, "My tables" and turn-based notices (docs/lobby.md).

*Open lobby.* A table created with ``"listed": true`` is shown by
:func:`open_tables` while it runs and has an *open* seat: a human seat whose
token was never used, whose invite was never claimed and that no account
holds. Anyone takes one with :func:`take_seat` (one click in the lobby): the
same as claiming the seat's invite (``TableManager.claim``): a fresh token
for the joiner, the creator's copy revoked, the invite used up; a signed-in
joiner's account is written to ``seats.player_id``. The *host* is whoever
holds a seat with the creation answer's token (a human seat not claimed by an
invite or the lobby); :func:`start_with_bots` lets the host put bots in the
open seats so the table need not wait.

*My tables.* :func:`my_tables` lists the tables a player sits at (an
account's seats, or the seats of the tokens a guest's browser holds), those
where it is their move first, each group longest waiting first.

*Turn-based play.* A chess clock whose increment is at least
``banks.TURN_BASED`` seconds is turn-based: it needs nobody online. Its state
is stored with the table after every turn change, so :class:`Waker` (every
:data:`WAKE_EVERY` seconds) finds in the store the banks that run out soon and
loads their tables, whose timers then fire on time, after a restart or after
the table left memory. When a turn begins at a turn-based table,
:class:`TurnNotices` e-mails the seat's player if the server has an SMTP
server configured (:class:`MailSettings`, off by default) and the player asked
for it (``players.email``, ``players.notify_email``).
"""

from __future__ import annotations

import logging
import os
import queue
import smtplib
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from typing import Any

from sqlalchemy import and_, func, or_, select, update

from dicetable.engine import list_games, seat_name

from .banks import PRESETS, TimeBank
from .errors import ApiError, quoted
from .identity import Player
from .ids import hash_token, new_token
from .live import LiveTable
from .models import ActionRow, PlayerRow, SeatRow, TableRow
from .store import as_utc, iso_utc
from .tables import LEVELS, TableManager

log = logging.getLogger("dicetable.server")

#: Seconds between the waker's looks at the stored banks, and how far ahead it looks.
WAKE_EVERY = 60.0
#: The clock filters of ``GET /api/lobby`` besides the preset ids: no clock, any live clock, any turn-based one.
CLOCK_KINDS = ("none", "live", "turn-based")
#: Most tables one lobby or My tables answer holds.
MAX_LIST = 100


# ------------------------------------------------------------------ clocks
def clock_of(clock: int | None, time_bank: str | None) -> tuple[str, str]:
    """``(preset, kind)`` of a table's clock: the id of the preset it equals (``custom`` for none,
    ``none`` without a clock) and its kind, one of :data:`CLOCK_KINDS`."""
    if time_bank:
        bank = TimeBank.from_text(time_bank)
        kind = "turn-based" if bank.turn_based else "live"
        for p in PRESETS:
            if (p.get("bank"), p.get("increment", 0), p.get("bank_max")) == (bank.bank, bank.increment,
                                                                               bank.bank_max):
                return p["id"], kind
        return "custom", kind
    if clock is not None:
        return next((p["id"] for p in PRESETS if p.get("clock") == clock), "custom"), "live"
    return "none", "none"


def check_filters(game: str | None, players: int | None, clock: str | None) -> None:
    """ApiError 422 naming what is allowed for an unknown ``game``, a ``players`` count no game
    has, or a ``clock`` that is neither a preset id nor one of :data:`CLOCK_KINDS`."""
    games = list_games()
    if game is not None and not any(g.id == game for g in games):
        raise ApiError(422, f"game={game!r} is not a game here; games: {', '.join(g.id for g in games)}")
    low, high = min(g.min_players for g in games), max(g.max_players for g in games)
    if players is not None and not low <= players <= high:
        raise ApiError(422, f"players={players} is no table's player count: {low} to {high}")
    clocks = [*CLOCK_KINDS, *(p["id"] for p in PRESETS)]
    if clock is not None and clock not in clocks:
        raise ApiError(422, f"clock={clock!r} is not a clock filter; give one of: {', '.join(clocks)}")


def _open(seat: Any) -> bool:
    """True for an open seat row: a human seat never used, never claimed, held by no account."""
    return (seat.kind == "human" and not seat.joined and not seat.claimed and seat.invite_hash is not None
            and seat.player_id is None)


# ------------------------------------------------------------------ the open lobby
def open_tables(manager: TableManager, *, game: str | None = None, players: int | None = None,
                clock: str | None = None, rated: bool | None = None, limit: int = MAX_LIST) -> list[dict]:
    """The listed running tables with at least one open seat, oldest first (they have waited
    longest), filtered by ``game``, ``players``, ``clock`` (a preset id or a clock kind) and ``rated``.

    Each: ``{"table_id", "game", "players", "rated", "clock", "clock_kind", "created",
    "seats": [{"seat", "kind", "level", "name", "open"}], "open_seats": [seat numbers]}``.
    ApiError 422 for a bad filter (:func:`check_filters`).
    """
    check_filters(game, players, clock)
    q = (select(TableRow.id, TableRow.game, TableRow.players, TableRow.rated, TableRow.clock,
                TableRow.time_bank, TableRow.created)
         .where(TableRow.listed.is_(True), TableRow.status == "running", TableRow.seed_chosen.is_(False))
         .order_by(TableRow.created, TableRow.id))
    if game is not None:
        q = q.where(TableRow.game == game)
    if players is not None:
        q = q.where(TableRow.players == players)
    if rated is not None:
        q = q.where(TableRow.rated.is_(rated))
    out: list[dict] = []
    with manager.store.engine.connect() as conn:
        tables = [t for t in conn.execute(q).all()
                  if clock is None or clock in clock_of(t.clock, t.time_bank)]
        seats: dict[str, list] = {}
        for s in conn.execute(select(SeatRow).where(SeatRow.table_id.in_([t.id for t in tables]))
                              .order_by(SeatRow.seat)).all():
            seats.setdefault(s.table_id, []).append(s)
    for t in tables:
        rows = seats.get(t.id, [])
        free = [s.seat for s in rows if _open(s)]
        if not free:
            continue
        preset, kind = clock_of(t.clock, t.time_bank)
        out.append({"table_id": t.id, "game": t.game, "players": t.players, "rated": bool(t.rated),
                    "clock": preset, "clock_kind": kind, "created": iso_utc(t.created),
                    "seats": [{"seat": s.seat, "kind": s.kind, "level": s.level if s.kind == "bot" else None,
                               "name": s.name, "open": s.seat in free} for s in rows],
                    "open_seats": free})
        if len(out) >= limit:
            break
    return out


def _listed_row(conn: Any, table_id: str) -> Any:
    """The table row of a listed running table; ApiError 404 / 409 saying why it is not one."""
    t = conn.execute(select(TableRow.listed, TableRow.status, TableRow.seed_chosen, TableRow.rated)
                     .where(TableRow.id == table_id)).first()
    if t is None:
        raise ApiError(404, f"there is no table {quoted(table_id)}; the lobby lists the tables with open seats")
    if not t.listed:
        raise ApiError(403, "this table is not in the open lobby: only its host's invite links give its seats")
    if t.status != "running":
        raise ApiError(409, f"this table is {t.status}: its seats can no longer be taken")
    return t


def take_seat(manager: TableManager, table_id: str, seat: int | None = None,
              player: Player | None = None) -> dict:
    """Take an open seat of a listed table (``seat``; None: the first open one) as a guest or as
    ``player``: ``{"seat", "token", "link"}``, as a claimed invite answers. The token is fresh, the
    creator's copy of the seat's token is revoked and its invite used up; a player's account is
    written to the seat (``seats.player_id``).

    ApiError 404 (no such table), 403 (not listed; a guest at a rated table), 409 (not running; the seat was taken meanwhile;
    no open seat left; the player already sits there), 422 (a seat the table does not have).
    """
    engine = manager.store.engine
    with engine.connect() as conn:
        table = _listed_row(conn, table_id)
        rows = conn.execute(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)).all()
    if table.rated and player is None:
        raise ApiError(403, "this table is rated: sign in (or sign up) to take one of its seats; "
                            "tables that are not rated take guests")
    if seat is not None and not 0 <= seat < len(rows):
        raise ApiError(422, f"seat={seat}: this table has seats 0 to {len(rows) - 1}")
    if player is not None and any(r.player_id == player.id for r in rows):
        raise ApiError(409, f"{player.name} sits at this table already: see My tables")
    free = [r for r in rows if _open(r) and (seat is None or r.seat == seat)]
    if not free:
        # shown as it is on the lobby page (a race: two players took the last seat at once): a player's words
        taken = ("that seat is not open: someone took it a moment before you, or it is not a person's seat"
                 if seat is not None else "no seat is open: someone took the last seat a moment before you")
        raise ApiError(409, f"{taken}; the lobby lists the tables with open seats")
    row = free[0]
    token = new_token()
    assert row.invite_hash is not None  # an open seat's invite is unclaimed
    # the seat's invite, claimed as its link would be (one of two claims wins), and the account with it
    if not manager.store.claim(table_id, row.seat, row.invite_hash, hash_token(token),
                               player_id=None if player is None else player.id,
                               name=None if player is None else player.name):
        raise ApiError(409, f"someone took {seat_name(row.seat)} a moment before you; the lobby lists the "
                            "tables with open seats")
    manager.refresh(table_id)  # the cached table takes the seat's new holder from the store
    return {"seat": row.seat, "token": token, "link": f"/tables/{table_id}#token={token}"}


def start_with_bots(manager: TableManager, table_id: str, host_seat: int, level: str | None = None) -> dict:
    """The host (``host_seat``, held with the creation answer's token) puts bots in every open seat,
    at ``level`` (None: each seat's stand-in level), so the table need not wait for strangers.
    ``{"table_id", "bots": [seat numbers]}``. ApiError 403 for a seat that is not the host's,
    409 when no seat is open, 422 for an unknown level."""
    if level is not None and level not in LEVELS:
        raise ApiError(422, f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
    engine = manager.store.engine
    with engine.connect() as conn:
        _listed_row(conn, table_id)
        rows = conn.execute(select(SeatRow).where(SeatRow.table_id == table_id)).all()
    host = next((r for r in rows if r.seat == host_seat), None)
    if host is None or host.kind != "human" or host.claimed:
        raise ApiError(403, "only the table's host (a seat held with the token the table was created with) "
                            "may start it with bots")
    free = [r for r in rows if _open(r) and r.seat != host_seat]
    if not free:
        raise ApiError(409, "no seat is open: the table is full already")
    bots = []
    with engine.begin() as conn:
        for r in free:  # a seat a stranger takes meanwhile stays theirs
            done = conn.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == r.seat,
                                                      SeatRow.invite_hash == r.invite_hash, SeatRow.joined.is_(False))
                                .values(kind="bot", level=level or r.level, token_hash=None, invite_hash=None,
                                        name=seat_name(r.seat)))
            if done.rowcount == 1:
                bots.append(r.seat)
        manager.store.notify_seats(conn, table_id)
    manager.refresh(table_id)  # the cached table reloads its seats; the new bots start if they are to move
    return {"table_id": table_id, "bots": bots}


# ------------------------------------------------------------------ My tables
def my_tables(manager: TableManager, player: Player | None, tokens: list[str], limit: int = MAX_LIST) -> list[dict]:
    """Every table where ``player`` holds a seat or one of ``tokens`` does, those where it is the
    seat's move first, then by how long it has waited (longest first), then finished ones (newest
    first). Each: ``{"table_id", "game", "seat", "name", "status", "version", "your_move",
    "to_move": [seats], "waiting_since" (POSIX seconds: when the running turn began), "deadline"
    (POSIX seconds when the turn's bank runs out, or None), "turn_based", "host", "open_seats",
    "forfeited", "rated", "names": [every seat's name, in seat order; a bot seat as "<level> bot"]}``."""
    hashes = [hash_token(t) for t in tokens]
    cond = []
    if player is not None:
        cond.append(SeatRow.player_id == player.id)
    if hashes:
        cond.append(SeatRow.token_hash.in_(hashes))
    if not cond:
        return []
    with manager.store.engine.connect() as conn:
        mine = conn.execute(select(SeatRow.table_id, SeatRow.seat, SeatRow.name, SeatRow.claimed, TableRow.status,
                                   TableRow.game, TableRow.created, TableRow.listed, TableRow.rated)
                            .join(TableRow, TableRow.id == SeatRow.table_id).where(or_(*cond))
                            .order_by(TableRow.created.desc()).limit(4 * limit)).all()
        ids = list({r.table_id for r in mine})
        last = dict(conn.execute(select(ActionRow.table_id, func.max(ActionRow.created))
                                 .where(ActionRow.table_id.in_(ids)).group_by(ActionRow.table_id)).all())
        open_counts: dict[str, int] = {}
        names: dict[str, dict[int, str]] = {}
        for s in conn.execute(select(SeatRow).where(SeatRow.table_id.in_(ids))).all():
            open_counts[s.table_id] = open_counts.get(s.table_id, 0) + _open(s)
            names.setdefault(s.table_id, {})[s.seat] = s.name if s.kind == "human" else f"{s.level} bot"
    entries = []
    for r in mine:
        changed = last.get(r.table_id) or r.created
        entry: dict[str, Any] = {
            "table_id": r.table_id, "game": r.game, "seat": r.seat, "name": r.name, "status": r.status,
            "version": None, "your_move": False, "to_move": [], "deadline": None, "turn_based": False,
            "waiting_since": _posix(changed), "host": not r.claimed,
            "open_seats": open_counts.get(r.table_id, 0) if r.listed and r.status == "running" else 0,
            "forfeited": False, "rated": bool(r.rated),
            "names": [names.get(r.table_id, {}).get(n, seat_name(n)) for n in range(len(names.get(r.table_id, {})))]}
        if r.status == "running":
            try:
                _fill_running(manager.get(r.table_id), r.seat, entry)
            except ApiError:  # gone from the database meanwhile
                continue
        entries.append(entry)
    running = [e for e in entries if e["status"] == "running"]
    done = [e for e in entries if e["status"] != "running"]
    running.sort(key=lambda e: (not e["your_move"], e["waiting_since"] or 0.0, e["table_id"]))
    return (running + done)[:limit]


def _posix(when: datetime | None) -> float | None:
    """A stored time as POSIX seconds (SQLite gives it back without its zone: it was stored as UTC)."""
    return None if when is None else as_utc(when).timestamp()


def _fill_running(lt: LiveTable, seat: int, entry: dict) -> None:
    """Fill a My tables entry from the live table ``lt`` (who is to move, since when, until when)."""
    with lt.lock:
        to_move = [s for s in lt.state.to_move]
        entry["version"] = lt.version
        entry["status"] = lt.status
        entry["to_move"] = to_move
        entry["your_move"] = seat in to_move and not lt.seats[seat].by_bot and lt.status == "running"
        if lt.bank is not None:
            entry["turn_based"] = lt.bank.turn_based
            entry["forfeited"] = seat in lt.bank.forfeited
            since = lt.bank.waiting_since(to_move)
            if since is not None:
                entry["waiting_since"] = since
            started = lt.bank.since[seat]
            if entry["your_move"] and started is not None:
                entry["deadline"] = started + lt.bank.left[seat]


# ------------------------------------------------------------------ e-mail
@dataclass(frozen=True)
class MailSettings:
    """The SMTP server turn notices are sent through (None ``host``: no e-mail at all, the default).

    From the environment (:meth:`from_env`): ``DICETABLE_SMTP_HOST``,
    ``DICETABLE_SMTP_PORT`` (default 25), ``DICETABLE_SMTP_FROM`` (default
    ``dicetable@localhost``), ``DICETABLE_SMTP_STARTTLS`` (``on``/``off``,
    default off), ``DICETABLE_SMTP_USER`` and ``DICETABLE_SMTP_PASSWORD``
    (sign in when both are given), ``DICETABLE_PUBLIC_URL`` (the server's
    address as players reach it, for the link in the mail).
    """

    host: str | None = None
    port: int = 25
    sender: str = "dicetable@localhost"
    starttls: bool = False
    user: str | None = None
    password: str | None = None
    public_url: str = "http://127.0.0.1:8000"

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> "MailSettings":
        """Read the settings; ValueError naming the variable and what is allowed for a bad value."""
        env = dict(os.environ if env is None else env)
        port_text = env.get("DICETABLE_SMTP_PORT", "").strip() or "25"
        if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
            raise ValueError(f"DICETABLE_SMTP_PORT={port_text!r} is not a port: give 1 to 65535")
        tls = env.get("DICETABLE_SMTP_STARTTLS", "").strip().lower() or "off"
        if tls not in ("on", "off"):
            raise ValueError(f"DICETABLE_SMTP_STARTTLS={tls!r}: give on or off")
        return cls(host=env.get("DICETABLE_SMTP_HOST", "").strip() or None, port=int(port_text),
                   sender=env.get("DICETABLE_SMTP_FROM", "").strip() or cls.sender, starttls=tls == "on",
                   user=env.get("DICETABLE_SMTP_USER") or None, password=env.get("DICETABLE_SMTP_PASSWORD") or None,
                   public_url=(env.get("DICETABLE_PUBLIC_URL", "").strip() or cls.public_url).rstrip("/"))


class TurnNotices:
    """E-mails a player when their turn begins at a turn-based table (once per turn), off the table's
    lock in one worker thread. ``sent`` counts the mails handed to the SMTP server, ``failed`` those it
    refused or could not be reached for (logged, never raised: the game goes on)."""

    def __init__(self, manager: TableManager, mail: MailSettings) -> None:
        self.manager = manager
        self.mail = mail
        self.sent = 0
        self.failed = 0
        self.jobs: queue.Queue[tuple[str, str, int]] = queue.Queue()
        self.thread: threading.Thread | None = None

    def turn_began(self, lt: LiveTable, seats: list[int]) -> None:
        """The table manager's turn hook (lock held): queue a notice per seat whose turn began."""
        if self.mail.host is None or lt.bank is None or not lt.bank.turn_based:
            return
        for seat in seats:
            if lt.seats[seat].kind == "human" and not lt.seats[seat].by_bot:
                self.jobs.put((lt.id, lt.game, seat))
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, name="dicetable-mail", daemon=True)
            self.thread.start()

    def flush(self, timeout: float = 10.0) -> None:
        """Wait until every queued notice was handled (tests)."""
        deadline = time.monotonic() + timeout
        while self.jobs.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.01)

    def _run(self) -> None:
        while True:
            job = self.jobs.get()
            try:
                self._send(*job)
            except Exception:  # a mail server away must not stop the next notices
                self.failed += 1
                log.warning("turn notice for %s seat %s not sent", job[0], job[2], exc_info=True)
            finally:
                self.jobs.task_done()

    def _send(self, table_id: str, game: str, seat: int) -> None:
        with self.manager.store.engine.connect() as conn:
            row = conn.execute(select(PlayerRow.name, PlayerRow.email)
                               .join(SeatRow, and_(SeatRow.player_id == PlayerRow.id, SeatRow.table_id == table_id,
                                                   SeatRow.seat == seat))
                               .where(PlayerRow.notify_email.is_(True), PlayerRow.deleted.is_(False),
                                      PlayerRow.email.is_not(None))).first()
        if row is None:
            return
        names = {g.id: g.name for g in list_games()}
        msg = EmailMessage()
        msg["From"] = self.mail.sender
        msg["To"] = row.email
        msg["Subject"] = f"Your move: {names.get(game, game)} at dicetable"
        msg.set_content(f"Hello {row.name},\n\nit is your move at a turn-based table of {names.get(game, game)} "
                        f"({seat_name(seat)}).\nMy tables: {self.mail.public_url}/#my-tables\n"
                        f"The table: {self.mail.public_url}/tables/{table_id}\n\n"
                        "You get this because you asked for an e-mail when it is your move; "
                        "turn it off on your account page.\n")
        assert self.mail.host is not None
        with smtplib.SMTP(self.mail.host, self.mail.port, timeout=20) as smtp:
            if self.mail.starttls:
                smtp.starttls()
            if self.mail.user and self.mail.password:
                smtp.login(self.mail.user, self.mail.password)
            smtp.send_message(msg)
        self.sent += 1


# ------------------------------------------------------------------ the waker
class Waker:
    """Brings back into memory the tables whose turn-based bank runs out within :data:`WAKE_EVERY`
    seconds (their timers then fire on time), looking every :data:`WAKE_EVERY` seconds; so a bank runs
    out on time after a restart and after its idle table left memory."""

    def __init__(self, manager: TableManager, every: float = WAKE_EVERY) -> None:
        self.manager = manager
        self.every = every

    def due(self, horizon: float | None = None) -> list[str]:
        """Ids of running tables whose earliest running bank runs out by ``now + horizon`` (default
        :attr:`every`), read from the store."""
        until = self.manager.now() + (self.every if horizon is None else horizon)
        with self.manager.store.engine.connect() as conn:
            rows = conn.execute(select(TableRow.id, TableRow.time_bank)
                                .where(TableRow.status == "running", TableRow.time_bank.is_not(None))).all()
        out = []
        for r in rows:
            try:
                flag = TimeBank.from_text(r.time_bank).next_flag()
            except (ValueError, KeyError, TypeError):
                continue
            if flag is not None and flag[0] <= until:
                out.append(r.id)
        return out

    def wake(self) -> list[str]:
        """Load every :meth:`due` table not in memory; the ids loaded. Loading sets the table's timer
        (by the process that drives it, with several server processes), which fires when the bank runs
        out, at once for a bank already empty."""
        woken = []
        for table_id in self.due():
            if table_id in self.manager.tables:
                continue
            try:
                self.manager.get(table_id)
                woken.append(table_id)
            except ApiError:
                continue
        return woken

    def _again(self) -> None:
        try:
            self.wake()
        except Exception:  # the database away: look again next time
            log.exception("waking turn-based tables failed")
        if not self.manager.closed:
            self.manager.timers.schedule(self.every, self._again)

    def start(self) -> None:
        """Look now (the timer thread) and every :attr:`every` seconds after."""
        self.manager.timers.schedule(0.0, self._again)


@dataclass
class Lobby:
    """What :func:`attach` adds to a table manager: the turn notices and the waker."""

    notices: TurnNotices
    waker: Waker


def attach(manager: TableManager, mail: MailSettings | None = None, *, wake: bool = True) -> Lobby:
    """Give ``manager`` turn-based play: e-mail notices (``mail``; default from the environment) on
    each turn's start, and (``wake``) the waker, which also lets idle tables whose bank runs out
    later than the next look leave memory."""
    notices = TurnNotices(manager, mail if mail is not None else MailSettings.from_env())
    manager.turn_hooks.append(notices.turn_began)
    waker = Waker(manager)
    if wake:
        manager.evict_far_flags = 2 * waker.every
        waker.start()
    return Lobby(notices, waker)

