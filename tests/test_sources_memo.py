"""A seat's sources are kept while the state stands still, and read again once it changes
(fixture tests/rulesets/hooks: the Crown is active only with 10 gold)."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.engine import budget
from interpreter.engine.game import Game
from interpreter.model.values import RuleError

HOOKS = str(Path(__file__).parent / "rulesets" / "hooks")


def test_sources_are_read_again_after_each_statement_that_changes_the_state():
    game = Game.new(load_ruleset(HOOKS), players=2, seed=1)
    game.execute('heard = [modifier(players[2], "bonus")]\n'
                 "set players[2].gold to 10\n"
                 'heard = heard + [modifier(players[2], "bonus")]\n'
                 "set players[2].gold to 0\n"
                 'heard = heard + [modifier(players[2], "bonus"), modifier(players[2], "bonus")]')
    assert game.evaluate("heard") == [0, 101, 0, 0]


def test_one_state_finds_its_sources_once():
    game = Game.new(load_ruleset(HOOKS), players=2, seed=1)
    game.memo.clear()
    game.evaluate('[modifier(players[1], "bonus"), modifier(players[1], "bonus")]')
    assert [key for key in game.memo if key[0] == "$sources"] == [("$sources", 0)]


def test_finding_sources_is_charged_to_the_running_step_budget(monkeypatch):
    """The sources function runs as any ruleset function called inside a statement: a loop
    reading a modifier at every turn stops within the budget (it once got a fresh budget at
    each reading, so such a loop never stopped)."""
    monkeypatch.setattr(budget, "MAX_STEPS", 300)
    game = Game.new(load_ruleset(HOOKS), players=2, seed=1)
    with pytest.raises(RuleError, match="no decision after"):
        game.execute('for each k in range(1, 1000):\n  x = modifier(players[2], "bonus")\n')
