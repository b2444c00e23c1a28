"""A seat's sources are kept while the state stands still, and read again once it changes
(fixture tests/rulesets/hooks: the Crown is active only with 10 gold)."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.engine import budget
from interpreter.engine.game import Game
from interpreter.model.values import RuleError

HOOKS = str(Path(__file__).parent / "rulesets" / "hooks")


def test_sources_are_read_again_after_each_statement_that_changes_the_state():
    game = Game.new(load_ruleset(HOOKS), players=2, seed=1)
    game.execute('heard = [modifier(players[2], "bonus")]\n'
                 "set players[2].gold to 10\n"
                 'heard = heard + [modifier(players[2], "bonus")]\n'
                 "set players[2].gold to 0\n"
                 'heard = heard + [modifier(players[2], "bonus"), modifier(players[2], "bonus")]')
    assert game.evaluate("heard") == [0, 101, 0, 0]


def test_one_state_finds_its_sources_once():
    game = Game.new(load_ruleset(HOOKS), players=2, seed=1)
    game.memo.clear()
    game.evaluate('[modifier(players[1], "bonus"), modifier(players[1], "bonus")]')
    assert [key for key in game.memo if key[0] == "$sources"] == [("$sources", 0)]


def test_finding_sources_is_charged_to_the_running_step_budget(monkeypatch):
    """The sources function runs as any ruleset function called inside a statement: a loop
    reading a modifier at every turn stops within the budget (it once got a fresh budget at
    each reading, so such a loop never stopped)."""
    monkeypatch.setattr(budget, "MAX_STEPS", 300)
    game = Game.new(load_ruleset(HOOKS), players=2, seed=1)
    with pytest.raises(RuleError, match="no decision after"):
        game.execute('for each k in range(1, 1000):\n  x = modifier(players[2], "bonus")\n')


# ---------------------------------------------------------------- kept across statements

def _counted(game) -> list:
    """The seats the sources function is worked out for, from now on."""
    calls = []
    name = game.rules.sources
    inner = game.functions[name]

    def counting(ctx, args):
        calls.append(args[0].seat)
        return inner(ctx, args)
    game.functions[name] = counting
    return calls


def test_sources_are_kept_across_statements_while_what_they_read_stands_still():
    """The memo goes with each statement, but a seat's list is kept with the values the
    sources function read (here every seat's ``kept`` zone): a statement that changes
    something else finds it again without working it out."""
    game = Game.new(load_ruleset(HOOKS), players=2, seed=1)
    calls = _counted(game)
    game.execute("move crown from players[2].kept to vault\n"
                 'heard = [modifier(players[2], "bonus")]\n'
                 "set players[2].points to 7\n"
                 'heard = heard + [modifier(players[2], "bonus")]')
    assert calls == [1]
    assert game.evaluate("heard") == [0, 0]               # the bell: its owner has no gold
    game.execute("move crown from vault to players[2].kept\n"
                 "set players[2].gold to 10\n"
                 'heard = heard + [modifier(players[2], "bonus")]')
    assert game.evaluate("heard")[-1] == 101 and calls == [1, 1]


def test_a_kept_list_costs_what_working_it_out_costs(monkeypatch):
    """Taken again, a kept list charges the steps working it out charged, and only where
    working it out would have stayed within the budget: the game plays the same either way
    (a saved game, which keeps nothing, resumes as the original went on)."""
    from interpreter.mechanics import programs
    game = Game.new(load_ruleset(HOOKS), players=2, seed=1)
    game.execute("move bell from players[2].kept to players[1].kept")   # nothing kept for it
    calls = _counted(game)
    game.memo.clear()
    game.steps, game.depth = 1000, 0
    first = programs._in_play(game, 0)
    cost = 1000 - game.steps
    assert cost > 0 and calls == [0]                    # the generator's three records
    game.memo.clear()
    game.steps = 1000
    assert programs._in_play(game, 0) == first and 1000 - game.steps == cost and calls == [0]
    game.memo.clear()
    game.steps, game.depth = 1000, 1                     # deeper than it was worked out: again,
    assert programs._in_play(game, 0) == first and 1000 - game.steps == cost + 1 and calls == [0, 0]
    for depth in (1, 0):                                 # then kept at that depth or less
        game.memo.clear()
        game.steps, game.depth = 1000, depth             # (nested: the call's own step too)
        assert programs._in_play(game, 0) == first and 1000 - game.steps == cost + depth
    for steps, depth in ((cost - 1, 0), (1000, budget.MAX_CALL_DEPTH)):
        game.memo.clear()
        game.steps, game.depth = steps, depth
        with pytest.raises(RuleError):                  # as working it out does
            programs._in_play(game, 0)
    assert calls == [0, 0, 0, 0]


def test_what_a_function_reads_of_the_table():
    """``table_reads``: each seat's parts and the table's, through every function it calls;
    None where a built-in may read anything (``get``, ``modifier``) or changes something."""
    from interpreter.dsl.parser import parse_expression
    from interpreter.mechanics import programs
    rules = load_ruleset(HOOKS)
    mine, table, keys = programs.table_reads(rules, "in_play")
    sheet = {"zones": {"kept": ["horn"], "vault": []}, "vars": {"seen": 1}}
    assert [get(part(sheet)) for part, get in mine] == [["horn"]]
    assert table == keys == ()

    def reads(expr: str):
        rules = load_ruleset(HOOKS)
        rules.functions = dict(rules.functions, in_play=(["p"], parse_expression(expr)),
                               helper=(["p"], parse_expression("p.seen")))
        return programs.table_reads(rules, "in_play")

    sheet = {"zones": {"kept": ["horn"]}, "vars": {"seen": 1}}
    mine, table, keys = reads("if helper(p) == none and count(vault) > 0 then list(r for r in p.kept) else []")
    assert [get(part(sheet)) for part, get in mine] == [1, ["horn"]]
    state = {"zones": {"vault": ["bell"], "deck": []}, "result": None}
    assert [get(part(state)) for part, get in table] == [["bell"]] and keys == ("zones",)
    mine, table, keys = reads("if game_over then [] else list(r for r in p.kept)")
    assert [get(part(state)) for part, get in table] == [None] and keys == ("result",)
    for expr in ('get(p, "gold", 0)', 'modifier(p, "bonus")', "roll(6)", "helper(p) + headroom(p, \"gold\")"):
        assert reads(f"if {expr} == 0 then [] else list(r for r in p.kept)") is None


def test_sources_that_read_a_part_holding_a_player_are_worked_out_each_time(tmp_path):
    """A part whose value cannot be written as plain bytes (a player, a zone) keeps nothing:
    its value alone might not say what it refers to."""
    import shutil
    folder = tmp_path / "hooks"
    shutil.copytree(HOOKS, folder)
    flow = folder / "flow.yaml"
    flow.write_text(flow.read_text().replace(
        "expr: list(r for r in p.kept)", "expr: if p.seen == none then [] else list(r for r in p.kept)"))
    game = Game.new(load_ruleset(str(folder)), players=2, seed=1)
    calls = _counted(game)
    game.execute("set players[2].seen to players[1]\n"
                 "set players[2].gold to 1\n"
                 'heard = [modifier(players[2], "bonus")]\n'
                 'heard = heard + [modifier(players[2], "bonus")]')
    assert calls == [1, 1] and game.evaluate("heard") == [1, 1]


def test_each_seat_keeps_its_list_while_its_own_parts_stand_still():
    """When the sources function reads only the seat it is asked for (``seat_wise``), each seat's
    list is kept with its own parts and the table's: one seat's change reworks its list alone."""
    game = Game.new(load_ruleset(HOOKS), players=2, seed=1)
    calls = _counted(game)
    second = 'heard = [modifier(players[2], "bonus")]\n'     # (the first seat's records add none)
    game.execute(second + "move drum from players[1].kept to vault\n" + second
                 + "move crown from players[2].kept to vault\n" + second)
    assert calls == [1]                                   # (kept from the start: the move of
                                                          # the first seat's drum reworks nothing)


def test_which_functions_read_their_own_seat_alone():
    """``seat_wise``: player components read through ``self``, its own names or the parameter
    passed on, never through another seat, a generator's name hiding it, or a built-in's section."""
    from interpreter.dsl.parser import parse_expression
    from interpreter.mechanics import programs

    def own(expr: str, helper: str = "p.seen") -> bool:
        rules = load_ruleset(HOOKS)
        rules.functions = dict(rules.functions, in_play=(["p"], parse_expression(expr)),
                               helper=(["p"], parse_expression(helper)))
        return programs.seat_wise(rules, "in_play")

    assert own("list(r for r in p.kept)") and own("list(r for r in kept)")
    assert own("if helper(p) == none then [] else list(r for r in self.kept)")
    assert own("if helper(p) == none then [] else []", helper="list(r for r in p.kept)")
    for expr in ("list(r for r in players[1].kept)", "if helper(players[2]) == 1 then [] else []",
                 "list(p for p in players if count(p.kept) > 0)", 'if get(p, "gold", 0) == 0 then [] else []'):
        assert not own(expr), expr
    assert not own("if helper(p) == none then [] else []", helper="list(r for r in players[1].kept)")
