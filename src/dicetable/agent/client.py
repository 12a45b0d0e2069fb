"""The agent client: a program in a human seat of a server table, over WEB.md's HTTP contract.

:class:`Agent` holds one seat (its seat token, or an invite link it claims), keeps that seat's
view from the table's live WebSocket (the full view first, then each change; a change that does
not follow the view it has makes it ask for the full view again), and on each decision of its
seat calls the policy with a :class:`Decision`: the same float32 feature vector and int8 action
mask as the research environments (``dicetable.rl``), computed from the view's observation and
legal actions alone. The chosen catalogue index is posted as ``{"action", "version"}``.

Errors: :class:`IllegalMove` (the server refused the action: its 422 message), :class:`AgentTimeout`
(no answer or no news within the time allowed), :class:`AgentError` for the rest (a bad token,
an unknown table, a server that cannot be reached after the retries).
"""

from __future__ import annotations

import asyncio
import copy
import json
import operator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Coroutine, Protocol, TypeVar
from urllib.parse import urlsplit

import dicetable
from dicetable.engine import GameConfigError
from dicetable.extras import require

PURPOSE = "dicetable.agent (programs at server tables)"


def modules() -> tuple[Any, Any, Any]:
    """httpx, websockets (its asyncio client, websockets 13 or later) and numpy, or MissingExtra
    naming the ``agent`` extra."""
    require("websockets.asyncio.client", "agent", PURPOSE)
    return (require("httpx", "agent", PURPOSE), require("websockets", "agent", PURPOSE),
            require("numpy", "agent", PURPOSE))


class AgentError(Exception):
    """The agent cannot go on: the message says what the server or the network answered."""


class IllegalMove(AgentError):
    """The server refused the agent's action (HTTP 422); ``detail`` is the engine's message and the
    table is unchanged. ``action`` is the id that was posted."""

    def __init__(self, action: str, detail: str) -> None:
        super().__init__(f"the server refused the move: {detail}")
        self.action = action
        self.detail = detail


class AgentTimeout(AgentError):
    """Something took longer than allowed: a request, a connection, or the wait for the table's news."""


@dataclass
class Decision:
    """One decision of the agent's seat.

    ``observation``: float32 array, the game's feature vector of the view's observation (the
    research observation space, ``GameSpaces.observation_size`` long); ``mask``: int8 array over
    the action catalogue (1 at each legal action); ``legal``: the legal actions as the view lists
    them (``{"id", "label"}``); ``view``: the whole view (``observation``, ``decision``, ``log``...);
    ``catalogue``: the action ids by index.
    """

    observation: Any
    mask: Any
    legal: list[dict[str, Any]]
    view: dict[str, Any]
    catalogue: tuple[str, ...]

    @property
    def seat(self) -> int:
        """The agent's seat."""
        return int(self.view["seat"])

    @property
    def version(self) -> int:
        """The table's version this decision is at (actions applied so far)."""
        return int(self.view["version"])

    def check_choice(self, choice: Any, who: str = "the policy") -> int:
        """A policy's answer as an index of :attr:`catalogue`: an int or a numpy integer from 0 to
        N-1; AgentError "``who`` chose ..., not an index of the catalogue (0..N-1)" for anything
        else (a bool, a float, a string, None, a negative or too large number). Whether the action
        is legal now is the game's to say."""
        try:
            index = operator.index(choice)  # an int or a numpy integer; not a float, a string or None
        except TypeError:
            index = -1
        if isinstance(choice, bool) or not 0 <= index < len(self.catalogue):
            raise AgentError(f"{who} chose {choice!r}, not an index of the catalogue (0..{len(self.catalogue) - 1})")
        return index


class Policy(Protocol):
    """Chooses an action: ``policy(decision)`` returns an index into ``decision.catalogue`` (a legal
    one, ``decision.mask[index] == 1``; an illegal one is posted anyway and refused by the server)."""

    def __call__(self, decision: Decision) -> int:
        """The chosen catalogue index."""
        ...


