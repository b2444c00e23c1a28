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
from interpreter.model.values import RuleError

from interpreter.diagnostics import ContentError

from support import edit, position

TOY = Path(__file__).resolve().parent / "rulesets" / "toy"


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
    plain = len(codegen.program_of(load_ruleset(str(TOY))).source)
    grown = {}
    for depth in (15, 30):
        folder = toy.parent / f"chain{depth}"
        shutil.copytree(toy, folder)
        functions = {"f0": (["x"], "x + 1")}
        functions.update({f"f{k}": (["x"], f"f{k - 1}(x) + f{k - 1}(x) + f{k - 1}(x)")
                          for k in range(1, depth + 1)})
        add_functions(folder, functions, start=f"step = f{depth}(1)")
        rules = load_ruleset(str(folder))
        grown[depth] = len(codegen.program_of(rules).source) - plain
        game = Game.new(rules, players=2, seed=1)
        assert game.state["vars"]["step"] == 2 * 3 ** depth
    # Linear in the functions written: the 15 more cost what 15 plain calls cost
    # (the first few levels are inlined, a fixed part of either program).
    assert grown[30] - grown[15] < 15 * 3_000, grown


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


# ---------------------------------------------------------------- values that share their parts

PARTS = Path(__file__).resolve().parent / "rulesets" / "runaway_parts"


@pytest.fixture
def small(monkeypatch):
    from interpreter.model import limits
    monkeypatch.setattr(limits, "MAX_NODES", 10_000)
    monkeypatch.setattr(limits, "MAX_CHARS_HELD", 100_000)


@pytest.mark.parametrize("text, says, position", [
    # Each turn doubles the value while its memory stays small (both halves are one list):
    # copying it into the table's snapshot, saving or showing it took 2**turns (24: a minute).
    ("xs = []\nx = 0\nwhile x < 60:\n  xs = [xs, xs]\n  x += 1\n", "more than 10,000 items", (4, 3)),
    ("d = {}\nwhile true:\n  d = {left: d, right: d}\n", "more than 10,000 items", (3, 3)),
    ("xs = [[1, 2]]\nwhile true:\n  xs = xs + xs\n", "more than 10,000 items", (3, 3)),
    ("xs = []\nwhile true:\n  xs = [xs]\n", "nested more than 100 deep", (3, 3)),
    ('s = "abcdefghij"\nn = 0\nwhile n < 12:\n  s = s + s\n  n += 1\nxs = []\nwhile true:\n  xs += [s]\n',
     "100,000 characters", (8, 3)),
])
def test_a_value_that_holds_itself_again_and_again_is_stopped_where_it_is_kept(small, text, says, position):
    game = Game.new(load_ruleset(str(PARTS)), players=2, seed=1)
    with pytest.raises(RuleError, match=says) as caught:
        game.execute(text)
    assert caught.value.position == position
    assert len(game.to_json()) < 100_000                # nothing of it was kept


def test_a_procedures_values_are_checked_as_they_are_kept(small, toy):
    edit(toy / "flow.yaml", "procedures:\n", "procedures:\n  hold:\n    params: [v]\n    do: |\n      pass\n")
    game = Game.new(load_ruleset(str(toy)), players=2, seed=1)
    with pytest.raises(RuleError, match="more than 10,000 items"):
        game.execute("xs = range(1, 9000)\ndo hold([xs, xs])\n")


def test_a_shared_value_built_in_one_expression_cannot_be_shown(toy):
    # Thirty nested calls build 2**30 items from 31 small lists; text() would have written them all.
    add_functions(toy, {"pair": (["x"], "'[x, x]'")})
    game = Game.new(load_ruleset(str(toy)), players=2, seed=1)
    nested = "pair(" * 30 + "1" + ")" * 30
    game.execute(f"step = count({nested})")
    assert game.state["vars"]["step"] == 2
    with pytest.raises(RuleError, match="more than 1,000,000 items"):
        game.execute(f"x = text({nested})")


def test_values_within_the_limits_are_kept(small):
    game = Game.new(load_ruleset(str(PARTS)), players=2, seed=1)
    game.execute("xs = range(1, 90)\nys = [xs, xs, xs, xs, xs, xs, xs, xs, xs, xs]\n"
                 "zs = [ys, ys, ys, ys, ys, ys, ys, ys, ys, ys]\nstep = count(zs)\n")
    assert game.state["vars"]["step"] == 10


# ---------------------------------------------------------------- many problems in one load

def unknown_names(toy: Path, n: int) -> None:
    edit(toy / "flow.yaml", "start: |\n", "start: |\n" + "".join(f"  step = zq{i} + 1\n" for i in range(n)))


