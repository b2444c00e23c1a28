"""Ruleset packaging: data schemas on disk are current, every content file
names its schema, and expansions overlay a base game by name."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from interpreter.content.ruleset import available, load_ruleset
from interpreter.diagnostics import ContentError
from interpreter.engine.game import Game

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from export_data_schemas import components_text, schema_text  # noqa: E402


def test_components_schema_is_the_registry_of_kinds():
    written = ROOT / "schemas" / "components.schema.json"
    assert written.read_text(encoding="utf-8") == components_text(), \
        "run: python tools/export_data_schemas.py"


@pytest.mark.parametrize("game_id", available())
def test_exported_data_schema_is_current(game_id):
    written = ROOT / "schemas" / "data" / f"{game_id}.schema.json"
    assert written.read_text(encoding="utf-8") == schema_text(game_id), \
        "run: python tools/export_data_schemas.py"


@pytest.mark.parametrize("game_id", available())
def test_every_data_file_names_its_schema(game_id):
    rules = load_ruleset(game_id)
    schema = ROOT / "schemas" / "data" / f"{game_id}.schema.json"
    for name in rules.manifest["data"]:
        path = ROOT / "rulesets" / game_id / name                # data/ or deeper (data/factions/)
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first == f"# yaml-language-server: $schema={os.path.relpath(schema, path.parent)}"


def make_expansion(base: Path) -> None:
    """A small overlay: one more mission, and a procedure replaced by name."""
    folder = base / "expansions" / "extra"
    (folder / "data").mkdir(parents=True)
    (folder / "expansion.yaml").write_text(
        "id: extra\nname: Extra\nbase: lairs\ndata: [data/missions.yaml]\nflow: flow.yaml\n"
        "components: components.yaml\n", encoding="utf-8")
    (folder / "data" / "missions.yaml").write_text(
        "missions:\n  - {id: hoarder, name: Hoarder, assumed: true, text: Have 30 coin.,"
        " condition: self.coin >= 30, now: 1, later: 30}\n", encoding="utf-8")
    (folder / "components.yaml").write_text(
        "tables:\n  missions:\n    count: 10\n    fields:\n"
        "      condition: {type: condition}\n      now: {type: int, min: 1}\n"
        "      later: {type: int, min: 1}\n", encoding="utf-8")
    (folder / "flow.yaml").write_text(
        "procedures:\n  award:\n    params: [values, amount]\n    do: pass\n", encoding="utf-8")
    manifest = base / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "expansions: {}", "expansions: {extra: expansions/extra}"), encoding="utf-8")


def test_expansion_overlays_records_and_procedures(tmp_path):
    base = tmp_path / "lairs"
    shutil.copytree(ROOT / "rulesets" / "lairs", base)
    make_expansion(base)
    plain = load_ruleset(str(base))
    extended = load_ruleset(str(base), expansions=("extra",))
    assert "hoarder" not in plain.entities and "hoarder" in extended.entities
    assert len(extended.tables["missions"]) == 10
    assert extended.fingerprint != plain.fingerprint
    game = Game.new(extended, players=2, seed=1)
    assert game.state["expansions"] == ["extra"]
    with pytest.raises(ContentError) as caught:
        load_ruleset(str(base), expansions=("extar",))
    assert "did you mean 'extra'" in str(caught.value)


def test_saved_state_refused_by_another_ruleset_version(tmp_path, lairs):
    game = Game.new(lairs, players=2, seed=1)
    base = tmp_path / "lairs"
    shutil.copytree(ROOT / "rulesets" / "lairs", base)
    make_expansion(base)
    other = load_ruleset(str(base), expansions=("extra",))
    with pytest.raises(ValueError, match="different version"):
        Game.from_json(other, game.to_json())
