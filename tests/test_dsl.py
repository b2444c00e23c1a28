"""The effect language: parsing, positions, checking, explaining, evaluating."""
from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.dsl import ast
from interpreter.dsl.check import Vocabulary, check
from interpreter.dsl.explain import explain
from interpreter.dsl.parser import DslError, parse_expression, parse_program
from interpreter.mechanics import VERBS


def test_card_text_parses_to_frozen_nodes():
    tree = parse_program("gain 2 coin, 1 mov")
    gain = tree.body[0]
    assert isinstance(gain, ast.Gain)
    assert [(a.count.value, a.name) for a in gain.amounts] == [(2, "coin"), (1, "mov")]
    with pytest.raises(dataclasses.FrozenInstanceError):
        gain.amounts = ()


def test_blocks_follow_indentation():
    tree = parse_program("if x > 1:\n    gain 1 coin\n    spend 1 mov\nelse:\n    pass\nwall s\n")
    branch = tree.body[0]
    assert isinstance(branch, ast.If)
    assert len(branch.branches[0][1].body) == 2
    assert isinstance(tree.body[1], ast.Call) and tree.body[1].verb == "wall"


def test_choose_forms():
    one = parse_program("choose one: gain 2 a | gain 2 b; spend 1 c").body[0]
    assert isinstance(one, ast.ChooseOne) and len(one.alternatives) == 2
    pick = parse_program('choose r in rooms(x) if r.empty label r.name:\n  put y at r\n'
                         'otherwise "pass":\n  gain 1 coin').body[0]
    assert isinstance(pick, ast.ChooseIn)
    assert pick.otherwise_label == "pass" and pick.cond is not None and pick.label is not None


def test_expressions_span_lines_and_keep_positions():
    tree = parse_expression("a +\n  b.c")
    assert isinstance(tree, ast.BinOp)
    assert (tree.right.line, tree.right.col) == (2, 3)


def test_precedence():
    tree = parse_expression("1 + 2 * 3 == 7 and not x or y")
    assert isinstance(tree, ast.BoolOp) and tree.op == "or"
    assert tree.left.op == "and"
    assert tree.left.left.left.right.op == "*"


@pytest.mark.parametrize("text,line,col,words", [
    ("gain 2", 1, 7, "expected 'of', a name"),
    ("if x gain 1 coin", 1, 6, "expected ':'"),
    ("x = (1", 1, 7, "expected ')'"),
    ("gain 2 coin $", 1, 13, "unexpected character '$'"),
    ("gain 1 coin\n  spend 1 coin", 2, 3, "indent"),
])
def test_syntax_errors_point_at_the_column(text, line, col, words):
    with pytest.raises(DslError) as caught:
        parse_program(text)
    err = caught.value
    assert (err.line, err.col) == (line, col)
    assert words in err.message


VOCAB = Vocabulary(names={"plan", "board"}, attributes={"coin", "mov", "lair", "item"},
                   counters={"coin", "mov"}, functions={"count": None, "rooms": None},
                   procedures={"take": 1}, verbs=VERBS)


def problems(text, params=()):
    return [(p.code, p.message, p.hint) for p in check(parse_program(text), VOCAB, params)]


def test_checker_names_every_unknown_thing_with_hints():
    found = problems("gain 2 coni\nshufle plan\nx = bord\ny = self.liar\nz = cuont(plan)")
    codes = [code for code, _, _ in found]
    assert codes == ["dsl-unknown-counter", "dsl-unknown-verb", "dsl-unknown-name",
                     "dsl-unknown-attribute", "dsl-unknown-function"]
    hints = [hint for _, _, hint in found]
    assert hints == ["did you mean 'coin'?", "did you mean 'shuffle'?", "did you mean 'board'?",
                     "did you mean 'lair'?", "did you mean 'count'?"]


def test_checker_knows_locals_params_and_keywords():
    assert problems("for each r in rooms(self.lair):\n  put r.item at r") == []
    assert problems("do take(plan)") == []
    assert problems("do take(plan, plan)")[0][0] == "dsl-arity"
    assert problems("move 1 to plan")[0][0] == "dsl-missing-keyword"
    assert problems("put x into plan", params=("x",))[0][0] == "dsl-bad-keyword"
    assert problems("x = take(1)")[0][0] == "dsl-procedure-call"


def test_explain_reads_like_the_card():
    assert explain(parse_program("gain 2 coin, 1 mov")) == "gain 2 coin, 1 mov"
    text = explain(parse_program("if self.coin >= 3: spend 3 coin"))
    assert text == "if self's coin ≥ 3: spend 3 coin"


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(list("abcxyz_019 :;|.,()[]{}\"'=+-*/<>!#\n\t")
                                + ["if ", "gain ", "choose ", "for each ", "in ", "then ",
                                   "else", "otherwise", "    ", "\n  "]), max_size=40).map("".join))
def test_any_text_parses_or_fails_cleanly(text):
    for parse in (parse_program, parse_expression):
        try:
            tree = parse(text)
        except DslError as err:
            assert err.line >= 1 and err.col >= 1 and err.message
        else:
            assert isinstance(tree, ast.Node)
            explain(tree)


def test_a_choice_may_name_its_prompt():
    pick = parse_program('choose "a card" i in [1, 2] label i:\n  pass').body[0]
    assert (pick.prompt, pick.var) == ("a card", "i")
    assert parse_program('choose "a stat" one: gain 3 mov | gain 3 stl').body[0].prompt == "a stat"
    assert parse_program("choose one: gain 3 mov | gain 3 stl").body[0].prompt is None


def test_a_local_may_not_hide_a_declared_name():
    vocab = Vocabulary(names={"coin", "round"}, variables={"round"}, mine={"coin"},
                       counters={"coin"}, verbs=VERBS)
    found = [(p.code, p.hint) for p in check(parse_program("coin = 5\nround = 2"), vocab)]
    assert found == [("dsl-hides-name", "write self.coin = ...")]
