"""Turn-based play (issue 28 item 5): days-per-move banks that need nobody online, My tables ordering,
the forfeit rule, banks running out after a restart or after the table left memory, and e-mail
notices through a local fake SMTP server (once per turn when on, never when off). Time is injected
(``TableManager(now=...)``), never slept."""

from __future__ import annotations

import socketserver
import threading

import pytest
from sqlalchemy import select, update

from dicetable.bots import make_bot
from dicetable.server import lobby
from dicetable.server.banks import DAY, PRESETS, places_with_forfeits
from dicetable.server.identity import Player
from dicetable.server.models import ActionRow, SeatRow, TableRow
from dicetable.server.tables import ApiError, TableManager

from .test_lobby import add_player
from .test_time_bank import T0, Clock, _manager, _wait

GAME = "kingdom-of-dice"
HOUR = 3600.0
DAILY = next(p for p in PRESETS if p["id"] == "daily")


def _turn_based(m: TableManager, pids: list[int], **extra) -> str:
    """A 2-player table on the daily preset whose seats are held by the accounts ``pids``."""
    made = m.create(GAME, 2, {}, None, None, None, bank=DAILY["bank"], increment=DAILY["increment"],
                    bank_max=DAILY["bank_max"], **extra)
    with m.store.engine.begin() as conn:
        for seat, pid in enumerate(pids):
            conn.execute(update(SeatRow).where(SeatRow.table_id == made["table_id"], SeatRow.seat == seat)
                         .values(player_id=pid))
    return made["table_id"]


def _play_turn(m: TableManager, tid: str, clock: Clock) -> int:
    """The seat to move plays its whole turn as the greedy bot would; the seat."""
    lt = m.get(tid)
    seat = lt.state.to_move[0]
    bot = make_bot("greedy", seed=lt.version)
    while seat in lt.state.to_move and not lt.state.is_over:
        m.act(tid, seat, bot.choose(lt.state, seat).id, lt.version)
    return seat


def _order(m: TableManager, player: Player) -> list[tuple[str, bool]]:
    return [(e["table_id"], e["your_move"]) for e in lobby.my_tables(m, player, [])]


def test_two_players_hours_apart_finish_a_table_with_my_tables_in_order(sqlite_url):
    clock = Clock()
    m = _manager(sqlite_url, clock)
    ada = Player(add_player(m.store, "Ada", "ada-token-0123456789abcdef"), "Ada", "api")
    bo = Player(add_player(m.store, "Bo", "bo-token-0123456789abcdef"), "Bo", "api")
    try:
        first = _turn_based(m, [ada.id, bo.id])
        clock.t += HOUR
        second = _turn_based(m, [ada.id, bo.id])
        assert m.get(first).state.to_move == (0,) and m.get(second).state.to_move == (0,), "seat 0 begins"
        # both are Ada's move: the one waiting since T0 comes before the one waiting since T0 + 1 h
        assert _order(m, ada) == [(first, True), (second, True)]
        assert _order(m, bo) == [(first, False), (second, False)]
        clock.t += 3 * HOUR
        _play_turn(m, first, clock)  # Ada moves at the first table 4 h in: Bo's move there now
        assert _order(m, ada) == [(second, True), (first, False)]
        assert _order(m, bo) == [(first, True), (second, False)]

        # the server restarts in the middle: the banks go on from the store
        m.close()
        m = _manager(sqlite_url, clock)
        assert m.get(first).bank.since[1] == T0 + 4 * HOUR, "Bo's turn began before the restart"

        turns = {0: 0, 1: 0}
        while not m.get(first).state.is_over:
            clock.t += 5 * HOUR  # five hours later the seat to move plays its turn
            seat = _play_turn(m, first, clock)
            turns[seat] += 1
            lt = m.get(first)
            if lt.state.is_over:
                break
            mover = lt.state.to_move[0]
            # Ada still has the second table to move at, waiting since T0 + 1 h: it always comes first
            assert _order(m, ada) == [(second, True), (first, mover == 0)]
            # Bo: his move first; else both wait on Ada, the second table longest (since T0 + 1 h)
            assert _order(m, bo) == ([(first, True), (second, False)] if mover == 1
                                     else [(second, False), (first, False)])
            assert lt.bank.remaining(mover, clock.t) == lt.bank.left[mover] > 0
        lt = m.get(first)
        assert lt.status == "over" and turns[0] >= 5 and turns[1] >= 5
        assert clock.t - T0 >= 10 * 5 * HOUR, "the game lasted days of injected time"
        with m.store.engine.connect() as conn:
            bys = set(conn.execute(select(ActionRow.by).where(ActionRow.table_id == first)).scalars())
        assert bys == {"seat"}, "moves five hours apart never run a daily bank out"
        # the finished table comes after the running one, which is still Ada's move
        assert _order(m, ada) == [(second, True), (first, False)]
        assert lobby.my_tables(m, ada, [])[1]["status"] == "over"
    finally:
        m.close()


