"""`rulebook validate` in every format: text with a summary by kind, JSON, GitHub
annotations and SARIF 2.1.0 (checked against the vendored schema), and the pre-commit hook."""
from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.diagnostics import Diagnostic
from interpreter.workbench import formats

from support import edit
from test_validate_all import LAIRS, MISTAKES

ROOT = Path(__file__).resolve().parents[1]
SARIF = json.loads((ROOT / "tests" / "data" / "sarif-2.1.0.schema.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def broken(tmp_path_factory):
    folder = tmp_path_factory.mktemp("broken") / "lairs"
    shutil.copytree(LAIRS, folder)
    for file, old, new, _, _ in MISTAKES:
        edit(folder / file, old, new)
    return folder


def run(*args):
    return CliRunner().invoke(cli, ["validate", "--no-smoke", *map(str, args)])


def test_text_lists_every_problem_and_a_summary_by_kind(broken):
    result = run(broken)
    assert result.exit_code == 1
    lines = result.output.rstrip().splitlines()
    assert lines[-1] == "5 problem(s)"
    assert lines[-2] == "(3 more that only follow from these were left out)"
    assert lines[-3] == ("by kind: 2 schema-unknown-key, 1 dsl-syntax, 1 dsl-unknown-counter, "
                         "1 schema-type")
    assert "\x1b[" not in result.output                 # not a terminal: no colour


def test_colour_only_on_a_terminal_and_never_with_no_color(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert formats.use_colour(Tty()) and not formats.use_colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not formats.use_colour(Tty())
    shown = formats.colour("a.yaml:1:2: error[x-y]: bad\n  text\n  ^^^")
    assert "\x1b[31;1merror\x1b[0m" in shown and "\x1b[32;1m^^^\x1b[0m" in shown


def test_json_is_the_list_of_diagnostics(broken):
    result = run(broken, "--format", "json")
    found = json.loads(result.output)
    assert result.exit_code == 1 and len(found) == 5
    assert all(Diagnostic(**d).location().count(":") == 2 for d in found)


def test_github_annotations_escape_what_the_commands_reserve(broken):
    result = run(broken, "--format", "github")
    lines = result.output.splitlines()
    assert result.exit_code == 1 and len(lines) == 5
    assert all(line.startswith("::error file=") and ",line=" in line and ",col=" in line
               for line in lines)
    one = formats.github([Diagnostic("a-b", "two\nlines, 100%", "x,y:z.yaml", 3, 4, hint="h")])
    assert one == "::error file=x%2Cy%3Az.yaml,line=3,col=4,title=rulebook a-b::two%0Alines, 100%25 (hint: h)"


def test_sarif_is_valid_against_the_sarif_2_1_0_schema(broken):
    result = run(broken, "--format", "sarif")
    assert result.exit_code == 1
    log = json.loads(result.output)
    jsonschema.Draft4Validator(SARIF).validate(log)
    run_ = log["runs"][0]
    assert len(run_["results"]) == 5
    rules = [r["id"] for r in run_["tool"]["driver"]["rules"]]
    for res in run_["results"]:
        assert rules[res["ruleIndex"]] == res["ruleId"]
        region = res["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
    ok = run("lairs", "--format", "sarif")
    assert ok.exit_code == 0
    jsonschema.Draft4Validator(SARIF).validate(json.loads(ok.output))


def test_sarif_schema_catches_a_broken_log():
    # The check can fail: a result without a message is refused by the schema.
    log = json.loads(formats.sarif([Diagnostic("a", "m", "f.yaml", 1, 1)], "0"))
    del log["runs"][0]["results"][0]["message"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(SARIF).validate(log)


def test_the_pre_commit_hook_runs_rulebook_validate_on_a_folder(broken):
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hook = next(h for h in hooks if h["id"] == "rulebook-validate")
    assert hook["entry"].split() == ["rulebook", "validate"] and hook["pass_filenames"] is False
    assert hook["language"] == "python"
    command = hook["entry"].split()[1:]
    good = CliRunner().invoke(cli, [*command, str(LAIRS)])
    bad = CliRunner().invoke(cli, [*command, "--no-smoke", str(broken)])
    assert (good.exit_code, bad.exit_code) == (0, 1)


def test_the_readme_shows_the_three_pre_commit_lines_of_that_hook():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    [block] = [b for b in re.findall(r"```yaml\n(.*?)```", readme, re.S) if "rulebook-validate" in b]
    [entry] = yaml.safe_load(block)
    assert len(block.strip().splitlines()) == 3 and set(entry) == {"repo", "rev", "hooks"}
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert [h["id"] for h in entry["hooks"]] == ["rulebook-validate"] == [h["id"] for h in hooks]
