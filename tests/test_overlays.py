"""Expansions as overlays (interpreter/content/overlays.py), on the addons fixture: records
removed, patched, replaced and added by id, tables merged, flow replaced by name, the base game
and versions an expansion fits, conflicts between two expansions, saved games and ``info``."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.content.overlays import fits, merge_patch, version_key
from interpreter.content.ruleset import load_ruleset
from interpreter.diagnostics import ContentError
from interpreter.engine.game import Game
from interpreter.engine.saved import StateError

ADDONS = Path(__file__).resolve().parent / "rulesets" / "addons"


def problems(folder, *expansions) -> list:
    with pytest.raises(ContentError) as caught:
        load_ruleset(str(folder), expansions=expansions)
    return caught.value.diagnostics


@pytest.fixture
def copy(tmp_path) -> Path:
    """A copy of the addons fixture to break."""
    shutil.copytree(ADDONS, tmp_path / "addons")
    return tmp_path / "addons"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


# ---------------------------------------------------------------- what an overlay changes

def test_remove_takes_records_out_by_id_and_whole_tables():
    plain, gold = load_ruleset(str(ADDONS)), load_ruleset(str(ADDONS), expansions=("gold",))
    assert plain.tables["cards"] == ["c1", "c2", "c3", "c4", "c5", "c6"]
    assert gold.tables["cards"] == ["c3", "c4", "c5", "c6", "g1", "g2"]
    assert gold.tables["pairs"] == [] and "low" not in gold.entities
    assert "c1" not in gold.names and "c1" in plain.names


def test_patch_changes_only_the_fields_it_names_and_null_deletes_one():
    gold = load_ruleset(str(ADDONS), expansions=("gold",))
    assert gold.entities["c3"]["value"] == 30
    assert "bonus" not in gold.entities["c3"]
    assert "bonus" in load_ruleset(str(ADDONS)).entities["c3"]


def test_replace_gives_a_record_anew_and_tables_merge_field_by_field():
    gold = load_ruleset(str(ADDONS), expansions=("gold",))
    assert {k: v for k, v in gold.entities["c4"].items()} == {"id": "c4", "value": 40, "shine": 2,
                                                              "table": "cards"}
    assert set(gold.table_specs["cards"]["fields"]) == {"value", "bonus", "shine"}
    assert gold.table_specs["cards"]["count"] == 6          # kept from the base


def test_flow_entries_are_replaced_by_name():
    game = Game.new(load_ruleset(str(ADDONS), expansions=("gold",)), players=2, seed=1)
    labels = list(game.pending()[0].options)
    assert labels and all(label.startswith("give up") for label in labels)


def test_merge_patch_is_rfc_7396():
    assert merge_patch({"a": 1, "b": {"c": 2, "d": 3}}, {"b": {"c": None, "e": 4}, "f": [1]}) == \
        {"a": 1, "b": {"d": 3, "e": 4}, "f": [1]}
    assert merge_patch({"a": [1, 2]}, {"a": [3]}) == {"a": [3]}


def test_versions_compare_number_by_number():
    assert version_key("1.10") > version_key("1.9") and version_key("1.0") == version_key("1")
    assert fits("1.2", ">= 1.0, < 2") and not fits("2.0", ">= 1.0, < 2")
    assert fits("1.2", "1.2.0") and fits("1.2", "!= 1.3") and fits("1.2", "> 1.1.9")
    assert fits("1.2", "about one") is None


# ---------------------------------------------------------------- what is refused

def test_two_expansions_changing_one_thing_is_a_conflict_at_both_places():
    found = problems(ADDONS, "gold", "silver")
    conflicts = [d for d in found if d.code == "expansion-conflict"]
    assert len(conflicts) == 2, found
    silver = ADDONS / "expansions" / "silver"
    record, procedure = sorted(conflicts, key=lambda d: d.file)
    assert record.file.endswith("silver/expansion.yaml")
    assert record.line == line_of(silver / "expansion.yaml", "c3:")
    gold_line = line_of(ADDONS / "expansions" / "gold" / "expansion.yaml", "c3:")
    assert f"gold/expansion.yaml:{gold_line}:3" in record.message
    assert procedure.file.endswith("silver/flow.yaml") and "'keep_one'" in procedure.message
    assert "gold/flow.yaml:3:3" in procedure.message


def test_validate_reports_the_conflict_with_a_caret_and_exits_1():
    result = CliRunner().invoke(cli, ["validate", str(ADDONS), "-x", "gold", "-x", "silver"])
    assert result.exit_code == 1
    assert "error[expansion-conflict]: expansions 'gold' and 'silver' both change record 'c3'" \
        in result.output
    assert "    c3: {value: 33}\n    ^" in result.output
    assert CliRunner().invoke(cli, ["validate", str(ADDONS), "-x", "silver"]).exit_code == 0


def test_an_expansion_of_another_game_is_refused(copy):
    manifest = copy / "expansions" / "gold" / "expansion.yaml"
    edit(manifest, "base: addons", "base: toy")
    [diag] = problems(copy, "gold")
    assert diag.code == "expansion-base" and "'gold' is an expansion of 'toy', not of 'addons'" \
        in diag.message
    assert (diag.line, diag.col) == (line_of(manifest, "base: toy"), 7)


def test_an_expansion_that_does_not_fit_the_base_version_is_refused(copy):
    [diag] = problems(ADDONS, "old")
    assert diag.code == "expansion-version" and "fits addons < 1.2" in diag.message
    edit(copy / "game.yaml", 'version: "1.2"\n', "")
    [diag] = problems(copy, "gold")
    assert "has no version" in diag.message and "give the base game a version" in diag.hint


@pytest.mark.parametrize("old, new, code, words", [
    ("  c3: {value: 30, bonus: null}", "  c9: {value: 30}", "unknown-record",
     "no record 'c9' to patch"),
    ("  cards: [c1, c2]", "  cards: [c1, c7]", "unknown-record",
     "no record 'c7' in table 'cards' to remove"),
    ("  cards: [c1, c2]", "  cads: [c1, c2]", "unknown-name", "'cads' is not a table"),
    ("  c3: {value: 30, bonus: null}", "  c3: {value: thirty}", "schema-type", "thirty"),
    ("  c4: {value: 40, shine: 2}", "  c4: {shine: 2}", "schema-missing-key", "value"),
])
def test_a_bad_change_is_an_error_where_it_is_written(copy, old, new, code, words):
    manifest = copy / "expansions" / "gold" / "expansion.yaml"
    edit(manifest, old, new)
    found = problems(copy, "gold")
    assert [d.code for d in found] == [code], found
    assert words in found[0].message and found[0].file.endswith("gold/expansion.yaml")
    assert found[0].line == line_of(manifest, new.strip())


def test_a_reference_to_a_removed_record_says_who_removed_it(copy):
    edit(copy / "expansions" / "gold" / "expansion.yaml", "  pairs: all\n", "")
    found = problems(copy, "gold")
    assert [(d.code, d.message) for d in found] == [
        ("dangling-reference", f"'{c}' is not an id in table 'cards'") for c in ("c1", "c2")]
    where = line_of(copy / "expansions" / "gold" / "expansion.yaml", "cards: [c1, c2]")
    assert all(d.file.endswith("data/cards.yaml") and
               f"gold/expansion.yaml:{where}:" in d.hint for d in found)


def test_base_records_must_fit_a_table_an_expansion_changed(copy):
    edit(copy / "expansions" / "gold" / "components.yaml", "shine: {type: int, optional: true}",
         "shine: {type: int}")
    found = problems(copy, "gold")        # c5 and c6 of the base, and c3 as gold patches it
    assert sorted(d.file.split("addons/")[-1] for d in found) == [
        "data/cards.yaml", "data/cards.yaml", "expansions/gold/expansion.yaml"]
    assert all("'shine'" in d.message for d in found)
    assert all("an expansion changed table 'cards'" in d.message for d in found
               if d.file.endswith("data/cards.yaml"))


# ---------------------------------------------------------------- saved games and info

def test_a_game_saved_with_an_expansion_will_not_load_without_it():
    gold = load_ruleset(str(ADDONS), expansions=("gold",))
    saved = Game.new(gold, players=2, seed=1).to_json()
    assert json.loads(saved)["expansions"] == ["gold"]
    with pytest.raises(StateError) as caught:
        Game.from_json(load_ruleset(str(ADDONS)), saved)
    assert "played with gold" in str(caught.value) and "-x gold" in str(caught.value)
    with pytest.raises(ValueError, match="played with no expansion"):
        Game.load(gold, json.loads(Game.new(load_ruleset(str(ADDONS)), players=2, seed=1).to_json()))
    assert Game.from_json(gold, saved).to_json() == saved


def test_resume_without_the_expansion_says_what_to_load(tmp_path):
    gold = load_ruleset(str(ADDONS), expansions=("gold",))
    state = json.loads(Game.new(gold, players=2, seed=1).to_json())
    state["expansions"] = []
    with pytest.raises(ValueError, match="played with no expansion, but 'addons' is loaded with gold"):
        Game.load(gold, state)


def test_info_lists_each_expansion_and_what_it_changes():
    result = CliRunner().invoke(cli, ["info", str(ADDONS)])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "version: 1.2" in text and "gold (Gold, fits addons >= 1.0, < 2)" in text
    for line in ("adds cards: g1, g2", "replaces tables: cards (field shine)",
                 "replaces procedures: keep_one", "replaces cards: c4 (whole)",
                 "replaces cards: c3 (fields)", "removes cards: c1, c2", "removes pairs: low"):
        assert f"    {line}\n" in text, line
    assert "old: cannot be loaded (1 problem(s)" in text
    data = json.loads(CliRunner().invoke(cli, ["info", str(ADDONS), "--format", "json"]).output)
    assert data["expansion_changes"]["silver"]["replaces"] == ["procedures: keep_one",
                                                               "cards: c3 (fields)"]


def test_a_record_with_copies_is_patched_and_removed_as_one(copy):
    edit(copy / "data" / "cards.yaml", "{id: c5, value: 5}", "{id: c5, value: 5, copies: 2}")
    edit(copy / "components.yaml", "count: 6", "count: 7")
    manifest = copy / "expansions" / "gold" / "expansion.yaml"
    edit(manifest, "  c3: {value: 30, bonus: null}", "  c3: {value: 30, bonus: null}\n  c5: {value: 50}")
    gold = load_ruleset(str(copy), expansions=("gold",))
    assert [gold.entities[c]["value"] for c in ("c5#1", "c5#2")] == [50, 50]
    assert gold.names["c5"] == ("const", ["c5#1", "c5#2"])
    edit(manifest, "  c5: {value: 50}", "")
    edit(manifest, "cards: [c1, c2]", "cards: [c1, c2, c5]")
    edit(copy / "components.yaml", "count: 7", "count: 5")
    gold = load_ruleset(str(copy), expansions=("gold",))
    assert "c5" not in gold.names and not any(rid.startswith("c5") for rid in gold.entities)


# ---------------------------------------------------------------- counts and experimental expansions

def test_two_expansions_setting_one_count_conflict_at_both_places():
    result = CliRunner().invoke(cli, ["validate", str(ADDONS), "-x", "bronze", "-x", "copper"])
    assert result.exit_code == 1
    bronze, copper = (ADDONS / "expansions" / e / "components.yaml" for e in ("bronze", "copper"))
    line = line_of(copper, "count: 7")
    assert (f"copper/components.yaml:{line}:5: error[expansion-conflict]: expansions 'bronze' and "
            f"'copper' both change 'count' of table 'cards' (also at ") in result.output
    assert f"bronze/components.yaml:{line_of(bronze, 'count: 7')}:5)" in result.output
    assert "      count: 7\n      ^" in result.output
    assert "count-mismatch" not in result.output          # a count in conflict is not checked too


def test_adds_raises_a_count_and_composes_with_another_expansions():
    both = load_ruleset(str(ADDONS), expansions=("bronze", "tin"))
    assert both.table_specs["cards"]["count"] == 8 and {"b1", "t1"} <= set(both.tables["cards"])
    tin_first = load_ruleset(str(ADDONS), expansions=("tin", "bronze"))   # a count then set: adds still count
    assert tin_first.table_specs["cards"]["count"] == 8
    assert load_ruleset(str(ADDONS), expansions=("tin",)).table_specs["cards"]["count"] == 7


def test_a_wrong_count_is_said_where_the_expansion_set_it(copy):
    edit(copy / "expansions" / "bronze" / "cards.yaml", "{id: b1, value: 7}", "{id: b1, value: 7}\n  - {id: b2, value: 7}")
    [diag] = problems(copy, "bronze")
    assert diag.code == "count-mismatch" and diag.file.endswith("bronze/components.yaml")
    assert (diag.line, diag.col) == (line_of(copy / "expansions" / "bronze" / "components.yaml", "count: 7"), 12)
    edit(copy / "expansions" / "tin" / "cards.yaml", "cards:\n  - {id: t1, value: 9}", "cards: []")
    [diag] = problems(copy, "tin")
    assert diag.code == "count-mismatch" and diag.file.endswith("tin/components.yaml")


def test_an_experimental_expansion_starts_only_with_its_option():
    copper = load_ruleset(str(ADDONS), expansions=("copper",))
    assert copper.options["try_copper"]["type"] == "bool"
    with pytest.raises(ValueError, match="expansion 'copper' is experimental: The copper card is "
                                         "authored for the tests. To play it anyway, set the option try_copper=true"):
        Game.new(copper, players=2, seed=1)
    with pytest.raises(ValueError, match="experimental"):
        Game.new(copper, players=2, seed=1, options={"try_copper": False})
    assert not Game.new(copper, players=2, seed=1, options={"try_copper": True}).over
    refused = CliRunner().invoke(cli, ["play", str(ADDONS), "-x", "copper", "--seed", "1"])
    assert refused.exit_code != 0 and "--option try_copper=true" in refused.output
    played = CliRunner().invoke(cli, ["play", str(ADDONS), "-x", "copper", "--option", "try_copper=true", "-q"])
    assert played.exit_code == 0, played.output
    info = CliRunner().invoke(cli, ["info", str(ADDONS)]).output
    assert "EXPERIMENTAL, not the published game: The copper card is authored for the tests." in info
    assert "    adds options: try_copper\n" in info


def test_an_experimental_switch_must_be_a_bool_option_of_the_expansion(copy):
    manifest = copy / "expansions" / "copper" / "expansion.yaml"
    edit(manifest, "  option: try_copper", "  option: try_tin")
    [diag] = problems(copy, "copper")
    assert diag.code == "unknown-name" and "'try_tin' is not a bool option of 'copper'" in diag.message
    assert diag.line == line_of(manifest, "option: try_tin")


def test_adds_in_a_base_game_is_an_error_where_it_is_written(copy):
    edit(copy / "components.yaml", "    count: 6\n", "    adds: 6\n")
    [diag] = problems(copy)
    assert diag.code == "expansion-only" and diag.file.endswith("addons/components.yaml")
    assert diag.line == line_of(copy / "components.yaml", "adds: 6")


def test_adds_on_a_table_without_a_count_is_an_error_where_it_is_written(copy):
    folder = copy / "expansions" / "lead"
    folder.mkdir()
    (folder / "expansion.yaml").write_text("id: lead\nbase: addons\ncomponents: components.yaml\n",
                                           encoding="utf-8")
    (folder / "components.yaml").write_text("tables:\n  shelves:\n    adds: 1\n", encoding="utf-8")
    edit(copy / "game.yaml", "  old: expansions/old\n", "  old: expansions/old\n  lead: expansions/lead\n")
    diags = [d for d in problems(copy, "lead") if d.code == "bad-table"]
    assert [(d.file.endswith("lead/components.yaml"), d.line) for d in diags] == [(True, 3)]
    assert "table 'shelves' has no count to add to" in diags[0].message
