"""The compiler (interpreter/engine/codegen.py): generated Python plays exactly as the closures do,
content never becomes code, and the budgets still stop runaway content."""
from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.content.ruleset import available, load_ruleset
from interpreter.dsl.parser import parse_expression
from interpreter.engine import budget, codegen
from interpreter.engine.game import Game
from interpreter.model.values import RuleError

from support import edit, errors_both_ways as _errors_both_ways

RULESETS = Path(__file__).resolve().parent / "rulesets"
GAMES = available() + [str(RULESETS / name) for name in ("toy", "hooks", "peek", "ttt")]


def _play(rules, players: int, seed: int, limit: int = 400) -> list:
    """A seeded random game: every decision (player, prompt, labels) and the final state."""
    game = Game.new(rules, players=players, seed=seed)
    rnd = random.Random(seed)
    seen = []
    for _ in range(limit):
        if game.over:
            break
        d = game.pending()[0]
        seen.append((d.player, d.prompt, list(d.options)))
        game.apply(d.player, rnd.randrange(len(d.options)))
    return seen + [game.to_json()]


def _reference(monkeypatch, name):
    """The ruleset loaded afresh and run by the closures of compile.py alone."""
    monkeypatch.setattr(codegen, "ENABLED", False)
    rules = load_ruleset(name)
    monkeypatch.setattr(codegen, "ENABLED", True)
    return rules


@pytest.mark.parametrize("name", GAMES, ids=lambda n: Path(n).name)
def test_generated_code_plays_as_the_closures_do(name, monkeypatch):
    compiled, reference = load_ruleset(name), _reference(monkeypatch, name)
    counts = sorted({compiled.players["min"], compiled.players["max"]})
    for players in counts:
        for seed in range(2):
            with monkeypatch.context() as m:
                m.setattr(codegen, "ENABLED", False)
                expected = _play(reference, players, seed)
            assert _play(compiled, players, seed) == expected
    program = codegen.program_of(compiled)
    assert program.functions.keys() == compiled.functions.keys()     # every function compiled
    assert reference.__dict__.get("_program") is None                # the reference never was


def test_every_expression_the_machine_runs_is_generated():
    rules = load_ruleset("lairs")
    program = codegen.program_of(rules)
    assert program.roots
    left = [node for node in program.left_out if node.__class__.__name__ != "Function"
            or node.name not in rules.procedures]
    assert left == []                 # only procedure names in 'do proc(...)', never evaluated


def _both_ways(monkeypatch, folder, **kw):
    """A game of the ruleset in ``folder`` run by generated code, the same by the closures alone,
    and the generated program."""
    compiled = Game.new(load_ruleset(str(folder)), **kw)
    with monkeypatch.context() as m:
        m.setattr(codegen, "ENABLED", False)
        reference = Game.new(load_ruleset(str(folder)), **kw)
    return compiled, reference, codegen.program_of(compiled.rules)


def _same_values(texts, compiled, reference, program) -> None:
    for text in texts:
        tree = parse_expression(text)
        assert program.add(tree) is not None, text
        assert compiled.evaluate(tree) == reference.evaluate(text), text


def test_an_expression_gives_the_same_value_either_way(monkeypatch):
    texts = ['1 + 2 * 3 - 10 / 3 % 2', '[1, 2] + [3]', '"a" + "b"', 'not (1 < 2) or 3 >= 3',
             'if 1 == true then "no" else "yes"', 'count(x for x in [1, 2, 3] if x != 2)',
             'any(x > 2 for x in [1, 2, 3])', 'all(x > 2 for x in [1, 2, 3])',
             'sum(double(x) for x in range(1, 4))', '{"a": 1, "b": [2]}.b[1]', '-double(4)',
             '3 in [1, 2] or "x" not in "xyz"', 'max(1, 5, 3)',
             'abs(2 - 5) * 3 - abs(1 - double(2))', 'get({"a": 1}, "a", 0) + get({"a": 1}, "b", 2)',
             'count(x for x in [1]) - 1 < 0 or abs(count(x for x in [1, 2]) - 5) > 2',
             '(1 - 2) * 3 + 1 >= -2', 'players[1] == players[1]', 'players[1] != players[2]',
             '[1 == true, 1 != true, "a" == "a", "a" != "b", none == none, [1, 2] == [1, 2]]',
             'list(list(x == y for y in [1, "1", true, players[1]]) for x in [1, "1", true, players[1], players[2]])',
             # new lists joined (known lists: no other case), with a list or a zone read at run time
             '[1] + list(x for x in [2, 3]) + [4]', '([] or [5]) + [6]', '[7] + get({"a": [8]}, "a", 0)',
             'list(x for x in [1]) + deck', 'deck + [1]']
    _same_values(texts, *_both_ways(monkeypatch, RULESETS / "toy"))


