"""The code generator's proven sorts (codegen ``sort_of``): a value whose origin proves its Python
type (a grid function's rooms or sides, a list a generator collected, a loop over such, a ruleset
function's body) is read by its one reader inline; anything that only the checker guesses (a
parameter, a record field) keeps every branch, so a value of another kind still goes the generic
way, with the closures' values and errors."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.dsl.parser import parse_expression
from interpreter.engine import codegen
from interpreter.engine.game import Game
from interpreter.model.values import Room, RuleError, Side

from support import edit

RULESETS = Path(__file__).resolve().parent / "rulesets"

FUNCTIONS = (
    "functions:\n"
    "  mine:\n    params: [g]\n    expr: rooms(g)\n"
    "  edges:\n    params: [g]\n    expr: flatten(list(sides(r) for r in mine(g)))\n"
    "  rows_of:\n    params: [xs]\n    expr: list(x.row for x in xs)\n"
    "  row_of:\n    params: [r]\n    expr: r.row + r.col\n"
    "  free:\n    params: [s]\n    expr: 'not s.walled and \"a\" not in s.room.tags and s.room.row > 0'\n"
    "  open_edges:\n    params: [g]\n    expr: list(s for s in edges(g) if free(s))\n"
    "  corner:\n    params: [g]\n    expr: 'count(r for r in mine(g) if r.row + r.col == 2 and r.empty)'\n"
    "  below:\n    params: [g, n]\n    expr: 'count(r for r in rooms(g) if r.row < n)'\n"
    "  under:\n    params: [g, xs]\n    expr: 'count(r for r in rooms(g) if first(xs) and r.row < first(xs))'\n"
)


@pytest.fixture
def board(tmp_path, monkeypatch):
    """The ttt fixture with functions over its board: a game run by generated code, the same by
    the closures alone, and the generated program, a few marks made."""
    folder = tmp_path / "ttt"
    shutil.copytree(RULESETS / "ttt", folder)
    edit(folder / "flow.yaml", "functions:\n", FUNCTIONS)
    compiled = Game.new(load_ruleset(str(folder)), players=2, seed=1)
    with monkeypatch.context() as m:
        m.setattr(codegen, "ENABLED", False)
        reference = Game.new(load_ruleset(str(folder)), players=2, seed=1)
    for answer in (4, 0):
        for game in (compiled, reference):
            game.apply(game.pending()[0].player, answer)
    return compiled, reference, codegen.program_of(compiled.rules)


def _source_of(program, fname: str) -> str:
    """One generated function's source (``def F..`` up to the next ``def``)."""
    found = re.search(rf"^def {fname}\(.*?(?=^def )", program.source, re.S | re.M)
    return found.group(0)


def _same(texts, compiled, reference, program) -> None:
    for text in texts:
        assert program.add(parse_expression(text)) is not None, text
        assert compiled.evaluate(text) == reference.evaluate(text), text


def test_a_proven_origin_gives_its_sort_to_a_function_and_its_loops(board):
    compiled, reference, program = board
    sorts = program.generator.result_sorts
    assert sorts["mine"] == ("list", Room) and sorts["edges"] == ("list", Side)
    assert sorts["open_edges"] == ("list", Side) and sorts["corner"] is int
    assert sorts["rows_of"] == ("list", None)          # its items: a parameter's, not known
    fnames = program.generator.fnames
    # a loop over a proven list of rooms or sides: no type test, no generic reader
    for name in ("corner", "open_edges"):
        source = _source_of(program, fnames[name])
        assert "is Room" not in source and "is Side" not in source, source
        assert "ITEMS(" not in source                      # the list is a list: not tested
    # s.room.tags and s.room.row read through the side itself: no room made
    assert "Room(" not in _source_of(program, fnames["open_edges"])
    # a parameter proves nothing: every branch and the generic reader are kept
    for name in ("rows_of", "row_of"):
        source = _source_of(program, fnames[name])
        assert "type(" in source and "is Room" in source and "dict" in source


