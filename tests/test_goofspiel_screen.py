"""Goofspiel at the table (rulesets/goofspiel/presentation.yaml): the screen at 80x24 says the
prize up for bids, each player's points, prizes and spent bids in plain names, and its log
says who bid what and who took the prize, without the bookkeeping moves (the deal, a bid laid
face down, a bid put aside) or internal zone names. Also the presentation's ``quiet`` patterns."""
from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from interpreter.agents.driver import drive, random_mover
from interpreter.cli import table
from interpreter.content.presentation import _matches
from interpreter.content.ruleset import load_ruleset
from interpreter.engine.game import Game

WIDTH, HEIGHT = 80, 24
INTERNAL = re.compile(r"\bbox\b|'s (bid|played|won|hand)\b|\b(from|to) (prizes?|discard)\b|\bpoints \d")


@pytest.fixture(scope="module")
def goofspiel():
    return load_ruleset("goofspiel")


def screen(game, seat) -> str:
    console = Console(record=True, width=WIDTH, height=HEIGHT, file=io.StringIO())
    table.show(console, game, seat, list(game.view(seat)["log"]))
    return console.export_text()


@pytest.mark.parametrize("players, decisions", [(2, 0), (2, 6), (2, 20), (3, 3), (3, 18), (3, 30)])
def test_the_screen_fits_and_reads_like_the_table(goofspiel, players, decisions):
    game = Game.new(goofspiel, players=players, seed=5)
    drive(game, random_mover(5), until=lambda g: len(g.state["history"]) >= decisions)
    seat = game.pending()[0].player
    text = screen(game, seat)
    lines = text.rstrip("\n").splitlines()
    assert len(lines) <= HEIGHT - 1 and max(map(len, lines)) <= WIDTH, text
    assert not INTERNAL.search(text), text
    view = game.view(seat)
    prize = goofspiel.entities[view["zones"]["prize"]["cards"][0]]["name"]
    assert f"Prize {prize} · Prize deck {view['zones']['prizes']['count']} cards" in text
    me = view["players"][seat]
    assert f"You ({game.seat_name(seat)})\nPoints {me['counters']['points']}" in text
    for rival in view["players"]:
        if rival["seat"] != seat:
            assert f"{rival['name']} Points {rival['counters']['points']}" in text
    words = " ".join(text.split())
    for card in me["zones"]["played"]["cards"]:                 # your spent bids, by name
        assert goofspiel.entities[card]["name"] in words
    assert "P1: your bid" in text or f"{game.seat_name(seat)}: your bid" in text
    if decisions and "Since your last turn" in text:            # a round was settled: told plainly
        assert re.search(r"P\d chose: \S", text) and " from Prize deck to Prize" in text, text


def test_the_log_leaves_out_only_bookkeeping_moves(goofspiel):
    game = Game.new(goofspiel, players=2, seed=5)
    drive(game, random_mover(5), until=lambda g: len(g.state["history"]) >= 4)
    log = game.view(0)["log"]
    look = goofspiel.presentation
    left_out = [line for line in log if not look.shown(line)]
    assert left_out and all(re.search(r" from (box|P\d's hand|P\d's bid) to ", line) for line in left_out)
    assert all(look.shown(line) for line in log if "chose" in line or "gains" in line or "'s won" in line)
    assert any(line.startswith("P2 chose: ") for line in log)   # the log itself is whole


@pytest.mark.parametrize("pattern, line, shown", [
    ("* from box to *", "ace of spades from box to P1's hand", False),
    ("* from box to *", "from box to P1's hand", True),                # '*' needs its place, not text
    ("* from *'s bid to *'s played", "7 of spades from P1's bid to P1's played", False),
    ("* from *'s bid to *'s played", "7 of spades from P1's bid to P1's won", True),
    ("all players have chosen", "all players have chosen", False),
    ("all players*", "all players have chosen", False),
    ("*chosen", "chosen", False),
    ("a*a", "a", True),                                       # the two ends may not overlap
])
def test_quiet_patterns_match_whole_lines_with_stars(pattern, line, shown):
    assert _matches(pattern, line) is not shown


def test_the_next_screen_tells_what_the_answer_set_off(tmp_path):
    """The last bid of a round ends it: the others' bids and who took the prize are written
    during that answer, so they are news on the next screen."""
    from click.testing import CliRunner

    from interpreter.cli.main import cli
    result = CliRunner().invoke(cli, ["play", "goofspiel", "-o", "cards=3", "--seats", "human,random"],
                                input="1\n1\n")
    assert result.exit_code == 0, result.output
    second = result.output.split("P1> ")[1]
    assert "Since your last turn" in second
    assert re.search(r"P1 chose: ace of spades\n\s+all players have chosen\n\s+P2 chose: \S", second), second
