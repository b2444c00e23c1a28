"""Scenario tools: fill and deal, views, logs, forced decisions, let, stops between
statements and fixtures (interpreter/scenarios/runner.py), on the toy fixture."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.engine.game import Game
from interpreter.model.values import RuleError
from interpreter.scenarios import run_scenario

TOY = Path(__file__).resolve().parent / "rulesets" / "toy"

# Seed 1: the deck is shuffled to [c6, c2], P1 holds [c4, c1], P2 [c3, c5]; both choose a secret.
HEAD = f"""\
game: {TOY}
players: 2
seed: 1
"""


def run(tmp_path, body: str, name: str = "case.yaml"):
    path = tmp_path / name
    path.write_text(HEAD + textwrap.dedent(body), encoding="utf-8")
    return path, run_scenario(path)


def where(path: Path, text: str, skip: int = 0) -> str:
    """``path:line:col`` of the first occurrence of ``text`` in the file (``skip`` columns on)."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if text in line:
            return f"{path}:{number}:{line.index(text) + 1 + skip}"
    raise AssertionError(f"{text!r} not in {path}")


def messages(result) -> list[str]:
    """The message lines, without the source lines and carets under errors."""
    return [line for line in result.lines if not line.startswith("  ")]


# ---------------------------------------------------------------- fill, arrange, deal

def test_fill_makes_a_zone_hold_exactly_the_cards_named():
    game = Game.new(load_ruleset(str(TOY)), 2, 1)
    game.execute("fill players[1].hand with [c6, c1]")
    assert game.state["players"][0]["zones"]["hand"] == ["c6", "c1"]
    assert game.state["zones"]["deck"] == ["c2"]          # c6 was taken from it; c4 left play
    game.execute("fill deck with []")
    assert game.state["zones"]["deck"] == []


def test_fill_refuses_a_card_named_twice_or_in_no_zone_and_changes_nothing():
    game = Game.new(load_ruleset(str(TOY)), 2, 1)
    before = game.to_json()
    for text, reason in (("fill deck with [c1, c1]", "names a card twice"),
                         ('fill deck with [c1, "nothing"]', "is in no zone")):
        with pytest.raises(RuleError, match=reason):
            game.execute(text)
        assert game.to_json() == before


def test_arrange_to_an_empty_list_is_an_error_not_a_silent_no_op(tmp_path):
    path, result = run(tmp_path, """\
        setup:
          - arrange deck to []
        """)
    assert messages(result) == [f"{where(path, 'arrange')}: error: 'arrange ... to []' puts no card "
                                "on top: to empty a zone, or make it hold exactly some cards, write "
                                "'fill ZONE with [...]'"]


def test_fill_and_deal_steps(tmp_path):
    path, result = run(tmp_path, """\
        script:
          - fill: {"players[2].hand": [c6, c3], deck: [c4, c2]}   # c5 leaves play
          - deal: {hand: [[c2, c1]]}
        expect:
          - deck == ["c4"]
          - players[1].hand == ["c2", "c1"]
          - players[2].hand == ["c6", "c3"]
        """)
    assert result.lines == [] and result.passed == 3


@pytest.mark.parametrize("step, message", [
    ("deal: {discard: [[c1]]}", "'discard' is not a zone each player has"),
    ("deal: {hand: [[c1], [c2], [c3]]}", "3 hands for 2 players"),
    ("deal: {hand: [[c1, c1]]}", "'fill' names a card twice"),
    ("fill: {deck: [c9]}", "c9 is in no zone"),
])
def test_a_bad_deal_or_fill_is_an_error_at_its_step(tmp_path, step, message):
    path, result = run(tmp_path, f"script:\n  - {step}\n")
    assert messages(result)[0].endswith(f"error: {message}"), result.lines
    assert result.lines[0].startswith(f"{path}:5:")


# ---------------------------------------------------------------- views, logs, forced decisions

def test_expect_view_checks_what_a_player_may_know(tmp_path):
    path, result = run(tmp_path, """\
        script:
          - expect_view:
              player: 2
              sees: [c3, c5]
              hides: [c4, c1]
              shows: {"players[1].coin": 3, "players[1].hand": 2, "players[2].hand": [c3, c5],
                      "players[1].secret": hidden, deck: 2, "row[1]": []}
          - expect_view: {player: 2, sees: c4, hides: c3, shows: {"players[1].hand": [c4, c1]}}
        """)
    shown_at = where(path, '[c4, c1]}}')
    assert messages(result) == [
        f"{where(path, 'c4, hides')}: expected P2's view to show 'c4'",
        f"{where(path, 'c3, shows')}: expected P2's view not to show 'c3' (in its components)",
        f"{shown_at}: expected P2's view of players[1].hand to be " '["c4", "c1"], got {"count": 2}']
    assert result.passed == 10


