"""Which generated functions keep the call depth (``codegen._Generator.bounded``): those that
may call themselves, directly, through others or through content chosen at run time keep it
and are stopped at ``MAX_CALL_DEPTH``; the others (pure, on no cycle, a few calls deep) keep
none, and still charge a step for each nested call."""
from __future__ import annotations

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.engine import budget, codegen
from interpreter.engine.game import Game
from interpreter.model.values import RuleError

from test_hostile_content import add_functions

WORK = "count(y for y in range(1, 2))"     # a generator: no body with it is written inline

FUNCTIONS = {
    "leaf": (["x"], f"x + {WORK}"),
    "mid": (["x"], f"leaf(x) + {WORK}"),
    "top": (["x"], f"mid(x) + leaf(x) + {WORK}"),
    "itself": (["x"], f"if x > 0 then itself(x - 1) + {WORK} else 0"),
    "ping": (["x"], f"if x > 0 then pong(x - 1) + {WORK} else 0"),
    "pong": (["x"], f"ping(x) + {WORK}"),
    "above": (["x"], f"itself(x) + {WORK}"),           # on no cycle, but calls one
    "dice": (["x"], f"roll(6) + x + {WORK}"),           # impure: may run content
    "reads": (["x"], f"dice(x) + {WORK}"),
}
FUNCTIONS.update({f"c{k}": (["x"], f"c{k + 1}(x) + {WORK}") for k in range(12)})
FUNCTIONS["c12"] = (["x"], WORK)                       # c12 calls none: 1 deep, c0 13 deep


@pytest.fixture
def rules(toy):
    add_functions(toy, FUNCTIONS)
    return load_ruleset(str(toy))


def _body(program, name: str) -> str:
    """The generated source of ruleset function ``name``."""
    fname = program.generator.fnames[name]
    text = ("\n" + program.source).split(f"\ndef {fname}(", 1)[1]
    return text.split("\ndef ", 1)[0]


def test_the_call_graph_decides_which_functions_keep_their_depth(rules):
    program = codegen.program_of(rules)
    gen = program.generator
    bounded = {name for name in FUNCTIONS if gen.bounded(name)}
    deep = codegen._BOUNDED_HEIGHT
    assert bounded == {"leaf", "mid", "top"} | {f"c{k}" for k in range(13 - deep, 13)}
    for name in FUNCTIONS:
        kept = "game.depth = depth + 1" in _body(program, name)
        assert kept == (name not in bounded), name
    assert ", True)" in _body(program, "top") and ", True)" not in _body(program, "above")


def _expr_line(rules, name: str) -> int:
    """The line of ruleset function ``name``'s expression in the flow file."""
    lines = (rules.folder / "flow.yaml").read_text(encoding="utf-8").splitlines()
    return lines.index(f"  {name}:") + 3


@pytest.mark.parametrize("start, body", [("itself(1000)", "itself"), ("ping(1000)", "ping"), ("pong(1000)", "pong")])
def test_recursion_through_pure_functions_is_stopped_at_the_function(rules, monkeypatch, start, body):
    # ``itself`` and ``ping``/``pong`` are pure: only the cycle keeps their depth. Without it the
    # recursion runs on until Python's stack gives out (then the error is the statement's).
    monkeypatch.setattr(budget, "MAX_CALL_DEPTH", 30)
    game = Game.new(rules, players=2, seed=1)
    with pytest.raises(RuleError, match="more than 30 deep") as caught:
        game.execute(f"step = {start}")
    assert f"flow.yaml:{_expr_line(rules, body)}:11: " in str(caught.value)


def test_without_the_graph_the_recursion_would_overflow(toy, monkeypatch):
    """The test above fails when every function is taken as bounded: it sees the analysis."""
    add_functions(toy, FUNCTIONS)
    monkeypatch.setattr(codegen._Generator, "bounded", lambda self, name: True)
    monkeypatch.setattr(budget, "MAX_CALL_DEPTH", 30)
    game = Game.new(load_ruleset(str(toy)), players=2, seed=1)
    with pytest.raises(RuleError, match="more than 30 deep") as caught:
        game.execute("step = itself(1000)")       # Python's stack, not the depth, ran out
    assert "flow.yaml" not in str(caught.value) and caught.value.position == (1, 1)


def test_a_long_chain_is_stopped_where_the_closures_stop_it(rules, monkeypatch):
    monkeypatch.setattr(budget, "MAX_CALL_DEPTH", 3)      # c0..c4 keep their depth, c5.. none
    game = Game.new(rules, players=2, seed=1)
    with pytest.raises(RuleError, match="more than 3 deep") as generated:
        game.execute("step = c0(1)")
    monkeypatch.setattr(codegen, "ENABLED", False)
    reference = Game.new(load_ruleset(str(rules.folder)), players=2, seed=1)
    with pytest.raises(RuleError, match="more than 3 deep") as closures:
        reference.execute("step = c0(1)")
    assert str(generated.value) == str(closures.value)


@pytest.mark.parametrize("text", ["top(2)", "c0(1)", "c6(1)", "above(3)", "reads(1)"])
def test_bounded_calls_charge_the_steps_the_closures_charge(rules, monkeypatch, text):
    def spent(game) -> int:
        game.evaluate("0")                               # the budget reset, then measured
        game.running = True
        try:
            before = game.steps
            game.evaluate(text)
            return before - game.steps
        finally:
            game.running = False
    generated = spent(Game.new(rules, players=2, seed=1))
    monkeypatch.setattr(codegen, "ENABLED", False)
    reference = spent(Game.new(load_ruleset(str(rules.folder)), players=2, seed=1))
    assert generated == reference > 0


def test_a_bounded_function_asked_too_deep_is_stopped(rules):
    game = Game.new(rules, players=2, seed=1)
    game.memo.clear()
    game.steps, game.depth = 1000, budget.MAX_CALL_DEPTH     # as content nested that deep asks
    with pytest.raises(RuleError, match="more than 100 deep"):
        codegen.program_of(rules).functions["leaf"](codegen.program_of(rules).namespace["CTX"](game, {}), [1])
