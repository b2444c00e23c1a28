"""Loading reports every problem in one run: a broken entry is set aside and
the rest of every file is still checked, without repeating what follows from it."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.diagnostics import ContentError

from support import edit, position

LAIRS = Path(__file__).resolve().parents[1] / "rulesets" / "lairs"

# Five mistakes in four files: one schema error hid the other four before.
MISTAKES = [
    ("components.yaml", "  bonus_used: {default: 0,", "  bonus_used: {defualt: 0,", "defualt",
     "schema-unknown-key"),
    ("flow.yaml", "        spend back(i).number coin ", "        spend back(i).number coin coin ",
     "coin coin", "dsl-syntax"),
    ("data/gadgets.yaml", "normal: gain 2 stl\n", "normal: gain 2 stlth\n", "stlth",
     "dsl-unknown-counter"),
    ("data/boards.yaml", "    shift_cost: 1", "    shift_cost: one", "cost: one", "schema-type"),
    ("data/boards.yaml", "    gadget_shift_cost: 1", "    gadget_shift_cost: 1\n    gadget_shfit: 2",
     "gadget_shfit", "schema-unknown-key"),
]


@pytest.fixture
def copy(tmp_path):
    target = tmp_path / "lairs"
    shutil.copytree(LAIRS, target)
    return target


def diagnostics(folder):
    with pytest.raises(ContentError) as caught:
        load_ruleset(str(folder))
    return caught.value


def test_five_mistakes_in_four_files_are_all_reported_at_once(copy):
    for file, old, new, _, _ in MISTAKES:
        edit(copy / file, old, new)
    found = diagnostics(copy).diagnostics
    assert sorted(d.code for d in found) == sorted(m[4] for m in MISTAKES), \
        [(d.code, d.message) for d in found]
    for file, _, _, needle, code in MISTAKES:
        line, col = position(copy / file, needle)
        assert any(d.code == code and d.file.endswith(file) and d.line == line
                   and col <= d.col <= col + len(needle) for d in found), (file, code)


def test_a_declaration_set_aside_is_not_reported_again_at_its_uses(copy):
    # A counter with a wrong type is set aside; the texts that use it are not each an error.
    edit(copy / "components.yaml", "  stl:", "  stl: 5\n  stl_unused:")
    error = diagnostics(copy)
    assert [d.code for d in error.diagnostics] == ["schema-type"], \
        [(d.code, d.message) for d in error.diagnostics]
    assert error.left_out > 0          # the uses were found, and left out as consequences


def test_an_effect_error_in_one_file_shows_beside_a_yaml_error_in_another(copy):
    edit(copy / "data/missions.yaml", "missions:", "missions: [")
    edit(copy / "flow.yaml", "        spend back(i).number coin ", "        spend back(i).number coin coin ")
    codes = {d.code for d in diagnostics(copy).diagnostics}
    assert {"yaml-syntax", "dsl-syntax"} <= codes, codes


def test_a_valid_record_beside_a_broken_one_is_still_checked(copy):
    # agents.yaml: one record with an unknown key, another (same file) with a bad effect text.
    edit(copy / "data/agents.yaml", "    secret_bonus: 2", "    secret_bonus: 2\n    secret_bonsu: 2")
    edit(copy / "data/gadgets.yaml", "normal: gain 2 stl\n", "normal: gain 2 stlth\n")
    codes = sorted(d.code for d in diagnostics(copy).diagnostics)
    assert codes == ["dsl-unknown-counter", "schema-unknown-key"], codes


def test_a_broken_manifest_still_lets_its_files_be_read(copy):
    # 'players' is required, so the manifest cannot be used; the files it names are still checked.
    edit(copy / "game.yaml", "players: {min: 2, max: 12, default: 4}", "players: {min: 2, max: twelve}")
    edit(copy / "components.yaml", "  bonus_used: {default: 0,", "  bonus_used: {defualt: 0,")
    edit(copy / "data/missions.yaml", "missions:", "missions: [")
    found = diagnostics(copy).diagnostics
    where = sorted((Path(d.file).name, d.code) for d in found)
    assert where == [("components.yaml", "schema-unknown-key"), ("game.yaml", "schema-type"),
                     ("missions.yaml", "yaml-syntax")], where


def test_a_bad_data_list_in_the_manifest_is_one_problem(copy):
    # The data list is set aside, so no record loads; what follows from that is left out.
    edit(copy / "game.yaml", "  - data/items.yaml", "  - 5")
    error = diagnostics(copy)
    assert [d.code for d in error.diagnostics] == ["schema-type"], \
        [(d.code, d.message) for d in error.diagnostics]
    assert error.left_out > 0
