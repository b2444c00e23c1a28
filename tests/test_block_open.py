"""``Game.block_open`` (whether a ``simultaneously`` block is open) is kept on the game, not
saved: it must agree with the flow after every step, a clone, a load, a view and a failed call."""
import random

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.engine.determinise import determinise
from interpreter.model.values import RuleError
from interpreter.engine.game import Game, block_open, sealed_state


def _agrees(game) -> bool:
    return game.block_open == block_open(sealed_state(game))


@pytest.fixture(scope="module")
def lairs():
    return load_ruleset("rulesets/lairs")


def test_the_fact_follows_the_flow_through_random_games(lairs):
    opened = 0
    for seed in (1, 2):
        rnd = random.Random(seed)
        game = Game.new(lairs, players=4, seed=seed)
        while not game.over:
            assert _agrees(game)
            opened += game.block_open
            if rnd.random() < 0.1:
                for copy in (game.clone(), Game.from_json(lairs, game.to_json()),
                             determinise(game, game.pending()[0].player, seed)):
                    assert copy.block_open == game.block_open and _agrees(copy)
            d = game.pending()[0]
            game.apply(d.player, rnd.randrange(len(d.options)))
        assert _agrees(game) and not game.block_open
    assert opened                              # the games did open blocks


def test_a_failed_call_inside_a_block_leaves_the_fact_right(lairs):
    rnd = random.Random(3)
    game = Game.new(lairs, players=4, seed=3)
    while not game.block_open:
        d = game.pending()[0]
        game.apply(d.player, rnd.randrange(len(d.options)))
    before = game.to_json()
    with pytest.raises(RuleError):
        game.execute("as players[1]:\n  spend 1000000 coin")
    assert game.to_json() == before and game.block_open and _agrees(game)
    d = game.pending()[0]
    game.apply(d.player, 0)
    assert _agrees(game)
