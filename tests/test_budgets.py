"""Run-time budgets (interpreter/engine/budget.py and interpreter/model/limits.py): content can never hang or exhaust the machine.

Each fixture ruleset under tests/rulesets/runaway_* breaks one budget; every
entry point (Game.new/apply/execute, `rulebook play`, `check`, `validate`)
must end with a rule error at the place that ran out and exit 1. Most tests
lower the limits so they run fast; a few run `rulebook` in a subprocess at
the real limits (the timeout is a safety net, not an assertion on time).
"""
from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.content.ruleset import load_ruleset
from interpreter.engine import budget
from interpreter.model import limits
from interpreter.engine.game import Game
from interpreter.model.values import RuleError

ROOT = Path(__file__).resolve().parents[1]
RULESETS = Path(__file__).resolve().parent / "rulesets"
PARTS = RULESETS / "runaway_parts"

# fixture, what the error says, where it happens (in the fixture's flow.yaml)
RUNAWAYS = [
    ("runaway_loop", "no decision after", "5:3"),            # while true:
    ("runaway_do", "does a procedure call itself forever", "10:7"),        # do again()
    ("runaway_function", "does a function call itself forever", "8:11"),   # deeper(n + 1)
    ("runaway_list", "a list of more than", "5:5"),          # xs += xs
    ("runaway_number", "a number of more than", "5:5"),      # n = n * n
    ("runaway_string", "a string of more than", "5:5"),      # s = s + s
]

# statements run directly: what the error says, (line, col) in the text
EXECUTED = [
    ("x = 1\nwhile true:\n  x += 1\n", "no decision after", (2, 1)),
    ("xs = [1]\nwhile true:\n  xs += xs\n", "a list of more than", (3, 3)),
    ("n = 2\nwhile true:\n  n = n * n\n", "a number of more than", (3, 3)),
    ('s = "ab"\nwhile true:\n  s = s + s\n', "a string of more than", (3, 3)),
]


@pytest.fixture
def low(monkeypatch):
    """Limits low enough that each runaway stops in a moment."""
    for name, value in (("MAX_STEPS", 20_000), ("MAX_FRAMES", 100), ("MAX_CALL_DEPTH", 30)):
        monkeypatch.setattr(budget, name, value)
    for name, value in (("MAX_ITEMS", 1_000), ("MAX_CHARS", 10_000), ("MAX_DIGITS", 20)):
        monkeypatch.setattr(limits, name, value)


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def first_error(rules) -> RuleError:
    """Play random choices until the rules fail; the error."""
    rnd = random.Random(1)
    with pytest.raises(RuleError) as caught:
        game = Game.new(rules, players=2, seed=1)
        for _ in range(100):
            d = game.pending()[0]
            game.apply(d.player, rnd.randrange(len(d.options)))
    return caught.value


# ---------------------------------------------------------------- the API

@pytest.mark.parametrize("name, says, where", RUNAWAYS)
def test_game_stops_with_the_place_that_ran_out(low, name, says, where):
    exc = first_error(load_ruleset(str(RULESETS / name)))
    assert says in str(exc)
    assert f"{name}/flow.yaml:{where}: " in str(exc)


def test_a_loop_after_a_decision_stops_in_apply(low):
    game = Game.new(load_ruleset(str(RULESETS / "runaway_loop")), players=2, seed=1)
    with pytest.raises(RuleError, match="no decision after 20,000 steps"):
        game.apply(0, 0)


@pytest.mark.parametrize("text, says, position", EXECUTED)
def test_executed_statements_stop_at_their_position(low, text, says, position):
    game = Game.new(load_ruleset(str(PARTS)), players=2, seed=1)
    with pytest.raises(RuleError, match=says) as caught:
        game.execute(text)
    assert caught.value.position == position


@pytest.mark.parametrize("text, says, where", [
    ("do again()", "does a procedure call itself forever", "flow.yaml:11:7"),
    ("step = deeper(1)", "does a function call itself forever", "flow.yaml:16:11"),
])
def test_executed_calls_stop_inside_the_ruleset(low, text, says, where):
    game = Game.new(load_ruleset(str(PARTS)), players=2, seed=1)
    with pytest.raises(RuleError, match=says) as caught:
        game.execute(text)
    assert where in str(caught.value)


def test_real_limits_stop_deep_function_calls_without_a_recursion_error():
    """At the real depth limit, each call nests several Python frames (1 + 2 * (3 + ...))."""
    game = Game.new(load_ruleset(str(PARTS)), players=2, seed=1)
    with pytest.raises(RuleError, match="more than 100 deep"):
        game.execute("step = deeper(1)")


def test_python_running_out_of_stack_is_a_rule_error(monkeypatch):
    monkeypatch.setattr(budget, "MAX_CALL_DEPTH", 10 ** 6)     # only Python's own limit is left
    game = Game.new(load_ruleset(str(PARTS)), players=2, seed=1)
    with pytest.raises(RuleError, match="does a function call itself forever") as caught:
        game.execute("step = deeper(1)")
    assert caught.value.position == (1, 1)
    assert game.state["vars"]["step"] == 0


