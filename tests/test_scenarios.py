"""The scenario runner (interpreter.scenarios), and every scenario file under tests/scenarios/."""
from __future__ import annotations

import fnmatch
import textwrap
from pathlib import Path

import pytest

from interpreter.scenarios import check_paths, run_scenario, scenario_files

SCENARIOS = Path(__file__).resolve().parent / "scenarios"

# Two players on the Superyacht: one agent each, so the game starts at round 1's decisions.
HEAD = """\
game: lairs
players: 2
seed: 3
options: {board: superyacht}
"""


def write(tmp_path, body: str, name: str = "case.yaml") -> Path:
    path = tmp_path / name
    path.write_text(HEAD + textwrap.dedent(body), encoding="utf-8")
    return path


def line_of(path: Path, text: str) -> str:
    """``line:col`` of the first line of ``path`` containing ``text``: the column of the
    list item it starts (after ``- ``), where messages point."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if text in line:
            item = line.lstrip(" ")
            item = item[2:] if item.startswith("- ") else item
            return f"{number}:{len(line) - len(item) + 1}"
    raise AssertionError(f"{text!r} not in {path}")


def messages(result) -> list[str]:
    """The message lines, without the source line and caret under an error."""
    return [line for line in result.lines if not line.startswith("  ")]


# ---------------------------------------------------------------- the runner

def test_a_passing_scenario(tmp_path):
    path = write(tmp_path, """\
        setup:
          - p = players[1]
          - p.coin = 3
        script:
          - {player: 1, expect_options: ["pass (+1 coin)", "PASS  (+1 COIN)"]}
          - {player: 1, choose: "pass (+1 coin)"}
          - {expect: "self.coin == 4", as: 1}
          - {player: 2, choose: 99, expect_error: "does not exist"}
          - {player: 2, choose: "Pass (+1 coin)"}
          - run: ["q = players[2]", "q.mov = 5"]
        expect:
          - players[1].coin == 4
          - players[2].mov == 5
          - round == 2
        """)
    result = run_scenario(path)
    assert result.lines == []
    assert (result.passed, result.failed) == (7, 0)
    assert result.ok


def test_a_failing_expectation_names_its_line_and_the_left_value(tmp_path):
    path = write(tmp_path, """\
        expect:
          - players[1].coin == 3
          - players[1].coin + 1 > 20
          - players[1].full
          - round == 1
        """)
    result = run_scenario(path)
    assert result.lines == [
        f"{path}:{line_of(path, 'coin == 3')}: expected players[1].coin == 3, got 10",
        f"{path}:{line_of(path, '> 20')}: expected players[1].coin + 1 > 20, got 11",
        f"{path}:{line_of(path, '.full')}: expected players[1].full, got false",
    ]
    assert (result.passed, result.failed) == (1, 3)


def test_a_refused_choice_stops_the_scenario_and_shows_the_options(tmp_path):
    path = write(tmp_path, """\
        script:
          - {player: 1, choose: "Take everything"}
          - {player: 1, choose: "pass (+1 coin)"}
        expect:
          - round == 2
        """)
    result = run_scenario(path)
    (line,) = result.lines
    assert line.startswith(f"{path}:{line_of(path, 'Take everything')}: "
                           "P1 cannot choose 'Take everything': no option is labelled 'Take everything'")
    assert "offered: " in line and "pass (+1 coin)" in line
    assert (result.passed, result.failed) == (0, 1)


def test_a_choice_expected_to_be_refused_but_accepted_fails(tmp_path):
    path = write(tmp_path, """\
        script:
          - expect_error: "not enough"
          - {player: 1, choose: "pass (+1 coin)"}
        """)
    result = run_scenario(path)
    assert result.lines == [f"{path}:{line_of(path, 'choose')}: P1 could choose 'pass (+1 coin)', "
                            "but a refusal saying 'not enough' was expected"]


def test_a_player_with_no_decision_is_refused(tmp_path):
    path = write(tmp_path, """\
        script:
          - {player: 1, choose: "pass (+1 coin)"}
          - {player: 1, choose: "pass (+1 coin)", expect_error: "no decision"}
          - {player: 1, expect_no_option: "pass (+1 coin)"}
        """)
    assert run_scenario(path).lines == []


def test_offered_labels_are_checked(tmp_path):
    path = write(tmp_path, """\
        script:
          - {player: 2, expect_options: "Go home", expect_no_option: "pass (+1 coin)"}
        """)
    result = run_scenario(path)
    assert [line.split(": ", 1)[1].split(";")[0] for line in result.lines] == [
        "expected P2 to be offered 'Go home'", "expected P2 not to be offered 'pass (+1 coin)'"]
    line = line_of(path, 'Go home').split(":")[0]
    assert all(message.startswith(f"{path}:{line}:") for message in result.lines)
    assert result.failed == 2


def test_a_bad_expression_is_an_error_at_its_line(tmp_path):
    path = write(tmp_path, """\
        expect:
          - roound == 1
          - players[1].coin ==
          - players[7].coin == 1
          - round == 1
        """)
    result = run_scenario(path)
    assert result.lines[0] == (f"{path}:{line_of(path, 'roound')}: error: in 'roound == 1': "
                               "unknown name 'roound' (did you mean 'round'?)")
    assert result.lines[1:3] == ["    - roound == 1", "      ^"]         # the source line, a caret
    result.lines = messages(result)
    assert result.lines[1].startswith(f"{path}:{line_of(path, 'coin ==')[:-1]}23: error: in 'players[1].coin ==': unexpected")
    assert result.lines[2] == f"{path}:{line_of(path, 'players[7]')}: error: index 7 is outside 1..2"
    assert (result.passed, result.failed) == (1, 3)       # the last one is still checked


def test_an_error_in_the_setup_names_the_item(tmp_path):
    path = write(tmp_path, """\
        setup:
          - p = players[1]
          - p.coins = 3
        """)
    result = run_scenario(path)
    assert messages(result) == [f"{path}:{line_of(path, 'p.coins')}: error: unknown attribute 'coins' "
                            "(did you mean 'coin'?)"]


def test_bots_play_until_an_expression_holds(tmp_path):
    path = write(tmp_path, """\
        script:
          - play: {bot: random, until: "round == 3"}
          - {expect: "round == 3"}
          - until_decision: {player: 2}
          - play: {bot: first, until: 'phase == "exploration"'}
        expect:
          - phase == "exploration"
        """)
    result = run_scenario(path)
    assert result.lines == [] and result.passed == 2


@pytest.mark.parametrize("text, message", [
    ("game: lairs\nplayers: 2\nscirpt: []\n", "error: unknown key 'scirpt'*(did you mean 'script'?)"),
    ("game: lairs\nscript:\n  - {player: 1, chooze: 0}\n", "error: *script[[]0]"),
    ("game: nowhere\n", "error: cannot load game 'nowhere'"),
    ("game: lairs\nplayers: 40\n", "error: Lairs is for 2 to 12 players, not 40"),
    ("game: lairs\nsetup: [\n", "error: cannot load the scenario"),
])
def test_a_file_that_cannot_be_used_is_one_failure(tmp_path, text, message):
    path = tmp_path / "broken.yaml"
    path.write_text(text, encoding="utf-8")
    result = run_scenario(path)
    assert (result.passed, result.failed) == (0, 1)
    assert fnmatch.fnmatchcase(result.lines[0], f"{path}:[0-9]*: *{message}*"), result.lines


def test_xfail_counts_as_expected_while_it_fails(tmp_path):
    write(tmp_path, 'xfail: "a known engine bug"\nexpect: ["round == 99"]\n', "a.yaml")
    write(tmp_path, 'xfail: "fixed since"\nexpect: ["round == 1"]\n', "b.yaml")
    passed, failed, lines = check_paths([tmp_path])
    assert (passed, failed) == (2, 0)
    assert lines == [f"{tmp_path / 'a.yaml'}: XFAIL: a known engine bug",
                     f"{tmp_path / 'b.yaml'}: XPASS (marked xfail: fixed since)"]


def test_folders_give_their_yaml_files_sorted(tmp_path):
    for name in ("b.yaml", "a.yaml", "notes.txt"):
        (tmp_path / name).write_text(HEAD, encoding="utf-8")
    assert [p.name for p in scenario_files([tmp_path])] == ["a.yaml", "b.yaml"]
    assert check_paths([tmp_path]) == (0, 0, [])


# ---------------------------------------------------------------- every scenario file

def _cases():
    return [pytest.param(path, id=str(path.relative_to(SCENARIOS))) for path in scenario_files([SCENARIOS])]


@pytest.mark.parametrize("path", _cases())
def test_scenario_file(path):
    result = run_scenario(path)
    if result.xfail is not None:
        if not result.ok:
            pytest.xfail(result.xfail)
        pytest.fail(f"{path} passes: remove its 'xfail' ({result.xfail})")
    assert result.ok, "\n".join(result.lines)
    assert result.passed > 0, f"{path} checks nothing"


def test_a_rule_error_in_setup_names_its_line(tmp_path):
    path = write(tmp_path, """\
        setup:
          - p = players[1]
          - |
            p.coin = 1
            spend 5 coin for p
        """)
    result = run_scenario(path)
    assert messages(result) == [f"{path}:{line_of(path, 'spend 5')}: error: P1 cannot spend 5 coin (has 1)"]
