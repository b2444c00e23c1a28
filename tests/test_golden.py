"""Golden playthroughs: seeded games still play exactly as recorded (tools/playthrough.py)."""
from __future__ import annotations

import difflib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
from playthrough import CASES, GOLDEN, file_name, playthrough  # noqa: E402


@pytest.mark.parametrize("game_id,players,seed,options", CASES)
def test_playthrough_matches_golden(game_id, players, seed, options):
    expected = (GOLDEN / file_name(game_id, players, seed)).read_text(encoding="utf-8")
    actual = playthrough(game_id, players, seed, options)
    diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                        "golden", "now", n=2))
    assert not diff, ("the game plays differently; if the rules changed on purpose, run "
                      "python tools/playthrough.py --write\n" + diff[:4000])
