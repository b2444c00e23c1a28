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
    """The toy parked before dealing (deck == CARDS, top first); a card may name a
    counter in its ``resource`` field (c1: coin, c2: mov, c3: one that is not)."""
    return toy_with(tmp_path_factory.mktemp("additions"), PARKED,
                    fields={"resource": {"type": "string", "optional": True}},
                    records={"c1": {"resource": "coin"}, "c2": {"resource": "mov"},
                             "c3": {"resource": "gems"}})


def problems(toy, text):
    """The checker's problems with ``text`` in the toy, as (code, message) pairs."""
    from interpreter.dsl.check import check
    from interpreter.dsl.parser import parse_program
    return [(p.code, p.message) for p in check(parse_program(text), toy.vocabulary())]


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
    assert problems(toy, 'move 1 from deck to discard at "bottom"') == []
    [(code, message)] = problems(toy, "move 1 from deck to discard at 3")
    assert code == "dsl-kind" and "needs a string" in message


# ---------------------------------------------------------------- counters named by a value

def test_gain_spend_and_lose_a_counter_named_by_a_value(table):
    table.execute("gain c1.value + 1 of c1.resource, 3 of c2.resource", player=0)
    assert sheet(table)["counters"] == {"coin": 5, "mov": 3, "points": 0}
    table.execute('spend 1 of c2.resource; lose 2 of "coin"', player=0)
    assert sheet(table)["counters"] == {"coin": 3, "mov": 2, "points": 0}
    table.execute("for each c in [c1, c2]:\n  gain 1 of c.resource for players[2]")
    assert sheet(table, 1)["counters"] == {"coin": 4, "mov": 1, "points": 0}


def test_a_counter_named_by_a_value_keeps_its_floor_and_ceiling(table):
    table.execute("gain 50 of c1.resource", player=0)          # coin: max 10, earn_cap 8
    assert sheet(table)["counters"]["coin"] == 10
    refused(table, "spend 11 of c1.resource", "cannot spend 11 coin")


@pytest.mark.parametrize("text, message", [
    ("gain 1 of c3.resource", "'of' needs the name of a counter, got gems"),
    ("gain 1 of c4.resource", "'c4' has no field 'resource'"),
    ('gain 1 of "co" + "in", 1 of c3.resource', "got gems"),    # nothing is gained
])
def test_a_value_that_names_no_counter_is_a_rule_error(table, text, message):
    refused(table, text, message)


@pytest.mark.parametrize("text, code, words", [
    ("gain 2 coin", None, None),
    ("gain 2 of c1.resource", None, None),
    ('gain 2 of "coin"', None, None),
    ("gain 2 coins", "dsl-unknown-counter", "'coins' is not a counter"),     # still static
    ('gain 2 of "coins"', "dsl-unknown-counter", "'coins' is not a counter"),
    ("gain 2 of c1.value", "dsl-kind", "needs a string, but c1's value is a number"),
    ("gain c1.resource of c1.resource", "dsl-kind", "needs a number"),
])
def test_the_checker_knows_counters_named_by_a_value(toy, text, code, words):
    found = problems(toy, text)
    if code is None:
        assert found == []
    else:
        [(got, message)] = found
        assert got == code and words in message


# ---------------------------------------------------------------- reveal X to P

def zone_view(game, viewer, name, seat=None):
    """What ``viewer`` sees of a table zone, or of ``seat``'s zone (0-based)."""
    view = game.view(viewer)
    return view["zones"][name] if seat is None else view["players"][seat]["zones"][name]


def test_a_revealed_card_shows_in_the_viewers_view_only(table):
    table.execute("reveal c3 to players[2]")                   # deck shows only its count
    assert zone_view(table, 1, "deck") == {"count": 6, "known": {"3": "c3"}}
    assert zone_view(table, 0, "deck") == {"count": 6}
    assert table.state["known"] == [{"seat": 1, "zone": ["deck", None, None], "card": "c3"}]
    assert "revealed c3 to you" in table.view(1)["log"]
    assert "revealed c3 to you" not in table.view(0)["log"]


def test_a_card_in_another_players_hand_can_be_revealed(table):
    table.execute("move 2 from deck to self.hand", player=0)    # P1 holds c1, c2
    table.execute("reveal c2 to players[2]")
    assert zone_view(table, 1, "hand", seat=0) == {"count": 2, "known": {"2": "c2"}}
    assert zone_view(table, 0, "hand", seat=0) == {"count": 2, "cards": ["c1", "c2"]}


def test_revealing_to_several_players_and_where_all_is_seen_anyway(table):
    table.execute("move 1 from deck to discard\nreveal [c1, c4] to players")
    assert zone_view(table, 0, "deck") == zone_view(table, 1, "deck") == {"count": 5,
                                                                          "known": {"3": "c4"}}
    assert zone_view(table, 0, "discard") == {"count": 1, "cards": ["c1"]}   # no "known"


def test_knowledge_follows_the_card_while_other_cards_move(table):
    table.execute("reveal c3 to players[2]")
    table.execute("move 1 from deck to discard")                # c1 leaves the top
    assert zone_view(table, 1, "deck")["known"] == {"2": "c3"}
    table.execute('move c6 from deck to deck at "bottom"\nmove 1 from discard to deck')
    assert zone_view(table, 1, "deck")["known"] == {"3": "c3"}


@pytest.mark.parametrize("text", [
    "move c3 from deck to discard\nmove c3 from discard to deck",   # gone and back: not known
    'move c3 from deck to deck at "bottom"',                       # moving it ends it
    "shuffle deck",
    "arrange deck to [c3]",
    "split deck into row\nmove c3 from row[1] to deck",
])
def test_moving_the_card_or_shuffling_its_zone_ends_the_knowledge(table, text):
    table.execute("reveal c3 to players[2]\nreveal c5 to players[1]")
    table.execute(text)
    assert "known" not in zone_view(table, 1, "deck")
    assert [entry["card"] for entry in table.state["known"]] == (
        ["c5"] if "c5" in table.state["zones"]["deck"] and "shuffle" not in text else [])


def test_knowledge_survives_a_save_and_load(table):
    table.execute("reveal c4 to players[1]")
    loaded = Game.from_json(table.rules, table.to_json())
    assert zone_view(loaded, 0, "deck") == {"count": 6, "known": {"4": "c4"}}
    loaded.execute("shuffle deck")
    assert loaded.state["known"] == []


def test_revealing_a_card_in_no_zone_is_refused(table):
    refused(table, 'reveal [c1, "c9"] to players[1]', "in no zone")    # c1 is not recorded
    assert "known" not in table.state


def test_the_determinised_copy_keeps_what_the_viewer_was_shown(table):
    from interpreter.engine.determinise import determinise
    table.execute("reveal c4 to players[1]\nreveal c2 to players[2]")
    decks = set()
    for seed in range(12):
        world = determinise(table, 0, seed=seed)
        deck = world.state["zones"]["deck"]
        assert deck[3] == "c4"                                   # where P1 knows it is
        assert world.state["known"] == [{"seat": 0, "zone": ["deck", None, None], "card": "c4"}]
        assert zone_view(world, 0, "deck") == zone_view(table, 0, "deck")
        decks.add(tuple(deck))
    assert len(decks) > 1                                        # the rest is resampled


def test_the_terminal_shows_what_a_player_was_shown(table):
    from interpreter.cli import render
    table.execute("reveal c2 to players[1]")
    assert render.zone(zone_view(table, 0, "deck")) == "6 card(s), you know #2 c2"
    assert render.zone(zone_view(table, 1, "deck")) == "6 card(s)"
