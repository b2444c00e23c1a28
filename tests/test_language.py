"""Conformance tests for the effect language (docs/language.md, "The effect language"),
run on the toy ruleset in tests/rulesets/toy.

One short test, or one table, per behaviour: expressions, the general
functions, statements, zones, decisions, simultaneous play and determinism.
Statements that ask for no decision run through ``Game.execute``; flows that
do ask are written into a copy of the toy made under ``tmp_path``
(``toy_with``) and driven with ``Game.pending`` / ``Game.apply``. Seats are
0-based in the API and 1-based in the language (``players[1]`` is seat 0).
"""
from __future__ import annotations

import json
import shutil
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest

from interpreter.agents.driver import drive, replay_mover
from interpreter.content.ruleset import load_ruleset
from interpreter.diagnostics import ContentError
from interpreter.content.yaml_source import load_yaml
from interpreter.engine.game import Game, IllegalAction
from interpreter.model.values import RuleError

TOY = Path(__file__).parent / "rulesets" / "toy"
CARDS = ["c1", "c2", "c3", "c4", "c5", "c6"]          # the toy's table, in order; c<N>.value == N

# A start that deals nothing and waits on P1 for ever: the table stays as
# loaded (deck == CARDS, hands empty) and the game never ends on its own.
PARKED = 'as players[1]:\n  choose "parked" one: pass | pass\n'


# ---------------------------------------------------------------- helpers

def toy_with(folder: Path, start: str, *, procedures=None, functions=None, fields=None,
             records=None):
    """Load a copy of the toy whose flow starts with ``start``.

    ``procedures`` and ``functions`` are added to flow.yaml, ``fields`` to the
    cards table and ``records`` ({id: {field: value}}) to the cards. Changed
    files are written back as JSON, which is YAML too.
    """
    folder = Path(folder) / "toy"
    shutil.copytree(TOY, folder)

    def rewrite(name, change):
        path = folder / name
        data, _ = load_yaml(path)
        change(data)
        path.write_text(json.dumps(data, indent=1))

    def flow(data):
        data["start"] = start
        data.setdefault("procedures", {}).update(procedures or {})
        data.setdefault("functions", {}).update(functions or {})

    def components(data):
        data["tables"]["cards"]["fields"].update(fields or {})

    def cards(data):
        for record in data["cards"]:
            record.update((records or {}).get(record["id"], {}))

    rewrite("flow.yaml", flow)
    rewrite("components.yaml", components)
    rewrite("data/cards.yaml", cards)
    return load_ruleset(str(folder))


def sheet(game, seat=0) -> dict:
    """A player's data in the state (0-based seat)."""
    return game.state["players"][seat]


def refused(game, text, match=None, player=0):
    """``text`` is refused with a RuleError and the state is exactly as before."""
    before = game.to_json()
    with pytest.raises(RuleError, match=match):
        game.execute(text, player=player)
    assert game.to_json() == before


def options(game, seat=0) -> list:
    """The option labels of a player's pending decision (0-based seat)."""
    decision = game.decision_for(seat)
    assert decision is not None, f"P{seat + 1} has no decision"
    return list(decision.options)


def play(game, answers=None):
    """Answer every decision to the end, recording (player, index) pairs.

    With ``answers``, replay those; otherwise answer the n-th decision with
    option ``n % len(options)``, so the game is not all first options.
    """
    first = len(game.state["history"])

    def cycle(g, pending):
        g.apply(pending[0].player, (len(g.state["history"]) - first) % len(pending[0].options))
    drive(game, cycle if answers is None else replay_mover(answers))
    return [tuple(action) for action in game.state["history"][first:]]