def test_truth_is_tested_as_the_closures_test_it(monkeypatch):
    """A comparison's truth is taken as it is; any other value's by the language's rule (an empty
    zone or list is false), in and/or, if/then/else, not and a choice's filter alike."""
    texts = ['if 1 < 2 and "a" in "abc" then 1 else 2', '(1 == 2) or "x"', '[] or 3', 'not []',
             'if [] then 1 else 2', 'if discard then 1 else 2', 'not discard', 'deck and 1',
             'discard or (2 > 1)', 'not (1 == 1 and 2 != 2)', 'if (1 < 2 or discard) then deck else 0',
             'count(x for x in [1, 2, 3] if not (x < 2) and x != 3)',
             'any(x > 2 for x in [1]) or []', 'if all(x < 2 for x in [1]) then 1 else 2',
             'not any(x > 2 for x in [3]) and 1']
    _same_values(texts, *_both_ways(monkeypatch, RULESETS / "toy"))


def test_loop_invariant_parts_and_inlined_functions_give_the_same_values(monkeypatch):
    """Parts of a generator that do not read its variable are worked out once; small functions
    are written where they are called: the values are those of the closures."""
    texts = ['list(double(2) + x for x in range(1, 4))', 'count(x for x in [1, 2, 3] if x < double(1))',
             'list(x for x in [1, 2, 3] if false and double("a") > x)',    # never reached: no error
             'list(abs(0 - double(x)) + abs(-3) for x in range(1, 3))', 'list(x for x in [] if 1 / 0)']
    compiled, reference, program = _both_ways(monkeypatch, RULESETS / "toy")
    assert program.generator.is_inlinable("double")
    _same_values(texts, compiled, reference, program)



def test_a_part_written_twice_is_worked_out_once_where_first_reached(monkeypatch):
    """The same pure part twice in one expression (or twice through inlined functions, or in a
    loop whose variable it does not read) gets one cell: the values are the closures', a part
    only a later arm reaches raises nothing before it, and a dice roll is never kept."""
    compiled, reference, program = _both_ways(monkeypatch, RULESETS / "toy")
    texts = ['if double(3) > 4 then double(3) + 1 else 0', 'double(double(2)) + double(2) * 2',
             'count(x for x in [1, 2, 3] if double(x) > 2 and double(x) < 6)',
             'false and double("a") > 1 or double(2) == 4',
             'list(count(y for y in [x, 1, double(x)] if y > double(1)) + double(x) for x in [1, 2, 3])']
    _same_values(texts, compiled, reference, program)
    for text, cells in (('if double(3) > 4 then double(3) + 1 else 0', 1),
                        ('count(x for x in [1, 2, 3] if double(x) > 2 and double(x) < 6)', 1),
                        ('roll(6) + roll(6)', 0)):
        before = len(program.source)
        assert program.add(parse_expression(text)) is not None
        assert len(set(re.findall(r"\bh\d+\b", program.source[before:]))) == cells, text
    with pytest.raises(RuleError) as raised:                       # an error where first reached
        compiled.evaluate('if 1 < 2 then double("a") else double("a")')
    with pytest.raises(RuleError) as expected:
        reference.evaluate('if 1 < 2 then double("a") else double("a")')
    assert str(raised.value) == str(expected.value)

def _written(program, text: str) -> str:
    """The source the generator writes for one expression (its values checked by the caller)."""
    before = len(program.source)
    assert program.add(parse_expression(text)) is not None, text
    return program.source[before:]


def test_a_cells_test_is_written_only_where_the_flow_needs_it(monkeypatch):
    """The generator follows its cells as it writes: where no path to a part has worked it out
    it is worked out without an ``is NK`` test (where every path reaches it, its ``= NK`` goes
    too), where a path has surely set it nothing is written; where paths meet after one arm
    set it, or inside a loop (an earlier turn may have set it), the test stays. The values are
    the closures'."""
    compiled, reference, program = _both_ways(monkeypatch, RULESETS / "toy")
    texts = ['double(3) + double(3)', 'list((if x > 1 then double(3) else 0) + double(3) for x in [1, 2])',
             'list(if x > 1 then double(x) + 1 else double(x) for x in [1, 2])',
             'count(x for x in [1, 2, 3] if double(x) > 2 and double(x) < 6)']
    _same_values(texts, compiled, reference, program)
    assert "NK" not in _written(program, 'double(3) + double(3)')
    assert "NK" not in _written(program, 'count(x for x in [1, 2, 3] if double(x) > 2 and double(x) < 6)')
    arms = _written(program, 'list(if x > 1 then double(x) + 1 else double(x) for x in [1, 2])')
    assert "is NK" not in arms and arms.count("NUMBER(") >= 2      # each arm works it out, untested
    met = _written(program, 'list((if x > 1 then double(3) else 0) + double(3) for x in [1, 2])')
    assert met.count("is NK:") == 2                                  # in a loop, and where the arms meet


