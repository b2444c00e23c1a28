"""The vocabulary reference: made from the mechanics tables, complete, current, and on the command line."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter import mechanics
from interpreter.cli.main import cli
from interpreter.content.ruleset import load_ruleset
from interpreter.dsl.check import check
from interpreter.dsl.parser import parse_expression, parse_program
from interpreter.mechanics import reference
from interpreter.mechanics.seats import BUILTINS, PLAYER_ATTRIBUTES

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "rulesets" / "toy"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


ENTRIES = ([("verb", name, v) for name, v in mechanics.VERBS.items()]
           + [("function", name, f) for name, f in mechanics.FUNCTIONS.items()]
           + [("name", name, n) for name, n in mechanics.NAMES.items()]
           + [("attribute", name, n) for name, n in mechanics.PLAYER_FIELDS.items()])


@pytest.mark.parametrize("what,name,entry", ENTRIES, ids=[f"{w}:{n}" for w, n, _ in ENTRIES])
def test_every_entry_has_a_meaning_and_an_example_that_parses_and_uses_it(what, name, entry):
    assert entry.doc and entry.doc[0].islower() and not entry.doc.endswith("."), entry.doc
    assert entry.example and name in entry.example
    if what == "verb":
        assert parse_program(entry.example).body[0].verb == name
    else:
        parse_expression(entry.example)


def test_every_built_in_name_and_player_attribute_is_in_the_reference_tables():
    assert set(mechanics.NAMES) == set(BUILTINS)
    assert set(mechanics.PLAYER_FIELDS) == set(PLAYER_ATTRIBUTES)


def test_docs_reference_is_current():
    written = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    assert written == reference.language(), "docs/reference.md is stale: run python tools/export_reference.py"


def test_export_tool_says_when_the_page_is_stale(tmp_path, monkeypatch):
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import export_reference
    finally:
        sys.path.pop(0)
    monkeypatch.setattr(export_reference, "OUT", tmp_path / "reference.md")
    assert export_reference.main(["--check"]) == 1
    assert export_reference.main([]) == 0
    assert export_reference.main(["--check"]) == 0


def test_rulebook_vocab_lists_every_verb_function_name_and_attribute_with_its_signature():
    result = run("vocab")
    assert result.exit_code == 0, result.output
    for verb in mechanics.VERBS.values():
        assert f"`{verb.summary}` | {verb.doc}" in result.output
    for function in mechanics.FUNCTIONS.values():
        assert f"`{function.signature.text}` | {function.doc}" in result.output
    for name in [*mechanics.NAMES, *(f"p.{a}" for a in mechanics.PLAYER_FIELDS)]:
        assert f"`{name}`" in result.output
    assert "`tell player or list of player \"TEXT\"`" in result.output


def test_rulebook_vocab_game_adds_its_declared_names_tables_and_fields():
    result = run("vocab", "lairs")
    assert result.exit_code == 0, result.output
    own = result.output.split("# Lairs: its own names", 1)[1]
    for text in ("| counters | `coin` | a number |", "| grids | `lair` | a grid |",
                 "## Table `plan_cards`", "`item` | a record of items", "plan_001",
                 "`board`:", "## Procedures"):
        assert text in own


def test_rulebook_vocab_of_a_folder_and_of_a_game_that_does_not_exist():
    assert "| counters | `coin` | a number |" in run("vocab", TOY).output
    assert run("vocab", "no_such_game").exit_code == 2


# ---------------------------------------------------------------- did you mean

def _hints(text: str) -> list:
    vocab = load_ruleset(str(TOY)).vocabulary()
    return [(p.code, p.hint) for p in check(parse_program(text), vocab)]


@pytest.mark.parametrize("text,code,hint", [
    ("x = sortt([1])", "dsl-unknown-function", "did you mean 'sort'?"),          # a mechanics function
    ("x = joyn([1], \"\")", "dsl-unknown-function", "did you mean 'join'?"),
    ("gain playr_count coin", "dsl-unknown-name", "did you mean 'player_count'?"),  # a built-in
    ("gain count coin", "dsl-unknown-name", "'count' is a function: count(list) -> number"),
    ("gain player_count() coin", "dsl-unknown-function",
     "'player_count' is a name, not a function: write it without brackets"),
    ("x = shuffle(deck)", "dsl-unknown-function", "'shuffle' is a verb: write 'shuffle ...' as a statement"),
    ("x = announce", "dsl-unknown-name", "'announce' is a verb: a statement of its own"),
    ("sort deck", "dsl-unknown-verb", "'sort' is a function, used in an expression: sort(list of K) -> list of K"),
    ("shufle deck", "dsl-unknown-verb", "did you mean 'shuffle'?"),
])
def test_did_you_mean_knows_built_ins_functions_and_verbs(text, code, hint):
    assert _hints(text) == [(code, hint)]


def test_the_export_tool_runs_as_a_script():
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "export_reference.py"), "--check"],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr


def test_rulebook_dsl_says_a_tell_back_without_its_inner_keyword():
    result = run("dsl", TOY, 'tell players[1] text("you hold", 2)')
    assert result.exit_code == 0, result.output
    assert result.output.strip() == 'tell players #1 text("you hold", 2)'
