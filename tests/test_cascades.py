"""One typo gives one diagnostic, with its hint: a misspelled declaration is
not reported again at every use, every record, or every reference."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.diagnostics import ContentError

LAIRS = Path(__file__).resolve().parents[1] / "rulesets" / "lairs"


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    target = tmp_path_factory.mktemp("cascades") / "lairs"
    shutil.copytree(LAIRS, target)
    return target


@pytest.fixture
def copy(tmp_path, pristine):
    target = tmp_path / "lairs"
    shutil.copytree(pristine, target)
    return target


def rename(path: Path, pattern: str, new: str) -> None:
    """Replace the one line-anchored match of ``pattern`` (a declaration)."""
    text = path.read_text(encoding="utf-8")
    changed, count = re.subn(pattern, new, text, count=1, flags=re.M)
    assert count == 1, pattern
    path.write_text(changed, encoding="utf-8")


def diagnostics(folder: Path):
    with pytest.raises(ContentError) as caught:
        load_ruleset(str(folder))
    return caught.value.diagnostics


@pytest.mark.parametrize("file,pattern,new,code,word", [
    ("components.yaml", r"^  mov: \{start", "  mvo: {start", "dsl-unknown-counter", "mvo"),
    ("components.yaml", r"^  hand: \{per_player", "  hnd: {per_player", "dsl-unknown-attribute",
     "hnd"),
    ("components.yaml", r"^  visited: \{default", "  visted: {default", "dsl-unknown-attribute",
     "visted"),
    ("flow.yaml", r"^  take:", "  taek:", "dsl-unknown-function", "taek"),
])
def test_a_misspelled_declaration_used_in_many_texts_is_reported_once(copy, file, pattern, new,
                                                                       code, word):
    rename(copy / file, pattern, new)
    found = diagnostics(copy)
    assert [d.code for d in found] == [code], [(d.code, d.message) for d in found]
    diag = found[0]
    assert re.search(r"\(\d+ uses\)$", diag.message)
    assert f"did you mean '{word}'?" in diag.hint and "also used at " in diag.hint
    first_use = min(found, key=lambda d: (d.line, d.col))
    assert diag is first_use


def test_a_misspelled_field_declaration_is_one_diagnostic_not_two_per_record(copy):
    rename(copy / "components.yaml", r"^      family: \{enum", "      famliy: {enum")
    found = diagnostics(copy)
    assert [d.code for d in found] == ["schema-unknown-key"], [(d.code, d.message) for d in found]
    assert re.search(r"\(and in \d+ more records\)$", found[0].message)
    assert found[0].hint == "did you mean 'famliy'?"
    assert found[0].file.endswith("items.yaml")


def test_a_broken_data_file_does_not_make_every_reference_to_it_dangle(copy):
    rename(copy / "data/items.yaml", r"family: trap,", "family: trapp,")
    found = diagnostics(copy)
    assert [d.code for d in found] == ["schema-enum"], [(d.code, d.message) for d in found]


@pytest.mark.parametrize("pattern,new,table", [
    (r"^  items:", "  itmes:", "items"),
    (r"^  plan_cards:", "  plan_crads:", "plan_cards"),
])
def test_a_misspelled_table_is_reported_once_per_file_that_names_it(copy, pattern, new, table):
    rename(copy / "components.yaml", pattern, new)
    found = diagnostics(copy)
    files = [Path(d.file).name for d in found]
    assert len(files) == len(set(files)) <= 2, [(d.code, d.message) for d in found]
    assert not any(d.code == "dangling-reference" for d in found)
    assert all(table in d.message for d in found)


def test_a_reference_to_an_unknown_table_is_reported_at_the_declaration(copy):
    text = (copy / "components.yaml").read_text(encoding="utf-8")
    assert "keys: {ref: items}" in text
    (copy / "components.yaml").write_text(text.replace("keys: {ref: items}", "keys: {ref: itme}"),
                                          encoding="utf-8")
    found = diagnostics(copy)
    assert {d.code for d in found} == {"unknown-name"}, [(d.code, d.message) for d in found]
    assert len(found) == 1 and found[0].file.endswith("components.yaml")
    assert found[0].hint.startswith("did you mean 'items'?")


def test_a_zone_from_an_unknown_table_is_one_diagnostic(copy):
    rename(copy / "components.yaml", r"^  plan: \{from: plan_cards", "  plan: {from: plan_crads")
    found = diagnostics(copy)
    assert [d.code for d in found] == ["unknown-name"]
    assert found[0].hint == "did you mean 'plan_cards'?"
