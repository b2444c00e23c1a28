"""The `rulebook` command line: every command, its output and its exit status."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli import render
from interpreter.cli.main import cli

ROOT = Path(__file__).resolve().parents[1]
LAIRS = ROOT / "rulesets" / "lairs"


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


# ---------------------------------------------------------------- list / info

def test_help_lists_commands():
    result = run("--help")
    assert result.exit_code == 0
    for command in ("list", "info", "validate", "dsl", "play", "replay", "simulate", "check"):
        assert command in result.output


def test_version():
    result = run("--version")
    assert result.exit_code == 0 and "rulebook" in result.output


def test_list():
    result = run("list")
    assert result.exit_code == 0
    assert "lairs" in result.output and "Lairs" in result.output and "2-12" in result.output


def test_python_dash_m_list():
    proc = subprocess.run([sys.executable, "-m", "interpreter", "list"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "lairs" in proc.stdout


def test_info_text():
    result = run("info", "lairs")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "players: 2..12 (default 4)" in out
    assert "board (choice, default polar_base)" in out
    assert "superyacht" in out and "(table boards)" in out          # a table option lists ids
    assert "free_agent_choice (bool, default false)" in out
    assert "expansions: none" in out


def test_info_json():
    result = run("info", "lairs", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["id"] == "lairs"
    assert data["players"] == {"min": 2, "max": 12, "default": 4}
    assert "polar_base" in data["options"]["board"]["values"]
    assert data["options"]["beginner"]["type"] == "seats"
    assert data["expansions"] == []


def test_info_lists_each_choosable_record_with_its_text():
    result = run("info", "secret-societies", "--format", "json")
    factions = json.loads(result.output)["options"]["factions"]["records"]
    assert [r["id"] for r in factions] == ["influencers", "stonesmiths", "robots", "aliens",
                                            "reptilians", "vampires", "illuminati", "tech_bros"]
    assert all(len(r["text"]) > 40 and "not implemented" not in r["text"] for r in factions)
    text = run("info", "secret-societies").output
    assert "Tech Bros (tech_bros): " in text and "drone" in text


def test_info_unknown_game():
    result = run("info", "no_such_game")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and len(result.stderr.splitlines()) == 1


# ---------------------------------------------------------------- validate

def test_validate_bundled():
    result = run("validate", "lairs")
    assert result.exit_code == 0
    assert result.output.startswith("ok: lairs (") and "effect texts)" in result.output
    assert len(result.output.splitlines()) == 1


def _broken_copy(tmp_path) -> tuple[Path, int]:
    folder = tmp_path / "broken"
    shutil.copytree(LAIRS, folder)
    manifest = folder / "game.yaml"
    lines = manifest.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("score:"))
    lines.insert(at + 1, "scroe: 3")
    manifest.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder, at + 2


def test_validate_unknown_key(tmp_path):
    folder, line = _broken_copy(tmp_path)
    result = run("validate", folder)
    assert result.exit_code == 1
    assert f"game.yaml:{line}:1" in result.output
    assert "unknown key" in result.output
    assert "^" in result.output
    assert result.output.rstrip().endswith("1 problem(s)")


def test_validate_json(tmp_path):
    folder, line = _broken_copy(tmp_path)
    result = run("validate", folder, "--format", "json")
    assert result.exit_code == 1
    problems = json.loads(result.output)
    assert [p["line"] for p in problems] == [line]
    assert problems[0]["file"].endswith("game.yaml")
    ok = run("validate", "lairs", "--format", "json")
    assert ok.exit_code == 0 and json.loads(ok.output) == []


def test_validate_missing_path(tmp_path):
    result = run("validate", tmp_path / "nowhere")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ")
    empty = run("validate", tmp_path)                   # a folder without a manifest
    assert empty.exit_code == 2


# ---------------------------------------------------------------- dsl

def test_dsl_explains():
    result = run("dsl", "lairs", "gain 2 coin")
    assert result.exit_code == 0, result.output
    assert "gain 2 coin" in result.output


def test_dsl_expression_fallback():
    result = run("dsl", "lairs", "self.coin + 2")
    assert result.exit_code == 0, result.output
    assert "coin" in result.output
    assert run("dsl", "lairs", "1 + 2", "--expression").exit_code == 0


def test_dsl_misspelled_name():
    result = run("dsl", "lairs", "gain 2 coins")
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0].startswith("<dsl>:1:")
    assert "error[" in lines[0]
    assert lines[1].strip() == "gain 2 coins"
    assert lines[2].strip().startswith("^")
    assert "= hint: did you mean 'coin'?" in result.output


def test_dsl_syntax_error():
    result = run("dsl", "lairs", "gain 2 coin(")
    assert result.exit_code == 1
    assert result.output.startswith("<dsl>:1:") and "^" in result.output


# ---------------------------------------------------------------- play / replay

@pytest.mark.parametrize("players", [2, 12])
def test_play_quiet(players):
    result = run("play", "lairs", "--players", players, "--quiet")
    assert result.exit_code == 0, result.output
    assert f"P{players}" in result.output
    assert result.output.splitlines()[-1].startswith(("winner: P", "tie: P"))


def test_play_is_deterministic():
    args = ("play", "lairs", "-p", "2", "--seed", "5", "--seats", "greedy,random")
    first, second = run(*args), run(*args)
    assert first.exit_code == 0, first.output
    assert first.stdout_bytes == second.stdout_bytes
    other = run("play", "lairs", "-p", "2", "--seed", "6", "--seats", "greedy,random")
    assert other.stdout_bytes != first.stdout_bytes
    assert "\x1b[" not in first.output                           # no colours off a terminal


def _logged_game(tmp_path) -> Path:
    log = tmp_path / "game.json"
    result = run("play", "lairs", "-p", "3", "--seed", "3", "--log", log, "-q")
    assert result.exit_code == 0, result.output
    return log


def test_log_and_replay(tmp_path):
    path = _logged_game(tmp_path)
    log = json.loads(path.read_text(encoding="utf-8"))
    for key in ("format", "game", "expansions", "players", "seed", "options", "seats",
                "actions", "final", "result"):
        assert key in log
    assert log["players"] == 3 and log["seats"] == ["random"] * 3
    assert log["options"]["board"] == "polar_base"              # resolved, defaults filled
    result = run("replay", path)
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"replay ok: {log['final']}"


def test_replay_tampered_action(tmp_path):
    path = _logged_game(tmp_path)
    log = json.loads(path.read_text(encoding="utf-8"))
    step = next(i for i, (_, index) in enumerate(log["actions"]) if index == 0)
    log["actions"][step][1] = 1                                 # another plausible option
    path.write_text(json.dumps(log), encoding="utf-8")
    result = run("replay", path)
    assert result.exit_code == 1
    assert "replay" in result.output and ("differs" in result.output or "step" in result.output)


def test_replay_tampered_hash(tmp_path):
    path = _logged_game(tmp_path)
    log = json.loads(path.read_text(encoding="utf-8"))
    log["final"] = "0" * 64
    path.write_text(json.dumps(log), encoding="utf-8")
    result = run("replay", path)
    assert result.exit_code == 1 and "differs" in result.output


def test_replay_refused_action(tmp_path):
    path = _logged_game(tmp_path)
    log = json.loads(path.read_text(encoding="utf-8"))
    log["actions"][4][1] = 999
    path.write_text(json.dumps(log), encoding="utf-8")
    result = run("replay", path)
    assert result.exit_code == 1
    assert "step 5" in result.output and "does not exist" in result.output


def test_replay_bad_files(tmp_path):
    assert run("replay", tmp_path / "missing.json").exit_code == 2
    junk = tmp_path / "junk.json"
    junk.write_text("{not json", encoding="utf-8")
    result = run("replay", junk)
    assert result.exit_code == 2 and result.stderr.startswith("error: ")


@pytest.mark.parametrize("args, words", [
    (("-o", "board=nowhere"), "board"),
    (("-o", "bord=superyacht"), "did you mean 'board'"),
    (("-o", "board"), "KEY=VALUE"),
    (("-o", "free_agent_choice=maybe"), "true or false"),
    (("--players", "13"), "2 to 12"),
    (("--seats", "random,nobody"), "unknown seat 'nobody'"),
    (("-x", "nothing"), "no expansion 'nothing'"),
])
def test_play_bad_arguments(args, words):
    result = run("play", "lairs", "-p", "2", *args)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and words in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_play_with_options():
    result = run("play", "lairs", "-p", "2", "-q", "-o", "board=superyacht", "-o", "beginner=1",
                 "-o", "free_agent_choice=true", "-o", "expert_gadgets=stun_gun")
    assert result.exit_code == 0, result.output


# ---------------------------------------------------------------- simulate

def test_simulate_text():
    result = run("simulate", "lairs", "--games", "3", "-p", "2")
    assert result.exit_code == 0, result.output
    assert "3 games" in result.output and "average decisions per game" in result.output


def test_simulate_json():
    result = run("simulate", "lairs", "--games", "3", "-p", "3", "--seed", "4",
                 "--seats", "first,random", "--no-rotate", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 3 and data["players"] == 3 and data["seed"] == 4
    assert [s["bot"] for s in data["seats"]] == ["first", "random", "random"]
    for seat in data["seats"]:
        assert set(seat) >= {"seat", "bot", "wins", "average", "min", "max"}
        assert seat["min"] <= seat["average"] <= seat["max"]
    assert sum(s["wins"] for s in data["seats"]) == pytest.approx(3)
    assert data["decisions_per_game"] > 0


def test_simulate_refuses_humans():
    result = run("simulate", "lairs", "--games", "1", "--seats", "human")
    assert result.exit_code == 2 and "human" in result.stderr


# ---------------------------------------------------------------- check

def test_check_calls_scenarios(monkeypatch, tmp_path):
    fake = types.ModuleType("interpreter.scenarios")
    fake.check_paths = lambda paths: (1, 1, [f"ok {paths[0]}", f"FAIL {paths[1]}"])
    monkeypatch.setitem(sys.modules, "interpreter.scenarios", fake)
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("game: x\n")
    b.write_text("game: x\n")
    result = run("check", str(a), str(b))
    assert result.exit_code == 1
    assert result.output.splitlines() == [f"ok {a}", f"FAIL {b}", "1 passed, 1 failed"]


def test_check_a_missing_file_is_a_usage_error():
    result = run("check", "no/such/scenario.yaml")
    assert result.exit_code == 2 and "no such scenario" in result.stderr


def test_check_without_scenarios(monkeypatch):
    monkeypatch.setitem(sys.modules, "interpreter.scenarios", None)
    result = run("check", "a.yaml")
    assert result.exit_code == 2 and result.stderr.startswith("error: ")


# ---------------------------------------------------------------- grid drawing

def test_grid_drawing_is_generic():
    data = {"items": {"1,1": "red_box", "2,3": "lamp"}, "walls": ["1,1,e", "1,3,s", "2,2,w"]}
    spec = {"rows": 2, "cols": 3, "tags": {"exit": [[2, 3]]}}
    lines = render.draw_grid(data, spec, {"lamp": "Old Lamp"})
    assert lines[1] == "   +-----+-----+-----+"
    assert lines[2] == " 1 | RB  # .     .   |"
    assert lines[3] == "   +     +     +#####+"
    assert lines[4] == " 2 | .   # .     LAMe|"
    assert "LAM=lamp (Old Lamp), RB=red_box" in lines[6]
    assert "e=exit" in lines[7]


def test_grid_size_without_declaration():
    assert render.grid_size({"items": {"3,4": "a"}, "walls": ["6,2,e"]}) == (6, 4)


def test_abbreviations_are_distinct():
    ids = ["giant_saw", "gold_sack", "gs", "laser", "lasso", "las"]
    abbr = render.abbreviations(ids)
    assert len(set(abbr.values())) == len(ids)
    assert all(2 <= len(a) <= 3 for a in abbr.values())