@contextmanager
def deadline(seconds):
    """Raise TimeoutError in the test if the block runs longer than ``seconds``."""
    def expired(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")
    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# ---------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def toy():
    return load_ruleset(str(TOY))


@pytest.fixture
def game(toy):
    """The real toy, dealt and waiting for the simultaneous choice (P1 holds 2 cards)."""
    return Game.new(toy, players=2, seed=1)


@pytest.fixture(scope="module")
def parked(tmp_path_factory):
    """The toy parked before dealing, plus procedures, a function and an effect field."""
    return toy_with(
        tmp_path_factory.mktemp("parked"), PARKED,
        procedures={
            "inner": {"params": ["n"], "do": "x = n * 10\nself.picked += x\n"},
            "outer": {"do": "x = 1\ndo inner(2)\nself.picked += x\n"},
            "countdown": {"params": ["n"],
                          "do": "if n > 0:\n  self.picked += n\n  do countdown(n - 1)\n"},
        },
        functions={"mov_now": {"expr": "self.mov"}},
        fields={"play": {"type": "effect", "optional": True}},
        records={"c1": {"play": "gain 1 mov\nself.picked += this"}})


@pytest.fixture
def table(parked):
    """A parked game: deck == CARDS (top first), hands, row and discard empty."""
    g = Game.new(parked, players=2, seed=1)
    assert g.state["zones"]["deck"] == CARDS
    return g


# ================================================================ expressions

@pytest.mark.parametrize("text, value", [
    ("7 + 2 * 3", 13),
    ("(7 + 2) * 3", 27),
    ("2 - 5", -3),
    ("-(2 + 3)", -5),
    ("7 / 2", 3),
    ("-7 / 2", -4),                     # rounds down, not towards zero
    ("6 / 3", 2),
    ("7 % 3", 1),
    ("-7 % 3", 2),                      # so that (a / b) * b + a % b == a
])
def test_arithmetic_on_whole_numbers(game, text, value):
    assert game.evaluate(text) == value


@pytest.mark.parametrize("text, value", [
    ("3 < 4", True), ("4 < 4", False), ("4 <= 4", True), ("5 > 5", False), ("5 >= 5", True),
    ("3 == 3", True), ("3 != 3", False), ('"a" == "a"', True), ('"a" != "b"', True),
    ("[1, 2] == [1, 2]", True), ("[1, 2] == [2, 1]", False),
    ('{"a": 1} == {"a": 1}', True), ("none == none", True), ("none == 0", False),
    ("c1 == c1", True), ("c1 == c2", False),
])
def test_comparisons(game, text, value):
    assert game.evaluate(text) is value


@pytest.mark.parametrize("text, value", [
    ("true and false", False), ("true and true", True),
    ("false or true", True), ("false or false", False),
    ("not true", False), ("not false", True),
    ("not 1 == 2", True),                       # 'not' applies to the whole comparison
    ("1 < 2 and 2 < 3", True),
])
def test_boolean_operators(game, text, value):
    assert game.evaluate(text) == value


@pytest.mark.parametrize("text, value", [
    ("false and 1 / 0 == 1", False),
    ("true or 1 / 0 == 1", True),
])
def test_and_or_stop_at_the_first_deciding_side(game, text, value):
    assert game.evaluate(text) is value


@pytest.mark.parametrize("text, value", [
    ("2 in [1, 2]", True), ("3 in [1, 2]", False),
    ("3 not in [1, 2]", True), ("2 not in [1, 2]", False),
    ('"at" in "cat"', True), ('"dog" in "cat"', False), ('"dog" not in "cat"', True),
    ("c3 in cards", True), ('"c9" in cards', False),
    ("players[2] in players", True),
])
def test_in_and_not_in_on_lists_and_strings(game, text, value):
    assert game.evaluate(text) is value


@pytest.mark.parametrize("text, value", [
    ("if 1 < 2 then 10 else 1 / 0", 10),
    ("if 1 > 2 then 1 / 0 else 20", 20),
])
def test_conditional_expression_evaluates_one_branch(game, text, value):
    assert game.evaluate(text) == value


@pytest.mark.parametrize("text, value", [
    ("[]", []),
    ('[1, "a", none, [2]]', [1, "a", None, [2]]),
    ('{"kind": "move", "n": [1, 2]}', {"kind": "move", "n": [1, 2]}),
    ("[10, 20, 30][1]", 10),                   # lists count from 1
    ("[10, 20, 30][3]", 30),
    ('{"a": 1, "b": [2]}.b', [2]),
    ('{"a": 1, "b": [2]}.b[1]', 2),
    ('{"a": 1}["a"]', 1),
    ("c3.value", 3),                           # a content record, by its id
    ("c3.id", "c3"),
    ("players[2].seat", 2),
])
def test_lists_and_records(game, text, value):
    assert game.evaluate(text) == value


@pytest.mark.parametrize("text, value", [
    ("[1] + [2, 3]", [1, 2, 3]),
    ("[] + []", []),
    ('"ab" + "cd"', "abcd"),
])
def test_plus_joins_lists_and_strings(game, text, value):
    assert game.evaluate(text) == value


@pytest.mark.parametrize("text, message", [
    ("1 / 0", "division by zero"),
    ("1 % 0", "division by zero"),
    ("[1, 2][0]", "outside 1..2"),
    ("[1, 2][3]", "outside 1..2"),
    ('{"a": 1}.b', "no 'b'"),
    ('{"a": 1}["b"]', "no 'b'"),
    ("c1.nope", "no field 'nope'"),
    ('1 + "a"', "cannot add"),
    ("[1] + 1", "cannot add"),
    ("1 + none", "cannot add"),
    ("true + 1", "cannot add"),
    ('"a" - "b"', "needs numbers"),
    ('"a" * 2', "needs numbers"),
    ('"a" < "b"', "needs numbers"),
    ('-"a"', "needs numbers"),
    ("1 in 2", "needs a list"),
])
def test_errors_in_expressions_are_rule_errors(game, text, message):
    with pytest.raises(RuleError, match=message):
        game.evaluate(text)


@pytest.mark.parametrize("text", ['1 in "abc"', '1 not in "abc"', '[1] in {"a": 1}'])
def test_in_with_the_wrong_kind_of_item_is_a_rule_error(game, text):
    with pytest.raises(RuleError):
        game.evaluate(text)


def test_a_generator_does_not_bind_its_variable(game):
    assert game.evaluate("count(x for x in [1, 2]) + x", env={"x": 10}) == 12


# ================================================================ general functions

@pytest.mark.parametrize("text, value", [
    ("count([4, 5, 6])", 3),
    ("count([])", 0),
    ("count(x for x in [1, 2, 3] if x > 1)", 2),
    ("sum([1, 2, 3])", 6),
    ("sum([])", 0),
    ("sum(c.value for c in cards)", 21),
    ("max([1, 5, 3])", 5),
    ("max(1, 5, 3)", 5),
    ("max([])", None),
    ("max(x for x in [1, 2] if x > 5)", None),
    ("min([4, 2, 8])", 2),
    ("min(4, 2, 8)", 2),
    ("min([])", None),
    ("range(1, 3)", [1, 2, 3]),                # both ends included
    ("range(2, 2)", [2]),
    ("range(3, 1)", []),
    ("abs(-3)", 3),
    ("abs(3)", 3),
    ("first([7, 8])", 7),
    ("first([])", None),
    ("any([false, true])", True),
    ("any([])", False),
    ("all([true, false])", False),
    ("all([])", True),
    ("unique([2, 1, 2, 3, 1])", [2, 1, 3]),   # first-seen order
    ('keys({"b": 1, "a": 2})', ["b", "a"]),
    ('with_most(["a", "b", "c"], [3, 1, 3])', ["a", "c"]),   # ties: all of them
    ('with_least(["a", "b", "c"], [3, 1, 3])', ["b"]),
    ('with_least(["a", "b", "c"], [2, 2, 2])', ["a", "b", "c"]),
    ("with_most([], [])", []),
    ("list(x * 2 for x in [1, 2, 3] if x != 2)", [2, 6]),
    ("list([1, 2])", [1, 2]),
    ("flatten([[1], [], [2, 3]])", [1, 2, 3]),
    ('text("take", "", c1, 2)', "take c1 2"),  # empty strings are left out
    ('text("", "")', ""),
    ('get({"a": 1}, "a", 0)', 1),
    ('get({"a": 1}, "b", 0)', 0),
    ('get(none, "a", 5)', 5),
    ('get(c2, "value", 0)', 2),               # a content record, by its id
    ('get(c2, "nope", 0)', 0),
])
def test_general_functions(game, text, value):
    assert game.evaluate(text) == value


@pytest.mark.parametrize("text, value", [
    ("any(x == 1 or 1 / 0 == 1 for x in [1, 2])", True),
    ("all(x == 2 and 1 / 0 == 1 for x in [1, 2])", False),
])
def test_any_and_all_stop_at_the_first_answer(game, text, value):
    assert game.evaluate(text) is value         # the second item would divide by zero


def test_headroom_is_the_tighter_of_max_and_earn_cap(game):
    # coin: start 3, max 10, earn_cap 8
    assert game.evaluate('headroom(players[1], "coin")') == 7        # the ceiling: 10 - 3
    game.execute("gain 5 coin", player=0)
    assert game.evaluate('headroom(players[1], "coin")') == 2        # the ceiling: 10 - 8
    game.execute("spend 6 coin", player=0)
    assert game.evaluate('headroom(players[1], "coin")') == 3        # the cap: 8 - 5 earned
    assert game.evaluate('headroom(players[2], "coin")') == 7        # per player
    assert game.evaluate('headroom(players[1], "mov")') >= 10 ** 6   # no limit


def test_get_reads_a_players_attribute(game):
    assert game.evaluate('get(players[1], "coin", 0)') == 3


# ================================================================ statements: counters

def test_gain_for_self_and_for_another_player(game):
    game.execute("gain 2 coin, 1 mov\ngain 4 points for players[2]", player=0)
    assert sheet(game, 0)["counters"] == {"coin": 5, "mov": 1, "points": 0}
    assert sheet(game, 1)["counters"] == {"coin": 3, "mov": 0, "points": 4}


def test_spend_and_lose_for_another_player(game):
    game.execute("spend 2 coin for players[2]\nlose 1 coin for players[2]", player=0)
    assert sheet(game, 1)["counters"]["coin"] == 0
    assert sheet(game, 0)["counters"]["coin"] == 3


def test_gain_for_each_player_in_a_loop(game):
    game.execute("for each p in players:\n  gain p.seat mov for p")
    assert [sheet(game, i)["counters"]["mov"] for i in (0, 1)] == [1, 2]


def test_gain_stops_at_the_ceiling(game):
    game.execute("gain 20 coin", player=0)
    assert sheet(game)["counters"]["coin"] == 10
    assert sheet(game)["earned"]["coin"] == 7                 # only what was really added


def test_gain_stops_at_the_earning_cap(game):
    game.execute("gain 5 coin\nspend 6 coin\ngain 5 coin", player=0)
    assert sheet(game)["counters"]["coin"] == 5               # 3 + 5 - 6 + 3: the cap of 8 is hit
    assert sheet(game)["earned"]["coin"] == 8


@pytest.mark.parametrize("text", [
    "spend 4 coin",                 # 3 coin, floor 0
    "spend 1 mov",
    "spend 2 coin, 1 mov",          # all or nothing: the coin is not paid either
    "spend -1 coin",
])
def test_spend_below_the_floor_is_refused_and_changes_nothing(game, text):
    refused(game, text, match="cannot")


def test_spend_down_to_the_floor_or_without_one(game):
    game.execute("spend 3 coin\nspend 2 points", player=0)
    assert sheet(game)["counters"]["coin"] == 0
    assert sheet(game)["counters"]["points"] == -2            # points has no floor


def test_spend_naming_a_counter_twice_is_checked_as_a_whole(game):
    refused(game, "spend 2 coin, 2 coin", match="cannot spend")   # 3 coin: 4 is too much


def test_lose_stops_at_the_floor(game):
    game.execute("lose 5 coin\nlose 5 points", player=0)
    assert sheet(game)["counters"]["coin"] == 0
    assert sheet(game)["counters"]["points"] == -5            # no floor: it goes below 0


@pytest.mark.parametrize("text", ["gain 1 coin, -1 mov", "lose 1 coin, -1 mov",
                                  "gain 1 coin, 1 / 0 mov"])
def test_a_refused_gain_or_lose_changes_nothing(game, text):
    refused(game, text)


# ================================================================ statements: assignment

def test_a_plain_name_is_a_local(game):
    game.execute("x = 5\nx += 1\nself.picked = [x]", player=0)
    assert sheet(game)["vars"]["picked"] == [6]
    assert "x" not in game.state["vars"]
    with pytest.raises(RuleError, match="unknown name 'x'"):
        game.evaluate("x")                                    # gone with its thread


def test_a_declared_variable_belongs_to_the_game(game):
    game.execute("step = 5")
    game.execute("step += 4\nstep -= 2")
    assert game.state["vars"]["step"] == 7
    assert game.evaluate("step") == 7


def test_player_fields_through_self_and_a_named_player(game):
    game.execute("self.picked = [1]\nself.coin = 9\nq = players[2]\nq.picked = [2]\nq.mov = 4",
                 player=0)
    assert sheet(game, 0)["vars"]["picked"] == [1] and sheet(game, 0)["counters"]["coin"] == 9
    assert sheet(game, 1)["vars"]["picked"] == [2] and sheet(game, 1)["counters"]["mov"] == 4


def test_a_counter_holds_only_whole_numbers(game):
    refused(game, "self.coin = true", match="'self.coin' holds a number, not a bool")


def test_plus_and_minus_equals_on_player_counters(game):
    game.execute("self.coin += 2\nself.mov += 4\nself.mov -= 1", player=0)
    assert sheet(game)["counters"]["coin"] == 5
    assert sheet(game)["counters"]["mov"] == 3


def test_plus_equals_on_a_list_adds_an_item_or_a_list(game):
    game.execute("self.picked += c1\nself.picked += [c2, c3]\nself.picked += []", player=0)
    assert sheet(game)["vars"]["picked"] == ["c1", "c2", "c3"]


def test_minus_equals_on_a_list_is_refused(game):
    game.execute("self.picked = [c1, c2]", player=0)
    refused(game, "self.picked -= [c1]", match="'-=' needs numbers, not a list")


def test_plus_equals_with_a_zone_adds_its_cards(table):
    table.execute("move 2 from deck to self.hand\nself.picked += self.hand", player=0)
    assert sheet(table)["vars"]["picked"] == ["c1", "c2"]


def test_plus_equals_on_strings_joins_them(game):
    game.execute('n = "ab"\nn += "cd"\nself.picked = [n]', player=0)
    assert sheet(game)["vars"]["picked"] == ["abcd"]


# ================================================================ statements: control flow

@pytest.mark.parametrize("coin, branch", [(6, "big"), (3, "three"), (0, "else")])
def test_if_elif_else_runs_the_first_true_branch(game, coin, branch):
    game.execute(f"self.coin = {coin}\n"
                 'if self.coin > 5:\n  self.picked += "big"\n'
                 'elif self.coin >= 3:\n  self.picked += "three"\n'
                 'elif self.coin >= 2:\n  self.picked += "two"\n'
                 'else:\n  self.picked += "else"', player=0)
    assert sheet(game)["vars"]["picked"] == [branch]


def test_a_function_sees_the_change_made_by_the_statement_before(table):
    table.execute("gain mov_now() + 3 mov\n"
                  'if mov_now() == 3:\n  self.picked = ["fresh"]\nelse:\n  self.picked = ["stale"]',
                  player=0)
    assert sheet(table)["vars"]["picked"] == ["fresh"]


def test_for_each_binds_each_item_in_turn(game):
    game.execute("for each x in [1, 2, 3]:\n  self.picked += [x * 10]", player=0)
    assert sheet(game)["vars"]["picked"] == [10, 20, 30]


def test_for_each_iterates_a_copy_of_a_list(game):
    game.execute("self.picked = [1, 2, 3]\nfor each x in self.picked:\n  self.picked += [x]",
                 player=0)
    assert sheet(game)["vars"]["picked"] == [1, 2, 3, 1, 2, 3]


def test_for_each_iterates_a_copy_of_a_zone(game):
    hand = list(sheet(game)["zones"]["hand"])
    assert len(hand) == 2
    game.execute("for each c in self.hand:\n  move c from self.hand to discard", player=0)
    assert sheet(game)["zones"]["hand"] == []                 # none skipped
    assert sorted(game.state["zones"]["discard"]) == sorted(hand)


def test_while_runs_until_break(game):
    game.execute("n = 0\nwhile true:\n  n += 1\n  if n == 3:\n    break\n"
                 "while false:\n  n = 100\nself.picked = [n]", player=0)
    assert sheet(game)["vars"]["picked"] == [3]


def test_break_leaves_only_the_innermost_loop(game):
    game.execute("for each a in [1, 2]:\n  for each b in [1, 2, 3]:\n"
                 "    if b == 2:\n      break\n    self.picked += [[a, b]]", player=0)
    assert sheet(game)["vars"]["picked"] == [[1, 1], [2, 1]]


def test_as_acts_for_another_player_then_gives_self_back(game):
    game.execute("as players[2]:\n  gain 1 mov\n  self.picked += self.seat\n"
                 "  as players[1]:\n    self.picked += self.seat\n  self.picked += self.seat\n"
                 "self.picked += self.seat", player=0)
    assert sheet(game, 1)["counters"]["mov"] == 1
    assert sheet(game, 0)["counters"]["mov"] == 0
    assert sheet(game, 1)["vars"]["picked"] == [2, 2]
    assert sheet(game, 0)["vars"]["picked"] == [1, 1]


def test_as_needs_a_player(game):
    refused(game, "as 3:\n  gain 1 mov", match="'as' needs a player, but 3 is a number")


# ================================================================ statements: procedures and effects

def test_a_procedure_gets_its_arguments_and_its_own_locals(table):
    table.execute("do outer()", player=0)                     # outer: x = 1; inner: x = 20
    assert sheet(table)["vars"]["picked"] == [20, 1]


def test_a_procedure_does_not_see_its_callers_locals(tmp_path):
    # a procedure reading a local it may not have set is refused at load
    with pytest.raises(ContentError, match=r"flow.yaml:\d+:\d+: error\[dsl-unset\]: 'y' is read"):
        toy_with(tmp_path, PARKED, procedures={"peek": {"do": "if false:\n  y = 0\nself.picked += y\n"}})


def test_a_procedure_may_call_itself(table):
    table.execute("do countdown(3)", player=0)
    assert sheet(table)["vars"]["picked"] == [3, 2, 1]


def test_do_runs_a_records_effect_with_this_bound(table):
    table.execute("do c1.play\nas players[2]:\n  do c1.play", player=0)
    for seat in (0, 1):
        assert sheet(table, seat)["counters"]["mov"] == 1
        assert sheet(table, seat)["vars"]["picked"] == ["c1"]


def test_do_needs_a_procedure_or_an_effect(table):
    refused(table, "do c1.value", match="'do' needs an effect, but c1's value is a number")


# ================================================================ zones

def _shuffled(parked, seed):
    g = Game.new(parked, players=2, seed=seed)
    g.execute("shuffle deck")
    return g.state["zones"]["deck"]


def test_shuffle_depends_only_on_the_seed(parked):
    first = _shuffled(parked, 1)
    assert sorted(first) == CARDS and first != CARDS
    assert _shuffled(parked, 1) == first
    assert _shuffled(parked, 2) != first


def test_move_a_number_from_the_top(table):
    table.execute("move 2 from deck to discard")
    assert table.state["zones"]["discard"] == ["c1", "c2"]
    assert table.state["zones"]["deck"] == ["c3", "c4", "c5", "c6"]
    table.execute("move 1 from deck to discard")              # onto the top
    assert table.state["zones"]["discard"] == ["c3", "c1", "c2"]


def test_move_a_named_card(table):
    table.execute("move c4 from deck to self.hand", player=1)
    assert sheet(table, 1)["zones"]["hand"] == ["c4"]
    assert table.state["zones"]["deck"] == ["c1", "c2", "c3", "c5", "c6"]


@pytest.mark.parametrize("text, message", [
    ("move 7 from deck to discard", "cannot move 7 from a zone of 6"),
    ("move c1 from discard to deck", "not in that zone"),
    ("move 1 from deck to row", "needs a zone, but row is a group of zones"),
    ("move 1 from cards to deck", "needs a zone, but cards is a list of cards"),
])
def test_a_move_that_cannot_be_done_is_refused(table, text, message):
    refused(table, text, match=message)


@pytest.mark.parametrize("value, text, message", [
    ("row", "move 1 from deck to self.secret", "numbered group"),
    ("cards", "move 1 from self.secret to deck", "must be a zone"),
])
def test_the_verb_refuses_what_the_checker_cannot_know(table, value, text, message):
    table.execute(f"self.secret = {value}", player=0)    # a variable declared as none: any kind
    refused(table, text, match=message)


def test_split_deals_round_robin_into_a_numbered_group(table):
    table.execute("split deck into row")
    assert table.state["zones"]["row"] == [["c1", "c3", "c5"], ["c2", "c4", "c6"]]
    assert table.state["zones"]["deck"] == []


def test_arrange_puts_ids_on_top_in_order_from_wherever_they_are(table):
    table.execute("move 2 from deck to self.hand\narrange discard to [c5, c2]", player=0)
    assert table.state["zones"]["discard"] == ["c5", "c2"]
    assert sheet(table)["zones"]["hand"] == ["c1"]
    assert table.state["zones"]["deck"] == ["c3", "c4", "c6"]
    table.execute("arrange deck to [c6, c4]")                 # within the same zone
    assert table.state["zones"]["deck"] == ["c6", "c4", "c3"]


@pytest.mark.parametrize("text, message", [
    ('arrange discard to [c1, "c9"]', "in no zone"),
    ("arrange discard to [c1, c1]", "twice"),
])
def test_arrange_refuses_unknown_ids_without_changing_anything(table, text, message):
    refused(table, text, match=message)


@pytest.mark.parametrize("text, value", [
    ("deck == [c1, c2, c3, c4, c5, c6]", True),
    ("deck == cards", True),
    ("deck != [c1]", True),
    ("discard == []", True),
    ("self.hand == discard", True),           # two empty zones
    ("c3 in deck", True),
    ("c3 not in discard", True),
    ("count(deck)", 6),
    ("count(self.hand)", 0),
    ("count(c for c in deck if c.value > 4)", 2),
    ("deck[2]", "c2"),
    ("top(deck)", "c1"),
    ("top(discard)", None),
    ("[c6] + deck == [c6, c1, c2, c3, c4, c5, c6]", True),
])
def test_a_zone_reads_as_its_card_list(table, text, value):
    assert table.evaluate(text, player=0) == value


def test_a_numbered_group_iterates_as_its_zones(table):
    assert table.evaluate("count(row)") == 2
    table.execute("for each z in row:\n  move 1 from deck to z")
    assert table.state["zones"]["row"] == [["c1"], ["c2"]]
    assert table.evaluate("row[2] == [c2]") is True
    assert table.evaluate("list(count(z) for z in row)") == [1, 1]
    with pytest.raises(RuleError, match="outside 1..2"):
        table.evaluate("row[3]")


def test_an_empty_zone_counts_as_false(table):
    assert table.evaluate("not discard") is True
    assert table.evaluate("if discard then 1 else 2") == 2


# ================================================================ decisions

def test_choose_one_labels_are_the_plain_words_of_each_alternative(tmp_path):
    rules = toy_with(tmp_path, "as players[1]:\n"
                               "  choose one: gain 2 coin | gain 1 mov, 1 points | self.picked = [c1]\n")
    game = Game.new(rules, players=2, seed=1)
    decision, = game.pending()
    assert (decision.player, decision.prompt) == (0, "choose one")
    assert list(decision.options) == ["gain 2 coin", "gain 1 mov, 1 points", "set self.picked to [c1]"]
    game.apply(0, 1)
    assert sheet(game)["counters"] == {"coin": 3, "mov": 1, "points": 1}


CHOOSE_CARD = """as players[1]:
  c = "before"
  choose "a card" c in cards if c.value > 3 label text("take", c):
    self.picked += c
  otherwise "pass (+1 coin)":
    gain 1 coin
  self.secret = c
"""


@pytest.fixture
def choosing(tmp_path):
    """P1 chooses a card of value 4 or more, or passes; `c` was "before" until then."""
    return Game.new(toy_with(tmp_path, CHOOSE_CARD), players=2, seed=1)


def test_choose_in_filters_labels_and_prompts(choosing):
    decision, = choosing.pending()
    assert decision.prompt == "a card"
    assert list(decision.options) == ["take c4", "take c5", "take c6", "pass (+1 coin)"]
    choosing.apply(0, "take c5")
    assert sheet(choosing)["vars"]["picked"] == ["c5"]
    assert sheet(choosing)["vars"]["secret"] == "c5"           # bound after the block too
    assert sheet(choosing)["counters"]["coin"] == 3


def test_otherwise_runs_its_block_and_leaves_the_variable_as_it_was(choosing):
    choosing.apply(0, "pass (+1 coin)")
    assert sheet(choosing)["counters"]["coin"] == 4
    assert sheet(choosing)["vars"]["picked"] == []
    assert sheet(choosing)["vars"]["secret"] == "before"


def test_otherwise_leaves_an_unbound_variable_unbound(tmp_path):
    # after 'otherwise' the variable is not set, so reading it after the choice is refused at load
    with pytest.raises(ContentError, match=r"flow.yaml:2:\d+: error\[dsl-unset\]: 'c' is read where"):
        toy_with(tmp_path, "as players[1]:\n  choose c in [c1, c2]:\n    pass\n"
                           "  otherwise:\n    gain 1 coin\n  self.secret = c\n")


@pytest.mark.parametrize("text, label, picked", [
    ("choose c in [c2]:\n  self.picked += c", "c2", ["c2"]),
    ("choose c in [c1, c2, c3] if c.value == 2:\n  self.picked += c", "c2", ["c2"]),
    ('choose one: self.picked += "only"', 'add "only" to self.picked', ["only"]),
    ('choose c in []:\n  self.picked += c\notherwise:\n  self.picked += "none"',
     "none of these", ["none"]),
])
def test_a_single_option_is_taken_without_asking(game, text, label, picked):
    game.execute(text, player=0)         # execute refuses statements that stop for a decision
    assert sheet(game)["vars"]["picked"] == picked
    assert game.state["log"][-1] == {"text": f"P1: {label} (only option)", "to": [0]}


@pytest.mark.parametrize("text", [
    "choose c in []:\n  gain 1 coin",
    "choose c in [c1, c2] if c.value > 5:\n  gain 1 coin",
])
def test_an_empty_choice_does_nothing(game, text):
    before = game.to_json()
    game.execute(text, player=0)
    assert game.to_json() == before


def test_a_choice_that_would_stop_cannot_run_directly(game):
    with pytest.raises(RuleError, match="cannot ask for a decision"):
        game.execute("choose c in [c1, c2]:\n  pass", player=0)


def test_answers_by_label_ignore_case_and_spacing(choosing):
    choosing.apply(0, "  TAKE   c6 ")
    assert sheet(choosing)["vars"]["picked"] == ["c6"]


@pytest.mark.parametrize("player, choice, message", [
    (1, 0, "P2 has no decision"),
    (0, 4, "option 4 does not exist"),
    (0, -1, "option -1 does not exist"),
    (0, "take c1", "no option is labelled"),          # filtered out
    (0, True, "by its number or its label"),
    (0, 1.0, "cannot choose"),
])
def test_a_wrong_answer_is_illegal_and_changes_nothing(choosing, player, choice, message):
    before = choosing.to_json()
    with pytest.raises(IllegalAction, match=message):
        choosing.apply(player, choice)
    assert choosing.to_json() == before
    assert choosing.pending()[0].player == 0


def test_no_answer_is_legal_once_the_game_is_over(game):
    play(game)
    with pytest.raises(IllegalAction, match="over"):
        game.apply(0, 0)


# ================================================================ simultaneous play

SIMULTANEOUS = """shuffle deck
for each p in players:
  move 2 from deck to p.hand
simultaneously for each p in players:
  choose c in self.hand label c:
    self.picked = [c]
    gain 1 mov
as players[1]:
  choose "afterwards" one: pass | gain 1 coin
"""


@pytest.fixture
def together(tmp_path):
    """Three players each choose a card of their own hand at once, then P1 decides alone."""
    return Game.new(toy_with(tmp_path, SIMULTANEOUS), players=3, seed=1)


def test_every_player_decides_at_once(together):
    decisions = together.pending()
    assert [d.player for d in decisions] == [0, 1, 2]
    for d in decisions:
        assert list(d.options) == sheet(together, d.player)["zones"]["hand"]


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 0, 1), (1, 2, 0)])
def test_answers_come_in_any_order(together, order):
    hands = [list(sheet(together, i)["zones"]["hand"]) for i in range(3)]
    for done, seat in enumerate(order):
        assert sorted(d.player for d in together.pending()) == sorted(order[done:])
        together.apply(seat, 1)
    assert [(d.player, d.prompt) for d in together.pending()] == [(0, "afterwards")]
    assert [sheet(together, i)["vars"]["picked"] for i in range(3)] == [[h[1]] for h in hands]


