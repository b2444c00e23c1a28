"""The designer's additions to the language: telling players, announced and sealed choices,
scoring settings, copies, helpers, and YAML traps explained.

Most tests play the ``fewest`` fixture (tests/rulesets/fewest): a sealed simultaneous bid,
announced turns, a sealed turn-based guess with ``announce``, told and logged lines, cards
made with ``copies``, and ``score: {by: points, wins: lowest, ties: [...]}``.
"""
from __future__ import annotations

import json
import random
import shutil

import pytest

from interpreter.agents.driver import drive, random_mover
from interpreter.content.ruleset import load_ruleset
from interpreter.content.yaml_source import load_yaml_text
from interpreter.diagnostics import ContentError
from interpreter.engine.determinise import determinise
from interpreter.engine.game import Game
from interpreter.model.values import RuleError
from conformance.harness import check_no_leak, check_result
from support import RULESETS, edit, position

FEWEST = RULESETS / "fewest"


@pytest.fixture(scope="module")
def fewest():
    return load_ruleset(str(FEWEST))


@pytest.fixture(scope="module")
def toy():
    return load_ruleset(str(RULESETS / "toy"))


def log_of(game, seat: int) -> list:
    return game.view(seat)["log"]


def copy_of(tmp_path, name: str = "fewest"):
    folder = tmp_path / name
    shutil.copytree(RULESETS / name, folder)
    return folder


def errors(folder) -> list:
    with pytest.raises(ContentError) as caught:
        load_ruleset(str(folder))
    return caught.value.diagnostics


def bid_all(game, bids):
    for seat, bid in enumerate(bids):
        game.apply(seat, str(bid))


# ---------------------------------------------------------------- log and tell

def test_log_reaches_every_player_and_tell_only_the_one_told(toy):
    game = Game.new(toy, players=3, seed=1)
    game.execute('log text("hello", players[1])')
    game.execute('tell players[2] "just you"')
    game.execute('tell [players[1], players[3]] text("you two,", 2)')
    assert [log_of(game, i)[-2:] for i in range(3)] == [
        ["hello P1", "you two, 2"], ["hello P1", "just you"], ["hello P1", "you two, 2"]]


def test_tell_needs_its_text_and_no_other_verb_takes_one(toy):
    game = Game.new(toy, seed=1)
    with pytest.raises(RuleError, match="'tell' needs a text after its value"):
        game.execute("tell players[1]")
    with pytest.raises(RuleError, match="'shuffle' does not take a text after its value"):
        game.execute('shuffle deck "x"')


def test_a_line_for_others_written_while_players_choose_at_once_waits_for_the_block(fewest):
    game = Game.new(fewest, players=3, seed=2)
    game.thread = game.state["flow"]["threads"][0]        # as if P1's thread wrote it
    game.tell("P1 whispers")                              # everyone: P1 now, the rest at the end
    game.tell("to P2", [1])
    game.thread = None
    assert "P1 whispers" in log_of(game, 0)
    assert "P1 whispers" not in log_of(game, 1) and "to P2" not in log_of(game, 1)
    bid_all(game, [0, 0, 0])
    assert {"P1 whispers", "to P2"} <= set(log_of(game, 1))
    assert "to P2" not in log_of(game, 2)


def test_a_told_card_reaches_only_its_holder(fewest):
    game = Game.new(fewest, players=3, seed=2)
    told = [[line for line in log_of(game, i) if line.startswith("you hold")] for i in range(3)]
    assert all(len(lines) == 1 for lines in told)
    for i in range(3):
        assert told[i][0] == f"you hold {game.state['players'][i]['zones']['hand'][0]}"


# ---------------------------------------------------------------- who learns a choice

def test_a_simultaneous_choice_is_sealed_until_the_block_ends(fewest):
    game = Game.new(fewest, players=3, seed=2)
    game.apply(0, "1")
    assert "P1 chose: 1" in log_of(game, 0)
    assert not any("P1 chose" in line for i in (1, 2) for line in log_of(game, i))
    game.apply(1, "0")
    assert "P2 chose: 0" not in log_of(game, 0)
    game.apply(2, "2")
    for i in range(3):
        after = log_of(game, i)[log_of(game, i).index("all players have chosen"):]
        assert {"P1 chose: 1", "P2 chose: 0", "P3 chose: 2"} - set(after) == {f"P{i + 1} chose: {[1, 0, 2][i]}"}


