"""`rulebook schema GAME [--out DIR]`: the data schema of any ruleset, in or out of this repository."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import yaml
from click.testing import CliRunner

from interpreter.cli.main import cli

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "rulesets" / "toy"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_a_ruleset_outside_the_repository_gets_its_data_schema(tmp_path):
    game = tmp_path / "mine"
    shutil.copytree(TOY, game)
    result = run("schema", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    written = tmp_path / "out" / "toy.schema.json"
    assert result.output == f"wrote {written}\n"
    schema = json.loads(written.read_text(encoding="utf-8"))
    data = yaml.safe_load((game / "data" / "cards.yaml").read_text(encoding="utf-8"))
    jsonschema.validate(data, schema)                       # the game's own data passes
    data["cards"][0]["value"] = "high"
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(data))   # a wrong one does not


def test_without_out_it_prints_what_the_repository_tool_writes():
    result = run("schema", "lairs")
    assert result.exit_code == 0
    assert result.output == (ROOT / "schemas" / "data" / "lairs.schema.json").read_text(encoding="utf-8")


def test_a_broken_ruleset_is_reported_not_written(tmp_path):
    game = tmp_path / "mine"
    shutil.copytree(TOY, game)
    (game / "components.yaml").write_text("tables: [\n", encoding="utf-8")
    result = run("schema", game, "--out", tmp_path / "out")
    assert result.exit_code == 1 and "components.yaml:" in result.output
    assert not (tmp_path / "out").exists()