def test_a_bank_runs_out_after_a_restart_and_after_the_table_left_memory(sqlite_url):
    clock = Clock()
    m = _manager(sqlite_url, clock)
    lobby.attach(m, lobby.MailSettings(), wake=False)
    try:
        tid = m.create(GAME, 2, {}, None, None, None, bank=DAY, increment=DAY, bank_max=3 * DAY)["table_id"]
        lt = m.get(tid)
        assert lt.timer is not None
        m.evict_far_flags = 120.0
        assert m.evict_idle(older=0) == [tid], "a flag a day away does not keep an idle table in memory"
        assert lobby.Waker(m).wake() == [], "nothing runs out within the next minute"
    finally:
        m.close()
    clock.t += DAY + 1  # nobody came back for a day; the server was restarted meanwhile
    m = _manager(sqlite_url, clock)
    try:
        woken = lobby.Waker(m).wake()
        assert woken == [tid], "the waker found the empty bank in the store"
        _wait(lambda: m.get(tid).version > 0, "the bot never played the seat whose bank ran out")
        with m.store.engine.connect() as conn:
            by = conn.execute(select(ActionRow.by).where(ActionRow.table_id == tid, ActionRow.seq == 1)).scalar()
        assert by == "clock"
        assert "clock ran out" in " ".join(sum(m.get(tid).notes.values(), []))
    finally:
        m.close()


def _forfeited_at_once(m: TableManager, clock: Clock) -> tuple[str, object]:
    """A 2-player daily table under the forfeit rule whose seat 0 lets its first bank run out: its id
    and live table."""
    tid = m.create(GAME, 2, {}, None, None, None, bank=DAY, increment=DAY, on_time_out="forfeit")["table_id"]
    clock.t += DAY + 1
    assert m.check_clock(tid) == [0]
    return tid, m.get(tid)


def test_the_forfeit_rule_places_the_seat_last_and_lets_its_bot_play_on(sqlite_url):
    clock = Clock()
    m = _manager(sqlite_url, clock)
    try:
        tid, lt = _forfeited_at_once(m, clock)
        assert lt.bank.forfeited == [0] and lt.seats[0].autoplay
        view = m.view(lt, None)
        assert view["time_bank"]["forfeited"] == [0] and view["time_bank"]["on_empty"] == "forfeit"
        with pytest.raises(ApiError) as err:
            m.take_back(tid, 0, 0)
        assert err.value.status == 409 and "forfeited" in str(err.value.detail)
        _wait(lambda: lt.version > 0, "the bot never played the forfeited seat")
        assert any("forfeits (placed last)" in n for n in sum(lt.notes.values(), []))
    finally:
        m.close()
    m = _manager(sqlite_url, clock)  # kept in the store
    try:
        assert m.get(tid).bank.forfeited == [0]
    finally:
        m.close()


