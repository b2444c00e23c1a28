"""tools/profile_decisions.py counts what it says (the figures themselves are never asserted)."""
from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from support import tool

ROOT = Path(__file__).resolve().parents[1]
TOY = str(ROOT / "tests" / "rulesets" / "toy")


def _run(*args) -> str:
    result = CliRunner().invoke(tool("profile_decisions").main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_bytecodes_counts_every_decision_and_names_the_generated_code():
    out = _run("bytecodes", TOY, "--players", "2", "--games", "2", "--warm", "1")
    decisions, per = re.match(r"(\d+) decisions, ([\d,]+) bytecodes a decision", out).groups()
    assert int(decisions) > 0 and int(per.replace(",", "")) > 0
    assert "engine/game.py" in out and "<rulebook " in out      # the engine's and the content's


def test_the_same_games_count_the_same():
    args = ("bytecodes", TOY, "--players", "2", "--games", "1", "--warm", "1", "--top", "3")
    assert _run(*args) == _run(*args)


def test_lines_shows_the_generated_lines_that_ran():
    out = _run("lines", TOY, "--players", "2", "--games", "1", "--warm", "1", "--top", "5")
    assert re.match(r"\d+ decisions, [\d,]+ bytecodes a decision in generated code", out)
    rows = out.splitlines()[1:]
    assert 0 < len(rows) <= 5
    assert all(re.match(r"\s+[\d.]+\s+\d+\s+\S", row) for row in rows)     # count, line, its text


@pytest.mark.skipif(sys.version_info < (3, 11), reason="adaptive instructions are 3.11's")
def test_unspecialised_lists_places_and_names():
    out = _run("unspecialised", TOY, "--players", "2", "--games", "1", "--warm", "1")
    assert re.match(r"\d+ decisions; the hottest generic instructions", out)
    assert "generic attribute reads and writes by name" in out


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="needs valgrind")
def test_instructions_counts_the_games_alone():
    out = _run("instructions", TOY, "--players", "2", "--games", "1", "--warm", "0")
    assert float(re.match(r"([\d,.]+) M instructions", out).group(1).replace(",", "")) > 0
