"""Every rule id of a game's reference is cited by its ruleset or its scenarios."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from rule_coverage import cited_in, expand, reference_ids  # noqa: E402

REFERENCE = ROOT.parent / "shared" / "rules" / "lairs.md"


def test_ranges_and_lists_of_ids_are_expanded():
    assert expand("LR-BONUS-01..03, AMB-03/05") == {"LR-BONUS-01", "LR-BONUS-02", "LR-BONUS-03",
                                                   "AMB-03", "AMB-05"}


@pytest.mark.skipif(not REFERENCE.exists(), reason="the shared rules reference is not beside the repo")
def test_every_lairs_rule_is_cited():
    ids = reference_ids(REFERENCE.read_text(encoding="utf-8"))
    assert len(ids) > 150
    cited = cited_in(ROOT / "rulesets" / "lairs") | cited_in(ROOT / "tests" / "scenarios" / "lairs")
    assert [rule for rule in ids if rule not in cited] == []


def test_a_missing_reference_says_where_they_are():
    from click.testing import CliRunner
    from rule_coverage import main
    result = CliRunner().invoke(main, ["no-such-game"])
    assert result.exit_code == 2 and "no rules reference at" in result.output
    assert "Traceback" not in result.output
