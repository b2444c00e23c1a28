"""The Merica expansion of Secret Societies as an overlay (rulesets/secret-societies/expansions/
merica): it validates, plays the same for the same seed, replays, says what it changes, and
the base game's files hold none of it. Its rules are the merica_* scenarios'."""
from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.content.ruleset import load_ruleset
from interpreter.engine.game import Game
from interpreter.engine.saved import StateError

import pytest

BASE = Path(__file__).resolve().parents[1] / "rulesets" / "secret-societies"


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_validate_with_merica_exits_0():
    result = run("validate", str(BASE), "-x", "merica", "--no-smoke")
    assert result.exit_code == 0, result.output


def test_play_is_byte_identical_for_a_seed_and_its_log_replays(tmp_path):
    args = ["play", "secret-societies", "-x", "merica", "--players", "2", "--seed", "7"]
    first, again = run(*args), run(*args)
    assert first.exit_code == 0 and "winner" in first.output, first.output
    assert first.output == again.output
    log = tmp_path / "game.json"
    assert run(*args, "--log", str(log)).exit_code == 0
    assert json.loads(log.read_text())["expansions"] == ["merica"]
    assert run("replay", str(log)).exit_code == 0


def test_a_merica_game_will_not_load_into_the_base_game():
    merica = load_ruleset("secret-societies", expansions=("merica",))
    saved = Game.new(merica, players=3, seed=2).to_json()
    with pytest.raises(StateError, match="played with merica.*-x merica"):
        Game.from_json(load_ruleset("secret-societies"), saved)


def test_info_says_what_merica_adds_replaces_and_removes():
    result = run("info", "secret-societies")
    assert result.exit_code == 0, result.output
    text = re.sub(r"\s+", " ", result.output)
    for words in ("merica (Merica, fits secret-societies >= 1.0, < 2)", "version: 1.0",
                  "adds 56 deeds", "adds tracks: pacific, mississippi, route66, canada, colonies",
                  "replaces functions: border_steps, border_label",
                  "replaces procedures: border_step, setup_hq", "removes 80 deeds", "removes 5 hqs"):
        assert words in text, words
