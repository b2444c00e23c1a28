"""The smaller generic additions of issue 5, item 4, on the toy fixture
(tests/rulesets/toy): ``sort_by``, ``move ... at "bottom"``, ``reveal X to P``
and counters named by a value (``gain c.amount of c.resource``).

Key-list scores and the turn-order helpers are in tests/test_hooks.py.
"""
from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.model.values import RuleError

from test_language import CARDS, PARKED, refused, sheet, toy_with


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    """The toy parked before dealing (deck == CARDS, top first)."""
    return toy_with(tmp_path_factory.mktemp("additions"), PARKED)


@pytest.fixture
def table(toy):
    g = Game.new(toy, players=2, seed=1)
    assert g.state["zones"]["deck"] == CARDS
    return g


# ---------------------------------------------------------------- sort_by

@pytest.mark.parametrize("text, value", [
    ('sort_by(["a", "b", "c"], [3, 1, 2])', ["b", "c", "a"]),
    ('sort_by(["a", "b", "c", "d"], [2, 1, 2, 1])', ["b", "d", "a", "c"]),   # stable
    ('sort_by(["a", "b"], ["y", "x"])', ["b", "a"]),
    ('sort_by(["a", "b", "c"], [[2, 5], [1, 9], [2, 1]])', ["b", "c", "a"]),  # element by element
    ('sort_by(["a", "b"], [[1, 2], [1]])', ["b", "a"]),        # a prefix comes first
    ('sort_by(["a", "b", "c"], [[1, 1], [0, 3], [1, 1]])', ["b", "a", "c"]),
    ("sort_by([], [])", []),
    ("sort_by(deck, list(-c.value for c in deck))", list(reversed(CARDS))),  # a zone's cards
])
def test_sort_by_orders_items_by_their_keys(table, text, value):
    assert table.evaluate(text) == value


@pytest.mark.parametrize("text, message", [
    ('sort_by(["a", "b"], [1, "x"])', "cannot compare numbers with strings"),
    ('sort_by(["a", "b"], [[1], 2])', "cannot compare lists of numbers with numbers"),
    ('sort_by(["a"], [["x"]])', "keys must be numbers, strings or lists of numbers"),
    ('sort_by(["a"], [true])', "keys must be numbers"),
    ('sort_by(["a", "b"], [1])', "as many keys as items"),
])
def test_sort_by_refuses_keys_it_cannot_compare(table, text, message):
    with pytest.raises(RuleError, match=message):
        table.evaluate(text)


def test_sort_by_ranks_players_by_a_key_list(table):
    table.execute("set players[2].coin to 5")            # P1 has 3
    ranked = "sort_by(players, list([-p.coin, p.seat] for p in players))"
    assert table.evaluate(ranked) == table.evaluate("[players[2], players[1]]")
    table.execute("set players[1].coin to 5")            # a tie: the seat decides
    assert table.evaluate(ranked) == table.evaluate("players")


# ---------------------------------------------------------------- move ... at "bottom"

def test_move_at_the_bottom_puts_cards_at_the_end(table):
    table.execute('move 2 from deck to discard at "bottom"')
    assert table.state["zones"]["discard"] == ["c1", "c2"]
    table.execute('move 1 from deck to discard at "bottom"')    # under the others, in order
    assert table.state["zones"]["discard"] == ["c1", "c2", "c3"]
    table.execute('move 1 from deck to discard at "top"')       # the default, said out loud
    assert table.state["zones"]["discard"] == ["c4", "c1", "c2", "c3"]


def test_move_a_named_card_to_the_bottom_of_its_own_zone(table):
    table.execute('move c2 from deck to deck at "bottom"')
    assert table.state["zones"]["deck"] == ["c1", "c3", "c4", "c5", "c6", "c2"]
    table.execute('move 2 from deck to deck at "bottom"')
    assert table.state["zones"]["deck"] == ["c4", "c5", "c6", "c2", "c1", "c3"]


def test_move_at_anything_but_top_or_bottom_is_refused(table):
    refused(table, 'move 1 from deck to discard at "middle"', 'takes "top" or "bottom"')


def test_the_checker_knows_move_at(toy):
    from interpreter.dsl.check import check
    from interpreter.dsl.parser import parse_program
    assert not check(parse_program('move 1 from deck to discard at "bottom"'), toy.vocabulary())
    [problem] = check(parse_program("move 1 from deck to discard at 3"), toy.vocabulary())
    assert problem.code == "dsl-kind" and "needs a string" in problem.message
