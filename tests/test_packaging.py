"""Packaging: game ids versus paths, a light `rulebook list`, and a real wheel.

The wheel test builds the package as `pip install .` would, installs it in a
fresh virtual environment and plays from a folder outside the repository. It
needs the package index (pip fetches setuptools to build); skip it offline
with ``-m "not network"``.
"""
from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.content import bundled

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "tests" / "scenarios" / "lairs" / "agents_five_players_one_each.yaml"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


# ---------------------------------------------------------------- ids and paths

@pytest.mark.parametrize("argument, expected", [
    ("lairs", False), ("my_game", False),
    ("./lairs", True), (".", True), ("..", True), ("rulesets/lairs", True),
    ("/abs/lairs", True), ("game.yaml", True), ("lairs/game.yaml", True),
])
def test_an_argument_is_a_path_only_when_written_as_one(argument, expected):
    assert bundled.is_path(argument) is expected


@pytest.fixture
def decoy(tmp_path, monkeypatch):
    """A working folder holding a broken `lairs/` ruleset and a folder `mine/`."""
    (tmp_path / "lairs").mkdir()
    (tmp_path / "lairs" / "game.yaml").write_text("id: [\n", encoding="utf-8")
    (tmp_path / "mine").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_bundled_id_wins_over_a_folder_of_that_name(decoy):
    result = run("validate", "lairs")
    assert result.exit_code == 0, result.output
    assert "ok: lairs" in result.output
    result = run("play", "lairs", "-p", "2", "--seed", "3", "-q")
    assert result.exit_code == 0, result.output
    assert "winner" in result.output


@pytest.mark.parametrize("written", ["./lairs", "lairs/game.yaml"])
def test_a_folder_written_as_a_path_is_read(decoy, written):
    result = run("validate", written)
    assert result.exit_code == 1                 # the decoy's broken manifest
    assert "lairs/game.yaml:" in result.output


def test_an_unknown_id_names_the_path_spelling(decoy):
    result = run("validate", "mine")
    assert result.exit_code == 2
    assert "no bundled game 'mine'" in result.output and "./mine" in result.output


def test_a_scenario_naming_a_bundled_id_beside_a_folder_of_that_name(decoy):
    shutil.copy(SCENARIO, decoy / "scenario.yaml")
    result = run("check", "scenario.yaml")
    assert result.exit_code == 0, result.output
    assert "0 failed" in result.output


def test_the_bundled_folders_are_found_in_the_checkout():
    assert bundled.RULESETS == ROOT / "rulesets"
    assert bundled.SCHEMAS == ROOT / "schemas"
    assert "lairs" in bundled.available()


# ---------------------------------------------------------------- light list

HEAVY = ("interpreter.content.ruleset", "interpreter.dsl.parser", "interpreter.engine.game",
         "lark", "jsonschema", "networkx")


def _heavy_modules_after(*args, cache=None) -> list[str]:
    """Which HEAVY modules a fresh interpreter has imported after running `rulebook ARGS`
    (``cache``: the cache folder, "" for none; the user's own when None)."""
    code = ("import sys\nfrom interpreter.cli.main import cli\n"
            f"cli.main({list(args)!r}, standalone_mode=False)\n"
            f"print([m for m in {HEAVY!r} if m in sys.modules])\n")
    env = dict(os.environ, **({} if cache is None else {"RULEBOOK_CACHE_DIR": str(cache)}))
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr
    return ast.literal_eval(proc.stdout.strip().splitlines()[-1])


def test_list_does_not_import_the_loader():
    assert _heavy_modules_after("list") == []


def test_a_load_imports_the_heavy_modules():
    # The checks here are only worth something if they would see them: with nothing
    # remembered, loading parses and checks schemas, a game with graphs builds them.
    seen = set(_heavy_modules_after("play", "lairs", "-p", "2", "-q", cache=""))
    seen |= set(_heavy_modules_after("validate", "--no-smoke", "secret-societies", cache=""))
    assert sorted(seen) == sorted(HEAVY)


def test_a_load_it_checked_before_imports_no_parser_and_no_checker(tmp_path):
    _heavy_modules_after("validate", "lairs", cache=tmp_path)
    assert _heavy_modules_after("validate", "lairs", cache=tmp_path) == ["interpreter.content.ruleset"]


# ---------------------------------------------------------------- a real wheel

# What a build reads; copied so the build leaves nothing in the checkout.
BUILD_INPUTS = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md",
                "interpreter", "rulesets", "schemas")
DEPENDENCIES = ("yaml", "jsonschema", "lark", "networkx", "click", "rich")


def _dependency_dirs() -> list[str]:
    """The folders this environment's dependencies are imported from (never the checkout)."""
    import importlib
    dirs = {str(Path(importlib.import_module(name).__file__).resolve().parents[1])
            for name in DEPENDENCIES}
    assert not any((Path(d) / "interpreter").is_dir() for d in dirs), dirs
    return sorted(dirs)


def _sh(*args, cwd, env=None):
    proc = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, f"{args}\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


@pytest.mark.network
def test_a_wheel_in_a_fresh_environment_lists_plays_validates_checks_and_replays(tmp_path):
    source, wheels, env_dir, elsewhere = (tmp_path / n for n in ("src", "wheels", "venv", "work"))
    source.mkdir()
    for name in BUILD_INPUTS:
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy
        copy(ROOT / name, source / name)
    _sh(sys.executable, "-m", "pip", "wheel", source, "--no-deps", "-w", wheels, "-q", cwd=tmp_path)
    wheel, = wheels.glob("rulebook-*.whl")

    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / "python"
    _sh(python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel, cwd=tmp_path)
    # The dependencies come from this environment, so nothing is downloaded.
    site = _sh(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])",
               cwd=tmp_path).strip()
    Path(site, "dependencies.pth").write_text("\n".join(_dependency_dirs()) + "\n")

    elsewhere.mkdir()
    (elsewhere / "lairs").mkdir()                  # a folder named like the bundled game
    shutil.copy(SCENARIO, elsewhere / "scenario.yaml")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    rulebook = bin_dir / "rulebook"

    def sh(*args):
        return _sh(*args, cwd=elsewhere, env=env)

    where = sh(python, "-c", "import interpreter.content.bundled as b; print(b.__file__, b.RULESETS)")
    assert str(env_dir) in where and str(ROOT) not in where, where
    assert "_bundled" in where
    assert "lairs" in sh(rulebook, "list")
    assert "ok: lairs" in sh(rulebook, "validate", "lairs")
    assert "winner" in sh(rulebook, "play", "lairs", "-p", "2", "--seed", "3", "-q",
                          "--log", "game.json")
    assert json.loads((elsewhere / "game.json").read_text())
    sh(rulebook, "replay", "game.json")
    assert "0 failed" in sh(rulebook, "check", "scenario.yaml")
