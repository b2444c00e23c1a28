"""The examples of the README and of docs/ run as written, so the documentation cannot drift."""
from __future__ import annotations

import re
from pathlib import Path

from interpreter.dsl.parser import parse_program
from interpreter.scenarios import run_scenario

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def doc(name: str) -> str:
    return (ROOT / "docs" / name).read_text(encoding="utf-8")


def blocks(language: str, text: str = README) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, re.S)


VENV = "python3 -m venv .venv && . .venv/bin/activate && "     # works where global installs are refused


def test_first_lines_are_the_two_set_up_commands():
    commands = blocks("sh")[0].strip().splitlines()
    assert commands == [VENV + "pip install -e . && rulebook play lairs",
                        VENV + "pip install -e '.[test]' && python -m pytest"]


def test_ci_runs_the_readmes_test_command_and_nothing_else_makes_a_venv():
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line for line in script.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    test_command = blocks("sh")[0].strip().splitlines()[1]
    assert test_command in commands
    assert sum("venv" in line for line in commands) == 1      # the README's line makes the only one
    assert '"$status" -eq 5' in script                         # no tests collected is a failure


def test_python_api_example_runs():
    [code] = [b for b in blocks("python", doc("api.md")) if "load_ruleset" in b]
    exec(compile(code, "docs/api.md", "exec"), {})


def test_scenario_example_passes(tmp_path):
    [text] = [b for b in blocks("yaml", doc("scenarios.md")) if b.lstrip().startswith("# yaml-language-server: $schema=../../../schemas/scenario")]
    folder = Path(__file__).parent / "scenarios"
    path = folder / "_readme_example.yaml"             # beside the others: same relative schema path
    path.write_text(text, encoding="utf-8")
    try:
        result = run_scenario(path)
    finally:
        path.unlink()
    assert result.ok and result.passed > 0, result.lines


def test_effect_language_example_parses():
    language = doc("language.md")
    start = language.index("\ngain 2 coin, 1 mov") + 1
    text = language[start:language.index("```", start)]
    lines = [line for line in text.splitlines() if "..." not in line]   # elided forms
    parse_program("\n".join(lines))


def walk_through() -> str:
    start = README.index("\n## Write a tiny game in five minutes\n")
    return README[start:README.index("\n## ", start + 1)]


def test_the_walk_through_works_as_typed_in(tmp_path, monkeypatch):
    """Every file of the walk-through, written where its first line says, then its commands."""
    import shlex

    from click.testing import CliRunner

    from interpreter.cli.main import cli
    section = walk_through()
    files = re.findall(r"```yaml\n# (\S+\.yaml)\n(.*?)```", section, re.S)
    assert [name for name, _ in files] == ["mygame/game.yaml", "mygame/components.yaml",
                                           "mygame/data/cards.yaml", "mygame/flow.yaml", "tests/tie.yaml"]
    for name, text in files:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    commands = [line for block in re.findall(r"```sh\n(.*?)```", section, re.S) for line in block.splitlines()]
    assert [c.split()[1] for c in commands] == ["validate", "play", "schema", "check"]
    for command in commands:
        result = CliRunner().invoke(cli, shlex.split(command)[1:], input="1\n" * 10)   # a human answers 1 (options count from 1)
        assert result.exit_code == 0, f"{command}\n{result.output}"
        if "check" in command:
            assert "0 failed" in result.output and "0 passed" not in result.output
    assert (tmp_path / "mygame" / "schemas" / "mygame.schema.json").is_file()