def test_a_sealed_choice_in_a_saved_game_survives_the_round_trip_and_stays_sealed(fewest):
    game = Game.new(fewest, players=3, seed=2)
    game.apply(0, "1")
    again = Game.from_json(fewest, game.to_json())
    assert again.state["sealed"] == [{"text": "P1 chose: 1", "to": [1, 2]}]
    bid_all_rest = [(1, "0"), (2, "0")]
    for seat, label in bid_all_rest:
        again.apply(seat, label)
    assert "P1 chose: 1" in log_of(again, 1) and again.state["sealed"] == []


def test_an_announced_turn_choice_reaches_everyone_at_once(fewest):
    game = Game.new(fewest, players=3, seed=2)
    bid_all(game, [0, 0, 0])
    d = game.pending()[0]
    game.apply(d.player, "pass")
    line = f"P{d.player + 1} chose: pass"
    assert all(log_of(game, i)[-2] == line for i in range(3))


def test_a_turn_based_sealed_choice_is_told_at_announce_and_not_before(fewest):
    game = Game.new(fewest, players=2, seed=2)
    drive(game, random_mover(4), until=lambda g: g.pending() and g.pending()[0].prompt == "a guess")
    game.apply(0, "2")
    assert "P1 chose: 2" in log_of(game, 0) and "P1 chose: 2" not in log_of(game, 1)
    game.apply(1, "1")
    assert game.over
    assert log_of(game, 1).index("P1 chose: 2") > log_of(game, 1).index("P2 chose: 1")


def test_a_choice_declared_secret_never_reaches_the_others(toy):
    game = Game.new(toy, players=2, seed=5)
    game.apply(0, 0)
    picked = game.pending()                       # P2 still bidding; P1's pick is secret
    drive(game, random_mover(5))
    chosen = [line for line in log_of(game, 1) if line.startswith("P1 chose")]
    assert picked and chosen == [] and game.over


def test_an_unsaid_turn_choice_is_secret(toy):
    rules = toy
    game = Game.new(rules, players=2, seed=5)
    drive(game, random_mover(5), until=lambda g: g.pending() and g.pending()[0].prompt == "choose c"
          and not g.state["flow"]["threads"])
    who = game.pending()[0].player
    game.apply(who, 0)
    other = 1 - who
    assert not any(line.startswith(f"P{who + 1} chose") for line in log_of(game, other))


def test_a_failed_answer_leaves_the_sealed_lines_as_they_were(fewest):
    game = Game.new(fewest, players=2, seed=2)
    game.apply(0, "1")
    before = game.to_json()
    game.state["players"][1]["counters"]["coin"] = 0     # P2's bid of 2 cannot be paid now
    game.state["players"][1]["vars"]["bid"] = 0
    saved = game.to_json()
    with pytest.raises(RuleError):
        game.apply(1, "2")
    assert game.to_json() == saved and before != saved


def test_a_bots_world_holds_no_sealed_line_of_another_player(fewest):
    game = Game.new(fewest, players=3, seed=2)
    game.apply(0, "2")
    world = determinise(game, 1, seed=3)
    assert world.state["sealed"] == []
    assert all("P1 chose" not in line["text"] for line in world.state["log"])


def test_announced_and_sealed_lines_pass_the_differential_leak_check(fewest):
    rnd = random.Random(1)
    for seed in range(4):
        game = Game.new(fewest, players=3, seed=seed)
        checks = 0
        while not game.over:
            for viewer in range(3):
                check_no_leak(game, viewer, rnd)
                checks += 1
            d = game.pending()[0]
            game.apply(d.player, rnd.randrange(len(d.options)))
        assert checks > 5


