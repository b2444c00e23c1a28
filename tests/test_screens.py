"""The README and docs/table.md show each bundled game's screen, and every capture is the
screen the code draws today (tools/screens.py draws them again; here it only compares)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import screens  # noqa: E402

from interpreter.content.bundled import available  # noqa: E402


@pytest.mark.parametrize("name", screens.FILES)
def test_every_capture_is_current(name):
    text = (ROOT / name).read_text(encoding="utf-8")
    assert screens.captures(text), f"{name} has no screen captures"
    assert screens.regenerated(text) == text, f"{name}: a capture is out of date; run python tools/screens.py"


def test_the_readme_shows_every_bundled_game_at_80x24():
    shown = {(game, args.split("size=")[1]) for game, args in screens.captures((ROOT / "README.md").read_text())}
    assert {game for game, size in shown if size == "80x24"} == set(available())


def test_a_capture_is_the_seats_screen_with_its_log_since_its_last_screen():
    text = screens.capture("goofspiel", 2, 5, 4, "80x24")
    assert text.startswith("Goofspiel · P1 to decide") and text.endswith("\n")
    assert all(len(line) <= 80 and line == line.rstrip() for line in text.splitlines())
    log = text.split("Since your last turn\n")[1].split("P1: your bid")[0]
    assert log.index("P1 chose:") < log.index("P2 chose:") < log.index("from Prize deck to Prize")