def test_a_loops_leading_invariant_cells_are_worked_out_before_it(monkeypatch):
    """Cells a loop's body works out first thing, of values no turn changes, are worked out before
    the loop under ``if items:`` (at the first turn's start, as before) and tested at no turn; a
    cell after other work in the body stays in it, tested at every turn."""
    compiled, reference, program = _both_ways(monkeypatch, RULESETS / "toy")
    texts = ['count(x for x in [1, 2, 3] if double(2) < x)', 'count(x for x in [1, 2, 3] if x > 1 and double(2) < x)',
             'count(x for x in [] if double("a") < x)', 'list(count(y for y in [1, x] if double(x) < y) for x in [0, 1])']
    _same_values(texts, compiled, reference, program)
    lines = _written(program, 'count(x for x in [1, 2, 3] if double(2) < x)').splitlines()
    loop = next(k for k, text in enumerate(lines) if text.lstrip().startswith("for "))
    assert "is NK" not in "\n".join(lines) and any("NUMBER(" in text for text in lines[:loop])
    assert re.match(r" *if t\d+:$", next(text for text in lines[:loop] if text.lstrip().startswith("if t")))
    inner = _written(program, 'list(count(y for y in [1, x] if double(x) < y) for x in [0, 1])')
    assert "is NK" not in inner                                      # the outer turn's cell, before the inner loop
    kept = _written(program, 'count(x for x in [1, 2, 3] if x > 1 and double(2) < x)')
    assert kept.count("is NK:") == 1


def test_a_grids_geometry_read_inline_gives_what_its_functions_give(monkeypatch):
    """rooms, row, column, sides, adjacent and a side's across come from the geometry made once
    when generated code has it; values (and those of a room given for a grid) as the closures'."""
    texts = ['rooms(board)', 'row(board, 2) + column(board, 3) + row(board, 9) + column(board, "a")',
             'sides(room(board, 2, 2))', 'list(s.across for s in sides(room(board, 1, 3)))',
             'flatten(list(sides(r) for r in adjacent(room(board, 1, 1))))', 'rooms(room(board, 3, 3))',
             'list(s.room for s in sides(room(board, 3, 1)) if s.across == none)',
             '"ab" + "cd" + text(1) + "e"', '[1] + [2, 3] + list(x for x in [4])',
             'list(r.name for r in column(board, 2))', 'text("a", "", 1, none, room(board, 1, 2))',
             'count(r for r in rooms(board) if r.col > 1)', 'count(1 for r in rooms(board))',
             'flatten([[1], [], [2, 3]])']
    _same_values(texts, *_both_ways(monkeypatch, RULESETS / "ttt"))


def test_a_players_own_attributes_and_a_scripted_seat_are_read_as_the_closures_read_them(tmp_path, monkeypatch):
    """``p.scripted``, ``p.seat``, a scripted seat's name and ``==`` against it (in a function's
    body, where no local can hide the name) are written inline (no reader call): the values, for
    people, scripted seats, a seat not in the game and values of other kinds, are the closures'."""
    folder = tmp_path / "hooks"
    shutil.copytree(RULESETS / "hooks", folder)
    edit(folder / "flow.yaml", "functions:\n", "functions:\n"
         "  is_bank:\n    params: [x]\n    expr: x == bank\n"
         "  not_bank:\n    params: [x]\n    expr: bank != x\n")
    texts = ['list(p.scripted for p in seats)', 'list(p.seat for p in seats)', 'bank', 'bank == seats[3]',
             'if bank == none then 0 else bank.seat', 'list(p.scripted and p.seat > 1 for p in seats)',
             'list([is_bank(x), not_bank(x)] for x in seats + [none, 1, "bank", [], vault])']
    for players in (2, 3):                               # the bank sits in two-player games only
        compiled, reference, program = _both_ways(monkeypatch, folder, players=players)
        _same_values(texts, compiled, reference, program)
        assert len(re.findall(r"is not None and \w+\.seat == \w+\.seat if type", program.source)) >= 2
        assert "scripted_seat" not in program.source and re.search(r"\.seat >= (ctx\.)?game\.people", program.source)


def test_a_loop_over_a_grids_rooms_reads_their_cells_as_the_closures_do(monkeypatch):
    """A pure generator over rooms(grid) walks each room's cell key and tags alongside; its
    rooms' items, emptiness and tags are the closures' (mid-game, some cells filled), and so
    are those of rooms a room gave (not the geometry's own list: the general reads)."""
    compiled, reference, program = _both_ways(monkeypatch, RULESETS / "ttt", players=2, seed=1)
    for answer in (4, 0, 2):                                   # three marks on the board
        for game in (compiled, reference):
            game.apply(game.pending()[0].player, answer)
    texts = ['list(r.item for r in rooms(board))', 'count(r for r in rooms(board) if r.empty)',
             'list(if r.empty then r.tags else [r.item, r.row] for r in rooms(board))',
             'list(r.item for r in rooms(room(board, 2, 2)))', 'list(r.empty for r in rooms(board) if r.col > 1)',
             'list(count(s for s in rooms(board) if s.item == r.item) for r in rooms(board))',
             'list("a" not in r.tags for r in rooms(board))', '"a" in room(board, 1, 1).tags',
             '"a" in {"tags": ["a"]}.tags', 'list("b" not in x.tags for x in [{"tags": ["b"]}, room(board, 2, 1)])']
    before = len(program.source)
    _same_values(texts, compiled, reference, program)
    assert program.source[before:].count("in ZIP(") == 8
    assert compiled.evaluate('list(r.item for r in rooms(board))').count(None) == 6


