"""Secret Societies' Influencers, Illuminati and Tech Bros (issue 9) beyond their scenarios
(tests/scenarios/secret-societies/{influencers,illuminati,tech_bros}_*.yaml): the screen shows
their tokens with side and owner and their abilities in words; bots play them at 2..5 players."""
from __future__ import annotations

import io

import pytest
from rich.console import Console

from interpreter.agents.driver import drive, random_mover
from interpreter.cli import table
from interpreter.content.ruleset import load_ruleset
from interpreter.engine.game import Game

MINE = ["influencers", "illuminati", "tech_bros"]


@pytest.fixture(scope="module")
def rules():
    return load_ruleset("secret-societies")


def screen(game, seat) -> str:
    console = Console(record=True, width=100, height=40, file=io.StringIO())
    table.show(console, game, seat, list(game.view(seat)["log"]))
    return console.export_text()


def test_the_screen_shows_the_tokens_whose_they_are_and_the_abilities_in_words(rules):
    game = Game.new(rules, players=2, seed=3, options={"factions": ["influencers", "tech_bros"]})
    drive(game, random_mover(3), until=lambda g: g.state["vars"]["phase"] == "bidding"
          and g.pending() and g.pending()[0].player == 1 and len(g.pending()[0].options) <= 4)
    text = screen(game, 1)                                  # the Tech Bros see the Influencers' tokens
    assert "support A P1" in text and "cancel A P1" in text
    assert "Faction Tech Bros" in text and "Each time you bid on a deed holding only opponents'" in text
    assert "Tech Bros tile 1" in text and "lose rewards are doubled" in text


def test_a_tile_shows_its_real_text_not_a_placeholder(rules):
    for faction in MINE:
        for n in (1, 2, 3):
            record = rules.entities[f"{faction}_tile_{n}"]
            assert "not implemented" not in record["text"] and record.get("rule")


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_bots_play_them_to_the_end_the_same_way_twice(rules, players, seed):
    factions = (MINE + ["robots", "aliens"])[:players]
    ends = []
    for _ in range(2):
        game = Game.new(rules, players=players, seed=seed, options={"factions": factions})
        drive(game, random_mover(seed))
        assert game.state["vars"]["phase"] == "over"
        ends.append((game.state["result"], len(game.state["history"])))
    assert ends[0] == ends[1]
