"""examples/agent_against_people.py: creates a table, prints people's links, plays its seat to the end."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy")

from dicetable.rl import GameSpaces

EXAMPLE = pathlib.Path(__file__).parents[2] / "examples" / "agent_against_people.py"


def test_the_example_plays_a_linear_policy_from_saved_weights(server, tmp_path):
    spaces = GameSpaces("biblios-dice", 2)
    weights = tmp_path / "w.npz"
    # W zero, b falling: the policy plays the legal action first in the catalogue (a game that ends:
    # some fixed weights make a policy re-roll forever where the rules allow it).
    np.savez(weights, W=np.zeros((spaces.num_actions, spaces.observation_size)), b=-np.arange(spaces.num_actions))
    run = subprocess.run([sys.executable, str(EXAMPLE), "--server", server.url, "--people", "0", "--bots", "1",
                          "--weights", str(weights)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[-1].startswith("over: scores [") and "version 1: the agent plays " in run.stdout
    moves = [line.split()[-1] for line in lines if ": the agent plays " in line]
    assert moves and all(m in spaces.index for m in moves)


def test_the_example_prints_a_link_for_each_person(server):
    # One person who never comes: the example prints the link, then waits; it is stopped here.
    proc = subprocess.Popen([sys.executable, str(EXAMPLE), "--server", server.url, "--people", "1",
                             "--game", "kingdom-of-dice"], stdout=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline()
        assert first.startswith(f"seat 1 (Player 2): {server.url}/tables/") and "#invite=1." in first
    finally:
        proc.kill()
        proc.wait(10)


def test_weights_of_the_wrong_shape_are_refused_before_any_table_is_made(server, tmp_path):
    spaces = GameSpaces("biblios-dice", 2)
    weights = tmp_path / "solo.npz"
    np.savez(weights, W=np.zeros((10, 192)), b=np.zeros(10))  # Kingdom of Dice solo's shapes
    def table_ids():
        status, listed = server.call("GET", "/api/tables")
        assert status == 200
        return {t["table_id"] for t in (listed["tables"] if isinstance(listed, dict) else listed)}

    before = table_ids()
    run = subprocess.run([sys.executable, str(EXAMPLE), "--server", server.url, "--people", "0", "--bots", "1",
                          "--weights", str(weights)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 1
    assert (f"{weights}: W is (10, 192) and b (10,), biblios-dice at 2 seats needs W "
            f"({spaces.num_actions}, {spaces.observation_size}) and b ({spaces.num_actions},)") in run.stderr
    assert table_ids() <= before  # no table made, so none left open


def test_a_policy_trained_and_saved_by_the_training_example_plays_at_a_table(server, tmp_path):
    saved = tmp_path / "kod.npz"
    train = EXAMPLE.parent / "train_kingdom_of_dice_solo.py"
    run = subprocess.run([sys.executable, str(train), "--max-steps", "200", "--eval-games", "1",
                          "--save", str(saved)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    spaces = GameSpaces("kingdom-of-dice", 1)
    with np.load(saved) as arrays:
        assert arrays["W"].shape == (spaces.num_actions, spaces.observation_size)
        assert arrays["b"].shape == (spaces.num_actions,)
    run = subprocess.run([sys.executable, str(EXAMPLE), "--server", server.url, "--game", "kingdom-of-dice",
                          "--people", "0", "--weights", str(saved)], capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1].startswith("over: scores [")
