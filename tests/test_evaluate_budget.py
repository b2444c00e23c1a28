"""A built-in that reads a ruleset function (``modifier`` through ``sources:``, an auction's
tie function) evaluates it with ``Game.evaluate``; inside a run that spends the run's step
budget, so a loop calling it still stops (it once started a fresh budget at every call)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.engine import budget
from interpreter.engine.game import Game
from interpreter.model.values import RuleError

HOOKS = Path(__file__).parent / "rulesets" / "hooks"


def hooks_starting_with(tmp_path, text: str):
    folder = tmp_path / "hooks"
    shutil.copytree(HOOKS, folder)
    flow = folder / "flow.yaml"
    flow.write_text(flow.read_text().replace("start: |\n", "start: |\n" + text, 1))
    return load_ruleset(str(folder))


def test_a_loop_reading_a_modifier_meets_the_step_budget(tmp_path, monkeypatch):
    monkeypatch.setattr(budget, "MAX_STEPS", 2_000)
    loop = '  i = 0\n  while i < 20000:\n    i += 1\n    x = modifier(players[1], "bonus")\n'
    rules = hooks_starting_with(tmp_path, loop)       # (bounded, so that a fresh budget per call ends)
    with pytest.raises(RuleError, match="no decision after 2,000 steps") as stopped:
        Game.new(rules, players=2, seed=1)
    assert "hooks/flow.yaml:12:3" in str(stopped.value)          # the loop, placed


def test_evaluate_from_outside_a_run_has_a_budget_of_its_own(tmp_path, monkeypatch):
    monkeypatch.setattr(budget, "MAX_STEPS", 2_000)
    game = Game.new(load_ruleset(str(HOOKS)), players=2, seed=1)
    game.steps = 0                                    # what a run left
    assert game.evaluate('modifier(players[1], "bonus")', 0) == game.evaluate(
        'modifier(players[1], "bonus")', 0)
    assert game.steps > 0