def test_the_top_of_a_numbered_pile_is_read_as_the_closures_read_it(monkeypatch):
    """top(pile[i]) of a numbered group of the table's zones reads pile i's list straight from
    the state; an index off the group fails as the closures fail."""
    compiled, reference, program = _both_ways(monkeypatch, "lairs", players=3, seed=2)
    _same_values(['list(top(display[i]) for i in [1, 2, 3])', 'list(top(pile[i]) for i in range(1, 3))'],
                 compiled, reference, program)
    for text in ('top(display[4])', 'top(display["a"])', 'top(display[0])'):
        with pytest.raises(RuleError) as raised:
            compiled.evaluate(text)
        with pytest.raises(RuleError) as expected:
            reference.evaluate(text)
        assert str(raised.value) == str(expected.value), text


def test_a_call_walking_its_values_is_charged_as_the_closures_charge_it(monkeypatch):
    """The generated code calls a walking function's charge only where it may charge (long
    lists and texts; any list or record written out): the steps spent are the closures'."""
    compiled, reference, program = _both_ways(monkeypatch, RULESETS / "toy", players=2, seed=1)
    charged = {'text(range(1, 3000))': True, 'sort(range(1, 2500))': True, 'text(1, "a")': False,
               'min(3, 4)': False, 'sort(range(1, 10))': False, 'text([[1, 2], [3]])': True,
               'count(sort(range(1, 600)) + sort(range(1, 601)))': True, 'unique(range(1, 1200))': True,
               'text(3 - 2, {"a": [1]})': True, 'first(range(1, 1500))': False}
    for text, paid in charged.items():
        tree = parse_expression(text)
        assert program.add(tree) is not None, text
        spent = []
        for game, value in ((compiled, tree), (reference, text)):
            game.steps = 1_000_000
            game.evaluate(value)
            spent.append(1_000_000 - game.steps)
        assert spent[0] == spent[1] and (spent[0] > 0) == paid, (text, spent)


def test_a_functions_body_run_on_its_own_is_generated_when_first_run(monkeypatch):
    """A body evaluated alone (as a sources function or the score is: its values in the locals)
    runs generated code from its first run on, giving the closures' values and errors."""
    compiled, reference, program = _both_ways(monkeypatch, RULESETS / "toy", players=2, seed=1)
    tree = compiled.rules.functions["double"][1]
    other = reference.rules.functions["double"][1]
    assert compiled.evaluate(tree, env={"x": 21}) == reference.evaluate(other, env={"x": 21}) == 42
    assert tree._fn.__code__.co_filename.startswith("<rulebook")          # in its place now
    assert compiled.evaluate(tree, env={"x": 4}) == 8
    for game, body in ((compiled, tree), (reference, other)):
        with pytest.raises(RuleError, match="needs numbers"):
            game.evaluate(body, env={"x": "a"})


def test_dice_are_never_kept_or_inlined(tmp_path, monkeypatch):
    """roll() advances the stream: a generator rolls once per item and a function that rolls is
    called (its value kept for the statement, as the closures keep it), never inlined."""
    folder = tmp_path / "toy"
    shutil.copytree(RULESETS / "toy", folder)
    edit(folder / "flow.yaml", "functions:\n", "functions:\n"
         "  rolled:\n    params: []\n    expr: roll(1000)\n"
         "  two:\n    params: []\n    expr: rolled() + rolled()\n")
    compiled, reference, program = _both_ways(monkeypatch, folder, seed=3)
    assert not program.generator.is_inlinable("rolled") and not program.generator.is_inlinable("two")
    _same_values(["list(roll(1000) for x in range(1, 6))", "two()", "list(rolled() + x for x in [1, 2])"],
                 compiled, reference, program)
    assert len(set(compiled.evaluate("list(roll(1000) for x in range(1, 6))"))) > 1



def test_a_function_that_never_reads_self_is_kept_once_for_every_player(tmp_path, monkeypatch):
    """Self is left out of a function's memo key only when neither it nor anything it calls can
    read the acting player (a player's own counter here, through a call); values as the closures'."""
    folder = tmp_path / "toy"
    shutil.copytree(RULESETS / "toy", folder)
    edit(folder / "flow.yaml", "functions:\n", "functions:\n"
         "  wealth:\n    params: []\n    expr: coin\n"
         "  richer:\n    params: [x]\n    expr: wealth() + double(x)\n"
         "  quad:\n    params: [x]\n    expr: double(double(x))\n")
    compiled, reference, program = _both_ways(monkeypatch, folder)
    gen = program.generator
    assert gen.reads_self("wealth") and gen.reads_self("richer")
    assert not gen.reads_self("double") and not gen.reads_self("quad")
    for game in (compiled, reference):
        game.state["players"][1]["counters"]["coin"] = 7
    for text in ("richer(1) + quad(2)", "[wealth(), quad(1), richer(quad(1))]"):
        program.add(parse_expression(text))
        for player in (0, 1):
            assert compiled.evaluate(text, player) == reference.evaluate(text, player), (text, player)
    assert compiled.evaluate("richer(1)", 1) == 9


