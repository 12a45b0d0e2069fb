"""Accounts (WEB.md, Players): names, passwords, sign-in tokens, CSRF tokens, the sign-in throttle, deletion.

An account is optional: guests play from links as before. What is stored
(docs/accounts.md): the name as typed and its case-folded key (unique), the
argon2id hash of the password (argon2-cffi's ``PasswordHasher``: the
password itself is never stored), the SHA-256 hashes of the account's
tokens (a browser sign-in's ``session`` token, which is also its cookie,
and personal ``api`` tokens for programs), and which seats the account
holds (``seats.player_id``).

Names (:func:`check_name`): 3 to :data:`NAME_MAX` characters; letters (of
one script: Latin, Greek, Cyrillic, ..., Chinese and Japanese count as one)
and digits, with ``_``, ``-`` or ``.`` between them (never first, last or
two in a row); written in their plain Unicode form (NFKC: no full-width,
ligature or other compatibility look-alikes); no space, control, invisible
or blank-looking character; not a name the tables give to others
("deleted player", "Player 2", a bot's level, "guest", ...).

Passwords (:func:`check_password`): :data:`PASSWORD_MIN` to
:data:`PASSWORD_MAX` characters, not the name itself.

CSRF (:func:`csrf_token`): a state-changing request authenticated by the
session cookie must carry ``X-CSRF-Token`` equal to a value derived from
that cookie; another site cannot read the cookie (HttpOnly) nor this value,
and cannot set that header without the browser asking this server first
(CORS), which it never allows. ``security.CsrfGuard`` enforces it.

E-mail (:func:`check_email`): optional, only for move notices at
turn-based tables (``server/lobby.py``); one ``local@domain`` address of at
most :data:`EMAIL_MAX` characters, without spaces, control characters or
the characters that separate addresses in a mail header.

Throttle (:class:`SignInThrottle`): wrong passwords are counted per (name,
address) pair, per client address and per name in a sliding window, in the
database (every process counts the same); past a limit, sign-in answers 429
with ``Retry-After`` without trying the password. A stranger's wrong
passwords never keep a player out of their own name from another address.
"""

from __future__ import annotations

import hashlib
import re
import time
import unicodedata
import weakref
from typing import Callable, Iterable

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from dicetable.engine import seat_name

from .bots import LEVELS
from .errors import ApiError
from .identity import Player
from .ids import hash_token, new_token
from .models import PlayerRow, PlayerTokenRow, SeatRow, SignInFailureRow, TableRow
from .store import now

#: Shortest and longest account name, in characters.
NAME_MIN, NAME_MAX = 3, 24
#: Shortest and longest password, in characters.
PASSWORD_MIN, PASSWORD_MAX = 10, 200
#: The name shown for the seats of a deleted account (in replays and finished tables).
DELETED_NAME = "deleted player"
#: Separators allowed between letters and digits of a name.
SEPARATORS = "_-."
#: Keys (case-folded, separators dropped) no account may take: names the tables give to others.
RESERVED = frozenset({
    "deletedplayer", "deleted", "guest", "spectator", "anonymous", "admin", "administrator", "moderator",
    "system", "server", "dicetable", "bot", "bots", "you", "nobody", "player", "seat",
})
#: Reserved patterns: the seats' default names ("Player 3"), bots and their levels ("bot7", "hardbot", "greedy").
_LEVELS = "|".join(LEVELS)
RESERVED_PATTERN = re.compile(rf"(player|seat|guest)\d*|({_LEVELS})?(bot\d*)?|bot({_LEVELS})\d*")
#: Longest e-mail address, in characters (RFC 5321's limit on a path), and its local part.
EMAIL_MAX, EMAIL_LOCAL_MAX = 254, 64
#: A domain label: letters or digits (any script), hyphens inside.
_LABEL = re.compile(r"[^\W_](?:[^\W_]|-)*(?<!-)")
#: Characters an address may not hold: spaces, the header's separators and quoting, angle brackets.
_EMAIL_FORBIDDEN = frozenset(' ,;:<>()[]\\"\'`')
#: Wrong passwords allowed within :data:`THROTTLE_WINDOW` seconds per (name, address) pair, per client
#: address (over all names), and per name from all addresses (past which only addresses with no wrong
#: password for the name may try it): :class:`SignInThrottle`, docs/security.md.
PAIR_FAILURES, ADDRESS_FAILURES, NAME_FAILURES = 10, 20, 30
THROTTLE_WINDOW = 15 * 60.0

