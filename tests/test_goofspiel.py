"""Goofspiel, the tutorial's bundled game: its option from the command line, a whole game's sums.

The rules themselves are checked by the scenarios in tests/scenarios/goofspiel/
(test_scenarios.py runs them) and by the conformance harness.
"""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from interpreter.agents import make_bot, play_out
from interpreter.cli.main import cli
from interpreter.content.ruleset import load_ruleset
from interpreter.engine.game import Game


@pytest.mark.parametrize("cards", [3, 13])
def test_the_cards_option_works_from_the_command_line(cards):
    result = CliRunner().invoke(cli, ["play", "goofspiel", "-p", "3", "-o", f"cards={cards}", "--seed", "4"])
    assert result.exit_code == 0, result.output
    # each round every player bids, but the last bid is the one card left: taken without asking
    assert f"3 players, seed 4, {3 * (cards - 1)} decisions" in result.output


@pytest.mark.parametrize("players, cards", [(2, 13), (3, 7)])
def test_every_prize_is_taken_or_discarded_once(players, cards):
    rules = load_ruleset("goofspiel")
    game = Game.new(rules, players, 7, {"cards": cards})
    play_out(game, {i: make_bot("random", i) for i in range(players)})
    won = [c for p in game.state["players"] for c in p["zones"]["won"]]
    prizes = sorted(won + game.state["zones"]["discard"], key=lambda c: int(c[1:]))
    assert prizes == [f"d{rank}" for rank in range(1, cards + 1)]
    points = [game.evaluate(f"players[{i}].points") for i in range(1, players + 1)]
    assert points == [sum(int(c[1:]) for c in p["zones"]["won"]) for p in game.state["players"]]
    assert game.result["scores"] == points
