"""Spec Ops (rulesets/secret-societies/expansions/spec-ops), an expansion of its own because
the faction plays with Merica or without it (SS-MERICA-02): it validates alone and beside
Merica, plays the same for the same seed, replays, is one more faction to deal, says what it
adds, and the base game's files hold none of it. Its rules are the specops_* scenarios'."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli

BASE = Path(__file__).resolve().parents[1] / "rulesets" / "secret-societies"
sys.path.insert(0, str(Path(__file__).resolve().parent))
from conformance.harness import EXPANSION_IDS, rules_of  # noqa: E402


def run(*args):
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("expansions", [["spec_ops"], ["merica", "spec_ops"]])
def test_validate_alone_and_with_merica_exits_0(expansions):
    result = run("validate", str(BASE), *[a for x in expansions for a in ("-x", x)], "--no-smoke")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("expansions, players", [(["spec_ops"], 3), (["merica", "spec_ops"], 2)])
def test_play_is_byte_identical_for_a_seed_and_its_log_replays(tmp_path, expansions, players):
    args = ["play", "secret-societies", *[a for x in expansions for a in ("-x", x)],
            "--players", str(players), "--seed", "5", "--factions", "spec_ops"]
    logs = [tmp_path / "first.json", tmp_path / "again.json"]
    first, again = (run(*args, "--log", str(log)) for log in logs)
    assert first.exit_code == 0 and "winner" in first.output, first.output
    assert first.output == again.output and logs[0].read_bytes() == logs[1].read_bytes()
    assert json.loads(logs[0].read_text())["expansions"] == expansions
    assert run("replay", str(logs[0])).exit_code == 0


def test_spec_ops_join_the_factions_dealt_and_merica_changes_nothing_of_theirs():
    base, ops = rules_of("secret-societies"), rules_of("secret-societies -x spec_ops")   # loaded once
    both = rules_of("secret-societies -x merica -x spec_ops")
    assert "spec_ops" not in base.tables["factions"] and ops.tables["factions"][-1] == "spec_ops"
    assert ops.table_specs["factions"]["count"] == 9 and ops.table_specs["faction_tiles"]["count"] == 27
    assert both.tables["factions"] == ops.tables["factions"] and "before_reveal" in both.hooks
    assert "before_reveal" not in base.hooks            # the base game raises no hook point for it


def test_the_conformance_harness_plays_spec_ops_alone_and_beside_merica():
    assert {"secret-societies -x spec_ops", "secret-societies -x merica -x spec_ops"} <= set(EXPANSION_IDS)


def test_info_says_what_spec_ops_adds():
    text = re.sub(r"\s+", " ", run("info", "secret-societies").output)
    for words in ("spec_ops (Spec Ops, fits secret-societies >= 1.0, < 2)",
                  "adds factions: spec_ops", "adds 7 bid_cards", "adds faction_tiles: spec_ops_tile_1",
                  "adds hooks: before_reveal", "replaces tables: factions (count +1), faction_tiles (count +3)"):
        assert words in text, words


def test_the_screen_draws_an_operation_token_beside_its_bid_face_down_too():
    from rich.console import Console

    from interpreter.cli.table import Screen, fit
    from interpreter.engine.game import Game
    game = Game.new(rules_of("secret-societies -x spec_ops"), players=3, seed=4,
                    options={"factions": ["stonesmiths", "illuminati", "spec_ops"]})

    def choose(label):
        [(seat, k)] = [(d.player, d.find(label)) for d in game.pending() if d.find(label) is not None]
        game.apply(seat, k)

    for _ in range(3):
        choose("HQ card below (+1 population)")
    for label in ("Stonesmiths 4 on Costa Rica (black) face up", "0 coins",
                  "Illuminati 3 on Costa Rica (black) face up", "0 coins",
                  "Spec Ops 3 on Costa Rica (black) face down", "1 coins",
                  "operation token beside your bid on Costa Rica (black)"):
        choose(label)
    console = Console(width=120, record=True)
    console.print(fit(console, Screen(game, 0, [], 120)))
    assert "P3 ?+1 face down [operation P3]" in console.export_text()


def test_the_sheet_and_rival_line_show_the_operation_tokens_left():
    from rich.console import Console

    from interpreter.cli.table import Screen, fit
    from interpreter.engine.game import Game
    game = Game.new(rules_of("secret-societies -x spec_ops"), players=3, seed=4,
                    options={"factions": ["stonesmiths", "illuminati", "spec_ops"]})

    def screen(seat):
        console = Console(width=100, height=40, record=True)
        console.print(fit(console, Screen(game, seat, [], 100)))
        return console.export_text()
    own, rival = screen(2), screen(0)
    assert "Operation tokens" in own and "Token set aside" in own
    assert "Operation tokens" in rival and "Token set aside" not in rival
    assert "ops_supply" not in own + rival and "ops_aside" not in own + rival
