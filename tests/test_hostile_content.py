"""Hostile rulesets at load time: content that makes a stage's work grow faster than the
content itself is bounded (non-negotiable 1). Each test measures work without a clock
(the generated source's size, visits, counts) or uses a size the old code could not
finish and asserts the outcome."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.engine import codegen
from interpreter.engine.game import Game

from support import edit

TOY = Path(__file__).resolve().parent / "rulesets" / "toy"


@pytest.fixture
def toy(tmp_path):
    target = tmp_path / "toy"
    shutil.copytree(TOY, target)
    return target


def add_functions(toy: Path, functions: dict, start: str = "") -> None:
    """Ruleset functions ``{name: (params, expr)}`` in the toy's flow; ``start`` runs first."""
    text = "".join(f"  {name}:\n    params: [{', '.join(params)}]\n    expr: {expr}\n"
                   for name, (params, expr) in functions.items())
    edit(toy / "flow.yaml", "functions:\n", "functions:\n" + text)
    if start:
        edit(toy / "flow.yaml", "start: |\n", f"start: |\n  {start}\n")


# ---------------------------------------------------------------- the code generator's inlining

def test_a_chain_of_small_functions_each_calling_the_next_three_times_is_not_inlined_whole(toy):
    # Each body is small enough to be written at its call sites; inlined all the way down the
    # chain, the last one wrote 3**depth copies of the first (8 deep: ten megabytes of source).
    depth = 30
    functions = {"f0": (["x"], "x + 1")}
    functions.update({f"f{k}": (["x"], f"f{k - 1}(x) + f{k - 1}(x) + f{k - 1}(x)")
                      for k in range(1, depth + 1)})
    add_functions(toy, functions, start=f"step = f{depth}(1)")
    rules = load_ruleset(str(toy))
    plain = codegen.program_of(load_ruleset(str(TOY))).source
    grown = len(codegen.program_of(rules).source) - len(plain)
    assert grown < depth * 3_000, grown                 # linear in the functions written
    game = Game.new(rules, players=2, seed=1)
    assert game.state["vars"]["step"] == 2 * 3 ** depth


def test_small_functions_calling_small_functions_are_still_inlined(toy):
    add_functions(toy, {"f0": (["x"], "x + 1"), "f1": (["x"], "f0(x) + f0(x) + f0(x)"),
                        "f2": (["x"], "f1(x) + f1(x)")})
    gen = codegen._Generator(load_ruleset(str(toy)))
    gen.fnames = dict.fromkeys(gen.rules.functions, "F")
    assert gen.is_inlinable("f2") and gen.written("f2") <= codegen._INLINE_WRITTEN


# ---------------------------------------------------------------- long chains of functions

def test_long_chains_and_rings_of_functions_load_and_run_within_pythons_stack(toy):
    # The checker inferred each callee's result inside its caller's (200 functions overflowed
    # Python's stack at load), and codegen's purity look-ups recursed likewise (600 at Game.new).
    # Declared callers first, so that nothing is worked out before it is needed.
    n = 600
    functions = {f"c{k}": (["x"], f"c{k + 1}(x) + 1") for k in range(n)}
    functions[f"c{n}"] = (["x"], "x")
    functions.update({f"r{k}": (["x"], f"if x > 0 then r{(k + 1) % n}(x - 1) else 7") for k in range(n)})
    add_functions(toy, functions, start=f"step = c{n - 40}(1) + r0(50)")
    rules = load_ruleset(str(toy))
    assert str(rules.vocabulary().results["c1"]) == "a number"
    game = Game.new(rules, players=2, seed=1)
    assert game.state["vars"]["step"] == 41 + 7
