"""`rulebook coverage` finds what never runs: a deliberately dead branch in a fixture,
scenarios and simulations counted apart."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

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