def test_a_text_with_many_problems_is_aligned_with_its_file_once(toy, monkeypatch):
    # Each problem's place was found by re-aligning its whole text with the file: 800
    # problems in one block took 50 s.
    from interpreter.content import yaml_source
    calls, align = [], yaml_source._align
    monkeypatch.setattr(yaml_source, "_align", lambda *a: calls.append(1) or align(*a))
    unknown_names(toy, 200)
    with pytest.raises(ContentError) as caught:
        load_ruleset(str(toy))
    places = [(d.line, d.col) for d in caught.value.diagnostics if d.code == "dsl-unknown-name"]
    assert len(places) == 200 and places[0] == (position(toy / "flow.yaml", "zq0")[0], 10)
    assert len(calls) <= 2


def test_did_you_mean_hints_are_bounded_per_load(toy, monkeypatch):
    # Each hint compares its word with every name: thousands of unknown names among
    # thousands of counters took minutes; the hints stop after MAX_HINT_WORK comparisons.
    from interpreter.dsl import check as checking
    monkeypatch.setattr(checking, "MAX_HINT_WORK", 2_000)
    compared = []
    close = checking.difflib.get_close_matches
    monkeypatch.setattr(checking.difflib, "get_close_matches",
                        lambda word, names, **k: compared.append(len(names)) or close(word, names, **k))
    unknown_names(toy, 300)
    edit(toy / "flow.yaml", "  step = zq0 + 1\n", "  step = sped + 1\n")      # a near miss first
    with pytest.raises(ContentError) as caught:
        load_ruleset(str(toy))
    assert 0 < sum(compared) <= 2_000 and len(compared) < 300
    assert "did you mean" in str(caught.value.diagnostics[0].hint)         # the first ones still have one


def test_generators_nested_deeper_than_python_compiles_are_left_to_the_closures(toy):
    # Each generator is a Python loop in the generated program; Python refuses more than 20
    # blocks inside one another, and the whole program failed to compile at Game.new.
    depth = 30
    nested = "sum(" * depth + "y" + "".join(f" for x{i} in [1])" for i in range(depth))
    add_functions(toy, {"deep": (["y"], nested)}, start=f"step = deep(3)")
    game = Game.new(load_ruleset(str(toy)), players=2, seed=1)
    assert game.state["vars"]["step"] == 3


# ---------------------------------------------------------------- sizes in the declarations

@pytest.mark.parametrize("file, old, new, maximum", [
    # A billion piles were all built at Game.new (ten million: 23 s and 60 MB of state).
    ("components.yaml", "row: {count: 2", "row: {count: 1000000000", 1000),
    # validate plays a smoke game at every player count: a billion never ended.
    ("game.yaml", "max: 3, default: 2", "max: 1000000000, default: 2", 100),
])
def test_sizes_that_the_engine_builds_are_bounded_by_the_schemas(toy, file, old, new, maximum):
    edit(toy / file, old, new)
    with pytest.raises(ContentError) as caught:
        load_ruleset(str(toy))
    diag, = caught.value.diagnostics
    assert f"greater than the maximum of {maximum}" in diag.message
    assert (diag.line, diag.col) == position(toy / file, "1000000000")


# ---------------------------------------------------------------- work done inside one step

@pytest.mark.parametrize("body, cost", [
    # One statement walked 50,000 items a turn for a step or two (text() 20 ms a turn), so
    # hours passed before the step budget stopped the loop. ``cost``: the steps a turn pays
    # at least now (a thousand items a step, as a kept list is weighed; text: one an item).
    ("y = text(xs)", 50_000),
    ("ys = xs + []", 100),                  # the sum, and ys kept
    ("n = count(list(xs))", 50),
    ("ys = sort(xs)", 150),                 # given, given back, kept
    ("ys = unique(xs)", 150),
    ("b = 0 in xs", 50),
    ("b = xs == ys", 100),
])
@pytest.mark.parametrize("generated", [True, False])
def test_a_loop_walking_a_long_list_in_one_statement_pays_for_the_walk(toy, monkeypatch, body, cost,
                                                                        generated):
    from interpreter.engine import budget
    from interpreter.mechanics import FUNCTIONS
    monkeypatch.setattr(codegen, "ENABLED", generated)
    monkeypatch.setattr(budget, "MAX_STEPS", 30_000)
    turns = []                                    # keys() is called once a turn: the turns counted
    keys = FUNCTIONS["keys"].fn
    monkeypatch.setattr(FUNCTIONS["keys"], "fn", lambda ctx, args: turns.append(1) or keys(ctx, args))
    edit(toy / "flow.yaml", "start: |\n", "start: |\n  xs = range(1, 50000)\n  ys = range(1, 50000)\n"
         f"  while true:\n    {body}\n    k = keys({{}})\n")
    with pytest.raises(RuleError, match="no decision after 30,000 steps") as caught:
        Game.new(load_ruleset(str(toy)), players=2, seed=1)
    line, col = position(toy / "flow.yaml", body)
    assert f"flow.yaml:{line}:{col}:" in str(caught.value)        # the statement that walked
    assert len(turns) <= 30_000 // cost + 1, len(turns)         # uncharged: 560 turns or more
