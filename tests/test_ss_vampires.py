"""Secret Societies' Vampires (SS-F-VAMP): charm tokens over whole games, and what a charmed
bid shows, to whom, and to a bot's look-ahead (the scenarios are
tests/scenarios/secret-societies/vampires_*.yaml)."""
from __future__ import annotations

import pytest

from interpreter.agents.driver import drive
from interpreter.content.ruleset import load_ruleset
from interpreter.engine.determinise import determinise
from interpreter.engine.game import Game

from test_ss_reptilians import keen_mover


@pytest.fixture(scope="module")
def rules():
    return load_ruleset("secret-societies")


def market(game) -> dict:
    return game.state["auctions"]["market"]


def vampires(game) -> int:
    return next(i for i in range(game.people) if game.evaluate(f"players[{i + 1}].faction") == "vampires")


def tokens_in_play(game, v: int) -> int:
    """Every charm token: the Vampires' supply (both sides), set aside, on bids, held by others."""
    sheet = game.state["players"][v]["vars"]
    held = sum(p["vars"]["charms_held"] or 0 for p in game.state["players"])
    on_bids = sum(1 for b in market(game)["bids"] for t in b["tokens"] if t["kind"] == "charm")
    return sheet["charm_fresh"] + sheet["charm_tired"] + sheet["charm_aside"] + held + on_bids


def charmed_bids(game) -> list[dict]:
    return [b for b in market(game)["bids"] if b["down"] and any(t["kind"] == "charm" for t in b["tokens"])]


@pytest.mark.parametrize("players,seed", [(2, 5), (3, 6), (4, 7), (5, 8)])
def test_charm_tokens_are_never_made_or_lost_and_a_charmed_bid_shows_to_the_vampires_alone(
        rules, players, seed):
    """SS-F-VAMP-01/05/07/08, SS-DATA-24: 4 tokens, one boxed at 2-3 players; SS-F-VAMP-05b: the
    card under a charm is in the Vampires' view until it is revealed, and in no other
    seat's but its owner's and placer's."""
    game = Game.new(rules, players=players, seed=seed, options={"factions": ["stonesmiths", "vampires"]})
    v = vampires(game)
    total = 3 if players <= 3 else 4
    seen = {"charmed": 0}

    def check(game, step):
        assert tokens_in_play(game, v) == total
        for bid in charmed_bids(game):
            seen["charmed"] += 1
            for i in range(len(game.state["players"])):
                shown = next(b for b in game.view(i)["auctions"]["market"]["bids"] if b["n"] == bid["n"])
                knows = i == v or i in (bid["by"], bid["owner"])
                assert (shown["card"] == bid["card"]) if knows else shown["card"] is None
    drive(game, keen_mover(seed, "charm "), on_step=check)
    assert seen["charmed"] > 0


def test_a_bots_look_ahead_keeps_the_charmed_card_and_deals_the_rest(rules):
    """engine/determinise: the Vampires' worlds all hold the card they charmed; another seat's
    worlds deal that bid afresh from the cards it cannot see."""
    game = Game.new(rules, players=3, seed=6, options={"factions": ["stonesmiths", "vampires"]})
    drive(game, keen_mover(6, "charm "), until=lambda g: bool(charmed_bids(g)))
    bid = charmed_bids(game)[0]
    v = vampires(game)
    other = next(i for i in range(3) if i not in (v, bid["by"], bid["owner"]))

    def dealt(seat, seed):
        world = determinise(game, seat, seed)
        return next(b for b in world.state["auctions"]["market"]["bids"] if b["n"] == bid["n"])["card"]
    assert {dealt(v, seed) for seed in range(8)} == {bid["card"]}
    assert len({dealt(other, seed) for seed in range(12)}) > 1