#: Scripts counted as one for the one-script rule (Japanese mixes kanji and kana).
_SCRIPT_GROUPS = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "KATAKANA-HIRAGANA": "CJK", "HALFWIDTH": "CJK"}
#: Letters that draw nothing (Hangul fillers, the blank Braille pattern).
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\U0001d159")

_hasher = PasswordHasher()  # argon2id with argon2-cffi's defaults (RFC 9106 low-memory profile)
_DUMMY_HASH = _hasher.hash("not a password anyone has: used to spend the same time on unknown names")


#: Look-alike letters and digits, as :func:`skeleton` reads them (a small table, not Unicode's whole list of
#: confusables): capital I, small l, digit 1 and | as "l"; O and 0 as "o"; letters of the Cyrillic and Greek
#: alphabets that are drawn like Latin ones as those Latin letters (upper and lower case; the result is then
#: case-folded). Keys are single characters; :data:`LOOKALIKE_PAIRS` handles "rn" and "vv".
LOOKALIKES = {
    "I": "l", "l": "l", "1": "l", "|": "l", "O": "o", "0": "o",
    # Cyrillic capitals А В Е Ѕ І Ј К М Н О Р С Т Х У and small а е о р с у х і ј ѕ һ ԁ ԛ ԝ ӏ
    "\u0410": "a", "\u0412": "b", "\u0415": "e", "\u0405": "s", "\u0406": "l", "\u0408": "j", "\u041a": "k",
    "\u041c": "m", "\u041d": "h", "\u041e": "o", "\u0420": "p", "\u0421": "c", "\u0422": "t", "\u0425": "x",
    "\u0423": "y", "\u0430": "a", "\u0435": "e", "\u043e": "o", "\u0440": "p", "\u0441": "c", "\u0443": "y",
    "\u0445": "x", "\u0456": "i", "\u0458": "j", "\u0455": "s", "\u04bb": "h", "\u0501": "d", "\u051b": "q",
    "\u051d": "w", "\u04cf": "l",
    # Greek capitals Α Β Ε Ζ Η Ι Κ Μ Ν Ο Ρ Τ Υ Χ and small α ι κ ν ο ρ υ χ ϲ
    "\u0391": "a", "\u0392": "b", "\u0395": "e", "\u0396": "z", "\u0397": "h", "\u0399": "l", "\u039a": "k",
    "\u039c": "m", "\u039d": "n", "\u039f": "o", "\u03a1": "p", "\u03a4": "t", "\u03a5": "y", "\u03a7": "x",
    "\u03b1": "a", "\u03b9": "i", "\u03ba": "k", "\u03bd": "v", "\u03bf": "o", "\u03c1": "p", "\u03c5": "u",
    "\u03c7": "x", "\u03f2": "c",
}
#: Letter pairs drawn like one letter in a sans-serif face, read after :data:`LOOKALIKES`.
LOOKALIKE_PAIRS = (("rn", "m"), ("vv", "w"))