class Encoder:
    """The research encoding of one game configuration, from observations alone.

    ``catalogue`` and ``index`` are the game's action catalogue (``GameSpec.action_catalogue``) and
    its positions; :meth:`decision` builds the arrays. GameConfigError for a game without a
    catalogue or encoding, or for bad players/options.
    """

    def __init__(self, game: str, players: int, options: dict[str, Any] | None = None) -> None:
        _, _, np = modules()
        self._np = np
        spec = dicetable.get_game(game)
        resolved = dicetable.new_game(game, players, seed=0, options=options).options
        if spec.action_catalogue is None or spec.observation_encoding is None:
            raise GameConfigError(f"{game} declares no action catalogue or observation encoding")
        self.catalogue: tuple[str, ...] = tuple(spec.action_catalogue(players, dict(resolved)))
        self.index = {aid: i for i, aid in enumerate(self.catalogue)}
        self.encoding = spec.observation_encoding(players, dict(resolved))

    def decision(self, view: dict[str, Any]) -> Decision:
        """The :class:`Decision` of a seat's view (``observation`` and ``legal_actions``).

        AgentError naming the id when the view offers an action outside the catalogue (the table's
        options differ from the agent's: give the table's options)."""
        np = self._np
        observation = np.asarray(self.encoding.encode(view["observation"]), dtype=np.float32)
        mask = np.zeros(len(self.catalogue), dtype=np.int8)
        for action in view["legal_actions"]:
            i = self.index.get(action["id"])
            if i is None:
                raise AgentError(f"the table offers action {action['id']!r}, which is not in this game's "
                                 "catalogue for the agent's options: start the agent with the table's options")
            mask[i] = 1
        view = {**view, "observation": copy.deepcopy(view["observation"])}  # the live one is patched later
        return Decision(observation, mask, list(view["legal_actions"]), view, self.catalogue)


def random_policy(seed: int | None = None) -> Callable[[Decision], int]:
    """A policy choosing uniformly among the legal actions (seeded: reproducible for equal decisions)."""
    import random

    rng = random.Random(seed)

    def choose(decision: Decision) -> int:
        legal = [i for i, on in enumerate(decision.mask) if on]
        return rng.choice(legal)
    return choose


def parse_link(link: str) -> tuple[str, str, str | None]:
    """``(server url, table id, invite or None)`` of a seat link
    (``http://host:port/tables/<id>#invite=<seat>.<code>``, or without the invite).

    ValueError saying what a link looks like otherwise."""
    parts = urlsplit(link.strip())
    path = parts.path.rstrip("/").split("/")
    if parts.scheme not in ("http", "https") or not parts.netloc or len(path) < 3 or path[-2] != "tables":
        raise ValueError(f"{link!r} is not a table link: give http(s)://host:port/tables/<table id>"
                         "[#invite=<seat>.<code>]")
    invite = None
    if parts.fragment.startswith("invite="):
        invite = parts.fragment[len("invite="):]
    return f"{parts.scheme}://{parts.netloc}", path[-1], invite


