"""A seat's sources are kept while the state stands still, and read again once it changes
(fixture tests/rulesets/hooks: the Crown is active only with 10 gold)."""
from __future__ import annotations

from pathlib import Path

from interpreter.content.ruleset import load_ruleset
from interpreter.engine.game import Game

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
