"""Tokens never reach a log line, however the query spells them (WEB.md Security; issue: ``?%74oken=``)."""

from __future__ import annotations

import json
import logging
from urllib.parse import unquote

from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from dicetable.server.tables import new_token
from dicetable.server.tokens import HideTokens, has_token, mask_query, mask_text

from .helpers import ServerProcess, auth, create


def _spell(name: str, draw_bits: list[int]) -> str:
    """``name`` with each character percent-encoded or case-swapped as the bits say."""
    out = []
    for ch, bits in zip(name, draw_bits):
        c = ch.upper() if bits & 1 else ch
        out.append(f"%{ord(c):02X}" if bits & 2 else c)
    return "".join(out)


@settings(max_examples=200, deadline=None)
@given(bits=st.lists(st.integers(0, 3), min_size=5, max_size=5), value_bits=st.lists(st.integers(0, 3),
       min_size=22, max_size=22), before=st.sampled_from(["", "a=1&", "token=zz&", "x=%20&"]),
       after=st.sampled_from(["", "&b=2", "&token=again", "&pace=0"]))
def test_no_spelling_of_the_token_parameter_survives_the_mask(bits, value_bits, before, after):
    token = new_token()
    # the value may itself be partly percent-encoded (the server decodes it)
    value = "".join(f"%{ord(c):02X}" if b & 2 else c for c, b in zip(token, value_bits))
    target = f"/tables/abc?{before}{_spell('token', bits)}={value}{after}"
    assert has_token(target.split("?", 1)[1])
    for masked in (mask_text(target), mask_text(f'127.0.0.1:5 - "GET {target} HTTP/1.1" 200')):
        assert token not in masked and token not in unquote(masked), masked
        assert value not in masked
        assert "***" in masked


def test_mask_keeps_other_parameters_and_leaves_token_free_lines_alone():
    assert mask_query("all=true&limit=40") == "all=true&limit=40"
    assert mask_query("pace=0&token=abc&token=def") == "pace=0&token=***&token=***"
    assert mask_query("a=1;token=abc") == "a=***"  # not read as a token, masked all the same
    assert mask_text("/api/health") == "/api/health"
    assert not has_token(b"all=true") and has_token(b"TOKEN=1") and has_token(b"%74oken=1")


def test_the_filter_rewrites_uvicorn_records():
    token = new_token()
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5", "GET", f"/tables/x?%74oken={token}", "1.1", 200), None)
    assert HideTokens().filter(record) is True
    assert token not in record.getMessage()
    record = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1,
                               f'"WebSocket /api/tables/x/live?Token={token}" [accepted]', None, None)
    HideTokens().filter(record)
    assert token not in record.getMessage()


def test_a_token_sent_in_any_spelling_appears_nowhere_in_the_server_log(sqlite_url):
    server = ServerProcess(sqlite_url, log_level="debug", access_log=True).start()
    try:
        with server.client() as c:
            made = create(c, "corsairs-of-valeria", ["human", "human"], seed=3)
            tid, token = made["table_id"], made["seats"][0]["token"]
            for query in (f"?%74oken={token}", f"?token={token}&token={token}", f"?pace=0&%54%4F%4B%45%4E={token}",
                          f"?tok%65n={token[:5]}%{ord(token[5]):02X}{token[6:]}"):
                assert c.get(f"/tables/{tid}{query}").status_code == 200
                r = c.get(f"/api/tables/{tid}{query}")  # the HTTP API refuses a token in the address
                assert r.status_code == 400 and "Authorization: Bearer" in r.json()["detail"], query
            assert c.get(f"/api/tables/{tid}", headers=auth(token)).json()["seat"] == 0
        # the live WebSocket reads the decoded name: ?%74oken= is the seat's token
        with connect(f"ws://127.0.0.1:{server.port}/api/tables/{tid}/live?%74oken={token}") as ws:
            assert json.loads(ws.recv(timeout=10))["seat"] == 0
    finally:
        server.stop()
    log = server.log()
    assert f"/tables/{tid}?" in log and "/live?" in log  # the requests were logged ...
    assert token not in log and token[:12] not in log  # ... without the token