def test_the_told_word_is_part_of_the_language(toy):
    from interpreter.dsl.explain import explain
    from interpreter.dsl.parser import parse_program
    tree = parse_program('choose sealed "a bid" b in [1, 2]:\n  pass\nsealed = 1\n')
    assert tree.body[0].told == "sealed" and tree.body[1].target == ("sealed",)
    assert explain(tree.body[0]).startswith("choose sealed b from")


# ---------------------------------------------------------------- scoring settings

def test_the_lowest_score_wins_and_a_tie_goes_to_the_most_coin(fewest):
    game = Game.new(fewest, players=3, seed=2)
    drive(game, random_mover(2))
    for i, (points, coin) in enumerate([(4, 0), (4, 1), (9, 5)]):
        game.state["players"][i]["counters"].update(points=points, coin=coin)
    game.state["result"] = None
    game.finish()
    result = game.result
    assert result["scores"] == [4, 4, 9]
    assert result["winners"] == [1] and result["ranks"] == [2, 1, 3]
    assert result["returns"] == [0.5, 1.0, 0.0]                  # rank_points follow the places
    check_result(game)


def test_equal_score_and_tie_break_share_the_place(fewest):
    game = Game.new(fewest, players=2, seed=2)
    drive(game, random_mover(2))
    for i in range(2):
        game.state["players"][i]["counters"].update(points=3, coin=1)
    game.state["result"] = None
    game.finish()
    assert game.result["winners"] == [0, 1] and game.result["ranks"] == [1, 1]


@pytest.mark.parametrize("returns,expected", [("score_minus_mean", [1.0, -1.0]),
                                              ("win_loss", [1.0, 0.0]),
                                              ("rank_points", [1.0, 0.0])])
def test_returns_follow_a_lowest_wins_score(tmp_path, returns, expected):
    folder = copy_of(tmp_path)
    edit(folder / "game.yaml", "returns: rank_points", f"returns: {returns}")
    rules = load_ruleset(str(folder))
    game = Game.new(rules, players=2, seed=2)
    drive(game, random_mover(2))
    for i, points in enumerate([2, 4]):
        game.state["players"][i]["counters"].update(points=points, coin=0)
    game.state["result"] = None
    game.finish()
    assert game.result["winners"] == [0] and game.result["returns"] == expected


def test_a_look_ahead_bot_sees_a_lower_score_as_better(fewest):
    game = Game.new(fewest, players=2, seed=2)
    game.state["players"][0]["counters"]["points"] = 7
    assert game.standing(0) == [-7, game.state["players"][0]["counters"]["coin"]]


def test_a_score_written_as_a_name_still_ranks_highest_first(toy):
    assert toy.score_keys == [("points", False)]


def test_an_unknown_tie_break_is_reported_where_it_is_written(tmp_path):
    folder = copy_of(tmp_path)
    edit(folder / "game.yaml", "{by: coin, wins: highest}", "{by: coins, wins: highest}")
    [diag] = errors(folder)
    assert (diag.code, diag.message) == ("unknown-name", "the tie-break 'coins' is neither a counter nor a function")
    assert (diag.line, diag.col) == position(folder / "game.yaml", "{by: coins", offset=0)
    assert diag.hint == "did you mean 'coin'?"


def test_wins_must_be_highest_or_lowest(tmp_path):
    folder = copy_of(tmp_path)
    edit(folder / "game.yaml", "wins: lowest", "wins: fewest")
    [diag] = errors(folder)
    assert diag.code in ("schema-enum", "schema-invalid") and "lowest" in diag.message


# ---------------------------------------------------------------- copies

def test_copies_make_identical_records_numbered_from_one(fewest):
    assert fewest.tables["cards"] == ["one#1", "one#2", "one#3", "one#4", "five#1", "five#2", "five#3", "nine"]
    assert fewest.entities["one#3"] == {"id": "one#3", "name": "One", "value": 1, "table": "cards"}
    game = Game.new(fewest, players=2, seed=1)
    assert game.evaluate("one") == ["one#1", "one#2", "one#3", "one#4"]
    assert game.evaluate("count(c for c in cards if c in five)") == 3
    assert game.evaluate("sum(list(c.value for c in cards))") == 4 + 15 + 9


