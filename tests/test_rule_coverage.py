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


STATUS_REFERENCE = ROOT.parent / "shared" / "rules" / "status.md"


@pytest.mark.skipif(not STATUS_REFERENCE.exists(), reason="the shared rules reference is not beside the repo")
def test_every_status_rule_is_cited():
    ids = reference_ids(STATUS_REFERENCE.read_text(encoding="utf-8"))
    assert len(ids) > 190
    cited = cited_in(ROOT / "rulesets" / "status") | cited_in(ROOT / "tests" / "scenarios" / "status")
    assert [rule for rule in ids if rule not in cited] == []


SS_REFERENCE = ROOT.parent / "shared" / "rules" / "secret-societies.md"
# Not the base game's: the factions' abilities (issue 9: SS-F-*, their two-player changes, the
# drone and the ambiguities and data only they read), the Merica expansion and the Bankers.
SS_LATER = {"SS-PARTS-06", "SS-START-05", "SS-BORD-04",
            "SS-AMB-25", "SS-AMB-26", "SS-AMB-27",
            "SS-AMB-28", "SS-AMB-30", "SS-AMB-31", "SS-AMB-32", "SS-AMB-33", "SS-AMB-34",
            "SS-AMB-38", "SS-AMB-39", "SS-AMB-53", "SS-AMB-54",
            "SS-AMB-55", "SS-AMB-56", "SS-AMB-57", "SS-AMB-67",
            "SS-DATA-22", "SS-DATA-23", "SS-DATA-25", "SS-DATA-26",
            "SS-DATA-27"}
# The factions whose abilities are written: every rule id of theirs (SS-F-XXX-*) is cited.
SS_FACTIONS_DONE = ("SS-F-REPT-", "SS-F-VAMP-")
# Base rules not yet encoded: several players claiming one colour's monument in the same growth
# phase (growth is played in turn order, each player to the end).
SS_OPEN = {"SS-MON-04"}


def test_star_bullets_and_digits_in_a_part_are_read():
    assert reference_ids("* **SS-2P-01** Setup.\n  * PT-10 uses it.\n") == ["SS-2P-01"]
    assert expand("SS-2P-01..02") == {"SS-2P-01", "SS-2P-02"}


@pytest.mark.skipif(not SS_REFERENCE.exists(), reason="the shared rules reference is not beside the repo")
def test_every_secret_societies_base_rule_is_cited():
    ids = reference_ids(SS_REFERENCE.read_text(encoding="utf-8"))
    assert len(ids) > 400
    cited = (cited_in(ROOT / "rulesets" / "secret-societies")
             | cited_in(ROOT / "tests" / "scenarios" / "secret-societies"))
    base = [rule for rule in ids if not rule.startswith(("SS-F-", "SS-MERICA-"))
            and rule not in SS_LATER | SS_OPEN]
    assert [rule for rule in base if rule not in cited] == []
    assert not SS_OPEN & cited, "an open rule is now cited: take it off SS_OPEN"


@pytest.mark.skipif(not SS_REFERENCE.exists(), reason="the shared rules reference is not beside the repo")
def test_every_rule_of_the_written_factions_is_cited():
    ids = reference_ids(SS_REFERENCE.read_text(encoding="utf-8"))
    cited = (cited_in(ROOT / "rulesets" / "secret-societies")
             | cited_in(ROOT / "tests" / "scenarios" / "secret-societies"))
    mine = [rule for rule in ids if rule.startswith(SS_FACTIONS_DONE)]
    assert len(mine) == 24 and [rule for rule in mine if rule not in cited] == []   # 13 + 11 (and the 2P ones)


def test_a_missing_reference_says_where_they_are():
    from click.testing import CliRunner
    from rule_coverage import main
    result = CliRunner().invoke(main, ["no-such-game"])
    assert result.exit_code == 2 and "no rules reference at" in result.output
    assert "Traceback" not in result.output
