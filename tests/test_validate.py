"""Validation of whole rulesets: every kind of content error is reported at
its file:line:col, and nothing loads until all are fixed."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.diagnostics import ContentError

from support import edit, position

LAIRS = Path(__file__).resolve().parents[1] / "rulesets" / "lairs"


@pytest.fixture
def copy(tmp_path):
    target = tmp_path / "lairs"
    shutil.copytree(LAIRS, target)
    return target



def line_col(path: Path, needle: str, offset: int = 0) -> tuple[int, int]:
    return position(path, needle, offset=offset)


def problems(folder: Path):
    with pytest.raises(ContentError) as caught:
        load_ruleset(str(folder))
    return caught.value.diagnostics


def only(folder: Path, code: str):
    found = problems(folder)
    assert [d.code for d in found] == [code], [(d.code, d.message) for d in found]
    return found[0]


def test_bundled_ruleset_is_valid():
    rules = load_ruleset("lairs")
    assert len(rules.tables["plan_cards"]) == 108


@pytest.mark.parametrize("file,old,new,needle", [
    ("game.yaml", "score: wealth", "score: wealth\nscroe: wealth", "scroe"),
    ("components.yaml", "  bonus_used: {default: 0,", "  bonus_used: {defualt: 0,", "defualt"),
    ("flow.yaml", "  card:  ", "  card:\n    parms: [i]\n  cardx:  ", "parms"),
    ("data/agents.yaml", "    secret_bonus: 2", "    secret_bonus: 2\n    secret_bonsu: 2", "secret_bonsu"),
])
def test_unknown_key_in_any_file(copy, file, old, new, needle):
    edit(copy / file, old, new)
    found = problems(copy)
    diag = next(d for d in found if d.code == "schema-unknown-key")
    assert Path(diag.file).name == Path(file).name
    assert (diag.line, diag.col) == line_col(copy / file, needle)


def test_misspelled_name_in_effect_text(copy):
    edit(copy / "data/gadgets.yaml", "normal: gain 2 stl", "normal: gain 2 stlth")
    diag = only(copy, "dsl-unknown-counter")
    assert diag.file.endswith("gadgets.yaml")
    assert (diag.line, diag.col) == line_col(copy / "data/gadgets.yaml", "stlth")
    assert diag.hint == "did you mean 'stl'?"


def test_syntax_error_inside_a_block_scalar(copy):
    edit(copy / "flow.yaml", "        spend back(i).number coin ", "        spend back(i).number coin coin ")
    diag = only(copy, "dsl-syntax")
    assert diag.file.endswith("flow.yaml")
    assert (diag.line, diag.col) == line_col(copy / "flow.yaml", "number coin coin", 12)


def test_wrong_type(copy):
    edit(copy / "data/boards.yaml", "    shift_cost: 1", "    shift_cost: one")
    diag = only(copy, "schema-type")
    assert (diag.line, diag.col) == line_col(copy / "data/boards.yaml", "shift_cost: one", 12)


def test_no_is_a_string_not_false(copy):
    edit(copy / "data/plan_cards.yaml", "back: {color: red, number: 5}", "back: {color: NO, number: 5}")
    diag = only(copy, "schema-enum")
    assert "'NO'" in diag.message


def test_dangling_reference(copy):
    edit(copy / "data/plan_cards.yaml", "item: laser,", "item: lazer,")
    diag = only(copy, "dangling-reference")
    assert (diag.line, diag.col) == line_col(copy / "data/plan_cards.yaml", "lazer")
    assert diag.hint == "did you mean 'laser'?"


def test_duplicate_id(copy):
    edit(copy / "data/missions.yaml", "id: ghost", "id: athlete")
    found = problems(copy)
    assert "duplicate-id" in [d.code for d in found]
    diag = next(d for d in found if d.code == "duplicate-id")
    second = [n for n, line in enumerate((copy / "data/missions.yaml").read_text().splitlines(), 1)
              if "id: athlete" in line][1]
    assert diag.line == second
    assert "first at" in diag.message


def test_declared_count_must_match(copy):
    path = copy / "data/plan_cards.yaml"
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")     # drop one card
    diag = only(copy, "count-mismatch")
    assert "108" in diag.message and "107" in diag.message
    assert diag.file.endswith("components.yaml")


def test_duplicate_yaml_key(copy):
    edit(copy / "data/boards.yaml", "    shift_cost: 1\n", "    shift_cost: 1\n    shift_cost: 1\n")
    diag = only(copy, "yaml-duplicate-key")
    assert diag.line == line_col(copy / "data/boards.yaml", "shift_cost: 1")[0] + 1


def test_unsafe_tag(copy):
    edit(copy / "data/items.yaml", "name: Laser,", "name: !!python/object/apply:os.system ['touch pwned'],")
    diag = only(copy, "yaml-unsafe-tag")
    assert diag.file.endswith("items.yaml")
    assert not Path("pwned").exists()


def test_alias_bomb(copy):
    bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i, name in enumerate("bcdefghij"):
        prev = "abcdefghij"[i]
        bomb.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]")
    (copy / "data/items.yaml").write_text("\n".join(bomb) + "\n", encoding="utf-8")
    found = problems(copy)
    assert found[0].code == "yaml-too-many-nodes"


def test_file_over_the_size_cap(copy):
    path = copy / "data/items.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "#" * 1_100_000 + "\n", encoding="utf-8")
    diag = only(copy, "yaml-too-large")
    assert diag.file.endswith("items.yaml")


def test_all_problems_are_reported_together(copy):
    edit(copy / "data/gadgets.yaml", "normal: gain 2 stl", "normal: gain 2 stlth")
    edit(copy / "data/missions.yaml", "condition: self.mov >= 10", "condition: self.mvo >= 10")
    codes = sorted(d.code for d in problems(copy))
    assert codes == ["dsl-unknown-attribute", "dsl-unknown-counter"]


def test_a_name_declared_twice(copy):
    edit(copy / "components.yaml", "  full: {default: false}", "  full: {default: false}\n  gadgets: {default: []}")
    diag = only(copy, "duplicate-name")
    assert "'gadgets'" in diag.message
