"""`rulebook simulate` as a balance report: rotation, per-game rows, varied options,
many cores and many machines (shards) giving exactly the one-core result."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.workbench import plots

RULESETS = Path(__file__).resolve().parent / "rulesets"
TOY = str(RULESETS / "toy")
TTT = str(RULESETS / "ttt")


def run(*args, ok=True):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    if ok:
        assert result.exit_code == 0, result.output
    return result


def rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]


def test_report_has_intervals_per_seat_bot_and_held_record(tmp_path):
    figures = json.loads(run("simulate", TOY, "-n", "8", "--seats", "first,random", "-j", "1",
                             "--format", "json").stdout)
    assert figures["games"] == 8 and figures["rotation"] is True
    for seat in figures["seats"]:
        low, high = seat["interval"]
        assert low <= seat["win_rate"] <= high and seat["games"] == 8
        assert seat["bot"] == "rotated"
    assert [b["name"] for b in figures["bots"]] == ["first", "random"]
    assert [b["games"] for b in figures["bots"]] == [8, 8]
    assert sum(s["wins"] for s in figures["seats"]) == pytest.approx(8)
    assert figures["first_player"]["even"] == 0.5
    assert figures["length"]["min"] <= figures["length"]["mean"] <= figures["length"]["max"]


def test_rotation_puts_each_bot_in_each_seat_equally_often(tmp_path):
    out = tmp_path / "games.jsonl"
    run("simulate", TOY, "-n", "4", "--seats", "first,random", "-j", "1", "--games-out", out)
    seen = [tuple(r["seats"]) for r in rows(out)]
    assert sorted(seen) == sorted([("first", "random"), ("random", "first")] * 2)
    assert [r["seed"] for r in rows(out)] == [1, 2, 3, 4]
    out2 = tmp_path / "fixed.jsonl"
    run("simulate", TOY, "-n", "4", "--seats", "first,random", "--no-rotate", "-j", "1",
        "--games-out", out2)
    assert {tuple(r["seats"]) for r in rows(out2)} == {("first", "random")}


def test_per_game_rows_as_csv(tmp_path):
    out = tmp_path / "games.csv"
    run("simulate", TOY, "-n", "3", "-j", "1", "--games-out", out)
    table = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [r["seed"] for r in table] == ["1", "2", "3"]
    assert {"P1 score", "P2 rank", "P1 bot", "decisions", "winners"} <= set(table[0])


def test_vary_cycles_an_option_through_its_values(tmp_path):
    out = tmp_path / "games.jsonl"
    figures = json.loads(run("simulate", TOY, "-n", "6", "--vary", "rounds", "-j", "1",
                             "--games-out", out, "--format", "json").stdout)
    values = figures["varied"]["rounds"]
    assert [(v["value"], v["games"]) for v in values] == [("1", 2), ("2", 2), ("3", 2)]
    assert [r["options"]["rounds"] for r in rows(out)] == [1, 2, 3, 1, 2, 3]
    assert all(len(v["seats"]) == 2 and v["seats"][0]["interval"][0] >= 0 for v in values)
    bad = run("simulate", TOY, "-n", "2", "--vary", "roundz", ok=False)
    assert bad.exit_code == 2 and "no option 'roundz'" in bad.stderr


def test_too_few_games_warns_with_how_many_would_do():
    text = run("simulate", TOY, "-n", "4", "--seats", "first,random", "-j", "1").stdout
    assert "warning: 4 games are too few for the seats' 95% intervals to separate" in text


def test_jobs_give_the_same_bytes_as_one_core():
    args = ["simulate", TTT, "-n", "12", "--seats", "greedy,random", "--format", "json"]
    one = run(*args, "-j", "1").stdout
    assert run(*args, "-j", "2").stdout == one
    lairs = ["simulate", "lairs", "-p", "2", "-n", "2", "--format", "json"]
    assert run(*lairs, "-j", "2").stdout == run(*lairs, "-j", "1").stdout


@pytest.mark.parametrize("games, jobs", [(200, 2), (7, 2), (1000, 4), (1, 3)])
def test_workers_take_pieces_in_seed_order_that_shrink_to_single_games(games, jobs):
    from interpreter.workbench.parallel import chunks
    pieces = chunks(list(range(games)), jobs)
    assert [k for piece in pieces for k in piece] == list(range(games))
    sizes = [len(piece) for piece in pieces]
    assert sizes == sorted(sizes, reverse=True) and sizes[-jobs:] == [1] * min(jobs, games)
    assert len(pieces) < games or games < 10          # fewer messages than games


def test_shards_on_many_machines_merge_into_the_whole_run(tmp_path):
    args = ["simulate", TOY, "-n", "7", "--seats", "first,random", "-j", "1"]
    whole = run(*args, "--format", "json").stdout
    parts = []
    for i in (1, 2, 3):
        parts.append(tmp_path / f"part{i}.jsonl")
        run(*args, "--shard", f"{i}/3", "--games-out", parts[-1])
    assert sum(len(rows(p)) for p in parts) == 7
    assert run("report", *parts, "--format", "json").stdout == whole
    assert run("report", *reversed(parts)).stdout == run(*args).stdout
    short = run("report", *parts[:2], "--format", "json")
    assert "2 of 7 games are missing" in short.stderr


def test_report_refuses_rows_of_another_simulation(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    run("simulate", TOY, "-n", "2", "-j", "1", "--games-out", a)
    run("simulate", TOY, "-n", "2", "-j", "1", "--seed", "5", "--games-out", b)
    result = run("report", a, b, ok=False)
    assert result.exit_code == 1 and "another simulation" in result.stderr
    (tmp_path / "c.jsonl").write_text("not json\n", encoding="utf-8")
    assert run("report", tmp_path / "c.jsonl", ok=False).exit_code == 2


def test_report_folder_with_page_and_plots(tmp_path):
    folder = tmp_path / "report"
    run("simulate", TOY, "-n", "4", "--seats", "first,random", "-j", "1", "--report", folder)
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert "<table>" in page and "per seat" in page and "http" not in page   # readable offline
    assert json.loads((folder / "report.json").read_text(encoding="utf-8"))["games"] == 4
    if not plots.available():
        pytest.skip("the [plots] extra (matplotlib) is not installed")
    for name in ("win_rates", "scores", "length"):
        assert (folder / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (folder / f"{name}.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")
        assert f"{name}.svg" in page


def test_lairs_reports_the_agent_each_seat_held():
    figures = json.loads(run("simulate", "lairs", "-p", "2", "-n", "2", "-j", "1",
                             "--format", "json").stdout)
    held = [r["name"] for r in figures["records"]]
    assert held and all(name.startswith("agent=") for name in held)
    assert sum(r["games"] for r in figures["records"]) == 4      # 2 seats x 2 games


def test_no_warning_when_the_seats_win_equally_often():
    from interpreter.workbench.balance import _warnings
    seat = {"games": 8, "win_rate": 0.5, "interval": [0.2, 0.8]}
    assert _warnings({"games": 8, "seats": [dict(seat, seat="P1"), dict(seat, seat="P2")]}) == []
    other = dict(seat, seat="P2", win_rate=0.25, interval=[0.07, 0.59])
    [warning] = _warnings({"games": 8, "seats": [dict(seat, seat="P1"), other]})
    assert warning.startswith("8 games are too few") and "separate P1 (50.0%) from P2 (25.0%)" in warning


def test_a_local_dask_cluster_of_two_workers_equals_one_core():
    from interpreter.workbench import cluster
    if not cluster.available():
        pytest.skip("the [cluster] extra (dask distributed) is not installed")
    args = ["simulate", TOY, "-n", "6", "--seats", "first,random", "--format", "json"]
    assert run(*args, "--cluster", "local", "-j", "2").stdout == run(*args, "-j", "1").stdout


@pytest.mark.parametrize("command", [["simulate", TOY, "-n", "3", "-j", "1"],
                                     ["compare", TOY, TOY, "-n", "3", "-j", "1"],
                                     ["coverage", TOY, "-n", "3"]])
def test_progress_on_a_terminal_and_nothing_when_piped(monkeypatch, command):
    import io
    from rich.console import Console
    from interpreter.cli import simulate_cmd
    assert run(*command).stderr.strip() in ("", "note: no scenarios given (--scenarios) and no "
                                                "scenarios/ folder in the ruleset")   # piped
    screen = io.StringIO()
    monkeypatch.setattr(simulate_cmd, "err", lambda: Console(file=screen, force_terminal=True, width=80))
    run(*command)
    assert "playing" in screen.getvalue() and "100%" in screen.getvalue()


def test_rows_files_fit_their_schema_and_report_refuses_a_row_that_does_not(tmp_path):
    import jsonschema
    schema = json.loads((Path(__file__).resolve().parents[1] / "schemas" / "rows.schema.json").read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    path = tmp_path / "rows.jsonl"
    run("simulate", "lairs", "-p", "3", "-n", "2", "-j", "1", "--vary", "board", "--games-out", path)
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for line, part in zip(lines, ["header", "row", "row"]):
        jsonschema.Draft202012Validator({"$ref": f"#/definitions/{part}", **schema}).validate(line)
    lines[2]["scores"] = "high"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    result = run("report", path, ok=False)
    assert result.exit_code == 2
    assert f"{path}:3: not a row of game rows: at $.scores: 'high' is not of type 'array'" in result.stderr