def test_an_attribute_of_a_known_kind_is_read_by_that_kind_alone(tmp_path, monkeypatch):
    """The checker's kind of an attribute's object picks its one reader; a union or anything
    keeps every branch. Values (and errors: see RUNTIME_ERRORS) are the closures'."""
    from interpreter.dsl import ast
    folder = tmp_path / "toy"
    shutil.copytree(RULESETS / "toy", folder)
    edit(folder / "flow.yaml", "functions:\n", "functions:\n"
         "  purse:\n    params: [p]\n"
         "    expr: 'self.coin + (if p.coin > 3 then self else {\"coin\": 5}).coin + p.coin'\n")
    compiled, reference, program = _both_ways(monkeypatch, folder)
    body = compiled.rules.functions["purse"][1]
    reads = sorted((n for n in codegen._walk(body) if n.__class__ is ast.Attribute), key=lambda n: n.col)
    assert [program.generator.owner_sorts(n) for n in reads] == [{codegen.Player}, None, None, None]
    for game in (compiled, reference):
        game.state["players"][1]["counters"]["coin"] = 7
    assert [compiled.evaluate("purse(self)", player) for player in (0, 1)] == [3 + 5 + 3, 7 + 7 + 7]
    for player in (0, 1):
        assert compiled.evaluate("purse(self)", player) == reference.evaluate("purse(self)", player)

# ---------------------------------------------------------------- content stays data

# A string literal of the language has no escapes and no newline; a constant in YAML may hold anything.
LITERAL = r"' \ __import__('os').system('echo pwned') {} {0} %s %(x)s ''' \'"
CONSTANT = 'x"\n\\" + __import__("os").system("echo pwned") + "\x00 {} {0} %s \'\'\''


@pytest.fixture
def hostile(tmp_path):
    """The toy with functions whose names, parameters and strings are made to escape
    (names are lower-case words, by the schema: Python's own, and the generated code's)."""
    folder = tmp_path / "toy"
    shutil.copytree(RULESETS / "toy", folder)
    literal = '"' + LITERAL + '"'
    edit(folder / "components.yaml", "tables:\n", f"constants:\n  motto: {json.dumps(CONSTANT)}\ntables:\n")
    edit(folder / "flow.yaml", "functions:\n", "functions:\n"
         "  exec:\n"
         "    params: [t1, env]\n"
         f"    expr: {json.dumps('t1 + env + motto + ' + literal)}\n"
         "  ctx:\n"
         "    params: []\n"
         f"    expr: {json.dumps('{' + literal + ': motto}')}\n"
         # the generated functions' own locals (the state, the game, the memo's key) and self
         "  state:\n"
         "    params: [game, key, value]\n"
         "    expr: 'if self == none then [game, key, value, coin] else coin'\n")
    # A procedure and locals named as the generated block's own Python names, run by 'do'.
    edit(folder / "flow.yaml", "procedures:\n", "procedures:\n"
         "  frame:\n"
         "    params: [th, ctx]\n"
         "    do: |\n"
         "      env = th + ctx + motto\n"
         "      i = env\n"
         "      went = [i]\n"
         "      game = none\n"
         "      if went == [env]:\n"
         f"        game = {literal} + env\n"
         "      exc = {\"frame\": game}\n"
         "      log exc.frame\n")
    edit(folder / "flow.yaml", "start: |\n", f"start: |\n  do frame({literal}, motto)\n")
    return folder


def test_hostile_names_and_strings_stay_data(hostile):
    rules = load_ruleset(str(hostile))
    game = Game.new(rules)
    program = codegen.program_of(rules)
    assert {"exec", "ctx"} <= program.functions.keys()
    assert game.evaluate('exec("x", "y")') == "xy" + CONSTANT + LITERAL
    assert game.evaluate("ctx()") == {LITERAL: CONSTANT}
    assert game.evaluate('state(1, motto, "value")', 0) == 3
    assert "state" in program.functions and program.generator.reads_self("state")
    assert LITERAL + LITERAL + CONSTANT + CONSTANT in [line["text"] for line in game.state["log"]]
    assert program.blocks                        # the procedure ran as a generated block
    for piece in ("exec", "motto", "__import__", "system", "echo", "pwned", "%s", "{0}", "\\"):
        assert piece not in program.source, piece
    quoted = {word for word in program.source.replace("(", " ").replace(")", " ").split() if "'" in word}
    assert quoted == {"'self'"}                  # the only text in quotes is the generator's own


def test_the_generated_code_sees_no_builtins():
    rules = load_ruleset(str(RULESETS / "toy"))
    namespace = codegen.program_of(rules).namespace
    assert set(namespace["__builtins__"]) == {"type", "bool", "int", "str", "dict", "list", "len",
                                              "RecursionError"}


# ---------------------------------------------------------------- budgets

def test_a_function_calling_itself_is_stopped_in_generated_code(monkeypatch):
    monkeypatch.setattr(budget, "MAX_CALL_DEPTH", 30)
    rules = load_ruleset(str(RULESETS / "runaway_function"))
    assert "deeper" in codegen.program_of(rules).functions
    with pytest.raises(RuleError, match=r"flow.yaml:8:11: .*does a function call itself forever"):
        Game.new(rules)