@dataclass
class Agent:
    """A program in one human seat of a server table.

    ``server``: the server's base URL (``http://127.0.0.1:8000``); ``table``: the table id;
    ``token``: the seat token (or ``invite``: the ``<seat>.<code>`` of a link, claimed once for a
    fresh token, which then replaces the invite in ``token``: claiming revokes every earlier token of
    the seat and uses the invite up, so a program that may stop before the game ends must keep
    ``token`` and restart with it, as a link cannot be claimed twice); ``policy``: see :class:`Policy`; ``options``: the table's options (the catalogue and
    encoding depend on some of them; None: those the view names, else the game's defaults); ``timeout``:
    seconds for one HTTP request or WebSocket handshake; ``idle``: seconds to wait for the table's
    next news before :class:`AgentTimeout` (None: forever); ``retries``: reconnections tried after a
    dropped connection (with ``backoff`` seconds between, doubling); ``on_move``: called as
    ``on_move(action id, new version)`` after each accepted move (for logs); ``on_claim``: called as
    ``on_claim(seat, token)`` once an invite is claimed (the only moment the new token is new: keep
    it). While it plays,
    ``view`` is the seat's view as the live connection brought it, ``connection`` the open
    WebSocket (a ``websockets`` client connection, None between connections), ``moves`` the
    moves accepted and ``reconnects`` the connections reopened.
    """

    server: str
    table: str
    policy: Callable[[Decision], int]
    token: str | None = None
    invite: str | None = None
    options: dict[str, Any] | None = None
    timeout: float = 30.0
    idle: float | None = None
    retries: int = 5
    backoff: float = 0.5
    on_move: Callable[[str, int], None] | None = None
    on_claim: Callable[[int, str], None] | None = None
    moves: int = 0
    reconnects: int = 0
    view: dict[str, Any] | None = field(default=None, repr=False)
    connection: Any = field(default=None, repr=False)
    _encoder: Encoder | None = field(default=None, repr=False)
    _acted: tuple[int, int] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        parts = urlsplit(self.server)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            # it was retried for seconds as a dropped connection ("isn't a valid URI")
            raise ValueError(f"server {self.server!r} is not a server's address: give http(s)://host:port")

    @classmethod
    def from_link(cls, link: str, policy: Callable[[Decision], int], **kw: Any) -> "Agent":
        """An agent for a seat link (``.../tables/<id>#invite=<seat>.<code>``: the invite is claimed
        when the agent starts); keyword arguments as for :class:`Agent`."""
        server, table, invite = parse_link(link)
        return cls(server=server, table=table, policy=policy, invite=invite, **kw)

    # ------------------------------------------------------------ HTTP
    def _headers(self) -> dict[str, str]:
        # return=minimal: an action's answer is {"version", "undos"}; the live connection brings the view
        return {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json",
                "Prefer": "return=minimal"}

    async def _request(self, http: Any, method: str, path: str, body: dict | None = None) -> Any:
        """One API call; its JSON answer. AgentTimeout, IllegalMove (422 of an action), AgentError."""
        httpx, _, _ = modules()
        try:
            resp = await http.request(method, self.server + path, json=body, headers=self._headers(),
                                      timeout=self.timeout)
        except httpx.TimeoutException:
            raise AgentTimeout(f"{method} {path} had no answer within {self.timeout} s") from None
        except httpx.HTTPError as exc:
            raise ConnectionError(f"{method} {path} failed: {exc}") from exc
        try:
            data = resp.json()
        except ValueError:
            data = {"detail": resp.text[:200]}
        if resp.status_code >= 400:
            detail = data.get("detail") if isinstance(data, dict) else data
            action = body.get("action") if body is not None else None
            if resp.status_code == 422 and action is not None:
                raise IllegalMove(str(action), str(detail))
            if resp.status_code == 409 and action is not None:
                return None  # someone moved first: the live connection brings the news
            raise AgentError(f"{method} {path}: HTTP {resp.status_code}: {detail}")
        return data

    async def claim(self, http: Any) -> None:
        """Claim the invite (once) for a fresh seat token (then in :attr:`token`; ``on_claim`` hears it)."""
        if self.invite is None:
            return
        answer = await self._request(http, "POST", f"/api/tables/{self.table}/claim", {"invite": self.invite})
        self.token, self.invite = answer["token"], None
        if self.on_claim is not None:
            self.on_claim(int(answer["seat"]), answer["token"])

    # ------------------------------------------------------------ the live view
    def take(self, message: dict[str, Any]) -> bool:
        """Fold one live message into :attr:`view`; False when it does not follow the view held (a
        full view is needed: the caller asks for a resync)."""
        kind = message.get("type")
        if kind == "view":
            self.view = {k: v for k, v in message.items() if k not in ("type", "parts")}
            return True
        if kind == "error":
            raise AgentError(f"the table refused the live connection: HTTP {message.get('status')}: "
                             f"{message.get('detail')}")
        if kind != "change":
            return True  # other messages (chat, notices) carry nothing the agent needs
        if self.view is None or message.get("base") != [self.view["undos"], self.view["version"]]:
            return False
        from dicetable.server.delta import PatchError, apply_patch

        view = self.view
        try:
            view["observation"] = apply_patch(view["observation"], message.get("patch") or [])
        except PatchError:
            return False
        view.update(message.get("set") or {})
        view["log"] = (view.get("log") or []) + list(message.get("log") or [])
        view["version"], view["undos"] = message["version"], message["undos"]
        return True

    def to_decide(self) -> bool:
        """True when the view held is a decision of the agent's seat it has not answered yet."""
        v = self.view
        return bool(v and not v["over"] and v["legal_actions"] and self._acted != (v["undos"], v["version"]))

    def encoder(self) -> Encoder:
        """The :class:`Encoder` of the table's game (made once, from the first view)."""
        if self._encoder is None:
            assert self.view is not None
            options = self.options if self.options is not None else self.view.get("options")
            self._encoder = Encoder(self.view["game"], self.view["players"], options)
        return self._encoder

    async def act(self, http: Any) -> None:
        """Ask the policy for the decision held and post its action with the view's version."""
        assert self.view is not None
        decision = self.encoder().decision(self.view)
        index = decision.check_choice(self.policy(decision))
        action = decision.catalogue[index]
        self._acted = (self.view["undos"], self.view["version"])
        try:
            answer = await self._request(http, "POST", f"/api/tables/{self.table}/actions",
                                         {"action": action, "version": decision.version})
        except ConnectionError:
            # the move may not have reached the table: after the reconnection the full view says
            # whether it did (a later version) or the same decision is still to be answered
            self._acted = None
            raise
        if answer is not None:
            self.moves += 1
            if self.on_move is not None:
                self.on_move(action, int(answer["version"]))

    # ------------------------------------------------------------ the loop
    def ws_url(self) -> str:
        """The live connection's URL for the agent's token."""
        parts = urlsplit(self.server)
        scheme = "wss" if parts.scheme == "https" else "ws"
        return f"{scheme}://{parts.netloc}/api/tables/{self.table}/live?token={self.token}"

    async def run(self) -> dict[str, Any]:
        """Play the seat until the table is over; the final view. Reconnects after a dropped
        connection (the first message after it is the full view). Raises the errors above."""
        httpx, _, _ = modules()
        async with httpx.AsyncClient() as http:
            await self.claim(http)
            if not self.token:
                raise AgentError("no seat token: give the seat's token or its invite link")
            failures = 0
            while True:
                try:
                    if await self.session(http):
                        assert self.view is not None
                        return self.view
                    failures = 0
                except (ConnectionError, OSError) as exc:
                    failures += 1
                    if failures > self.retries:
                        if self.reconnects == failures - 1:  # every try failed: it never connected
                            raise AgentError(f"cannot connect to {self.server} ({self.retries + 1} tries): "
                                             f"{exc}") from None
                        raise AgentError(f"the connection to {self.server} dropped and {self.retries} "
                                         f"reconnections failed: {exc}") from None
                    await asyncio.sleep(self.backoff * 2 ** (failures - 1))
                self.reconnects += 1

    async def session(self, http: Any) -> bool:
        """One live connection: True once the table is over; False when the server closed it
        (the caller reconnects); ConnectionError when it dropped."""
        _, websockets, _ = modules()
        try:
            ws = await asyncio.wait_for(websockets.asyncio.client.connect(self.ws_url(), max_size=None),
                                        self.timeout)
        except asyncio.TimeoutError:
            raise AgentTimeout(f"the live connection to table {self.table} did not open within "
                               f"{self.timeout} s") from None
        except websockets.exceptions.InvalidStatus as exc:
            raise AgentError(f"the live connection was refused: {exc}") from None
        except (websockets.exceptions.WebSocketException, OSError) as exc:
            raise ConnectionError(str(exc)) from exc
        self.view = None  # the first message is the full view
        self.connection = ws
        try:
            while True:
                try:
                    text = await asyncio.wait_for(ws.recv(), self.idle)
                except asyncio.TimeoutError:
                    raise AgentTimeout(f"no news from table {self.table} for {self.idle} s") from None
                except websockets.exceptions.ConnectionClosedOK:
                    return bool(self.view and self.view["over"])
                except websockets.exceptions.ConnectionClosed as exc:
                    raise ConnectionError(f"the live connection dropped: {exc}") from exc
                if not self.take(json.loads(text)):
                    await ws.send(json.dumps({"type": "resync"}))
                    continue
                if self.view is not None and self.view["over"]:
                    return True
                if self.to_decide():
                    await self.act(http)
        finally:
            self.connection = None
            await ws.close()

    def play(self) -> dict[str, Any]:
        """:meth:`run` from synchronous code (its own event loop); the final view."""
        return run_sync(self.run)


T = TypeVar("T")


def run_sync(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run the coroutine ``make()`` to its end from synchronous code and return its result: on a new
    event loop, in a worker thread when this thread already runs one (Playwright's sync API does)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(make())).result()
