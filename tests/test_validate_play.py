"""`validate` catches what the first game would hit: option defaults, player
counts, floats where integers are declared and keys that are not text, each
at its file:line:col."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.diagnostics import ContentError

from support import edit, position
from interpreter.engine.game import Game






def only(folder: Path, code: str):
    with pytest.raises(ContentError) as caught:
        load_ruleset(str(folder))
    found = caught.value.diagnostics
    assert [d.code for d in found] == [code], [(d.code, d.message) for d in found]
    return found[0]


def add_option(toy: Path, text: str) -> None:
    edit(toy / "game.yaml", "expansions: {}", text + "expansions: {}")


# ---------------------------------------------------------------- options

@pytest.mark.parametrize("option,needle,words", [
    ("  level:\n    values: [1, 2]\n    default: 3\n", "default: 3", "must be one of 1, 2, not 3"),
    ("  level:\n    values: [1, 2]\n    default: '1'\n", "default: '1'", "not '1'"),
    ("  pick:\n    type: subset\n    values: [a, b]\n    default: [c]\n", "default: [c]",
     "c not among a, b"),
    ("  deck:\n    table: cards\n    default: c9\n", "default: c9", "not 'c9'"),
    ("  seat:\n    type: seats\n    default: [3]\n", "default: [3]", "with 2 players"),
])
def test_an_option_default_play_would_refuse(toy, option, needle, words):
    add_option(toy, option)
    diag = only(toy, "option-default")
    assert words in diag.message
    line, col = position(toy / "game.yaml", needle)
    assert (diag.line, diag.col) == (line, col + len("default: "))
    assert diag.file.endswith("game.yaml")


@pytest.mark.parametrize("spec", ["values: [1, 2]", "type: subset\n    values: [a]",
                                  "type: bool", "type: seats"])
def test_an_option_without_a_default_is_reported_at_its_name(toy, spec):
    add_option(toy, f"  level:\n    {spec}\n")
    diag = only(toy, "option-default")
    assert (diag.line, diag.col) == position(toy / "game.yaml", "level:")
    assert "add a default" in diag.hint


def test_a_bool_default_of_the_wrong_type_is_a_schema_error(toy):
    add_option(toy, "  fast:\n    type: bool\n    default: 1\n")
    diag = only(toy, "schema-type")
    assert diag.line == position(toy / "game.yaml", "default: 1", nth=2)[0]


def test_good_defaults_still_play(toy):
    add_option(toy, "  seat:\n    type: seats\n    default: [1, 2]\n"
                    "  deck:\n    table: cards\n    default: c1\n")
    rules = load_ruleset(str(toy))
    assert Game.new(rules, players=2, seed=1).state["options"]["seat"] == [1, 2]


# ---------------------------------------------------------------- players

def test_min_over_max_players(toy):
    edit(toy / "game.yaml", "{min: 2, max: 3, default: 2}", "{min: 3, max: 2, default: 2}")
    diag = only(toy, "players-range")
    assert (diag.line, diag.col) == position(toy / "game.yaml", "3, max")


@pytest.mark.parametrize("default", [1, 5])
def test_a_default_player_count_outside_min_and_max(toy, default):
    edit(toy / "game.yaml", "default: 2}", f"default: {default}}}")
    diag = only(toy, "players-range")
    assert (diag.line, diag.col) == position(toy / "game.yaml", f"{default}}}")


# ---------------------------------------------------------------- integers

@pytest.mark.parametrize("file,old,new,needle", [
    ("components.yaml", "coin: {start: 3,", "coin: {start: 3.5,", "3.5"),
    ("components.yaml", "coin: {start: 3,", "coin: {start: 3.0,", "3.0"),
    ("components.yaml", "min: 0, max: 10", "min: 0, max: 10.5", "10.5"),
    ("components.yaml", "row: {count: 2,", "row: {count: 2.5,", "2.5"),
    ("components.yaml", "count: 6\n", "count: 6.0\n", "6.0"),
    ("data/cards.yaml", "{id: c2, value: 2}", "{id: c2, value: 1.5}", "1.5"),
    ("game.yaml", "{min: 2, max: 3", "{min: 2.0, max: 3", "2.0"),
])
def test_a_float_where_an_integer_is_declared(toy, file, old, new, needle):
    edit(toy / file, old, new)
    diag = only(toy, "schema-type")
    assert "expected integer" in diag.message
    assert (diag.line, diag.col) == position(toy / file, needle)


def test_grid_rows_must_be_whole_numbers(toy):
    edit(toy / "components.yaml", "tables:", "grids:\n  sheet: {rows: 2.0, cols: 3}\ntables:")
    diag = only(toy, "schema-type")
    assert (diag.line, diag.col) == position(toy / "components.yaml", "2.0")


# ---------------------------------------------------------------- keys

@pytest.mark.parametrize("key,shown", [("1", "integer 1"), ("true", "boolean true"),
                                       ("null", "null"), ("~", "null"), ("2.5", "number 2.5")])
def test_a_key_that_is_not_text(toy, key, shown):
    edit(toy / "components.yaml", "  step: 0\n", f"  step: 0\n  {key}: x\n")
    diag = only(toy, "schema-key-type")
    assert diag.message == f"a key must be a text, not {shown}"
    assert (diag.line, diag.col) == position(toy / "components.yaml", f"{key}: x")


def test_a_key_that_is_not_text_in_a_data_file(toy):
    edit(toy / "data/cards.yaml", "{id: c2, value: 2}", "{id: c2, value: 2, 7: x}")
    diag = only(toy, "schema-key-type")
    assert (diag.line, diag.col) == position(toy / "data/cards.yaml", "7: x")


def test_a_quoted_key_is_text(toy):
    edit(toy / "components.yaml", "  step: 0\n", "  step: 0\n  '1': x\n")
    with pytest.raises(ContentError) as caught:      # a text key, if not a name
        load_ruleset(str(toy))
    assert [d.code for d in caught.value.diagnostics] == ["schema-invalid"]