def skeleton(name: str) -> str:
    """What ``name`` looks like, for comparing names (two names with one skeleton are confusable).

    The name in NFKC, each character read through :data:`LOOKALIKES` (else case-folded), spaces and the
    separators ``_ - .`` all read as ``_``, then the pairs of :data:`LOOKALIKE_PAIRS` read as one letter:
    ``skeleton("AIice_t25") == skeleton("alice.t25") == skeleton("\u0430lice_t25") == "alice_t25"``,
    ``skeleton("rnary") == skeleton("mary")``. A documented small table (docs/accounts.md), in the spirit of
    Unicode TR 39's skeletons, not its full list. Capital I reads as l, so ``ALICE`` has the skeleton
    ``allce``: compare names by :func:`skeletons`, which adds the lower-case name's.
    """
    out = []
    for ch in unicodedata.normalize("NFKC", name).strip():
        if ch in LOOKALIKES:
            out.append(LOOKALIKES[ch])
        elif ch in SEPARATORS or unicodedata.category(ch) == "Zs":
            out.append("_")
        else:
            out.append(ch.casefold())
    text = re.sub("_+", "_", "".join(out))
    for pair, one in LOOKALIKE_PAIRS:
        text = text.replace(pair, one)
    return text


def skeletons(name: str) -> set[str]:
    """The skeletons of ``name`` as written and in lower case (``ALICE``: ``allce`` and ``alice``); two names
    are confusable when their sets meet."""
    return {skeleton(name), skeleton(name.lower())}


def is_reserved(name: str) -> bool:
    """True when ``name`` (case-folded, spaces and separators dropped) is one the tables give to others
    (:data:`RESERVED`, :data:`RESERVED_PATTERN`: "Player 2", "Spectator", "deleted player", a bot's level)."""
    bare = "".join(ch for ch in name_key(name) if ch not in SEPARATORS and not ch.isspace())
    return bool(bare) and (bare in RESERVED or RESERVED_PATTERN.fullmatch(bare) is not None)


def check_seat_name(name: str, seat: int, accounts: dict[str, str], own: str | None = None) -> str:
    """``name`` if a seat's free name may be it (shown on the players panel and in chat); ApiError 422
    otherwise, saying why and what is allowed (the seat called as players see it: "Player 2").

    Refused: a name the tables give to others (:func:`is_reserved`: "Spectator", a bot, "Player N" unless
    it is this ``seat``'s own default name), blank-looking characters (Hangul fillers, the blank Braille
    pattern; control and format characters are refused before), letters of several scripts in one word (a
    Cyrillic ``а`` among Latin ones; words of different scripts, a Chinese name then a Latin one, are a name
    people have), and a name that is, or looks like (:func:`skeletons`), a registered player's
    name: ``accounts`` maps skeletons to account names (:meth:`Accounts.skeletons`); ``own`` is the
    creator's account name, which a seat may use. Ordinary free names pass ("Mum", "Dad", "Zoë").
    """
    rule = "give the seat another name, such as a first name or a nickname"
    what = f"{seat_name(seat)}'s name {name!r}"
    if is_reserved(name) and name_key(name).replace(" ", "") != f"player{seat + 1}":
        raise ApiError(422, f"{what} is a name the tables give themselves (a default seat name, a spectator, "
                            f"a bot, a deleted player); {rule}")
    blank = next((ch for ch in name if ch in _BLANK_LETTERS), None)
    if blank is not None:
        raise ApiError(422, f"{what} holds an invisible or blank-looking character (U+{ord(blank):04X}), which "
                            f"can make it look like another name; {rule}")
    for word in unicodedata.normalize("NFKC", name).split():  # a Chinese name then a Latin one: two words, one script each
        scripts = {_script(ch) for ch in word if unicodedata.category(ch)[0] == "L"}
        if len(scripts) > 1:
            raise ApiError(422, f"{what} mixes letters of several alphabets in the word {word!r} ("
                                + ", ".join(sorted(scripts)).lower() + f"), which can make it look like another "
                                f"name; {rule}")
    looks = skeletons(name)
    taken = next((accounts[k] for k in sorted(looks) if k in accounts), None)
    if taken is not None and (own is None or not looks & skeletons(own)):
        raise ApiError(422, f"{what} is, or looks like, the registered player {taken!r}; {rule} (that player, "
                            "signed in, takes a seat as themselves)")
    return name