@pytest.mark.parametrize("text, says", [
    ("x = range(1, 1001)", "range(1, 1001) would have more than 1,000 items"),
    ("x = flatten([range(1, 600), range(1, 600)])", "a list of more than 1,000 items"),
    ("x = sum(sum(1 for y in range(1, 500)) for x in range(1, 500))", "no decision after"),
    ('s = "abcdefghij"\nwhile true:\n  s = text(s, s)\n', "a string of more than"),
    ("n = 99999999999 * 99999999999 + 1", "a number of more than 20 digits"),       # literals: 18 digits
    ("n = 0 - 99999999999 * 99999999999 - 1", "a number of more than 20 digits"),
])
def test_every_way_of_building_a_value_is_bounded(low, text, says):
    game = Game.new(load_ruleset(str(PARTS)), players=2, seed=1)
    with pytest.raises(RuleError, match=re.escape(says)):
        game.execute(text)


def test_values_up_to_the_limits_are_fine(low):
    game = Game.new(load_ruleset(str(PARTS)), players=2, seed=1)
    game.execute("xs = range(1, 1000)\nn = 9999999999 * 9999999999\nys = xs + []\nm = n - 1")
    assert game.state["flow"]["main"]["pending"] is not None      # the first decision still waits


def test_the_step_budget_is_per_decision_not_per_game(monkeypatch, lairs):
    """A whole game takes far more steps than one run between two decisions may."""
    monkeypatch.setattr(budget, "MAX_STEPS", 2_000)
    spent = []                                  # the steps each run took, counted at the next reset
    reset = budget.reset

    def counting(game):
        if hasattr(game, "steps"):                # (set by the reset before: a slot)
            spent.append(budget.MAX_STEPS - game.steps)
        reset(game)
    monkeypatch.setattr(budget, "reset", counting)
    rnd = random.Random(3)
    game = Game.new(lairs, players=12, seed=3)
    while not game.over:
        d = game.pending()[0]
        game.apply(d.player, rnd.randrange(len(d.options)))
    assert max(spent) <= 2_000 < sum(spent)


# ---------------------------------------------------------------- the command line

@pytest.mark.parametrize("name, says, where", RUNAWAYS)
def test_play_exits_1_with_the_place(low, name, says, where):
    result = run("play", RULESETS / name, "-q")
    assert result.exit_code == 1
    assert "error: the rules went wrong at run time:" in result.output
    assert f"flow.yaml:{where}: " in result.output and says in result.output
    assert "Traceback" not in result.output


def test_simulate_exits_1_with_the_place(low):
    result = run("simulate", RULESETS / "runaway_loop", "-n", "2")
    assert result.exit_code == 1
    assert "runaway_loop/flow.yaml:5:3: no decision after" in result.output


@pytest.mark.parametrize("name, says, where", RUNAWAYS)
def test_validate_plays_a_smoke_game(low, name, says, where):
    result = run("validate", RULESETS / name)
    assert result.exit_code == 1
    assert f"flow.yaml:{where}: error[smoke-game]: smoke game with 2, 3 players (seed 1): " in result.output
    assert says in result.output and "1 problem(s)" in result.output


@pytest.mark.parametrize("name", [name for name, _, _ in RUNAWAYS])
def test_validate_without_the_smoke_game_passes(name):
    result = run("validate", "--no-smoke", RULESETS / name)
    assert result.exit_code == 0, result.output


def test_a_sound_ruleset_passes_its_smoke_games():
    result = run("validate", PARTS, RULESETS / "toy", "lairs")
    assert result.exit_code == 0, result.output
    assert result.output.count("ok: ") == 3


def scenario(tmp_path, setup: str) -> Path:
    path = tmp_path / "endless.yaml"
    lines = "\n".join(f"    {line}" for line in setup.splitlines())
    path.write_text(f"game: {PARTS}\nplayers: 2\nsetup:\n  - step = 1\n  - |\n{lines}\n"
                    "expect:\n  - step == 1\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("text, says, line", [(text, says, 5 + line) for text, says, (line, _) in EXECUTED] + [
    ("do again()", "runaway_parts/flow.yaml:11:7: more than 100 blocks", 4),        # 4: the setup
    ("step = deeper(1)", "runaway_parts/flow.yaml:16:11: functions called inside one another "
                         "more than 30 deep", 4),
])
def test_check_reports_a_setup_that_runs_away(low, tmp_path, text, says, line):
    path = scenario(tmp_path, text)
    result = run("check", path)
    assert result.exit_code == 1
    assert f"{path}:{line}:" in result.output and says in result.output
    assert ": error: " in result.output.split(f"{path}:{line}:")[1].splitlines()[0]
    assert "0 passed, 1 failed" in result.output


# ---------------------------------------------------------------- at the real limits

def rulebook(*args):
    """`rulebook ARGS` in a fresh process; the timeout only keeps a hang from hanging the suite."""
    return subprocess.run([sys.executable, "-m", "interpreter", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("name, says, where", RUNAWAYS[1:])
def test_game_stops_at_the_real_limits(name, says, where):
    exc = first_error(load_ruleset(str(RULESETS / name)))
    assert says in str(exc) and f"{name}/flow.yaml:{where}: " in str(exc)


def test_play_at_the_real_limits():
    proc = rulebook("play", RULESETS / "runaway_loop", "-q")
    assert proc.returncode == 1
    assert "runaway_loop/flow.yaml:5:3: no decision after 1,000,000 steps" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_check_at_the_real_limits(tmp_path):
    proc = rulebook("check", scenario(tmp_path, "do again()"))
    assert proc.returncode == 1
    assert "flow.yaml:11:7: more than 1,000 blocks" in proc.stdout, proc.stdout + proc.stderr