def test_expect_view_hides_looks_in_the_log_too(tmp_path):
    path, result = run(tmp_path, """\
        script:
          - expect_view: {player: 1, hides: [c3, c5, c6, c2]}
          - {player: 1, choose: c4}
          - {player: 2, choose: c3}
          - {player: 1, choose: discard c4}     # logged to all: the discard is face up
          - fill: {discard: []}                 # out of every zone, still in the log
          - expect_view: {player: 2, hides: c4}
        """)
    assert messages(result) == [f"{where(path, 'hides: c4}', 7)}: expected P2's view not to show 'c4' (in its log)"]
    assert result.passed == 4


def test_a_bad_view_path_is_an_error_with_a_caret(tmp_path):
    path, result = run(tmp_path, """\
        script:
          - expect_view: {player: 1, shows: {"players[1].coins": 3}}
        """)
    assert result.lines[0] == f"{where(path, '3}}')}: error: 'coins' is not a declared component"
    assert result.lines[2].strip() == "^"


def test_expect_log_reads_the_lines_a_player_has_seen(tmp_path):
    path, result = run(tmp_path, """\
        script:
          - {player: 1, expect_log: ["c4, c1 from deck to P1's hand", "2 cards from deck to p2's HAND"]}
          - {player: 2, expect_no_log: "c4", expect_log: "c3, c5 from deck"}
          - {player: 2, expect_log: "c4"}
          - {player: 1, expect_no_log: "shuffled"}
        """)
    assert result.lines[0].startswith(where(path, '"c4"}') + ": ")
    assert messages(result)[1].endswith("it has 'shuffled 6 cards'")
    assert [m.split(": ", 1)[1].split(";")[0] for m in messages(result)] == [
        "expected P2's log to have a line with 'c4'",
        "expected P1's log not to have a line with 'shuffled'"]
    assert result.passed == 4


def test_a_forced_decision_is_recorded_and_can_be_checked(tmp_path):
    path, result = run(tmp_path, """\
        script:
          - deal: {hand: [[c1]]}             # P1's choice of a secret now has one option
          - {player: 1, expect_taken: c1}
          - {player: 2, expect_taken: c3}
          - {player: 1, choose: c1}
        expect:
          - players[1].secret == c1
        """)
    assert messages(result) == [
        f"{where(path, 'c3}')}: expected P2's last one-option decision to take 'c3'; none was",
        f"{where(path, '{player: 1, choose')}: P1 cannot choose 'c1': P1 has no decision to make now "
        "(waiting for P2); its last decision had one option, taken without asking: 'c1'"]


# ---------------------------------------------------------------- let, stops between statements

def test_let_binds_values_for_later_expectations(tmp_path):
    path, result = run(tmp_path, """\
        script:
          - let: {coins: "players[1].coin", theirs: "players[2].hand"}
          - run: gain 2 coin for players[1]
          - expect: ["players[1].coin == coins + 2", "theirs == players[2].hand"]
          - run: move 1 from players[2].hand to discard
          - expect: ["theirs != players[2].hand", "count(theirs) == 2", "theirs[2] == players[2].hand[1]"]
          - let: {mine: "self.coin"}
            as: 2
          - play: {until: "players[1].coin == mine + 2"}
        expect:
          - coins == 3
        """)
    assert result.lines == [] and result.passed == 8


def test_let_cannot_take_a_name_of_the_game(tmp_path):
    path, result = run(tmp_path, """\
        script:
          - let: {deck: "1"}
        """)
    at = where(path, '"1"')
    assert messages(result) == [f"{at}: error: 'deck' is a name of the game: let binds new names"]


def test_play_until_may_stop_between_two_statements(tmp_path):
    # After the last decision the flow sets each player's points in turn, with no decision between.
    path, result = run(tmp_path, """\
        script:
          - play: {until: "players[1].points > 0", at: statement}
          - expect: ["players[1].points == 1", "players[2].points == 0", "not game_over"]
          - {player: 2, expect_log: "c3 from P2's hand to discard"}
          - run: set players[2].points to 7
          - play: {}
        expect:
          - game_over
          - players[2].points == 5                 # the flow ran on and set it after the override
        """)
    assert result.lines == [] and result.passed == 6


