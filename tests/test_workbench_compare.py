"""`rulebook compare A B`: a deliberate change in a fixture is found, identical rulesets are not flagged."""
from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.workbench.compare import paired

from support import RULESETS, edit


def compare(*args):
    result = CliRunner().invoke(cli, ["compare", *map(str, args), "-j", "1", "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture
def copies(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(RULESETS / "toy", a)
    shutil.copytree(RULESETS / "toy", b)
    return a, b


def test_a_deliberate_change_is_detected(copies):
    a, b = copies
    edit(b / "data" / "cards.yaml", "{id: c6, value: 6}", "{id: c6, value: 60}")
    result = compare(a, b, "-n", "40")
    scores = [f for f in result["figures"] if f["figure"].endswith("score")]
    assert any(f["changed"] and f["change"] > 0 for f in scores), scores
    assert "decisions per game" not in result["changed"]     # the edit changes no length


def test_identical_rulesets_are_not_flagged(copies):
    a, b = copies
    result = compare(a, b, "-n", "20", "--seats", "first,random")
    assert result["changed"] == []
    assert all(f["change"] == 0 for f in result["figures"])


def test_the_same_ruleset_with_two_option_sets():
    result = compare(RULESETS / "toy", RULESETS / "toy", "-n", "4", "--b-option", "rounds=2")
    assert result["changed"] == []            # the toy reads no option: nothing moves


def test_paired_interval_by_hand():
    out = paired([1, 2, 3, 4], [2, 4, 4, 6])              # differences 1, 2, 1, 2
    half = 1.959963984540054 * (3 ** -0.5 / 1) * 0.5 / 1   # sd = sqrt(1/3), n = 4
    assert out["change"] == 1.5 and out["changed"] is True
    assert out["interval"] == [round(1.5 - half, 4), round(1.5 + half, 4)]
    assert paired([1, 2], [1, 2])["changed"] is False
