"""``dicetable tables`` and ``dicetable export`` on a database the server wrote; ``serve`` refusing a bad URL."""

from __future__ import annotations

import json
import re
import time

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from dicetable.cli.main import app as cli
from dicetable.engine import read_json, run_replay
from dicetable.web import create_site

from .helpers import auth, create


def _words(output: str) -> str:
    """The text of an error as a reader sees it: the panel's frame dropped, lines wrapped at any width joined."""
    return " ".join(output.replace("│", " ").replace("╭", " ").replace("╰", " ").split())


def test_tables_and_export(sqlite_url, tmp_path):
    with TestClient(create_site(sqlite_url)) as client:
        done = create(client, "kingdom-of-dice", ["human"], seed=9, options={"cat_level": 2})
        running = create(client, "corsairs-of-valeria", ["human", "human"], seed=4)
        tok = done["seats"][0]["token"]
        assert client.post(f"/api/tables/{done['table_id']}/seats/0/bot", headers=auth(tok),
                           json={"level": "random"}).status_code == 200
        deadline = time.monotonic() + 60
        while not client.get(f"/api/tables/{done['table_id']}").json()["over"]:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        final = client.get(f"/api/tables/{done['table_id']}").json()
    runner = CliRunner()
    listed = runner.invoke(cli, ["tables", "--database", sqlite_url, "--json"])
    assert listed.exit_code == 0, listed.output
    rows = {r["table_id"]: r for r in json.loads(listed.output)}
    assert rows[done["table_id"]]["status"] == "over" and rows[running["table_id"]]["status"] == "running"
    assert "token" not in listed.output
    out = tmp_path / "game.json"
    exported = runner.invoke(cli, ["export", done["table_id"], "--database", sqlite_url, "-o", str(out)])
    assert exported.exit_code == 0, exported.output
    state = run_replay(read_json(out))
    assert list(state.scores) == final["scores"] and state.is_over
    refused = runner.invoke(cli, ["export", running["table_id"], "--database", sqlite_url])
    assert refused.exit_code == 2 and "still running" in _words(refused.output) and "seed" in _words(refused.output)
    unknown = runner.invoke(cli, ["export", "nosuch", "--database", sqlite_url])
    assert unknown.exit_code == 2 and "no table 'nosuch'" in _words(unknown.output)
    # a terminal user is pointed at the CLI's listing, not at the HTTP API's
    assert "`dicetable tables` lists them" in _words(unknown.output) and "GET /api" not in unknown.output


def test_serve_refuses_a_bad_database_url():
    result = CliRunner().invoke(cli, ["serve", "--database", "mysql://x/y"])
    assert result.exit_code == 2 and "sqlite:///" in result.output and "postgresql+psycopg://" in result.output