def test_a_generator_counts_against_the_step_budget(monkeypatch):
    monkeypatch.setattr(budget, "MAX_STEPS", 50)
    game = Game.new(load_ruleset(str(RULESETS / "toy")))
    with pytest.raises(RuleError, match="no decision after"):
        game.evaluate("count(x for x in range(1, 100))")


# A loop with nothing in it that stops for a decision runs as a Python loop (no frames): it still
# spends the steps and stack its frames would, and places its errors where they would.
LOOPS_RUN_THROUGH = [                  # the text, and where its error is placed (either way)
    ("while true:\n    step += 1\n", "3:3: no decision after"),
    ("for each x in range(1, 100000):\n    if x > 0:\n      step += 1\n", "4:5: no decision after"),
    ("for each x in range(1, 100000):\n    while step < x:\n      if step > 5:\n        break\n"
     "      step += 1\n", "3:3: no decision after"),
    ("while true:\n    for each x in [1]:\n      step += x\n", "4:5: no decision after"),
    ("for each x in [1, 2]:\n    if x / 0 > 1:\n      step += 1\n", "3:24: division by zero"),
    ('for each x in get({}, "k", 3):\n    step += x\n', "3:3: 'for each' needs a list"),
    ("for each x in [1, 2]:\n    step += x\n  step = step / 0\n", "5:3: division by zero"),
    ("if step == 0:\n    while true:\n      step += 1\n", "4:5: no decision after"),
    ("if step == 1:\n    pass\n  elif step / 0:\n    step += 1\n", "3:3: division by zero"),
]


@pytest.mark.parametrize("text, place", LOOPS_RUN_THROUGH)
def test_a_runaway_compiled_loop_still_hits_its_budget_at_its_place(text, place, tmp_path, monkeypatch):
    monkeypatch.setattr(budget, "MAX_STEPS", 500)
    folder = tmp_path / "toy"
    shutil.copytree(RULESETS / "toy", folder)
    edit(folder / "flow.yaml", "start: |\n", f"start: |\n  {text}")
    messages = _errors_both_ways(folder, monkeypatch)
    assert "LOOP_ITEMS(" in codegen.program_of(load_ruleset(str(folder))).source
    assert messages[0] == messages[1]
    assert f"flow.yaml:{place}" in messages[0]


def test_loops_nested_deeper_than_python_compiles_keep_their_frames(tmp_path, monkeypatch):
    elifs = "".join(f"      elif x == {n}:\n        step += {n}\n" for n in range(2, 110))
    loops = "".join("  " * n + f"for each y{n} in [1]:\n" for n in range(1, 11))
    folder = tmp_path / "toy"
    shutil.copytree(RULESETS / "toy", folder)
    edit(folder / "flow.yaml", "start: |\n", "start: |\n"
         "  for each x in range(1, 90):\n    if x > 0:\n      if x == 1:\n        step += 1\n" + elifs
         + loops + "  " * 11 + "step += 1000\n")
    values = []
    for enabled in (True, False):
        monkeypatch.setattr(codegen, "ENABLED", enabled)
        game = Game.new(load_ruleset(str(folder)), seed=2)
        values.append(game.evaluate("step"))
    assert values[0] == values[1] and values[0] >= sum(range(1, 90)) + 1000


def test_a_compiled_loop_that_calls_a_decision_gives_the_rest_to_frames(tmp_path, monkeypatch):
    """``do`` inside a loop run through may decide: the loop becomes its frames, and the state at
    every decision (saved, loaded, answered) is the interpreted loop's."""
    folder = tmp_path / "toy"
    shutil.copytree(RULESETS / "toy", folder)
    edit(folder / "flow.yaml", "start: |\n", "start: |\n"
         "  for each p in players:\n"
         "    step += 1\n"
         "    if step > 0:\n"
         "      do keep_one(p.hand)\n"
         "      step += 10\n")
    states = []
    for enabled in (True, False):
        monkeypatch.setattr(codegen, "ENABLED", enabled)
        rules = load_ruleset(str(folder))
        assert "LOOP_ITEMS(" in codegen.program_of(rules).source
        game = Game.new(rules, players=3, seed=5)
        seen = []
        while not game.over and len(seen) < 50:
            seen.append(game.to_json())
            game = Game.from_json(rules, game.to_json()) if len(seen) % 2 else game
            d = game.pending()[0]
            game.apply(d.player, len(seen) % len(d.options))
        states.append(seen + [game.to_json()])
    assert states[0] == states[1]


# ---------------------------------------------------------------- errors keep their place



RUNTIME_ERRORS = ["10 / (double(1) - 2)", 'count(x for x in get({}, "k", 3))', "[1, 2][double(2)]",
                  'if double(1) < get({}, "k", "a") then 1 else 2', 'double("a")',
                  # attributes whose object's kind the checker knows (one kind, or a union): a
                  # value of another kind at run time fails in the generic reader, as it would
                  "self.coin", '(if step == 0 then none else {"a": 1}).a', '(if step == 0 then self else "x").coin',
                  '(if step == 0 then self else {"coin": 1}).coin',
                  # a new list joined with a value not a list: the general case's error
                  'count([1] + get({}, "k", 2))', 'count(list(x for x in [1]) + get({}, "k", "a"))']


