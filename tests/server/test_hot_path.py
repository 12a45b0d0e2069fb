"""The cheap action path: no OpenTelemetry lookups per request unless asked for, answers encoded once."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from opentelemetry import trace

from dicetable.web import create_site
from dicetable.server.routes.common import minimal_answer, view_answer
from dicetable.server.settings import Settings, SettingsError

from .helpers import auth, create, mover_view, tokens_of


def test_telemetry_setting_is_off_by_default_and_reads_on_and_off():
    assert Settings.from_env({}).telemetry is False
    assert Settings.from_env({"DICETABLE_TELEMETRY": "on"}).telemetry is True
    assert Settings.from_env({"DICETABLE_TELEMETRY": "off"}).telemetry is False
    with pytest.raises(SettingsError, match="DICETABLE_TELEMETRY is 'on' or 'off'"):
        Settings.from_env({"DICETABLE_TELEMETRY": "yes"})


@pytest.mark.parametrize("telemetry", [False, True])
def test_requests_ask_opentelemetry_for_its_provider_only_with_telemetry_on(tmp_path, monkeypatch, telemetry):
    pytest.importorskip("fastapi.telemetry")
    calls = []
    real = trace.get_tracer_provider

    def counting():
        calls.append(1)
        return real()

    monkeypatch.setattr(trace, "get_tracer_provider", counting)
    app = create_site(f"sqlite:///{tmp_path}/t.db", settings=Settings(telemetry=telemetry))
    with TestClient(app) as client:
        calls.clear()
        for _ in range(3):
            assert client.get("/api/health").status_code == 200
    if telemetry:  # FastAPI's hook looks the provider up for every request
        assert len(calls) >= 3
    else:
        assert calls == []


def test_minimal_answer_is_the_compact_json_of_version_and_undos():
    answer = minimal_answer(12, 3)
    assert answer.body == b'{"version":12,"undos":3}'
    assert json.loads(answer.body) == {"version": 12, "undos": 3}
    assert answer.media_type == "application/json" and answer.headers["content-length"] == "24"


def test_view_answer_keeps_every_value_and_non_ascii_text():
    view = {"name": "Zoë", "seats": [{"seat": 0}], "board": None, "scores": (3, 4)}
    assert json.loads(view_answer(view).body) == {"name": "Zoë", "seats": [{"seat": 0}], "board": None,
                                                 "scores": [3, 4]}
    assert "Zoë".encode() in view_answer(view).body


def test_full_and_minimal_action_answers_agree_with_the_view(tmp_path):
    with TestClient(create_site(f"sqlite:///{tmp_path}/t.db")) as client:
        made = create(client, "biblios-dice", ["human", "human"], seed=4)
        tid, toks = made["table_id"], tokens_of(made)
        seat, view = mover_view(client, tid, toks)
        r = client.post(f"/api/tables/{tid}/actions", headers=auth(toks[seat]),
                        json={"action": view["legal_actions"][0]["id"], "version": view["version"]})
        assert r.status_code == 200 and r.headers["content-type"] == "application/json"
        full = r.json()
        assert full == client.get(f"/api/tables/{tid}", headers=auth(toks[seat])).json()
        assert full["version"] == view["version"] + 1
        seat, view = mover_view(client, tid, toks)
        r = client.post(f"/api/tables/{tid}/actions", headers={**auth(toks[seat]), "Prefer": "return=minimal"},
                        json={"action": view["legal_actions"][0]["id"], "version": view["version"]})
        assert r.status_code == 200 and r.content == b'{"version":%d,"undos":0}' % (view["version"] + 1)
