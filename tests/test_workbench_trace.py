"""Traceable logs: `play --trace`, a `--log` played so, and `replay` place each log line at the
file:line of the statement that wrote it (workbench/trace.py, through the engine's trace hook)."""
from __future__ import annotations

import json
import shutil

from click.testing import CliRunner

from interpreter.cli.main import cli

from support import RULESETS, edit, position


def traced_toy(tmp_path):
    folder = tmp_path / "toy"
    shutil.copytree(RULESETS / "toy", folder)
    edit(folder / "flow.yaml", "  shuffle deck\n", "  shuffle deck      # TOY-DEAL-01\n")
    return folder


def placed(lines: list[str]) -> dict:
    """``text -> place`` of the lines shown with one."""
    return dict(line.rsplit("  · ", 1) for line in lines if "  · " in line)


def test_play_trace_places_each_line_at_its_statement_and_cites_its_rule(tmp_path):
    folder = traced_toy(tmp_path)
    flow = folder / "flow.yaml"
    result = CliRunner().invoke(cli, ["play", str(flow.parent), "--seats", "first", "--seed", "3", "--trace"])
    assert result.exit_code == 0, result.output
    places = placed(result.stdout.splitlines())
    shown = "toy/flow.yaml"       # outside the current folder: from the ruleset folder's parent
    assert places["shuffled 6 cards"] == f"{shown}:{position(flow, 'shuffle deck')[0]} [TOY-DEAL-01]"
    assert places["[P1] c2, c5 from deck to P1's hand"] == f"{shown}:{position(flow, 'move 2 from deck')[0]}"
    # a choice's line is placed at the choose that asked it, inside simultaneously too
    assert places["[P2] P2 chose: c1"] == f"{shown}:{position(flow, 'choose secretly')[0]}"
    assert places["[P1] P1 chose: discard c2"] == f"{shown}:{position(flow, 'choose c in zone')[0]}"
    assert places["c2 from P1's hand to discard"] == f"{shown}:{position(flow, 'move c from zone')[0]}"
    assert "all players have chosen" in result.stdout.splitlines()      # the machine's: no place


def test_a_traced_log_replays_with_its_places_and_an_untraced_one_without(tmp_path):
    folder = traced_toy(tmp_path)
    runner = CliRunner()
    for trace in (True, False):
        log = tmp_path / f"{trace}.json"
        args = ["play", str(folder), "--seed", "3", "--log", str(log)] + (["--trace"] if trace else [])
        played = runner.invoke(cli, args)
        assert played.exit_code == 0, played.output
        assert json.loads(log.read_text()).get("trace", False) is trace
        replayed = runner.invoke(cli, ["replay", str(log)])
        assert replayed.exit_code == 0, replayed.output
        shown = replayed.stdout.splitlines()
        assert shown[-1].startswith("replay ok")
        if trace:
            assert placed(shown) == placed(played.stdout.splitlines()) != {}
        else:
            assert shown == [shown[-1]]
            assert placed(runner.invoke(cli, ["replay", str(log), "--trace"]).stdout.splitlines())


def test_the_screen_of_a_traced_replay_shows_places(tmp_path):
    folder = traced_toy(tmp_path)
    log = tmp_path / "g.json"
    assert CliRunner().invoke(cli, ["play", str(folder), "--seed", "3", "--log", str(log), "--trace"]).exit_code == 0
    result = CliRunner().invoke(cli, ["replay", str(log), "--to", "4", "--as", "1"])
    assert result.exit_code == 0, result.output
    assert "flow.yaml:" in result.stdout


def test_the_human_seat_shows_each_lines_place_when_traced(tmp_path):
    folder = traced_toy(tmp_path)
    flow = folder / "flow.yaml"
    runner = CliRunner()
    args = ["play", str(folder), "--seed", "3", "--seats", "human,first"]
    traced = runner.invoke(cli, args + ["--trace"], input="1\n" * 50)
    plain = runner.invoke(cli, args, input="1\n" * 50)
    assert traced.exit_code == plain.exit_code == 0, traced.output + plain.output
    assert "Since your last turn" in traced.output
    move = position(flow, "move 2 from deck")[0]
    assert f"from deck to P1's hand · toy/flow.yaml:{move}" in traced.output       # on the seat's screen
    assert "flow.yaml:" not in plain.output


def test_a_long_traced_line_keeps_its_place_in_sight():
    from interpreter.cli.table import _placed
    from interpreter.workbench.trace import annotated
    [line] = annotated([("x" * 200, "rulesets/g/flow.yaml:12 [G-01]")])
    assert _placed(line) == ("x" * 200, "rulesets/g/flow.yaml:12 [G-01]")
    assert _placed("P1 chose: a · b") == ("P1 chose: a · b", "")


def test_the_place_survives_a_narrow_screen(tmp_path):
    import io

    from rich.console import Console

    from interpreter.cli import session, table
    from interpreter.content.ruleset import load_ruleset
    from interpreter.workbench.trace import seat_log
    rules = load_ruleset(str(traced_toy(tmp_path)))
    game = session.Setup(rules, "toy", 2, 3, {}, ["first", "first"], trace=True).new_game()
    console = Console(record=True, width=40, height=30, file=io.StringIO())
    table.show(console, game, 0, seat_log(game, 0))
    shown = [line for line in console.export_text().splitlines() if "flow.yaml:" in line]
    assert shown and all(len(line) <= 40 and line.rstrip().endswith(tuple("0123456789]")) for line in shown)