@pytest.mark.parametrize("text", RUNTIME_ERRORS)
def test_a_rule_error_in_generated_code_is_placed_as_the_closures_place_it(text, tmp_path, monkeypatch):
    folder = tmp_path / "toy"
    shutil.copytree(RULESETS / "toy", folder)
    edit(folder / "flow.yaml", "start: |\n", f"start: |\n  step = {text}\n")
    messages = _errors_both_ways(folder, monkeypatch)
    assert messages[0] == messages[1]
    assert "flow.yaml:3:3: " in messages[0]


# ---------------------------------------------------------------- the compiled code's disk cache

def test_the_compiled_code_is_cached_and_read_only_from_a_private_file(tmp_path, monkeypatch):
    from interpreter.dsl import lark_cache
    monkeypatch.setenv(lark_cache.ENV_FOLDER, str(tmp_path / "cache"))
    toy = str(RULESETS / "toy")
    first = codegen.program_of(load_ruleset(toy))
    (cached,) = (tmp_path / "cache").glob("code-*.marshal")
    compiles = []
    monkeypatch.setattr(codegen, "compile", lambda *a: compiles.append(a) or compile(*a), raising=False)
    again = codegen.program_of(load_ruleset(toy))
    assert compiles == [] and again.source == first.source          # read back, not compiled
    assert _play(again.rules, 2, 0) == _play(first.rules, 2, 0)
    cached.chmod(0o666)                                                # others could have written it
    codegen.program_of(load_ruleset(toy))
    assert len(compiles) == 1
    monkeypatch.setenv(lark_cache.ENV_FOLDER, "")                     # empty: no cache at all
    codegen.program_of(load_ruleset(toy))
    assert len(compiles) == 2


# ---------------------------------------------------------------- frames are the interpreter's

@pytest.mark.parametrize("name", ["lairs", str(RULESETS / "toy"), str(RULESETS / "hooks")],
                         ids=lambda n: Path(n).name)
def test_a_state_saved_by_the_interpreter_resumes_in_generated_blocks(name, monkeypatch):
    compiled, reference = load_ruleset(name), _reference(monkeypatch, name)
    players = compiled.players["min"]
    rnd = random.Random(5)
    with monkeypatch.context() as m:
        m.setattr(codegen, "ENABLED", False)
        game = Game.new(reference, players=players, seed=5)
        for _ in range(7):                                  # some way in, mid-procedure
            if game.over:
                break
            d = game.pending()[0]
            game.apply(d.player, rnd.randrange(len(d.options)))
        saved = game.to_json()
    resumed = Game.from_json(compiled, saved)               # the same frames, run by generated blocks
    assert any(node.__dict__.get("_run") for node in compiled.nodes)
    with monkeypatch.context() as m:
        m.setattr(codegen, "ENABLED", False)
        interpreted = Game.from_json(reference, saved)
    for _ in range(60):
        if interpreted.over:
            break
        d, e = interpreted.pending()[0], resumed.pending()[0]
        assert (d.player, d.prompt, list(d.options)) == (e.player, e.prompt, list(e.options))
        k = rnd.randrange(len(d.options))
        interpreted.apply(d.player, k)
        resumed.apply(d.player, k)
    assert resumed.to_json() == interpreted.to_json()


def test_the_cache_keeps_only_the_newest_programs(tmp_path, monkeypatch):
    from interpreter.dsl import lark_cache
    monkeypatch.setenv(lark_cache.ENV_FOLDER, str(tmp_path / "cache"))
    monkeypatch.setattr(codegen, "_KEEP", 2)
    for k in range(4):                               # four programs: four sources, four files written
        codegen.compiled_code(f"x = {k}\n", "<test>")
    assert len(list((tmp_path / "cache").glob("code-*.marshal"))) == 2


def test_code_generated_before_the_engine_is_imported_runs_the_same(tmp_path):
    """`simulate --jobs` generates a ruleset's code before any game exists (so forked workers
    share it); the generator must see the whole statement table then, as a game would."""
    script = (
        "from interpreter.content.ruleset import load_ruleset\n"
        "from interpreter.engine import codegen\n"
        "rules = load_ruleset('lairs')\n"
        "codegen.program_of(rules)\n"
        "from interpreter.engine.game import Game\n"
        "from interpreter.agents.driver import drive, random_mover\n"
        "game = Game.new(rules, players=4, seed=1)\n"
        "drive(game, random_mover(1))\n"
        "print(game.to_json()[-200:])\n")
    env = dict(os.environ, RULEBOOK_CACHE_DIR=str(tmp_path))
    first = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           env=env, timeout=300)
    assert first.returncode == 0, first.stderr
    again = subprocess.run([sys.executable, "-c", script.replace("codegen.program_of(rules)\n", "")],
                           capture_output=True, text=True, env=env, timeout=300)
    assert again.returncode == 0 and again.stdout == first.stdout


# ---------------------------------------------------------------- blocks run the blocks they push

