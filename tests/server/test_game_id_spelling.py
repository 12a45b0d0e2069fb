"""The engine takes a game id in another case or with ``_`` for ``-``; the server stores and shows
the canonical id, and its URLs answer to the canonical ids only."""

from __future__ import annotations

import pytest

from .helpers import create


@pytest.fixture
def site(sqlite_url):
    from fastapi.testclient import TestClient

    from dicetable.web import create_site

    with TestClient(create_site(sqlite_url)) as c:
        yield c


def test_a_table_made_with_another_spelling_keeps_the_canonical_id(site):
    made = create(site, "Biblios_Dice", ["human", "greedy"], seed=3)
    view = site.get(f"/api/tables/{made['table_id']}").json()
    assert view["game"] == "biblios-dice"
    listed = site.get("/api/tables").json()["tables"]
    assert [t["game"] for t in listed if t["table_id"] == made["table_id"]] == ["biblios-dice"]


@pytest.mark.parametrize("path", ["/web/help/Biblios_Dice", "/web/howto/biblios_dice",
                                  "/static/games/Biblios-Dice/board.css", "/api/leaderboard/biblios_dice"])
def test_urls_answer_to_canonical_ids_only(site, path):
    assert site.get(path).status_code == 404
    assert site.get(path.replace("Biblios_Dice", "biblios-dice").replace("biblios_dice", "biblios-dice")
                    .replace("Biblios-Dice", "biblios-dice")).status_code == 200
