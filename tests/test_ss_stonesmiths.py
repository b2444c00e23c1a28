"""Secret Societies' Stonesmiths look at the face-down deed (SS-F-STONE-01): their view holds
it, nobody else's, and a bot's look-ahead keeps it for them and deals it afresh for the others."""
from __future__ import annotations

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.engine.determinise import determinise
from interpreter.engine.game import Game


@pytest.fixture(scope="module")
def game():
    rules = load_ruleset("secret-societies")
    game = Game.new(rules, players=3, seed=2, options={"factions": ["influencers", "stonesmiths", "robots"],
                                                       "hqs": ["qatar", "lesotho", "nauru"]})
    while game.evaluate("phase") != "bidding":                # the HQ cards (and the Robots' cache)
        decision = game.pending()[0]
        game.apply(decision.player, 0)
    return game


def blind(state) -> str | None:
    return next(lot["id"] for lot in state["auctions"]["market"]["lots"] if lot["down"])


def test_only_the_stonesmiths_view_names_the_face_down_deed(game):
    deed = blind(game.state)
    assert blind(game.view(1)) == deed
    assert blind(game.view(0)) is None and blind(game.view(2)) is None


def test_look_ahead_keeps_it_for_the_stonesmiths_and_deals_it_afresh_for_the_others(game):
    deed = blind(game.state)
    assert {blind(determinise(game, 1, seed).state) for seed in range(6)} == {deed}
    dealt = {blind(determinise(game, 0, seed).state) for seed in range(12)}
    assert len(dealt) > 1                                   # never seen: not the true deed every time