def test_tables_listing_at_80_columns_cuts_no_word(sqlite_url):
    """The rich listing in an 80-column terminal wraps long cells instead of cutting them short."""
    with TestClient(create_site(sqlite_url)) as client:
        create(client, "dice-kingdoms-of-valeria", ["human", "greedy", "random"], seed=3)
    result = CliRunner().invoke(cli, ["tables", "--database", sqlite_url], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    # the table fits the 80 columns; a line of text is whole (output that is not a terminal keeps its lines)
    table = [line for line in result.output.splitlines() if line.strip()[:1] in set("┏┃┡│└")]
    assert table and max(len(line) for line in table) <= 80
    body = [line.strip()[1:-1].split("│") for line in result.output.splitlines() if line.strip().startswith("│")]
    columns = ["".join(row[i].strip() for row in body) for i in range(len(body[0]))]  # wrapped pieces rejoined
    head = [line for line in result.output.splitlines() if line.strip().startswith("┃")]
    header = ["".join(row.strip()[1:-1].split("┃")[i].strip() for row in head) for i in range(len(columns))]
    assert header == ["id", "game", "players", "status", "moves", "created", "seats"], result.output
    assert columns[1:5] == ["dice-kingdoms-of-valeria", "3", "running", columns[4]] and columns[4].isdigit()
    assert columns[6].replace(" ", "") == "Player1,greedybot,randombot", result.output  # wrapped at spaces


def test_serve_on_a_busy_port_says_so_and_how_to_pick_another(sqlite_url):
    """A port already taken gets one clear line naming it and --port (not uvicorn's log and exit code 3)."""
    import socket

    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--port", str(port), "--database", sqlite_url])
    assert result.exit_code == 2, result.output
    assert f"cannot listen on 127.0.0.1:{port}" in result.output and "--port" in result.output, result.output
    assert "dicetable server on" not in result.output  # it never claimed to be serving


def test_serve_refuses_a_keep_alive_out_of_range(sqlite_url):
    for seconds in ("0", "3601"):
        result = CliRunner().invoke(cli, ["serve", "--keep-alive", seconds, "--database", sqlite_url])
        assert result.exit_code == 2, result.output
        assert f"--keep-alive takes seconds from 1 to 3600, got {seconds}" in _words(result.output)
        assert "dicetable server on" not in result.output


def test_table_ids_can_be_typed_on_the_command_line():
    # A table id is passed to `dicetable export ID`: one starting with "-" would be read as an
    # option (CI once drew "-W..." and the export failed), so ids are letters and digits only.
    from dicetable.server.tables import new_table_id

    ids = {new_table_id() for _ in range(2000)}
    assert len(ids) == 2000
    for table_id in ids:
        assert re.fullmatch(r"[a-z0-9]{14}", table_id), table_id


def test_reading_commands_refuse_a_database_file_that_is_not_there(tmp_path):
    """`tables` and `export` only read: a mistyped SQLite path is named as missing (not listed as an
    empty database), and neither the file nor its folder is made; `serve` still creates its database."""
    missing = tmp_path / "no" / "such" / "dir" / "x.db"
    url = f"sqlite:///{missing}"
    runner = CliRunner()
    for args in (["tables", "--database", url], ["tables", "--database", url, "--json"],
                 ["export", "sometable", "--database", url]):
        result = runner.invoke(cli, args, env={"COLUMNS": "200"})
        assert result.exit_code == 2, result.output
        words = _words(result.output)
        assert f"no database at {missing}" in words and "does not exist" in words, words
        assert "no tables yet" not in words and "Traceback" not in result.output
    assert not (tmp_path / "no").exists()
    import socket

    with socket.create_server(("127.0.0.1", 0)) as busy:  # serve opens its database, then stops at the port
        served = runner.invoke(cli, ["serve", "--port", str(busy.getsockname()[1]), "--database", url])
    assert "cannot listen" in served.output and missing.is_file(), served.output  # made, folders and all
    listed = runner.invoke(cli, ["tables", "--database", url])
    assert listed.exit_code == 0 and "no tables yet" in listed.output, listed.output


def test_tables_with_no_database_named_refuses_the_default_file_that_is_not_there(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DICETABLE_DATABASE", raising=False)
    result = CliRunner().invoke(cli, ["tables"], env={"COLUMNS": "200"})
    assert result.exit_code == 2 and "dicetable.db" in result.output and "does not exist" in result.output
    assert not (tmp_path / "dicetable.db").exists()


def _revision(path) -> str | None:
    """The schema revision Alembic recorded in the SQLite file ``path`` (None: no dicetable schema)."""
    import sqlite3

    with sqlite3.connect(path) as conn:
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'alembic_version'").fetchone():
            return None
        return conn.execute("SELECT version_num FROM alembic_version").fetchone()[0]


def test_the_reading_commands_change_no_database(tmp_path):
    """`tables` and `export` only read: a database an older dicetable made is not upgraded under a
    server that may still run on it, and a file that is no dicetable database is not given the schema;
    each is refused, saying what it is and what to do."""
    from alembic import command

    from dicetable.server.store import _alembic_config, make_engine

    old = tmp_path / "old.db"
    engine = make_engine(f"sqlite:///{old}")
    with engine.begin() as conn:  # the schema as the sixth migration left it
        cfg = _alembic_config()
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0006_players")
    engine.dispose()
    other = tmp_path / "other.db"
    import sqlite3

    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (x TEXT)")
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(_alembic_config()).get_current_head()  # the newest migration
    assert head is not None and head > "0006_players"
    runner = CliRunner()
    for path, said in ((old, f"has schema 0006_players, not this dicetable's {head}"),
                       (other, "holds no dicetable tables")):
        before = path.read_bytes()
        for args in (["tables"], ["tables", "--json"], ["export", "sometable"]):
            result = runner.invoke(cli, args + ["--database", f"sqlite:///{path}"], env={"COLUMNS": "200"})
            assert result.exit_code == 2, result.output
            assert said in _words(result.output) and "Traceback" not in result.output, result.output
        assert path.read_bytes() == before
    assert _revision(old) == "0006_players" and _revision(other) is None
    import socket

    with socket.create_server(("127.0.0.1", 0)) as busy:  # serve opens its database, then stops at the port
        served = runner.invoke(cli, ["serve", "--port", str(busy.getsockname()[1]), "--database", f"sqlite:///{old}"])
    assert _revision(old) == head, served.output  # the server upgrades it
    listed = runner.invoke(cli, ["tables", "--database", f"sqlite:///{old}"])
    assert listed.exit_code == 0 and "no tables yet" in listed.output, listed.output
