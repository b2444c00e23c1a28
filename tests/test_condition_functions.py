"""A record's condition field read in generated code calls its own generated function
(``codegen.condition_root``: ``D(ctx, this)``, the reader's ``self``), not a Ctx and an env
built per read; its value is the closures' in every state a game passes through. A root that
reads only pure conditions keeps its cells (``pure_condition``)."""
from __future__ import annotations

import random

from interpreter.content.ruleset import load_ruleset
from interpreter.engine import codegen
from interpreter.engine.compile import COMPILE
from interpreter.engine.evaluate import Ctx
from interpreter.model.values import PLAYERS, RuleError


def _closures(tree, game, seat, rid):
    """The condition as the closures work it out (compiled afresh: not the generated root)."""
    try:
        return COMPILE[tree.__class__](tree)(Ctx(game, {"self": PLAYERS[seat], "this": rid}))
    except RuleError as exc:
        return f"error: {exc}"


def _generated(fn, game, seat, rid):
    try:
        return fn(Ctx(game, {"self": PLAYERS[seat], "k": 1}), rid)     # (a thread local it must not see)
    except RuleError as exc:
        return f"error: {exc}"


def test_each_condition_field_read_is_a_generated_function():
    program = codegen.program_of(load_ruleset("lairs"))
    tables = program.generator.condition_call_tables
    assert set(tables) >= {"condition"}
    for calls in tables.values():
        assert calls and all(getattr(fn, "__name__", "").startswith("D") for fn in calls.values())
    assert "CONDITION(" not in program.source


def test_the_generated_conditions_give_what_the_closures_give_through_a_game():
    from interpreter.engine.game import Game
    rules = load_ruleset("lairs")
    calls = codegen.program_of(rules).generator.condition_call_tables["condition"]
    conditions = codegen.program_of(rules).generator.conditions("condition")
    checked = 0
    for seed in (1, 2):
        game, rnd = Game.new(rules, players=4, seed=seed), random.Random(seed)
        for n in range(400):
            if game.over:
                break
            if n % 25 == 0:
                for rid, fn in calls.items():
                    for seat in range(4):
                        assert _generated(fn, game, seat, rid) == _closures(conditions[rid], game, seat, rid)
                        checked += 1
            d = game.pending()[0]
            game.apply(d.player, rnd.randrange(len(d.options)))
    assert checked > 100


def test_a_filter_reading_pure_conditions_keeps_its_cells():
    from interpreter.dsl import ast
    program = codegen.program_of(load_ruleset("lairs"))
    gen = program.generator
    reads = [(name, node) for nid, name in gen.filter_names.items()
             for node in [program.filters[nid][0]]
             if any(n.__class__ is ast.Attribute and n.name == "condition" for n in codegen._walk(node.cond))]
    assert reads
    for name, node in reads:                         # m.condition: pure; self.missions_done a cell
        assert all(gen.pure_node(n) or gen.pure_condition(n) for n in codegen._walk(node.cond))
        source = ("\n" + program.source).split(f"\ndef {name}(", 1)[1].split("\ndef ", 1)[0]
        assert " = NK\n" in source


def test_a_condition_testing_this_again_and_again_keeps_its_flags():
    # ``this`` tested three times: its type test is a flag, set where the function starts (as a
    # ruleset function's parameters' are), and the value is the closures'.
    from interpreter.dsl.parser import parse_expression
    from interpreter.engine.game import Game
    rules = load_ruleset("lairs")
    program = codegen.program_of(rules)
    gen = program.generator
    tree = parse_expression('this.kind == "wall" or this.family == "trap" or this.name == "Pit" '
                            'or count(this.tags) > 1')
    gen.lines = []
    name = gen.fresh("D")
    gen.twice(gen.condition_root, name, tree)
    source = "\n".join(gen.lines) + "\n"
    assert "= type(v" in source                         # (a flag of a parameter)
    exec(compile(source, "<test>", "exec"), program.namespace)
    game = Game.new(rules, players=4, seed=3)
    for rid in list(rules.entities)[:40] + [None, 3]:
        for seat in range(2):
            assert _generated(program.namespace[name], game, seat, rid) == _closures(tree, game, seat, rid)


def test_a_group_index_tested_again_is_a_flag_and_reads_as_the_closures_read(monkeypatch):
    # ``top(pile[i])`` three times in can_take (card(i), back(i) in two arms): the index's test
    # (a number from 1 to the group's size) is one flag; any other index is the closures' error.
    from interpreter.engine.game import Game
    rules = load_ruleset("lairs")
    source = ("\n" + codegen.program_of(rules).source).split(
        f"\ndef {codegen.program_of(rules).generator.fnames['can_take']}(", 1)[1].split("\ndef ", 1)[0]
    assert source.count("upto3 = type(") == 1 and source.count("upto3:") >= 3

    def values(generated: bool) -> list:
        with monkeypatch.context() as m:
            m.setattr(codegen, "ENABLED", generated)
            game = Game.new(load_ruleset("lairs"), players=4, seed=5)
        found = []
        for i in (0, 1, 2, 3, 4, -1, True, "1", None):
            try:
                found.append(game.evaluate(f"can_take({i!r}, 3)".replace("'", '"').replace("None", "none")
                                           .replace("True", "true"), player=0))
            except RuleError as exc:
                found.append(f"error: {exc}")
        return found
    assert values(True) == values(False)
