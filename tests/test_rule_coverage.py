"""Every rule id of a game's reference is cited by its ruleset or its scenarios."""
from __future__ import annotations

import re
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
SS_LATER = {"SS-AMB-53", "SS-AMB-54", "SS-AMB-55", "SS-AMB-56", "SS-AMB-57", "SS-AMB-67",
            "SS-BORD-04", "SS-DATA-25", "SS-DATA-26", "SS-DATA-27", "SS-PARTS-06", "SS-START-05"}
# Base rules not yet encoded (none now; an id goes here while its rule is open).
SS_OPEN: set = set()


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


# The factions whose abilities are written (issue 9): every id of theirs (SS-F-XXX-nn and
# SS-F-XXX-2P) is cited by the ruleset or its scenarios. Add a faction's prefix once it is done.
SS_FACTIONS_DONE = ["SS-F-INFL-", "SS-F-ILLU-", "SS-F-TECH-", "SS-F-ROBOT-", "SS-F-STONE-", "SS-F-ALIEN-",
                    "SS-F-REPT-", "SS-F-VAMP-", "SS-F-SPECOPS-"]


@pytest.mark.skipif(not SS_REFERENCE.exists(), reason="the shared rules reference is not beside the repo")
@pytest.mark.parametrize("prefix", SS_FACTIONS_DONE)
def test_every_rule_of_a_written_faction_is_cited(prefix):
    text = SS_REFERENCE.read_text(encoding="utf-8")
    ids = [rule for rule in reference_ids(text) if rule.startswith(prefix)]
    ids += sorted(set(re.findall(rf"\*\*({prefix}2P)\*\*", text)))    # ends in no number: read apart
    assert len(ids) >= 6
    folders = [ROOT / "rulesets" / "secret-societies", ROOT / "tests" / "scenarios" / "secret-societies"]
    words = "\n".join(path.read_text(encoding="utf-8") for folder in folders for path in folder.rglob("*.yaml"))
    cited = set().union(*map(cited_in, folders)) | set(re.findall(rf"\b{prefix}2P\b", words))
    assert [rule for rule in ids if rule not in cited] == []


def test_a_missing_reference_says_where_they_are():
    from click.testing import CliRunner
    from rule_coverage import main
    result = CliRunner().invoke(main, ["no-such-game"])
    assert result.exit_code == 2 and "no rules reference at" in result.output
    assert "Traceback" not in result.output


# The Merica expansion (issue 10), kept apart from SS_LATER: every SS-MERICA id but Spec Ops'
# and the Bankers' (SS-F-*), and the ambiguities and data only Merica reads, is cited by the
# expansion's folder or by the merica_* scenarios.
MERICA_READS = {"SS-AMB-53", "SS-AMB-54", "SS-AMB-55", "SS-DATA-25", "SS-BORD-04"}


@pytest.mark.skipif(not SS_REFERENCE.exists(), reason="the shared rules reference is not beside the repo")
def test_every_merica_rule_is_cited_by_the_expansion_or_its_scenarios():
    ids = reference_ids(SS_REFERENCE.read_text(encoding="utf-8"))
    merica = [rule for rule in ids if rule.startswith("SS-MERICA-")] + sorted(MERICA_READS)
    assert len(merica) == 18 + len(MERICA_READS)
    scenarios = ROOT / "tests" / "scenarios" / "secret-societies"
    cited = cited_in(ROOT / "rulesets" / "secret-societies" / "expansions" / "merica")
    for path in scenarios.glob("merica_*.yaml"):
        cited |= expand(path.read_text(encoding="utf-8"))
    assert [rule for rule in merica if rule not in cited] == []


# Spec Ops (issue 10, SS-MERICA-02: an expansion of its own, expansions/spec-ops): every
# SS-F-SPECOPS id and the ambiguities only Spec Ops read is cited by the expansion's folder, and
# by one of the specops_* scenarios at least (each rule is played, not only cited in data).
SPECOPS_READS = {"SS-AMB-56", "SS-AMB-57"}


@pytest.mark.skipif(not SS_REFERENCE.exists(), reason="the shared rules reference is not beside the repo")
def test_every_spec_ops_rule_is_cited_by_the_expansion_and_played_in_a_scenario():
    ids = reference_ids(SS_REFERENCE.read_text(encoding="utf-8"))
    rules = [rule for rule in ids if rule.startswith("SS-F-SPECOPS-")] + sorted(SPECOPS_READS)
    assert len(rules) == 8 + len(SPECOPS_READS)
    folder = cited_in(ROOT / "rulesets" / "secret-societies" / "expansions" / "spec-ops")
    played: set = set()
    for path in (ROOT / "tests" / "scenarios" / "secret-societies").glob("specops_*.yaml"):
        played |= expand(path.read_text(encoding="utf-8"))
    assert [rule for rule in rules if rule not in folder] == []
    assert [rule for rule in rules if rule not in played] == []