@pytest.mark.parametrize("rated", [False, True])
def test_without_a_rule_a_rated_table_forfeits_and_another_lets_the_bot_play(sqlite_url, rated):
    clock = Clock()
    m = _manager(sqlite_url, clock)
    try:
        ada = add_player(m.store, "Ada", "ada-token-0123456789abcdef")
        seats = [{"kind": "human", "player_id": ada, "player": "Ada", "token_too": True}, {"kind": "human"}]
        tid = m.create(GAME, 2, {}, None, seats, None, bank=DAY, increment=DAY, rated=rated, listed=True)["table_id"]
        assert m.view(m.get(tid), None)["time_bank"]["on_empty"] == ("forfeit" if rated else "bot")
        clock.t += DAY + 1
        assert m.check_clock(tid) == [0]
        lt = m.get(tid)
        assert lt.bank.forfeited == ([0] if rated else [])
        assert lt.seats[0].autoplay is rated, "the bot rule plays the turn only; the seat stays its holder's"
    finally:
        m.close()


def test_a_table_made_before_the_rule_was_stored_forfeits_when_rated(sqlite_url):
    """Tables created before the rule was decided at creation keep none (``on_empty`` None): the
    default then depends on whether the table is rated, read when a bank runs out."""
    clock = Clock()
    m = _manager(sqlite_url, clock)
    try:
        tid = m.create(GAME, 2, {}, None, None, None, bank=DAY, increment=DAY)["table_id"]
        lt = m.get(tid)
        lt.bank.on_empty = None  # as such a table is stored
        with m.store.engine.begin() as conn:
            conn.execute(update(TableRow).where(TableRow.id == tid).values(rated=True,
                                                                          time_bank=lt.bank.to_text()))
        clock.t += DAY + 1
        assert m.check_clock(tid) == [0]
        assert m.get(tid).bank.forfeited == [0]
    finally:
        m.close()


def test_the_winner_by_score_who_forfeited_is_not_shown_as_winner(sqlite_url):
    clock = Clock()
    m = _manager(sqlite_url, clock)
    try:
        tid, lt = _forfeited_at_once(m, clock)
        while not lt.state.is_over:  # seat 1 plays on; seat 0's bot plays the forfeited seat
            if 1 in lt.state.to_move:
                m.act(tid, 1, make_bot("random", seed=lt.version).choose(lt.state, 1).id, lt.version)
            else:
                _wait(lambda v=lt.version: lt.version > v or lt.state.is_over, "the forfeited seat's bot stalled")
        view = m.view(lt, None)
        assert view["winners"] == [1], "seat 0 forfeited: placed last whatever its score, so seat 1 wins"
        assert view["time_bank"]["forfeited"] == [0]
    finally:
        m.close()


def test_forfeits_are_placed_last_and_the_others_move_up():
    assert places_with_forfeits([1, 2, 3], []) == [1, 2, 3]
    # the winner by score forfeited: placed last; the others move up
    assert places_with_forfeits([1, 2, 3], [0]) == [3, 1, 2]
    # two forfeits share the last place; a shared first place stays shared
    assert places_with_forfeits([1, 1, 3, 4], [2, 3]) == [1, 1, 3, 3]
    assert places_with_forfeits([2, 1], [1]) == [1, 2]


# ------------------------------------------------------------------ e-mail
class FakeSMTP(socketserver.ThreadingTCPServer):
    """A local SMTP server that keeps every message's recipients and text (enough of RFC 5321 for smtplib)."""

    allow_reuse_address = True
    daemon_threads = True

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], str]] = []
        super().__init__(("127.0.0.1", 0), _SMTPHandler)


class _SMTPHandler(socketserver.StreamRequestHandler):
    def handle(self) -> None:
        server: FakeSMTP = self.server  # type: ignore[assignment]
        say = lambda line: self.wfile.write(line.encode() + b"\r\n")  # noqa: E731
        say("220 fake ESMTP")
        rcpt: list[str] = []
        while True:
            line = self.rfile.readline().decode().rstrip("\r\n")
            verb = line[:4].upper()
            if not line and self.rfile.closed:
                return
            if verb in ("EHLO", "HELO"):
                say("250 fake")
            elif verb == "MAIL":
                rcpt = []
                say("250 ok")
            elif verb == "RCPT":
                rcpt.append(line.split(":", 1)[1].strip(" <>"))
                say("250 ok")
            elif verb == "DATA":
                say("354 go on")
                body = []
                while (data := self.rfile.readline().decode()) not in (".\r\n", ""):
                    body.append(data)
                server.messages.append((rcpt, "".join(body)))
                say("250 kept")
            elif verb == "QUIT":
                say("221 bye")
                return
            elif not line:
                return
            else:
                say("250 ok")


