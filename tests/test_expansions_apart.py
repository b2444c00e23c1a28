"""Secret Societies' base game holds none of its expansions' content: an expansion is an overlay
folder, and the base files name it only in the manifest's ``expansions:`` list (issue 10)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

BASE = Path(__file__).resolve().parents[1] / "rulesets" / "secret-societies"

EXPANSIONS = {                 # expansion -> (words of its content, its manifest line)
    "merica": (r"merica|landmark|biltmore|route ?66|pacific", "  merica: expansions/merica"),
    "spec_ops": (r"spec.?ops|operation token|ops_", "  spec_ops: expansions/spec-ops"),
    "bankers": (r"banker|6-u|six_u|loan", "  bankers: expansions/bankers"),
}


@pytest.mark.parametrize("expansion", sorted(EXPANSIONS))
def test_the_base_game_holds_none_of_an_expansions_content(expansion):
    pattern, manifest_line = EXPANSIONS[expansion]
    words = re.compile(pattern, re.IGNORECASE)
    for path in BASE.rglob("*.yaml"):
        if "expansions" in path.relative_to(BASE).parts:
            continue
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if words.search(line)]
        if path.name == "game.yaml":           # the manifest names its expansions, nothing more
            lines = [line for line in lines if not line.startswith(manifest_line)]
        assert lines == [], path


def test_every_expansion_of_the_game_is_checked_here():
    listed = re.findall(r"^  (\w+): expansions/", (BASE / "game.yaml").read_text(encoding="utf-8"), re.M)
    assert sorted(listed) == sorted(EXPANSIONS)
