"""Leak test: a seat's JSON view and WebSocket messages depend only on what that seat may see.

How the two tables are built. Two servers (each its own SQLite file) hold a
table with the same id, game, seed and seats, and the same actions are played
on both through the API, so the two tables are equal. At several points of
the game the second server's cached state is replaced by a state whose
*hidden* parts are different but whose parts visible to the viewer are the
same: the engine's ``determinize(viewer, k)`` resamples exactly what the viewer
cannot see (deck orders, face-down cards, other seats' secret Dukes,
objectives and bids) while keeping everything the viewer observes (the
conformance check asserts this for every game); it is grafted onto the real
state's log, history and dice, so only the hidden parts differ. The viewer's
GET view and its first WebSocket message must then be byte-identical on both
servers: anything of the hidden parts that reached the view would show up as
a difference. For a spectator the hidden parts are resampled from a seat's
point of view (a spectator sees less than any seat), so the spectator's view
must not change whatever that seat's secrets are. Only games with hidden
information are checked (Corsairs of Valeria has none beyond future dice).
"""

from __future__ import annotations

import json
import random

import pytest
from fastapi.testclient import TestClient

from dicetable.engine import load_state
from dicetable.web import create_site

from .helpers import auth, tokens_of

HIDDEN = [
    ("kingdom-of-dice", {}),
    ("biblios-dice", {"hidden_objectives": True}),
    ("dice-kingdoms-of-valeria", {}),
    ("valeria-card-kingdoms", {}),
]


def _graft(state, viewer_seat: int, k: int):
    """``state`` with everything ``viewer_seat`` cannot see resampled (same log, history and dice)."""
    saved = state.to_dict()
    saved["state"] = state.determinize(viewer_seat, k).to_dict()["state"]
    return load_state(saved, verify=False)  # deliberately not the seed's game: skip the replay check


@pytest.mark.parametrize("game,options", HIDDEN)
def test_views_are_byte_identical_when_only_hidden_parts_differ(tmp_path, game, options):
    apps = [create_site(f"sqlite:///{tmp_path / f'{n}.db'}", id_factory=lambda: "leaktable") for n in (0, 1)]
    body = {"game": game, "players": 2, "seed": 77, "options": options,
            "seats": [{"kind": "human"}, {"kind": "human"}]}
    with TestClient(apps[0]) as a, TestClient(apps[1]) as b:
        toks = [tokens_of(c.post("/api/tables", json=body).json()) for c in (a, b)]
        live = [c.app.state.manager.get("leaktable") for c in (a, b)]
        rng = random.Random(3)
        differed = {0: 0, None: 0}
        for step in range(60):
            if step % 10 == 0 or step < 3:
                for viewer in (0, None):
                    differed[viewer] += _compare(a, b, toks, live, viewer, k=1000 + step)
            state = live[0].state
            if state.is_over:
                break
            seat = state.to_move[0]
            view = a.get("/api/tables/leaktable", headers=auth(toks[0][seat])).json()
            action = rng.choice(view["legal_actions"])["id"]
            for c, t in ((a, toks[0]), (b, toks[1])):
                r = c.post("/api/tables/leaktable/actions", headers=auth(t[seat]),
                           json={"action": action, "version": view["version"]})
                assert r.status_code == 200, r.text
        # the check had teeth: hidden parts really differed at some points, for both viewers
        assert differed[0] > 0 and differed[None] > 0
        assert a.get("/api/tables/leaktable/record").status_code == 403


def _compare(a, b, toks, live, viewer, k) -> int:
    """Swap table b's state for a hidden-resampled one, compare the viewer's bytes; 1 if hidden parts differed."""
    real = live[1].state
    resample_for = 0 if viewer == 0 else 1  # a spectator: resample what seat 1 cannot see (seat 0's secrets)
    other = _graft(real, resample_for, k)
    assert other.observation(viewer) == real.observation(viewer)  # the engine's promise the test relies on
    hidden_differs = other.to_dict()["state"] != real.to_dict()["state"]
    # no bot sits at these tables, so nothing else touches the state while it is swapped
    # (the table lock cannot be held here: the request handlers take it in their own threads)
    if True:
        live[1].state = other
        try:
            headers = [auth(toks[0][viewer]) if viewer is not None else {},
                       auth(toks[1][viewer]) if viewer is not None else {}]
            got = [c.get("/api/tables/leaktable", headers=h).content for c, h in ((a, headers[0]), (b, headers[1]))]
        finally:
            live[1].state = real
    assert got[0] == got[1], f"viewer {viewer}: the view depends on hidden parts"
    if True:
        live[1].state = other
        try:
            msgs = []
            for c, t in ((a, toks[0]), (b, toks[1])):
                q = f"?token={t[viewer]}" if viewer is not None else ""
                with c.websocket_connect(f"/api/tables/leaktable/live{q}") as ws:
                    msgs.append(ws.receive_text())
        finally:
            live[1].state = real
    assert msgs[0] == msgs[1], f"viewer {viewer}: the WebSocket message depends on hidden parts"
    assert json.loads(msgs[0])["type"] == "view"
    if viewer is None:  # a spectator's log holds only public events
        public = [e.text for e in real.log if e.visible is None]
        assert json.loads(got[0])["log"] == public
    return int(hidden_differs)