# A generated block lists a 'choose's options itself and runs the block an 'if', a 'do' or a choice
# taken at once pushes (a call of its function): each error, and each budget, as the frames have it.
BLOCKS_RUN_HERE = [                    # the text at the start, a procedure 'again', the error's place
    ('choose x in get({}, "k", 5):\n    pass\n', "step += 1\n", "3:3: 'choose' needs a list, got 5"),
    ("choose x in [1, 2] if x / 0 > 1:\n    pass\n", "step += 1\n", "3:3: division by zero"),
    ('choose x in [1] if x < get({}, "k", "a"):\n    pass\n', "step += 1\n", "3:3: "),
    ("do again()\n", "step += 1\nif step > 0:\n  do again()\n", "does a procedure call itself forever"),
    ("do again()\n", "step += 1\nchoose x in [step]:\n  do again()\n", "does a procedure call itself forever"),
    ("do again()\n", "if step >= 0:\n  step += 1\n  while step > 0:\n    do again()\n",
     "does a procedure call itself forever"),
    ("do again()\n", "step += 1\nif true:\n  if true:\n    do again()\n", "does a procedure call itself forever"),
    ("while true:\n    do again()\n", "if step >= 0:\n  step += 1\n", "no decision after"),
    ("if step == 0:\n    do again()\n", 'choose x in [1] if x > 5:\n  pass\notherwise "none":\n  step = step / 0\n', "division by zero"),
]


@pytest.mark.parametrize("text, again, error", BLOCKS_RUN_HERE)
def test_a_block_running_what_it_pushes_fails_as_the_frames_do(text, again, error, tmp_path, monkeypatch):
    monkeypatch.setattr(budget, "MAX_STEPS", 1_000 if "no decision" in error else budget.MAX_STEPS)
    folder = tmp_path / "toy"
    shutil.copytree(RULESETS / "toy", folder)
    body = "".join("      " + line + "\n" for line in again.splitlines())
    edit(folder / "flow.yaml", "start: |\n", f"start: |\n  {text}")
    edit(folder / "flow.yaml", "procedures:\n", f"procedures:\n  again:\n    params: []\n    do: |\n{body}")
    messages = _errors_both_ways(folder, monkeypatch)
    assert messages[0] == messages[1]
    assert error in messages[0] and "flow.yaml:" in messages[0]


@pytest.mark.parametrize("name, players, limit", [("lairs", 3, 400), ("secret-societies", 4, 120),
                                                  (str(RULESETS / "hooks"), 3, 50), (str(RULESETS / "toy"), 3, 50),
                                                  (str(RULESETS / "auction"), 3, 80)],
                         ids=lambda n: Path(str(n)).name)
def test_the_state_at_every_decision_is_the_interpreters(name, players, limit, monkeypatch):
    """Blocks that run what they push, choices listed in their block, ends of blocks taken
    together: none of it shows in the state saved at any decision."""
    compiled, reference = load_ruleset(name), _reference(monkeypatch, name)
    seen = []
    for rules, enabled in ((reference, False), (compiled, True)):
        monkeypatch.setattr(codegen, "ENABLED", enabled)
        game, rnd, states = Game.new(rules, players=players, seed=3), random.Random(3), []
        while not game.over and len(states) < limit:
            states.append(game.to_json())
            d = game.pending()[0]
            game.apply(d.player, rnd.randrange(len(d.options)))
        seen.append(states + [game.to_json()])
    assert seen[0] == seen[1]
    if name == "lairs":                                     # its blocks do run what they push
        assert "went = R" in codegen.program_of(compiled).source


def test_the_end_of_a_block_ends_those_under_it_that_waited_only_for_it():
    """``END``: the ended block's frame goes, a call's locals with it, then each block below whose
    last statement ran; it stops at a block with statements to run, a frame of another kind, a
    block not yet run, or a node numbered after the program (a scenario's text)."""
    rules = load_ruleset(str(RULESETS / "toy"))
    end = codegen._ender(rules)
    blocks = [k for k, node in enumerate(rules.nodes) if type(node).__name__ == "Block"]
    other = next(k for k, node in enumerate(rules.nodes) if type(node).__name__ != "Block")
    b, c = blocks[0], blocks[1]
    done_b, done_c = len(rules.nodes[b].body), len(rules.nodes[c].body)

    def thread(*frames):
        envs = [{"base": 0}] + [{"call": k} for k, f in enumerate(frames) if "call" in f]
        return {"frames": [dict(f) for f in frames], "envs": envs, "pending": None}

    th = thread({"n": b, "i": done_b}, {"n": c, "i": done_c, "call": True}, {"n": b, "call": True})
    end(th, th["frames"][-1])
    assert th["frames"] == [] and th["envs"] == [{"base": 0}]
    for below in ({"n": other}, {"n": other, "i": 0}, {"n": c, "i": done_c - 1}, {"n": c},
                  {"n": len(rules.nodes) + 5, "i": 1}):
        th = thread(below, {"n": c, "i": done_c}, {"n": b, "call": True})
        end(th, th["frames"][-1])
        assert th["frames"] == [below] and th["envs"] == [{"base": 0}]