def test_the_id_of_copies_is_checked_as_a_list_of_records(fewest):
    from interpreter.dsl.check import check
    from interpreter.dsl.parser import parse_expression
    problems = check(parse_expression("five.value"), fewest.vocabulary())
    assert [p.code for p in problems] == ["dsl-kind"]


def test_a_mistake_in_a_copied_record_is_reported_once_at_the_one_record(tmp_path):
    folder = copy_of(tmp_path)
    edit(folder / "components.yaml", "value: {type: int}", "value: {type: int}\n      then: {type: effect, optional: true}")
    edit(folder / "data" / "cards.yaml", "value: 1, copies: 4}", "value: 1, copies: 4, then: gain 1 coinn}")
    [diag] = errors(folder)
    assert diag.code == "dsl-unknown-counter" and "coinn" in diag.message and "uses" not in diag.message
    assert diag.line == position(folder / "data" / "cards.yaml", "coinn")[0]


def test_a_copied_effect_runs_with_this_the_copy(tmp_path):
    folder = copy_of(tmp_path)
    edit(folder / "components.yaml", "value: {type: int}", "value: {type: int}\n      then: {type: effect, optional: true}")
    edit(folder / "data" / "cards.yaml", "value: 1, copies: 4}", 'value: 1, copies: 4, then: "log this"}')
    rules = load_ruleset(str(folder))
    game = Game.new(rules, players=2, seed=1)
    game.execute('do effect("one#3", "then")')
    assert log_of(game, 1)[-1] == "one#3"


def test_copies_count_towards_the_tables_count_and_have_a_bound(tmp_path):
    folder = copy_of(tmp_path)
    edit(folder / "data" / "cards.yaml", "copies: 3}", "copies: 2}")
    [diag] = errors(folder)
    assert diag.code == "count-mismatch" and "has 7" in diag.message
    edit(folder / "data" / "cards.yaml", "copies: 2}", "copies: 5000}")
    assert [d.code for d in errors(folder)] == ["schema-invalid"]


def test_an_id_with_copies_is_a_name_once(tmp_path):
    folder = copy_of(tmp_path)
    edit(folder / "data" / "cards.yaml", "{id: nine,", "{id: one,")
    diags = errors(folder)
    assert [d.code for d in diags] == ["duplicate-id"]
    assert diags[0].line == position(folder / "data" / "cards.yaml", "{id: one, name: Nine")[0]


# ---------------------------------------------------------------- helpers

@pytest.mark.parametrize("text,value", [
    ("sort([3, 1, 2])", [1, 2, 3]),
    ('sort(["b", "a"])', ["a", "b"]),
    ("sort([[2, 1], [1, 5], [1, 2]])", [[1, 2], [1, 5], [2, 1]]),
    ("sort([])", []),
    ("sort_by([\"a\", \"b\", \"c\"], [[1, 9], [1, 2], [0, 5]])", ["c", "b", "a"]),
    ("max([4, 9, 2])", 9), ("min([4, 9, 2])", 2), ("sum([4, 9, 2])", 15),
    ("max([])", None), ("sum([])", 0), ("max(3, 7)", 7),
    ('join([1, 2, 3], ", ")', "1, 2, 3"),
    ('join(players, " then ")', "P1 then P2 then P3"),
    ('join([], "-")', ""),
    ("players_after(players[2])", "P3 P1 P2"),
    ("players_after(players[3])", "P1 P2 P3"),
    ("first(q for q in players_after(players[1]) if q.seat != 2)", "P3"),
    ("players[1].left == next_player(players[1])", True),
    ("players[1].left", "P2"), ("players[1].right", "P3"),
])
def test_helpers(toy, text, value):
    game = Game.new(toy, players=3, seed=1)
    got = game.evaluate(text)
    if isinstance(value, str) and value.startswith("P") and text.startswith(("players", "first")):
        got = " ".join(map(game.describe, got if isinstance(got, list) else [got]))
    assert got == value


