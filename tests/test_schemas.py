"""The JSON Schemas in schemas/: valid under draft 2020-12 and draft-07, written with
draft-07 keywords only (editors' YAML servers stop at draft-07), described for hover,
matching the bundled rulesets, and strict enough to catch typos."""
from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "schemas"
RULESETS = ROOT / "rulesets"
KINDS = ("game", "components", "flow", "expansion", "scenario", "presentation")
VALIDATORS = (jsonschema.Draft202012Validator, jsonschema.Draft7Validator)

# Keywords draft-07 shares with 2020-12 that the schemas may use; `items` only as one schema.
ALLOWED_KEYWORDS = {
    "$schema", "$id", "$ref", "title", "description", "default", "examples", "definitions",
    "type", "enum", "const", "properties", "patternProperties", "additionalProperties",
    "propertyNames", "required", "items", "minItems", "maxItems", "minimum", "maximum",
    "pattern", "anyOf", "oneOf", "allOf", "not",
}
NAMED_SCHEMAS = ("properties", "patternProperties", "definitions")   # name -> schema
ONE_SCHEMA = ("additionalProperties", "items", "not", "propertyNames")
SCHEMA_LISTS = ("anyOf", "oneOf", "allOf")
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)\s*$")


def load_schema(kind: str) -> dict:
    return json.loads((SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8"))


def subschemas(schema: dict, path: str = "#"):
    """Every schema object inside ``schema`` (itself included), with its JSON pointer."""
    yield path, schema
    for key, value in schema.items():
        if key in NAMED_SCHEMAS:
            for name, sub in value.items():
                yield from subschemas(sub, f"{path}/{key}/{name}")
        elif key in ONE_SCHEMA and isinstance(value, dict):
            yield from subschemas(value, f"{path}/{key}")
        elif key in SCHEMA_LISTS:
            for i, sub in enumerate(value):
                yield from subschemas(sub, f"{path}/{key}/{i}")


def declarations(schema: dict):
    """The object declarations in ``schema``: subschemas of type object listing properties.

    Subschemas without a type (inside allOf/anyOf/not) only state conditions."""
    for path, sub in subschemas(schema):
        if sub.get("type") == "object" and "properties" in sub:
            yield path, sub


def errors(kind: str, document, validator=jsonschema.Draft202012Validator) -> list[str]:
    found = validator(load_schema(kind)).iter_errors(document)
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in found]


def read_yaml(path: Path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def manifests() -> list[Path]:
    return sorted(RULESETS.glob("*/game.yaml"))


def content_files() -> list[tuple[Path, str]]:
    """(file, kind) for every components/flow file a game or expansion manifest names."""
    out = []
    for manifest in manifests():
        game = read_yaml(manifest)
        out += [(manifest.parent / game[kind], kind) for kind in ("components", "flow", "presentation")
                if kind in game]
        for folder in (game.get("expansions") or {}).values():
            exp_manifest = manifest.parent / folder / "expansion.yaml"
            if exp_manifest.is_file():
                exp = read_yaml(exp_manifest)
                out += [(exp_manifest.parent / exp[kind], kind)
                        for kind in ("components", "flow") if kind in exp]
    return out


def _id(item) -> str:
    return item.name if isinstance(item, Path) else getattr(item, "__name__", str(item))


# ---------------------------------------------------------------- the schemas themselves

@pytest.mark.parametrize("validator", VALIDATORS, ids=_id)
@pytest.mark.parametrize("kind", KINDS)
def test_schema_is_valid_under_both_drafts(kind, validator):
    validator.check_schema(load_schema(kind))


@pytest.mark.parametrize("kind", KINDS)
def test_schema_header(kind):
    schema = load_schema(kind)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://rulebook.invalid/schemas/{kind}.schema.json"
    assert schema["type"] == "object" and schema["additionalProperties"] is False


@pytest.mark.parametrize("kind", KINDS)
def test_only_draft7_keywords(kind):
    schema = load_schema(kind)
    for path, sub in subschemas(schema):
        unknown = set(sub) - ALLOWED_KEYWORDS
        assert not unknown, f"{kind} {path}: keywords outside the draft-07 set: {sorted(unknown)}"
        if "items" in sub:
            assert isinstance(sub["items"], dict), f"{kind} {path}: items must be one schema"
        if "$ref" in sub:
            assert sub["$ref"].startswith("#/definitions/"), f"{kind} {path}: {sub['$ref']}"
            assert sub["$ref"].split("/")[-1] in schema.get("definitions", {}), f"{kind} {path}"


@pytest.mark.parametrize("kind", KINDS)
def test_fixed_objects_are_closed(kind):
    """Every object declaring its keys allows no others, so typos are errors."""
    for path, sub in declarations(load_schema(kind)):
        assert sub.get("additionalProperties") is False, f"{kind} {path}: not closed"


@pytest.mark.parametrize("kind", KINDS)
def test_every_property_and_definition_is_described(kind):
    schema = load_schema(kind)
    described = [(f"#/definitions/{name}", sub) for name, sub in schema["definitions"].items()]
    for path, sub in declarations(schema):
        described += [(f"{path}/properties/{name}", prop) for name, prop in sub["properties"].items()]
    missing = [path for path, sub in described
               if not isinstance(sub.get("description"), str) or not sub["description"].strip()]
    assert not missing, f"{kind}: no description on {missing}"


# ---------------------------------------------------------------- the bundled rulesets

def test_lairs_is_among_the_checked_rulesets():
    assert RULESETS / "lairs" / "game.yaml" in manifests()


@pytest.mark.parametrize("validator", VALIDATORS, ids=_id)
@pytest.mark.parametrize("manifest", manifests(), ids=lambda p: p.parent.name)
def test_ruleset_files_validate(manifest, validator):
    game = read_yaml(manifest)
    assert errors("game", game, validator) == []
    for kind in [k for k in ("components", "flow", "presentation") if k in game]:
        assert errors(kind, read_yaml(manifest.parent / game[kind]), validator) == [], kind
    for folder in (game.get("expansions") or {}).values():
        exp_manifest = manifest.parent / folder / "expansion.yaml"
        exp = read_yaml(exp_manifest)
        assert errors("expansion", exp, validator) == [], exp_manifest
        for kind in ("components", "flow"):
            if kind in exp:
                assert errors(kind, read_yaml(exp_manifest.parent / exp[kind]), validator) == []


@pytest.mark.parametrize("path, kind", content_files(),
                         ids=lambda v: str(v.relative_to(RULESETS)) if isinstance(v, Path) else v)
def test_content_files_name_their_schema(path, kind):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    match = MODELINE.match(first)
    assert match, f"{path} should start with '# yaml-language-server: $schema=...'"
    target = path.parent / match.group(1)
    assert target.is_file(), f"{path}: {match.group(1)} does not exist"
    assert target.resolve() == (SCHEMAS / f"{kind}.schema.json").resolve()


def test_vscode_settings_map_every_schema():
    settings = json.loads((ROOT / ".vscode" / "settings.json").read_text(encoding="utf-8"))
    assert settings["yaml.customTags"] == []
    mapping = settings["yaml.schemas"]
    kinds = {(ROOT / path).resolve() for path in mapping if "/data/" not in path}
    assert kinds == {(SCHEMAS / f"{kind}.schema.json").resolve() for kind in KINDS}
    for game in sorted(p.parent.name for p in manifests()):    # generated data schemas
        assert f"./schemas/data/{game}.schema.json" in mapping
    globs = {Path(path).name.split(".")[0]: patterns for path, patterns in mapping.items()
             if "/data/" not in path}
    for manifest in manifests():
        matched = {p for pattern in globs["game"] for p in ROOT.glob(pattern)}
        assert manifest in matched
    for path, kind in content_files():
        matched = {p for pattern in globs[kind] for p in ROOT.glob(pattern)}
        assert path in matched or "/expansions/" in str(path), path


# ---------------------------------------------------------------- small documents

GAME = {"id": "demo-game", "name": "Demo", "players": {"min": 1, "max": 4}, "score": "points",
        "components": "components.yaml", "flow": "flow.yaml", "data": ["data/cards.yaml"],
        "options": {"mode": {"values": ["short", "long"], "default": "short"},
                    "fast": {"type": "bool", "default": False},
                    "helped": {"type": "seats", "default": []},
                    "banned": {"type": "subset", "table": "cards", "default": []}},
        "expansions": {"more-cards": "expansions/more"}}
COMPONENTS = {
    "counters": {"points": {"start": 0, "min": None, "max": 99, "earn_cap": 50,
                            "visible_to": "viewer == owner", "description": "Score."}},
    "player_vars": {"hand_size": {"default": 5}, "picked": {"default": []}},
    "vars": {"round": 0, "seen": []},
    "zones": {"deck": {"from": "cards", "visible": "count"},
              "piles": {"count": 3, "visible": "top", "top_fields": ["back"]},
              "hand": {"per_player": True, "visible": "owner"}},
    "grids": {"sheet": {"per_player": True, "rows": 3, "cols": 4,
                        "tags": {"start": [[1, 1]], "exit": [[3, 4], [2, 4]]}}},
    "constants": {"sizes": [1, 2], "bonus": {"a": 1}},
    "tables": {"cards": {"count": 3, "fields": {
        "cost": {"type": "int", "min": 0, "max": 9},
        "kind": {"enum": ["a", "b"], "optional": True},
        "other": {"ref": "cards", "optional": True},
        "tags": {"list": {"type": "string"}},
        "back": {"record": {"color": {"enum": ["red", "blue"]}, "number": {"type": "int"}}},
        "prices": {"map": {"type": "int"}, "keys": {"ref": "cards"}},
        "play": {"type": "effect", "description": "Run when played."},
    }}},
}
FLOW = {"start": "do setup()",
        "functions": {"double": {"params": ["x"], "expr": "x * 2"}},
        "procedures": {"setup": {"do": "round = 1", "description": "Start."}}}
EXPANSION = {"id": "more-cards", "name": "More", "base": "demo-game", "components": "components.yaml",
             "data": ["data/cards.yaml"]}
SCENARIO = {
    "game": "demo-game", "expansions": ["more-cards"], "description": "Walls stop moves.",
    "rules": ["LR-WALL-02", "AMB-06"], "players": 3, "seed": 7, "options": {"fast": True},
    "setup": ["round = 2"],
    "script": [
        {"until_decision": {"bot": "random", "player": 2}},
        {"player": 2, "expect_options": ["Take card 1"], "expect_no_option": "Pass"},
        {"expect_error": "not enough"},
        {"player": 2, "choose": "Take card 3"},
        {"player": 1, "choose": 0},
        {"expect": "round == 2"},
        {"expect": ["round == 2", "true"]},
        {"until_decision": {}},
    ],
    "expect": ["round > 1"],
}
PRESENTATION = {
    "names": {"coin": "Coins"}, "hidden": ["tally"],
    "panels": {"sheet": ["board", "coin"], "table": ["round"], "opponents": ["coin"]},
    "records": {"cards": "{text} ({cost})"}, "score": {"parts": ["coin"], "rest": "Bonuses"},
}
VALID = {"game": GAME, "components": COMPONENTS, "flow": FLOW, "expansion": EXPANSION,
         "scenario": SCENARIO, "presentation": PRESENTATION}


def changed(document, path: tuple, value):
    """A deep copy of ``document`` with the item at ``path`` set to ``value``."""
    out = copy.deepcopy(document)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return out


INVALID = {
    "presentation: unknown panel": ("presentation", ("panels", "hand"), ["coin"]),
    "presentation: a display name that is not text": ("presentation", ("names", "coin"), 3),
    "presentation: unknown key in score": ("presentation", ("score", "total"), "x"),
    # an unknown key in each kind
    "game: unknown key": ("game", ("scroe",), "points"),
    "game: unknown key in players": ("game", ("players", "maximum"), 4),
    "game: unknown key in an option": ("game", ("options", "mode", "choices"), ["a"]),
    "components: unknown section": ("components", ("counter",), {}),
    "components: unknown key in a counter": ("components", ("counters", "points", "cap"), 3),
    "components: unknown key in a zone": ("components", ("zones", "deck", "visibility"), "all"),
    "components: unknown key in a table": ("components", ("tables", "cards", "field"), {}),
    "flow: unknown section": ("flow", ("procedure",), {}),
    "flow: unknown key in a procedure": ("flow", ("procedures", "setup", "does"), "x"),
    "expansion: unknown key": ("expansion", ("bsae",), "demo-game"),
    "scenario: unknown key": ("scenario", ("scirpt",), []),
    # a wrong type
    "game: players.min is text": ("game", ("players", "min"), "two"),
    "game: players.max is 0": ("game", ("players", "max"), 0),
    "game: data is one string": ("game", ("data",), "data/cards.yaml"),
    "game: id with capitals": ("game", ("id",), "Demo"),
    "game: bool option with a list default": ("game", ("options", "fast", "default"), []),
    "game: bool option with values": ("game", ("options", "fast", "values"), [True]),
    "game: choice option without values or table": ("game", ("options", "mode"), {"default": 1}),
    "game: option type unknown": ("game", ("options", "mode", "type"), "pick"),
    "components: counter start is text": ("components", ("counters", "points", "start"), "ten"),
    "components: player var without default": ("components", ("player_vars", "picked"), []),
    "components: zone visible unknown": ("components", ("zones", "deck", "visible"), "hidden"),
    "components: zone count 0": ("components", ("zones", "piles", "count"), 0),
    "components: zone with count and from": ("components", ("zones", "piles", "from"), "cards"),
    "components: grid rows 27": ("components", ("grids", "sheet", "rows"), 27),
    "components: name with a capital": ("components", ("vars", "Round"), 0),
    "flow: do is a number": ("flow", ("procedures", "setup", "do"), 3),
    "flow: params is one string": ("flow", ("functions", "double", "params"), "x"),
    "flow: function without expr": ("flow", ("functions", "double"), {"params": []}),
    "expansion: data is one string": ("expansion", ("data",), "data/cards.yaml"),
    "scenario: seed is text": ("scenario", ("seed",), "seven"),
    "scenario: setup is one string": ("scenario", ("setup",), "round = 2"),
    "scenario: player 0": ("scenario", ("script", 3, "player"), 0),
    "scenario: unknown bot": ("scenario", ("script", 0, "until_decision", "bot"), "smart"),
    # field declarations
    "field with two shapes (type and enum)": (
        "components", ("tables", "cards", "fields", "cost"), {"type": "int", "enum": [1, 2]}),
    "field with two shapes (ref and list)": (
        "components", ("tables", "cards", "fields", "other"), {"ref": "cards", "list": {"type": "int"}}),
    "field with no shape": ("components", ("tables", "cards", "fields", "cost"), {"optional": True}),
    "field of an unknown type": ("components", ("tables", "cards", "fields", "cost"), {"type": "float"}),
    "min on a string field": ("components", ("tables", "cards", "fields", "cost"), {"type": "string", "min": 1}),
    "bad nested field": ("components", ("tables", "cards", "fields", "back", "record", "number"), {"type": "integer"}),
    "field named id": ("components", ("tables", "cards", "fields", "id"), {"type": "string"}),
    # grid cells
    "grid tag cell with 3 numbers": ("components", ("grids", "sheet", "tags", "start"), [[1, 1, 1]]),
    "grid tag cell with 1 number": ("components", ("grids", "sheet", "tags", "start"), [[1]]),
    "grid tag cell row 0": ("components", ("grids", "sheet", "tags", "start"), [[0, 1]]),
    "grid tag is one cell": ("components", ("grids", "sheet", "tags", "start"), [1, 1]),
    # scenario steps
    "step with an unknown key": ("scenario", ("script", 3), {"player": 2, "choose": "x", "chose": 1}),
    "step with a misspelt key": ("scenario", ("script", 3), {"player": 2, "chooze": "x"}),
    "choose without a player": ("scenario", ("script", 3), {"choose": "x"}),
    "options check with nothing to check": ("scenario", ("script", 1), {"player": 2}),
    "two kinds of step at once": ("scenario", ("script", 5), {"expect": "true", "expect_error": "x"}),
    "unknown key in until_decision": ("scenario", ("script", 0, "until_decision", "seat"), 1),
}


@pytest.mark.parametrize("validator", VALIDATORS, ids=_id)
@pytest.mark.parametrize("kind", KINDS)
def test_small_valid_documents(kind, validator):
    assert errors(kind, VALID[kind], validator) == []


@pytest.mark.parametrize("validator", VALIDATORS, ids=_id)
@pytest.mark.parametrize("case", sorted(INVALID))
def test_small_invalid_documents_are_rejected(case, validator):
    kind, path, value = INVALID[case]
    assert errors(kind, changed(VALID[kind], path, value), validator), case
