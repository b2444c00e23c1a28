"""A number's size test in generated code compares with bounds of one CPython digit (below
2**30), which CPython 3.11 specialises in an ``if`` (COMPARE_OP_INT_JUMP; 2**63 took
PyObject_RichCompare): numbers past the bounds are ``NUMBER``'s to pass or refuse, and the
values and errors are the closures'."""
from __future__ import annotations

from pathlib import Path

from interpreter.content.ruleset import load_ruleset
from interpreter.dsl.parser import parse_expression
from interpreter.engine import codegen
from interpreter.engine.game import Game
from interpreter.model.values import RuleError

TOY = Path(__file__).resolve().parent / "rulesets" / "toy"


def _both_ways(monkeypatch):
    compiled = Game.new(load_ruleset(str(TOY)), players=2, seed=1)
    with monkeypatch.context() as m:
        m.setattr(codegen, "ENABLED", False)
        reference = Game.new(load_ruleset(str(TOY)), players=2, seed=1)
    return compiled, reference, codegen.program_of(compiled.rules)


def _outcome(game, tree):
    try:
        return game.evaluate(tree)
    except RuleError as exc:
        return ("error", str(exc))


def test_numbers_about_the_size_tests_bounds_are_the_closures(monkeypatch):
    """Sums and products either side of 2**30 (the test's bound) and of 2**63 (the old one), and
    one past the digits allowed: the same numbers, the same error."""
    compiled, reference, program = _both_ways(monkeypatch)
    texts = ['list(x * 1073741823 for x in [1, -1, 2, -2, 0])', 'list(x - 1 for x in [-1073741823, 1073741824])',
             'list(x + 1 for x in [1073741822, 1073741823, -1073741825])',
             'list(x * x for x in [32768, 3037000499, 3037000500])',
             'list(x * 4294967296 - 1 for x in [2147483647, 2147483648, -2147483648])',    # about 2**63
             'list(x * 4294967296 for x in [2147483648, -2147483648, -2147483649])',
             'list(x * x * x * x * x * x for x in [10000000000000000])',          # 10**96
             'list(x * x * x * x * x * x for x in [100000000000000000])']         # 10**102: refused
    for text in texts:
        tree = parse_expression(text)
        assert program.add(tree) is not None, text
        assert _outcome(compiled, tree) == _outcome(reference, parse_expression(text)), text
    assert _outcome(compiled, parse_expression(texts[-1]))[0] == "error"


def test_lairs_size_tests_compare_with_one_digit_bounds():
    rules = load_ruleset("rulesets/lairs")
    Game.new(rules, players=4, seed=1)
    source = codegen.program_of(rules).source
    assert "9223372036854775808" not in source            # the size test's bounds are one digit
    assert "if not -1073741823 <= " in source