def test_play_until_stops_only_at_decisions_unless_asked(tmp_path):
    path, result = run(tmp_path, """\
        script:
          - play: {until: "players[1].points > 0"}      # never true at a decision: to the end
        expect:
          - game_over
        """)
    assert result.lines == [] and result.passed == 1


def test_a_stop_between_statements_keeps_the_run_budget(tmp_path, monkeypatch):
    from interpreter.engine import budget
    monkeypatch.setattr(budget, "MAX_STEPS", 3)              # the toy's last run takes more
    path, result = run(tmp_path, """\
        script:
          - play: {until: "players[2].points == 99", at: statement}
        """)
    assert "no decision after" in result.lines[0], result.lines


def test_an_until_that_fails_mid_run_is_reported_at_it(tmp_path):
    path, result = run(tmp_path, """\
        script:
          - play: {until: "players[1].hand[3] == c1", at: statement}
        """)
    at = where(path, '"players[1].hand[3]')
    assert messages(result)[0].startswith(f"{at}: error: index 3")


# ---------------------------------------------------------------- fixtures

def write_fixtures(folder: Path) -> None:
    (folder / "data").mkdir(parents=True)
    (folder / "expansion.yaml").write_text(
        "id: test_tokens\nbase: toy\ncomponents: components.yaml\ndata: [data/tokens.yaml]\n")
    (folder / "components.yaml").write_text(
        "zones:\n  bag: {from: tokens, visible: count}\n"
        "tables:\n  tokens:\n    fields:\n      worth: {type: int}\n")
    (folder / "data" / "tokens.yaml").write_text(
        "tokens:\n  - {id: gold, worth: 5}\n  - {id: lead, worth: 0}\n")


def test_fixtures_add_records_and_declarations_for_one_scenario(tmp_path):
    write_fixtures(tmp_path / "fixtures" / "tokens")
    path, result = run(tmp_path, """\
        fixtures: fixtures/tokens
        script:
          - fill: {bag: [gold]}
        expect:
          - bag == ["gold"]
          - gold.worth == 5
        """)
    assert result.lines == [] and result.passed == 2
    path, result = run(tmp_path, "expect: [count(bag) == 2]\n", "other.yaml")
    assert messages(result)[0].startswith(f"{where(path, 'bag')}: error: in 'count(bag) == 2': "
                                          "unknown name 'bag'")


@pytest.mark.parametrize("fixtures, message", [
    ("../elsewhere", "'../elsewhere' is not inside the scenario's folder"),
    ("/tmp", "'/tmp' is not inside the scenario's folder"),
    ("missing", "cannot read 'missing'"),
    ("linked", "'linked' goes through a symbolic link ('linked')"),
])
def test_fixtures_must_lie_inside_the_scenario_folder(tmp_path, fixtures, message):
    write_fixtures(tmp_path / "real")
    (tmp_path / "case").mkdir()
    (tmp_path / "case" / "linked").symlink_to(tmp_path / "real")
    path, result = run(tmp_path / "case", f"fixtures: {fixtures}\n")
    # the game's path, above, may hold the same text (a checkout under /tmp): find the key's line
    at = where(path, f"fixtures: {fixtures}", skip=len("fixtures: "))
    assert result.lines[0].startswith(f"{at}: error: {message}"), result.lines
    assert result.lines[2].strip() == "^"


def test_a_bad_fixture_file_is_reported_like_content(tmp_path):
    write_fixtures(tmp_path / "fx")
    (tmp_path / "fx" / "data" / "tokens.yaml").write_text("tokens:\n  - {id: gold, worth: many}\n")
    path, result = run(tmp_path, "fixtures: fx\n")
    assert "cannot load game" in result.lines[0] and "tokens.yaml:2" in result.lines[0], result.lines


# ---------------------------------------------------------------- errors in the file

def test_a_schema_error_has_a_column_and_a_caret(tmp_path):
    path, result = run(tmp_path, """\
        script:
          - {player: 1, expect_taken: 3}
        """)
    assert result.lines[0].startswith(f"{path}:5:")
    assert result.lines[1] == "    - {player: 1, expect_taken: 3}"
    assert result.lines[2].strip() == "^"


def test_a_file_yaml_cannot_read_has_a_column_and_a_caret(tmp_path):
    path, result = run(tmp_path, """\
        script:
          - {player: 1, expect_log: [x}
        """)
    assert result.lines[0].startswith(f"{path}:5:31: error: cannot load the scenario: ")
    assert result.lines[1:] == ["    - {player: 1, expect_log: [x}", "                                ^"]
