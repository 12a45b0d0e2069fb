"""Smoke test of the training example: a few hundred steps learn and evaluate without error."""

from __future__ import annotations

import importlib.util
import pathlib

import numpy as np

EXAMPLE = pathlib.Path(__file__).parents[2] / "examples" / "train_kingdom_of_dice_solo.py"


def test_training_example_runs_a_few_hundred_steps():
    spec = importlib.util.spec_from_file_location("train_kod_solo", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    policy, curve, steps = module.train(minutes=5, max_steps=300, lr=0.02, cat_level=1, seed=3)
    assert steps >= 300 and len(curve) >= 1
    assert np.abs(policy.W).sum() > 0, "the policy never moved"
    score = module.evaluate(policy, None, games=2, cat_level=1)
    assert score >= 0.0
    assert module.evaluate(None, "greedy", games=2, cat_level=1) > module.evaluate(None, "random", games=2, cat_level=1)