def test_values_read_by_their_proven_sort_are_the_closures(board):
    _same(['mine(board)', 'edges(board)', 'open_edges(board)', 'corner(board)',
           'rows_of(mine(board))', 'list(row_of(r) for r in mine(board))',
           'list(free(s) for s in edges(board))', 'list(s.room.col for s in edges(board) if s.across != none)',
           'list("a" in s.room.tags for s in sides(room(board, 2, 2)))',
           'count(r for r in mine(board) if not r.empty)', 'list(r.empty or r.row > 2 for r in mine(board))',
           'list(if r.empty then r.row else r.col for r in row(board, 2))',
           'list(x.row for x in [room(board, 1, 2), {"row": 7}])', 'rows_of([{"row": 5}, room(board, 3, 3)])',
           'row_of({"row": 1, "col": 2})', 'free(sides(room(board, 1, 1))[2])',
           # a grid's rooms walked where the geometry's tables do not serve (rooms of a room's grid)
           'list([r.item, r.empty, "a" in r.tags, r.tags] for r in rooms(room(board, 2, 2)))',
           'count(r for r in rooms(room(board, 1, 1)) if r.empty and "a" not in r.tags)',
           # a list written out, and a constant list: their items' one sort, or none
           'list(x.row + x.col for x in [room(board, 1, 2), room(board, 3, 1)])',
           'list(x.row for x in [room(board, 1, 2), {"row": 4}])', 'list(count(c for c in l) for l in lines)'], *board)


@pytest.mark.parametrize("text", ['row_of(5)', 'rows_of([1])', 'free({"walled": false})', 'mine(3)',
                                  'edges("board")', 'corner(none)', 'list(x.row for x in ["a", "b"])',
                                  'list(x.row for x in lines)'])
def test_a_value_of_another_kind_fails_as_in_the_closures(text, board):
    """A parameter given a value that is not a room or a side (where the function's own body or a
    built-in's result would have proven one): the same rule error either way."""
    compiled, reference, program = board
    program.add(parse_expression(text))
    messages = []
    for game in (compiled, reference):
        with pytest.raises(RuleError) as caught:
            game.evaluate(text)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]


def test_a_type_a_loop_tests_at_every_turn_is_worked_out_once(board):
    """A parameter's type test inside a loop reads a local set at the body's start; a cell's, of a
    value set outside the loop, a local set where the cell's work ends (the generator's ``is_``)."""
    compiled, reference, program = board
    fnames = program.generator.fnames
    below = _source_of(program, fnames["below"])
    flag = re.search(r"^        (qv\d+int) = type\((v\d+)\) is int$", below, re.M)
    assert flag is not None, below
    loop = below[below.index("\n        for "):]
    assert f"if {flag.group(1)} else" in loop and f"type({flag.group(2)})" not in loop
    under = _source_of(program, fnames["under"])
    flag = re.search(r"^            (qh\d+int) = type\((h\d+)\) is int$", under, re.M)
    assert flag is not None, under
    loop = under[under.index("\n        for "):]
    assert f"if {flag.group(1)} else" in loop and f"type({flag.group(2)})" not in loop
    assert under.index(flag.group(0)) < under.index("\n        for ")
    _same(["below(board, 2)", "below(board, 0)", "under(board, [2])", "under(board, [])"], *board)
    for text in ('below(board, "a")', "under(board, [true])"):      # the flag false: the general way
        for game in (compiled, reference):
            with pytest.raises(RuleError, match="needs numbers"):
                game.evaluate(text)


def test_the_source_is_the_same_whatever_the_hash_seed():
    """The passes over the source walk their findings in a fixed order: the same program text (and
    so the same cached bytecode) in every process."""
    import os
    import subprocess
    import sys
    script = ("import hashlib; from interpreter.content.ruleset import load_ruleset; "
              "from interpreter.engine import codegen; "
              "print(hashlib.sha256(codegen.program_of(load_ruleset('lairs')).source.encode()).hexdigest())")
    seen = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(seen) == 1