@pytest.mark.parametrize("text,message", [
    ('sort([1, "a"])', "sort() cannot compare numbers with strings"),
    ("sort([true])", "sort() items must be numbers, strings or lists of numbers"),
    ("join([1], 2)", "join() needs a string to put between the items"),
    ("join(3, \",\")", "join() needs a list"),
])
def test_helpers_refuse_what_they_cannot_order_or_write(toy, text, message):
    game = Game.new(toy, players=2, seed=1)
    with pytest.raises(RuleError, match=message.replace("(", r"\(").replace(")", r"\)")):
        game.evaluate(text)


def test_the_checker_knows_the_new_functions_kinds(toy):
    from interpreter.dsl.check import check, kind_of
    from interpreter.dsl.parser import parse_expression
    vocab = toy.vocabulary()
    assert str(kind_of(parse_expression("join(players, \", \")"), vocab)) == "a string"
    assert str(kind_of(parse_expression("sort(list(c.value for c in deck))"), vocab)) == "a list of numbers"
    assert str(kind_of(parse_expression("players_after(players[1])"), vocab)) == "a list of players"
    [problem] = check(parse_expression("join(players)"), vocab)
    assert problem.code == "dsl-arity"
    [problem] = check(parse_expression('players_after("x")'), vocab)
    assert problem.code == "dsl-kind"


# ---------------------------------------------------------------- YAML traps

@pytest.mark.parametrize("old,new,what", [
    ("expr: x * 2", "expr: true", "a boolean"),
    ("expr: x * 2", "expr: 3", "a number"),
    ("expr: x * 2", "expr: [x]", "a list"),
    ("expr: x * 2", "expr: {x: 2}", "a mapping"),
])
def test_an_expression_yaml_read_as_something_else_says_so_and_says_to_quote_it(tmp_path, old, new, what):
    folder = copy_of(tmp_path, "toy")
    edit(folder / "flow.yaml", old, new)
    [diag] = errors(folder)
    assert diag.code == "schema-type"
    assert diag.hint.startswith(f"YAML read this as {what}") and "put it in quotes" in diag.hint


def test_a_list_item_with_a_colon_and_space_is_a_mapping_and_says_to_quote_it():
    from interpreter.content.schema_check import check_schema, load_schema
    data, locator = load_yaml_text("game: toy\nexpect:\n  - count(x) == 1: ok\n", "s.yaml")
    [diag] = check_schema(data, load_schema("scenario"), locator)
    assert (diag.code, diag.line, diag.col) == ("schema-type", 3, 5)
    assert diag.hint == ("YAML read this as a mapping (because of ': '): if it is an expression "
                         "or a text, put it in quotes")


def test_a_colon_in_a_value_gives_the_quoted_line():
    with pytest.raises(ContentError) as caught:
        load_yaml_text("text: Guard: guess a card\n", "c.yaml")
    assert caught.value.diagnostics[0].hint.endswith("text: 'Guard: guess a card'")


def test_brackets_inside_a_flow_list_say_to_quote_the_expression():
    with pytest.raises(ContentError) as caught:
        load_yaml_text("expect: [top(pile[1]) == a]\n", "s.yaml")
    [diag] = caught.value.diagnostics
    assert "while parsing a flow sequence" in diag.message and "in quotes" in diag.hint


def test_one_refused_record_is_one_diagnostic_not_one_per_reference(tmp_path):
    folder = copy_of(tmp_path, "toy")
    edit(folder / "components.yaml", "tables:", "tables:\n  pairs:\n    fields:\n      card: {ref: cards}")
    (folder / "data" / "pairs.yaml").write_text(
        "pairs:\n" + "".join(f"  - {{id: pair{i}, card: step}}\n" for i in range(3)), encoding="utf-8")
    edit(folder / "game.yaml", "data: [data/cards.yaml]", "data: [data/cards.yaml, data/pairs.yaml]")
    edit(folder / "data" / "cards.yaml", "{id: c2,", "{id: step,")     # 'step' is a game variable
    diags = errors(folder)
    assert [(d.code, d.message) for d in diags] == [("duplicate-id", "id 'step' is already a declared name")]
