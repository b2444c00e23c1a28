"""The Bankers of Secret Societies, an authored faction behind an option (rulesets/secret-societies/
expansions/bankers): a game without the option is refused with a clear message, `info` says it
is not the published game, a seeded game plays the same twice and replays, and the base game's
files hold none of it. Their rules are the bankers_* scenarios'."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.content.ruleset import load_ruleset
from interpreter.engine.game import Game

BASE = Path(__file__).resolve().parents[1] / "rulesets" / "secret-societies"
ON = ["--option", "experimental_bankers=true"]


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_without_the_option_a_game_is_refused_with_what_to_type():
    bankers = load_ruleset("secret-societies", expansions=("bankers",))
    with pytest.raises(ValueError, match="expansion 'bankers' is experimental: The published rulebook "
                                         "lists the Bankers' components but gives no rules"):
        Game.new(bankers, players=3, seed=1)
    result = run("play", "secret-societies", "-x", "bankers", "--players", "3", "--seed", "1")
    assert result.exit_code != 0 and "--option experimental_bankers=true" in result.output
    assert "Traceback" not in result.output


def test_the_bankers_are_no_faction_of_the_base_game():
    base = load_ruleset("secret-societies")
    assert "bankers" not in base.tables["factions"] and "experimental_bankers" not in base.options
    result = run("play", "secret-societies", "--option", "factions=bankers", "--players", "3")
    assert result.exit_code != 0 and "bankers" in result.output


def test_info_says_the_bankers_are_authored_not_published():
    text = re.sub(r"\s+", " ", run("info", "secret-societies").output)
    for words in ("bankers (Bankers (experimental), fits secret-societies >= 1.0, < 2)",
                  "EXPERIMENTAL, not the published game:", "authored interpretation",
                  "Play it with --option experimental_bankers=true", "adds options: experimental_bankers",
                  "adds factions: bankers", "adds 12 loan_cards",
                  "replaces tables: factions (count +1), faction_tiles (count +3)"):
        assert words in text, words


def test_play_is_byte_identical_for_a_seed_and_its_log_replays(tmp_path):
    args = ["play", "secret-societies", "-x", "bankers", *ON, "--option", "factions=bankers,robots,reptilians",
            "--players", "3", "--seed", "4"]
    first, again = run(*args), run(*args)
    assert first.exit_code == 0 and "winner" in first.output, first.output
    assert first.output == again.output
    log = tmp_path / "game.json"
    assert run(*args, "--log", str(log)).exit_code == 0
    saved = json.loads(log.read_text())
    assert saved["expansions"] == ["bankers"] and saved["options"]["experimental_bankers"] is True
    assert run("replay", str(log)).exit_code == 0


def test_every_bankers_rule_is_marked_assumed_with_a_reason():
    rules = load_ruleset("secret-societies", expansions=("bankers",))
    mine = [rid for rid, owner in rules.record_overlay.items() if owner == "bankers"]
    assert len(mine) == 1 + 17 + 12 + 3                 # the faction, 8 + 9 bid cards, loans, tiles
    for rid in mine:
        reason = rules.entities[rid].get("assumed")
        assert isinstance(reason, str) and len(reason) > 5, rid


def test_a_borrowers_loan_shows_on_their_sheet_and_rival_line():
    import io
    from rich.console import Console
    from interpreter.agents.driver import drive
    from interpreter.cli import table
    rules = load_ruleset("secret-societies", expansions=("bankers",))
    game = Game.new(rules, players=3, seed=2, options={"experimental_bankers": True,
                                                       "factions": ["bankers", "stonesmiths", "vampires"]})
    drive(game, lambda g, pending: g.apply(pending[0].player, 0), until=lambda g: g.state["vars"]["phase"] == "bidding"
          and g.evaluate("count(players[2].borrowed)") == 1 and g.pending()[0].player == 2)
    for seat, where in ((1, "\nYou (P2)\n"), (2, "\nP2 Power ")):
        console = Console(record=True, width=100, height=40, file=io.StringIO())
        table.show(console, game, seat, [])
        text = console.export_text()
        part = text.split(where, 1)[1].split("\nTable\n" if seat == 1 else "\nP3", 1)[0]
        assert "Borrowed Loan of 2" in re.sub(r"\s+", " ", part), text
        assert "Bankers' loans" not in text