def test_answers_stay_hidden_until_all_are_in(together):
    card = options(together, 0)[0]
    together.apply(0, card)
    mine, theirs = together.view(0), together.view(1)
    assert mine["players"][0]["vars"]["picked"] == [card]
    assert mine["players"][0]["counters"]["mov"] == 1
    assert theirs["players"][0]["vars"]["picked"] == []        # P1 as at the start
    assert theirs["players"][0]["counters"]["mov"] == 0
    assert f"P1 chose: {card}" in mine["log"]
    assert f"P1 chose: {card}" not in theirs["log"]
    assert not any(line.startswith("P1") for line in theirs["log"])   # nor its gain

    together.apply(2, 0)
    together.apply(1, 0)
    for seat in (0, 1, 2):                                     # after the join: everything
        view = together.view(seat)
        assert view["players"][0]["vars"]["picked"] == [card]
        assert [p["counters"]["mov"] for p in view["players"]] == [1, 1, 1]
        assert "all players have chosen" in view["log"]


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs SIGALRM")
def test_simultaneously_for_nobody_does_nothing(tmp_path):
    rules = toy_with(tmp_path, "simultaneously for each p in list(q for q in players if q.coin > 99):\n"
                               "  gain 1 mov\n" + PARKED)
    with deadline(1):
        game = Game.new(rules, players=2, seed=1)
    assert [d.prompt for d in game.pending()] == ["parked"]


# ================================================================ determinism

def test_the_same_seed_and_answers_give_the_same_game(toy):
    first = Game.new(toy, players=3, seed=5)
    answers = play(first)
    second = Game.new(toy, players=3, seed=5)
    play(second, answers)
    assert second.to_json() == first.to_json()
    other = Game.new(toy, players=3, seed=6)
    assert other.to_json() != Game.new(toy, players=3, seed=5).to_json()


def test_a_game_saved_at_any_decision_continues_identically(toy):
    reference = Game.new(toy, players=3, seed=5)
    answers = play(reference)
    assert len(answers) == 6                    # 3 simultaneous choices, then 3 discards
    for saved_after in range(len(answers)):
        live = Game.new(toy, players=3, seed=5)
        for player, index in answers[:saved_after]:
            live.apply(player, index)
        loaded = Game.from_json(toy, live.to_json())
        assert loaded.pending() == live.pending()
        for player, index in answers[saved_after:]:
            loaded.apply(player, index)
        assert loaded.to_json() == reference.to_json(), f"saved after {saved_after} answers"