@pytest.fixture
def smtp():
    server = FakeSMTP()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _mail_game(url: str, mail: lobby.MailSettings, notify: tuple[bool, bool]) -> tuple[lobby.Lobby, int]:
    """Play a whole turn-based table with e-mail settings ``mail`` (players asking for mail per ``notify``);
    the lobby parts and how many turns Ada's seat began."""
    clock = Clock()
    m = _manager(url, clock)
    try:
        ada = add_player(m.store, "Ada", "ada-token-0123456789abcdef", "ada@example.org", notify[0])
        bo = add_player(m.store, "Bo", "bo-token-0123456789abcdef", "bo@example.org", notify[1])
        tid = _turn_based(m, [ada, bo])
        parts = lobby.attach(m, mail, wake=False)  # from now on: her first turn began before, at creation
        ada_turns = 0
        while not m.get(tid).state.is_over:
            clock.t += 7 * HOUR
            seat = _play_turn(m, tid, clock)
            lt = m.get(tid)
            ada_turns += seat == 1 and not lt.state.is_over and lt.state.to_move == (0,)
        parts.notices.flush()
    finally:
        m.close()
    return parts, ada_turns


def test_the_smtp_notice_is_sent_once_per_turn_when_on(sqlite_url, smtp):
    mail = lobby.MailSettings(host="127.0.0.1", port=smtp.server_address[1], public_url="https://dice.example")
    parts, ada_turns = _mail_game(sqlite_url, mail, (True, False))
    to_ada = [text for rcpt, text in smtp.messages if rcpt == ["ada@example.org"]]
    assert len(to_ada) == ada_turns >= 5, "one mail each time Ada's turn began, no more"
    assert len(smtp.messages) == len(to_ada), "Bo did not ask for e-mail: none for him"
    assert "Your move" in to_ada[0] and "https://dice.example/tables/" in to_ada[0]
    assert parts.notices.sent == ada_turns and parts.notices.failed == 0


def test_no_mail_when_smtp_is_off(sqlite_url, smtp):
    parts, ada_turns = _mail_game(sqlite_url, lobby.MailSettings(), (True, True))
    assert ada_turns >= 5 and smtp.messages == [] and parts.notices.sent == 0
    assert lobby.MailSettings.from_env({}).host is None, "off by default"


def test_mail_settings_refuse_a_bad_port_naming_the_variable():
    with pytest.raises(ValueError, match="DICETABLE_SMTP_PORT='smtp'"):
        lobby.MailSettings.from_env({"DICETABLE_SMTP_HOST": "mail", "DICETABLE_SMTP_PORT": "smtp"})
    made = lobby.MailSettings.from_env({"DICETABLE_SMTP_HOST": "mail", "DICETABLE_SMTP_PORT": "2525"})
    assert (made.host, made.port, made.starttls) == ("mail", 2525, False)


def test_table_winners_place_a_forfeit_last_even_the_rulebook_winner():
    from types import SimpleNamespace

    from dicetable.engine import Rng, new_game, places
    from dicetable.engine.testing import random_playout
    from dicetable.server.banks import TimeBank
    from dicetable.server.views import table_winners

    state = next(s for s in (random_playout(new_game(GAME, 3, seed=n), Rng(n)).state for n in range(200))
                 if tuple(s.winners) == (0,))
    bank = TimeBank.new(3, DAY, DAY, None, "forfeit")
    assert table_winners(SimpleNamespace(state=state, bank=bank)) == [0], "no forfeit: the rulebook's winner"
    bank.forfeited.append(0)
    # seat 0 won by the rules but forfeited: the winners are the seats placed first among the others
    others = [s for s in (1, 2) if places_with_forfeits(places(state), [0])[s] == 1]
    assert table_winners(SimpleNamespace(state=state, bank=bank)) == others and 0 not in others and others
