"""`rulebook coverage` finds what never runs: a deliberately dead branch in a fixture,
scenarios and simulations counted apart."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.workbench.coverage import rule_ids

from support import RULESETS, edit, position

DEAD = "  if step > 99:\n    step = 1      # TOY-DEAD-01: cited in the branch that never runs\n"


def dead_toy(tmp_path) -> Path:
    folder = tmp_path / "toy"
    shutil.copytree(RULESETS / "toy", folder)
    edit(folder / "flow.yaml", "    p.points = sum(c.value for c in p.hand)\n",
         "    p.points = sum(c.value for c in p.hand)   # TOY-SCORE-01\n" + DEAD)
    (folder / "scenarios").mkdir()
    (folder / "scenarios" / "start.yaml").write_text(
        "game: ./..\nplayers: 2\nseed: 3\nexpect:\n  - count(players[1].hand) == 2\n", encoding="utf-8")
    return folder


def test_coverage_finds_the_dead_branch_and_tells_scenarios_from_simulations(tmp_path):
    folder = dead_toy(tmp_path)
    result = CliRunner().invoke(cli, ["coverage", str(folder), "-n", "3", "--format", "json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    flow = [b for b in figures["branches"] if b["at"].split(":")[0].endswith("flow.yaml")]
    never = [b for b in flow if not b["scenarios"] and not b["simulations"]]
    dead_line = position(folder / "flow.yaml", "step = 1")[0]
    assert [int(b["at"].split(":")[1]) for b in never] == [dead_line]
    assert all(b["simulations"] for b in flow if b not in never)
    ran = figures["summary"]["branches"]
    assert ran["scenarios"][0] < ran["simulations"][0]   # a scenario stops at its first decision
    rules = {r["rule"]: r for r in figures["rules"]}
    assert rules["TOY-DEAD-01"]["simulations"] is False
    assert rules["TOY-SCORE-01"]["simulations"] is True and rules["TOY-SCORE-01"]["scenarios"] is False


def test_text_lists_what_never_ran_at_file_line(tmp_path):
    folder = dead_toy(tmp_path)
    result = CliRunner().invoke(cli, ["coverage", str(folder), "-n", "2"])
    assert result.exit_code == 0, result.output
    line = position(folder / "flow.yaml", "step = 1")[0]
    assert f"flow.yaml:{line}:" in result.stdout and "effect-text branches never executed" in result.stdout
    assert "rule ids cited in effect texts and records never executed" in result.stdout
    assert "TOY-DEAD-01 (never)" in result.stdout


def test_cited_ids_and_their_ranges():
    assert rule_ids("x # LR-BONUS-01..03, AMB-03/05") == {
        "LR-BONUS-01", "LR-BONUS-02", "LR-BONUS-03", "AMB-03", "AMB-05"}


def test_coverage_traces_the_arms_of_if_expressions_and_choose_filters(tmp_path):
    folder = dead_toy(tmp_path)
    edit(folder / "flow.yaml", "    p.points = sum(c.value for c in p.hand)   # TOY-SCORE-01\n",
         "    p.points = sum(c.value for c in p.hand) + (if count(p.hand) > 99 then 100 else 0)\n")
    edit(folder / "flow.yaml", "choose c in zone label", "choose c in zone if c.value > 0 label")
    result = CliRunner().invoke(cli, ["coverage", str(folder), "-n", "3", "--format", "json"])
    assert result.exit_code == 0, result.output
    arms = {(b["branch"], b["at"]): b["simulations"] for b in json.loads(result.stdout)["branches"]
            if b["branch"] != "block"}
    line, col = position(folder / "flow.yaml", "then 100", offset=5)
    assert arms[("then", f"{folder / 'flow.yaml'}:{line}:{col}")] is False
    assert arms[("else", f"{folder / 'flow.yaml'}:{line}:{col + 9}")] is True
    line, col = position(folder / "flow.yaml", "c.value > 0")
    assert arms[("choice kept", f"{folder / 'flow.yaml'}:{line}:{col}")] is True
    assert arms[("choice left out", f"{folder / 'flow.yaml'}:{line}:{col}")] is False
    dead_if = position(folder / "flow.yaml", "if step > 99")
    assert arms[("no arm of the if", f"{folder / 'flow.yaml'}:{dead_if[0]}:{dead_if[1]}")] is True


def test_the_trace_hook_costs_nothing_it_is_not_given():
    """Programs generated without TRACING hold no trace point; games have no tracer by default."""
    from interpreter.content.ruleset import load_ruleset
    from interpreter.engine import codegen
    from interpreter.engine.game import Game
    from interpreter.workbench.trace import expression_arms
    plain = codegen.program_of(load_ruleset(str(RULESETS / "toy")))
    with expression_arms():
        traced = codegen.program_of(load_ruleset(str(RULESETS / "toy")))
    assert "TRACE(" not in plain.source and Game.tracer is None
    assert codegen.TRACING is False and traced.source == plain.source    # toy has no if expression


@pytest.mark.parametrize("generated", [True, False])
def test_coverage_reports_a_never_evaluated_right_side_of_or(tmp_path, monkeypatch, generated):
    """``count(p.hand) >= 0 or ...``: the left is always true, so the right side never runs;
    the right side of the ``and`` beside it runs in every game (generated code and closures)."""
    from interpreter.engine import codegen
    monkeypatch.setattr(codegen, "ENABLED", generated)
    folder = dead_toy(tmp_path)
    edit(folder / "flow.yaml", "    p.points = sum(c.value for c in p.hand)   # TOY-SCORE-01\n",
         "    p.points = sum(c.value for c in p.hand)   # TOY-SCORE-01\n"
         "    p.sure = count(p.hand) >= 0 or double(count(p.hand)) > 99\n"
         "    p.both = count(p.hand) >= 0 and double(count(p.hand)) > 99\n")
    edit(folder / "components.yaml", "player_vars:\n", "player_vars:\n  sure: {default: false}\n"
         "  both: {default: false}\n")
    result = CliRunner().invoke(cli, ["coverage", str(folder), "-n", "2", "--format", "json"])
    assert result.exit_code == 0, result.output
    sides = {(b["branch"], b["at"]): b["simulations"] for b in json.loads(result.stdout)["branches"]
             if b["branch"].startswith("right side")}
    flow = folder / "flow.yaml"
    dead = position(flow, "double(count(p.hand)) > 99")
    live = position(flow, "double(count(p.hand)) > 99", nth=2)
    assert sides == {("right side of or", f"{flow}:{dead[0]}:{dead[1]}"): False,
                     ("right side of and", f"{flow}:{live[0]}:{live[1]}"): True}
    text = CliRunner().invoke(cli, ["coverage", str(folder), "-n", "2"]).stdout
    assert f"flow.yaml:{dead[0]}:{dead[1]}: start, right side of or (never)" in text


@pytest.mark.parametrize("game", ["goofspiel", "toy"])
def test_coverage_on_several_cores_equals_one(tmp_path, game):
    """`-j 2` plays the simulated games in two processes (workbench/parallel.py, as simulate
    does); each game's row brings back what it ran, so the report is the same bytes."""
    where = game if game == "goofspiel" else str(dead_toy(tmp_path))
    outputs = {}
    for jobs in ("1", "2"):
        result = CliRunner().invoke(cli, ["coverage", where, "-n", "5", "-j", jobs, "--format", "json"])
        assert result.exit_code == 0, result.output
        outputs[jobs] = result.stdout
    assert outputs["1"] == outputs["2"]
    figures = json.loads(outputs["1"])
    ran, total = figures["summary"]["branches"]["simulations"]
    assert 0 < ran <= total and (ran < total) == (game == "toy")      # the toy's dead branch
