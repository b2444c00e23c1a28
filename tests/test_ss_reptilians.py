"""Secret Societies' Reptilians (SS-F-REPT): what whole games must keep, beside the scenarios
(tests/scenarios/secret-societies/reptilians_*.yaml)."""
from __future__ import annotations

import random

import pytest

from interpreter.agents.driver import drive, random_mover
from interpreter.content.ruleset import load_ruleset
from interpreter.engine import scoring
from interpreter.engine.game import Game


@pytest.fixture(scope="module")
def rules():
    return load_ruleset("secret-societies")


def where_cards_are(game) -> list[str]:
    """Every broken promise about whose bid cards lie where (empty when all hold)."""
    wrong = []
    factions = [game.evaluate(f"players[{i + 1}].faction") for i in range(game.people)]
    for i, mine in enumerate(factions):
        for zone in ("hand", "vault", "aside"):
            for card in game.evaluate(f"list(players[{i + 1}].{zone})"):
                if game.evaluate(f'get({card}, "faction", none)') != mine:
                    wrong.append(f"{card} in P{i + 1}'s {zone}")
        for card in game.evaluate(f"list(players[{i + 1}].captured)"):
            owner = game.evaluate(f'get({card}, "faction", none)')
            if mine != "reptilians" or owner in (None, "reptilians"):
                wrong.append(f"{card} captured by P{i + 1}")
    return wrong


def keen_mover(seed: int, *words: str):
    """Random, but an option whose label holds one of ``words`` is taken whenever there is one."""
    rnd = random.Random(seed)

    def move(game, pending):
        decision = pending[0]
        labels = list(decision.options)
        keen = [k for k, label in enumerate(labels) if any(w in label for w in words)]
        game.apply(decision.player, keen[0] if keen else rnd.randrange(decision.count))
    return move


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (5, 3)])
def test_cards_always_go_home_and_only_opponents_cards_are_captured(rules, players, seed):
    """SS-F-REPT-04/06/09: a disguised card never lands in the Reptilians' hand or vault, a
    dummy card is never captured, and every card ends where its owner can use it."""
    game = Game.new(rules, players=players, seed=seed, options={"factions": ["reptilians", "vampires"]})
    seen = {"disguised": 0, "captured": 0}

    def check(game, step):
        assert where_cards_are(game) == []
        bids = game.state["auctions"]["market"]["bids"]
        seen["disguised"] += sum(1 for b in bids for t in b["tokens"] if t["kind"] == "disguise")
        seen["captured"] += len(game.evaluate("list(players[1].captured)"))
    drive(game, keen_mover(seed, "disguised", "leave them"), on_step=check)
    assert seen["disguised"] > 0 and seen["captured"] > 0       # the abilities were used


def test_captured_cards_count_as_in_hand_for_the_tie_break(rules):
    """SS-F-REPT-13, SS-END-13, SS-AMB-52: power tied, the Reptilians' captured cards count as
    cards in their hand; they count for nobody else, not even their owner."""
    game = Game.new(rules, players=2, seed=4, options={"factions": ["reptilians", "vampires"]})
    drive(game, random_mover(4))
    game.execute("fill players[1].hand with [reptilians_1]")
    game.execute("fill players[1].captured with [vampires_3, vampires_4]")
    game.execute("fill players[2].vault with [vampires_5]")           # the vault never counts
    game.execute("fill players[2].hand with [vampires_1, vampires_2]")
    for i in (1, 2):
        game.execute(f"set players[{i}].power to 50")
    assert [scoring.standing(game, i) for i in (0, 1)] == [[[50, 3]], [[50, 2]]]   # one key: standing
    assert scoring.result(game)["winners"] == [0]
    game.execute("fill players[1].captured with [vampires_3]")
    assert scoring.result(game)["winners"] == [0, 1]                  # 2 and 2: a shared win