def _script(ch: str) -> str:
    """The script a letter belongs to, from its Unicode name's first word (``LATIN``, ``CYRILLIC``, ``CJK``)."""
    first = unicodedata.name(ch, "UNKNOWN").split(" ")[0]
    return _SCRIPT_GROUPS.get(first, first)


def name_key(name: str) -> str:
    """The unique key of a name: its case-folded form (``Alice`` and ``ALICE`` are one account)."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_name(name: str) -> str:
    """``name`` if an account may take it; ApiError 422 saying what is wrong and what is allowed."""
    rule = (f"a name is {NAME_MIN} to {NAME_MAX} letters and digits of one script, with _ - or . between "
            "them")
    if not isinstance(name, str) or not NAME_MIN <= len(name) <= NAME_MAX:
        raise ApiError(422, f"this name is {len(name) if isinstance(name, str) else 0} characters long; {rule}")
    if unicodedata.normalize("NFKC", name) != name:
        raise ApiError(422, "this name uses compatibility forms (full-width letters, ligatures, circled or "
                            f"styled characters) that look like plain ones; type the plain letters: {rule}")
    for ch in name:
        cat = unicodedata.category(ch)
        if ch in SEPARATORS or (cat[0] in "LM" and ch not in _BLANK_LETTERS) or cat == "Nd":
            continue
        what = "a space" if cat.startswith("Z") else (
            "a control or invisible character" if cat[0] == "C" or ch in _BLANK_LETTERS else f"{ch!r}")
        raise ApiError(422, f"this name holds {what} (U+{ord(ch):04X}); {rule}")
    if name[0] in SEPARATORS or name[-1] in SEPARATORS or unicodedata.category(name[0])[0] == "M" or any(
            a in SEPARATORS and b in SEPARATORS for a, b in zip(name, name[1:])):
        raise ApiError(422, f"a name starts and ends with a letter or digit and has one separator at a time; {rule}")
    scripts = {_script(ch) for ch in name if unicodedata.category(ch)[0] == "L"}
    if len(scripts) > 1:
        raise ApiError(422, "this name mixes letters of several scripts (" + ", ".join(sorted(scripts)).lower()
                       + "), which can make it look like someone else's; " + rule)
    if len(name_key(name)) > NAME_MAX:  # case folding can lengthen a name: "ß" folds to "ss"
        raise ApiError(422, f"this name is {len(name_key(name))} characters long once its letter case is "
                            f"folded (ß counts as ss); {rule}")
    if is_reserved(name):
        raise ApiError(422, f"the name {name!r} is kept for what the tables show themselves (a default seat "
                            "name, a bot, a deleted player, a guest); choose another")
    return name


def check_password(name: str, password: str) -> str:
    """``password`` if an account may use it; ApiError 422 saying what is allowed."""
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ApiError(422, f"a password is {PASSWORD_MIN} to {PASSWORD_MAX} characters (a few words make a "
                            "good one)")
    if name_key(password) == name_key(name):
        raise ApiError(422, "a password may not be the account's name; choose another")
    return password


def check_email(email: str) -> str:
    """``email`` (surrounding spaces dropped) if a move notice may be sent to it; ApiError 422 naming the fault.

    Allowed: ``local@domain``, at most :data:`EMAIL_MAX` characters; the local
    part 1 to :data:`EMAIL_LOCAL_MAX` printable characters other than spaces,
    quotes, brackets and ``, ; :`` (which would split a mail header); the
    domain two or more dot-separated labels of letters and digits (any script),
    hyphens inside a label.
    """
    rule = f"an e-mail address is name@domain.example, at most {EMAIL_MAX} characters, without spaces"
    text = email.strip()
    if not text or len(text) > EMAIL_MAX:
        raise ApiError(422, f"this e-mail address is {len(text)} characters long; {rule}")
    for ch in text:
        if unicodedata.category(ch)[0] in "CZ" or ch in _EMAIL_FORBIDDEN:
            what = "a space" if unicodedata.category(ch)[0] == "Z" else (
                "a control or invisible character" if unicodedata.category(ch)[0] == "C" else repr(ch))
            raise ApiError(422, f"this e-mail address holds {what} (U+{ord(ch):04X}); {rule}")
    local, at, domain = text.rpartition("@")
    if not at or not local or "@" in local:
        raise ApiError(422, f"an e-mail address has exactly one @ with a name before it; {rule}")
    if len(local) > EMAIL_LOCAL_MAX or local.startswith(".") or local.endswith(".") or ".." in local:
        raise ApiError(422, f"the part before the @ is at most {EMAIL_LOCAL_MAX} characters, with one dot at a "
                            f"time and none first or last; {rule}")
    labels = domain.split(".")
    if len(labels) < 2 or not all(len(label) <= 63 and _LABEL.fullmatch(label) for label in labels):
        raise ApiError(422, f"the domain after the @ ({domain!r}) is not a mail domain: two or more parts "
                            f"of letters and digits, separated by dots; {rule}")
    return text


def csrf_token(session_token: str) -> str:
    """The CSRF token that goes with a session cookie's value (hex; derived, so nothing more is stored)."""
    return hashlib.sha256(b"dicetable csrf\0" + session_token.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def seats_of_player(engine: Engine, table_id: str, player_id: int) -> list[int]:
    """The seats the account ``player_id`` holds at ``table_id`` (``seats.player_id``), in order."""
    with engine.connect() as conn:
        return list(conn.execute(select(SeatRow.seat).where(SeatRow.table_id == table_id,
                                                            SeatRow.player_id == player_id)
                                 .order_by(SeatRow.seat)).scalars())


class SignInThrottle:
    """Counts wrong passwords in a sliding window of :data:`THROTTLE_WINDOW` seconds, in the database
    (``sign_in_failures``), so every server process on one database counts the same attempts.

    Three counts, chosen so that guessing is slow but nobody can lock a player out from elsewhere
    (docs/security.md, "Sign-in throttle"):

    - per (name, address) pair: past :data:`PAIR_FAILURES`, that address may not try that name;
    - per address: past :data:`ADDRESS_FAILURES` (over all names), that address may not try any name
      (``per_address`` False turns this count off: ``DICETABLE_LIMITS=off``, load tests from one machine);
    - per name: past :data:`NAME_FAILURES` (from every address: a guess spread over many machines), the
      name is "under attack" and an address may try it only while it has no wrong password for it in
      the window: one guess per address, while the player, from an address with no failures, still signs
      in with the right password.

    ``retry_after(name, address)`` is ``(seconds, why)``: the seconds until a sign-in may be tried again
    (0: now) and which count refused (``pair``, ``address``, ``name``; None when it may). ``clock`` gives
    wall-clock seconds (shared by the processes; tests inject one). Rows older than the window are deleted
    as new ones come.
    """

    def __init__(self, engine: Engine, per_address: bool = True, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.per_address = per_address
        self.clock = clock

    def _keys(self, name: str, address: str) -> dict[str, str]:
        """``{count: key}`` of the counts that apply: keys are hashes (names and addresses tried are not stored)."""
        keys = {"pair": _throttle_key("pair", f"{name_key(name)}\0{address}"),
                "name": _throttle_key("name", name_key(name))}
        if self.per_address:
            keys["address"] = _throttle_key("address", address)
        return keys

    def retry_after(self, name: str, address: str) -> tuple[int, str | None]:
        """``(seconds, why)``: whole seconds until ``name`` may try a password from ``address`` (0: it may
        now) and the count that refuses (``pair``, ``address`` or ``name``; None when none does)."""
        t = self.clock()
        waits: dict[str, float] = {}
        with self.engine.connect() as conn:
            def recent(key: str, limit: int) -> list[float]:
                """The latest ``limit`` failures of ``key`` in the window, newest first."""
                return list(conn.execute(select(SignInFailureRow.at).where(
                    SignInFailureRow.key == key, SignInFailureRow.at > t - THROTTLE_WINDOW)
                    .order_by(SignInFailureRow.at.desc()).limit(limit)).scalars().all())

            keys = self._keys(name, address)
            pair = recent(keys["pair"], PAIR_FAILURES)
            if len(pair) >= PAIR_FAILURES:  # the limit-th latest failure leaves the window first
                waits["pair"] = pair[-1] + THROTTLE_WINDOW - t
            if "address" in keys:
                times = recent(keys["address"], ADDRESS_FAILURES)
                if len(times) >= ADDRESS_FAILURES:
                    waits["address"] = times[-1] + THROTTLE_WINDOW - t
            if pair:  # an address with no wrong password for this name is never held back by the name's count
                times = recent(keys["name"], NAME_FAILURES)
                if len(times) >= NAME_FAILURES:  # until the name's count falls, or this address's failures leave
                    waits["name"] = min(times[-1], pair[0]) + THROTTLE_WINDOW - t
        why = max(waits, key=lambda k: waits[k], default=None)
        if why is None or waits[why] <= 0:
            return 0, None
        return int(waits[why]) + 1, why

    def failed(self, name: str, address: str) -> None:
        """Count one wrong password for ``name`` from ``address`` (and forget those past the window)."""
        t = self.clock()
        with self.engine.begin() as conn:
            conn.execute(delete(SignInFailureRow).where(SignInFailureRow.at <= t - THROTTLE_WINDOW))
            conn.execute(insert(SignInFailureRow), [{"key": key, "at": t} for key in self._keys(name, address).values()])


def wait_words(seconds: float) -> str:
    """A wait as a player says it: "under a minute", "about a minute", "about 15 minutes" (rounded up)."""
    if seconds < 60:
        return "under a minute"
    minutes = -(-int(seconds) // 60)
    return "about a minute" if minutes <= 1 else f"about {minutes} minutes"


#: What each throttle count's refusal says (then "try again in about N minutes").
THROTTLE_WHY = {
    "pair": "too many wrong passwords for this name from here",
    "address": "too many wrong passwords from here, for several names",
    "name": "this name has had many wrong passwords lately, from several places, and one came from here",
}


def _throttle_key(kind: str, value: str) -> str:
    """The stored key of a throttle count: 40 hex digits of SHA-256 of ``kind:value``."""
    return hashlib.sha256(f"{kind}:{value}".encode("utf-8", "surrogatepass")).hexdigest()[:40]


#: Per engine: the accounts' state it was read at (highest id, number deleted) and their skeletons.
_SKELETONS: weakref.WeakKeyDictionary[Engine, tuple[tuple[int, int], dict[str, str]]] = weakref.WeakKeyDictionary()


class Accounts:
    """The accounts of one store (SQLAlchemy Core on ``engine``); every method commits its own change."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def skeletons(self) -> dict[str, str]:
        """``{skeleton: name}`` of every account not deleted (each of its :func:`skeletons`), to refuse
        look-alike names.

        Read again only when an account was made or deleted since (the highest id and the number deleted
        changed), so a table's creation with free seat names costs one small query; every server process
        of one database sees the same accounts."""
        with self.engine.connect() as conn:
            stamp = tuple(conn.execute(select(func.coalesce(func.max(PlayerRow.id), 0),
                                              func.count().filter(PlayerRow.deleted.is_(True)))).one())
            cached = _SKELETONS.get(self.engine)
            if cached is not None and cached[0] == stamp:
                return cached[1]
            names = conn.execute(select(PlayerRow.name).where(PlayerRow.deleted.is_(False))).scalars().all()
        found = {k: n for n in names for k in skeletons(n)}
        _SKELETONS[self.engine] = ((int(stamp[0]), int(stamp[1])), found)
        return found

    def create(self, name: str, password: str) -> str:
        """Make an account; its name as stored. ApiError 422 for a name or password not allowed,
        409 when the name (case-insensitively) is taken."""
        check_name(name)
        check_password(name, password)
        key = name_key(name)
        known = self.skeletons()
        like = next((known[k] for k in sorted(skeletons(name)) if k in known), None)
        if like is not None and name_key(like) != key:
            raise ApiError(409, f"the name {name!r} looks like the name of the player {like!r} (I, l and 1, O and 0, "
                                "rn and m, and look-alike letters of other alphabets count as one); choose another")
        digest = _hasher.hash(password)
        try:
            with self.engine.begin() as conn:
                taken = conn.execute(select(PlayerRow.id).where(PlayerRow.name_key == key)).first() is not None
                if not taken:
                    conn.execute(insert(PlayerRow).values(name=name, name_key=key, password_hash=digest,
                                                          created=now(), deleted=False))
        except IntegrityError:  # the same name made by another request at the same moment
            taken = True
        if taken:
            raise ApiError(409, f"the name {name!r} is taken (names count as one whatever their letter case); "
                                "choose another") from None
        return name

    def verify(self, name: str, password: str) -> Player | None:
        """The account ``name`` if ``password`` is its password (None otherwise, spending the same time)."""
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > PASSWORD_MAX:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(PlayerRow.id, PlayerRow.name, PlayerRow.password_hash).where(
                PlayerRow.name_key == name_key(name), PlayerRow.deleted.is_(False))).first()
        stored = row.password_hash if row is not None and row.password_hash else _DUMMY_HASH
        try:
            _hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return None
        if row is None or stored is _DUMMY_HASH:
            return None
        if _hasher.check_needs_rehash(stored):
            with self.engine.begin() as conn:
                conn.execute(update(PlayerRow).where(PlayerRow.id == row.id)
                             .values(password_hash=_hasher.hash(password)))
        return Player(row.id, row.name, "session")

    def issue(self, player_id: int, kind: str) -> str:
        """A new token acting for the account (``kind`` ``session`` or ``api``); only its hash is stored."""
        token = new_token()
        with self.engine.begin() as conn:
            conn.execute(insert(PlayerTokenRow).values(token_hash=hash_token(token), player_id=player_id,
                                                       kind=kind, created=now()))
        return token

    def revoke(self, token: str) -> None:
        """Forget one token (signing out); nothing happens for an unknown one."""
        with self.engine.begin() as conn:
            conn.execute(delete(PlayerTokenRow).where(PlayerTokenRow.token_hash == hash_token(token)))

    def revoke_kind(self, player_id: int, kind: str) -> int:
        """Forget every token of ``kind`` of the account; how many there were."""
        with self.engine.begin() as conn:
            return conn.execute(delete(PlayerTokenRow).where(PlayerTokenRow.player_id == player_id,
                                                             PlayerTokenRow.kind == kind)).rowcount

    def attach(self, player_id: int, tokens: Iterable[str]) -> list[tuple[str, int]]:
        """Give the account the seats held by these seat ``tokens`` (a guest who signs up, or signs in, keeps
        the seats this browser holds), with the rules of taking a seat while signed in:

        - one seat per player per table: at a table where the account holds a seat already, nothing more
          is taken; of several seats of one table (a hot-seat table), only the lowest-numbered one;
        - a rated table's seats are never taken this way (its players take their seats signed in:
          docs/ratings.md), nor a seat already held by an account.

        A seat taken shows the account's name from then on (``seats.name``). Returns the ``(table_id,
        seat)`` pairs now held, in table and seat order.
        """
        hashes = sorted({hash_token(t) for t in tokens if isinstance(t, str) and t})
        if not hashes:
            return []
        with self.engine.begin() as conn:
            name = conn.execute(select(PlayerRow.name).where(PlayerRow.id == player_id,
                                                             PlayerRow.deleted.is_(False))).scalar_one_or_none()
            if name is None:
                return []
            rows = conn.execute(select(SeatRow.table_id, SeatRow.seat).join(TableRow, TableRow.id == SeatRow.table_id)
                                .where(SeatRow.token_hash.in_(hashes), SeatRow.player_id.is_(None),
                                       SeatRow.kind == "human", TableRow.rated.is_(False))
                                .order_by(SeatRow.table_id, SeatRow.seat)).all()
            first = {r.table_id: r.seat for r in reversed(rows)}  # the lowest-numbered seat of each table
            sits = set(conn.execute(select(SeatRow.table_id).where(SeatRow.table_id.in_(sorted(first)),
                                                                   SeatRow.player_id == player_id)).scalars())
            kept = [(t, s) for t, s in sorted(first.items()) if t not in sits and conn.execute(
                update(SeatRow).where(SeatRow.table_id == t, SeatRow.seat == s,  # not taken meanwhile
                                      SeatRow.player_id.is_(None)).values(player_id=player_id, name=name)).rowcount]
        return kept

    def notices(self, player_id: int) -> tuple[str | None, bool]:
        """The account's ``(email, notify_email)``: where move notices go (None: nowhere) and whether it wants them."""
        with self.engine.connect() as conn:
            row = conn.execute(select(PlayerRow.email, PlayerRow.notify_email)
                               .where(PlayerRow.id == player_id)).first()
        return (None, False) if row is None else (row.email, bool(row.notify_email))

    def set_notices(self, player_id: int, email: str | None, notify_email: bool) -> tuple[str | None, bool]:
        """Store the account's e-mail (None or blank: none) and whether it wants move notices; the stored
        pair. ApiError 422 for an address :func:`check_email` refuses, or notices asked without an address."""
        address = None if email is None or not email.strip() else check_email(email)
        if notify_email and address is None:
            raise ApiError(422, "move notices by e-mail need an e-mail address; give one or turn the notices off")
        with self.engine.begin() as conn:
            conn.execute(update(PlayerRow).where(PlayerRow.id == player_id, PlayerRow.deleted.is_(False))
                         .values(email=address, notify_email=notify_email))
        return address, notify_email

    def player_id(self, name: str) -> int | None:
        """The id of the account called ``name`` (any letter case; None: no such account)."""
        if not isinstance(name, str) or len(name) > NAME_MAX:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(PlayerRow.id).where(PlayerRow.name_key == name_key(name),
                                                          PlayerRow.deleted.is_(False))).first()
        return None if row is None else row.id

    def name_of(self, player_id: int) -> str:
        """The name of the account ``player_id`` as registered (:data:`DELETED_NAME` once deleted or unknown)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(PlayerRow.name).where(PlayerRow.id == player_id)).first()
        return DELETED_NAME if row is None else row.name

    def delete(self, player_id: int) -> list[tuple[str, bool]]:
        """Delete an account: password, tokens and e-mail removed, the name freed and replaced by
        :data:`DELETED_NAME` on its row and on every seat it held; the row and its seats stay, so finished
        tables keep replaying. Returns ``(table_id, running)`` for each table whose seats were renamed,
        ``running`` True while its game goes on (its seats are then handed to their bots by the caller)."""
        with self.engine.begin() as conn:
            tables = sorted({(r.table_id, r.status == "running") for r in conn.execute(
                select(SeatRow.table_id, TableRow.status).join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.player_id == player_id)).all()})
            conn.execute(delete(PlayerTokenRow).where(PlayerTokenRow.player_id == player_id))
            conn.execute(update(SeatRow).where(SeatRow.player_id == player_id).values(name=DELETED_NAME))
            conn.execute(update(PlayerRow).where(PlayerRow.id == player_id).values(
                name=DELETED_NAME, name_key=f"~deleted {player_id}"[:24], password_hash=None, email=None,
                notify_email=False, deleted=True))
        return tables
