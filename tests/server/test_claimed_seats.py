"""Claimed seats: a human seat's link is an invite claimed once (WEB.md, Security; docs/security.md).

The claimer gets a fresh token; the invite and the creation answer's token for that seat stop working,
so the table's creator can neither act for nor see that seat. A seat's token used directly claims nothing.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from .helpers import auth, create


def _invite(created: dict, seat: int) -> str:
    link = next(s["link"] for s in created["seats"] if s["seat"] == seat)
    path, _, fragment = link.partition("#")
    assert path == f"/tables/{created['table_id']}" and fragment.startswith("invite=")
    assert "token" not in link  # the link never carries a token the server would see
    return fragment.removeprefix("invite=")


def test_a_claimed_seat_revokes_the_creators_token_and_its_invite(client):
    made = create(client, "biblios-dice", ["human", "human"])
    tid = made["table_id"]
    creator_copy = {s["seat"]: s["token"] for s in made["seats"]}
    r = client.post(f"/api/tables/{tid}/claim", json={"invite": _invite(made, 1)})
    assert r.status_code == 200, r.text
    claimed = r.json()
    assert claimed["seat"] == 1 and claimed["link"] == f"/tables/{tid}#token={claimed['token']}"
    assert claimed["token"] != creator_copy[1]
    # the creator's copy: no view, no action
    assert client.get(f"/api/tables/{tid}", headers=auth(creator_copy[1])).status_code == 403
    view = client.get(f"/api/tables/{tid}", headers=auth(claimed["token"])).json()
    assert view["seat"] == 1
    mover = view["to_move"][0]
    if mover == 1:
        act = {"action": view["legal_actions"][0]["id"], "version": view["version"]}
        r = client.post(f"/api/tables/{tid}/actions", json=act, headers=auth(creator_copy[1]))
        assert r.status_code == 403
    # the invite is used up
    again = client.post(f"/api/tables/{tid}/claim", json={"invite": _invite(made, 1)})
    assert again.status_code == 403 and "used already" in again.json()["detail"]
    # the seats show who is claimed; the other seat's token still works as before
    seats = client.get(f"/api/tables/{tid}", headers=auth(creator_copy[0])).json()["seats"]
    assert [s["claimed"] for s in seats] == [False, True]


def test_a_token_used_directly_claims_nothing(client):
    made = create(client, "kingdom-of-dice", ["human", "human"])
    tid = made["table_id"]
    token = made["seats"][0]["token"]
    for _ in range(2):
        assert client.get(f"/api/tables/{tid}", headers=auth(token)).status_code == 200
    assert client.post(f"/api/tables/{tid}/claim", json={"invite": _invite(made, 0)}).status_code == 200


def test_bad_invites_are_refused_with_a_reason(client):
    made = create(client, "kingdom-of-dice", ["human", "greedy"])
    tid = made["table_id"]
    good = _invite(made, 0)
    for bad in ("1." + good.split(".", 1)[1], "0.nothing-like-it", "9." + good.split(".", 1)[1], "x.y.z"):
        r = client.post(f"/api/tables/{tid}/claim", json={"invite": bad})
        assert r.status_code == 403, (bad, r.text)
        assert "not valid" in r.json()["detail"]
    r = client.post(f"/api/tables/{tid}/claim", json={"nope": 1})
    assert r.status_code == 422
    assert client.post("/api/tables/nosuchtable/claim", json={"invite": good}).status_code == 404


def test_a_table_with_a_chosen_seed_has_no_claimable_invites(client):
    made = create(client, "biblios-dice", ["human", "human"], seed=42)
    r = client.post(f"/api/tables/{made['table_id']}/claim", json={"invite": _invite(made, 1)})
    assert r.status_code == 409 and "seed was chosen" in r.json()["detail"]
    assert client.get(f"/api/tables/{made['table_id']}", headers=auth(made["seats"][1]["token"])).status_code == 200


def test_of_two_claims_of_one_invite_one_wins(client):
    made = create(client, "kingdom-of-dice", ["human", "human"])
    tid, invite = made["table_id"], _invite(made, 1)
    with ThreadPoolExecutor(4) as pool:
        codes = sorted(pool.map(lambda _: client.post(f"/api/tables/{tid}/claim", json={"invite": invite}).status_code,
                                range(4)))
    assert codes == [200, 403, 403, 403]
