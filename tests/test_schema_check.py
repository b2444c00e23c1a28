"""Schema validation errors become diagnostics at the right YAML position."""

import json
from pathlib import Path

import jsonschema
import pytest

from interpreter.content import schema_check
from interpreter.content.schema_check import check_schema, load_schema
from interpreter.content.yaml_source import load_yaml_text

ITEM = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "cost": {"type": "integer"},
        "color": {"enum": ["red", "green", "blue"]},
        "kind": {"const": "item"},
        "amount": {
            "oneOf": [
                {"type": "integer"},
                {
                    "type": "object",
                    "properties": {"min": {"type": "integer"}, "max": {"type": "integer"}},
                    "required": ["min"],
                    "additionalProperties": False,
                },
            ]
        },
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
    },
    "required": ["name", "cost"],
    "additionalProperties": False,
}
SCHEMA = {"type": "object", "properties": {"items": {"type": "array", "items": ITEM}}, "additionalProperties": False}


def check(text, schema=SCHEMA):
    data, locator = load_yaml_text(text, file="game.yaml")
    return check_schema(data, schema, locator)


def summary(diags):
    return [(d.code, d.line, d.col) for d in diags]


def test_valid_data_has_no_diagnostics():
    assert check("items:\n  - name: a\n    cost: 2\n    color: red\n    amount: {min: 1}\n") == []


def test_unknown_key_points_at_the_key_with_a_hint():
    [diag] = check("items:\n  - name: a\n    cots: 2\n    cost: 1\n")
    assert summary([diag]) == [("schema-unknown-key", 3, 5)]
    assert diag.message == "unknown key 'cots' in items[0]"
    assert diag.hint == "did you mean 'cost'?"
    assert diag.file == "game.yaml"


def test_each_unknown_key_gets_its_own_diagnostic():
    diags = check("items:\n  - name: a\n    cost: 1\n    zzz: 2\n    colour: red\n")
    assert summary(diags) == [("schema-unknown-key", 4, 5), ("schema-unknown-key", 5, 5)]
    assert [d.hint for d in diags] == [None, "did you mean 'color'?"]


def test_unknown_key_at_the_top_level():
    [diag] = check("itmes: []\n")
    assert summary([diag]) == [("schema-unknown-key", 1, 1)]
    assert diag.message == "unknown key 'itmes' in the top-level mapping"
    assert diag.hint == "did you mean 'items'?"


def test_pattern_properties_are_not_unknown():
    schema = {"type": "object", "patternProperties": {"^x-": {}}, "additionalProperties": False}
    assert summary(check("x-note: 1\ny-note: 2\n", schema)) == [("schema-unknown-key", 2, 1)]


def test_missing_key_points_at_the_mapping():
    [diag] = check("items:\n  - name: a\n  - cost: 1\n    name: b\n")
    assert summary([diag]) == [("schema-missing-key", 2, 5)]
    assert diag.message == "missing required key 'cost' in items[0]"


def test_every_missing_key_is_reported_once():
    diags = check("items:\n  - color: red\n")
    assert [d.message for d in diags] == [
        "missing required key 'cost' in items[0]",
        "missing required key 'name' in items[0]",
    ]
    assert summary(diags) == [("schema-missing-key", 2, 5)] * 2


def test_wrong_type_points_at_the_value():
    [diag] = check("items:\n  - name: a\n    cost: abc\n")
    assert summary([diag]) == [("schema-type", 3, 11)]
    assert diag.message == "expected integer, got string 'abc'"


@pytest.mark.parametrize(
    "value, got",
    [("[1]", "array"), ("{a: 1}", "object"), ("~", "null"), ("true", "boolean true"), ("1.5", "number 1.5")],
)
def test_wrong_type_names_json_types(value, got):
    [diag] = check(f"items:\n  - name: a\n    cost: {value}\n")
    assert diag.message == f"expected integer, got {got}"


def test_enum_with_a_hint():
    [diag] = check("items:\n  - name: a\n    cost: 1\n    color: rde\n")
    assert summary([diag]) == [("schema-enum", 4, 12)]
    assert diag.message == "expected one of 'red', 'green', 'blue', got 'rde'"
    assert diag.hint == "did you mean 'red'?"


def test_const():
    [diag] = check("items:\n  - name: a\n    cost: 1\n    kind: itme\n")
    assert summary([diag]) == [("schema-enum", 4, 11)]
    assert diag.message == "expected 'item', got 'itme'"
    assert diag.hint == "did you mean 'item'?"


def test_one_of_reports_the_best_matching_sub_error():
    [diag] = check("items:\n  - name: a\n    cost: 1\n    amount:\n      min: 1\n      mx: 3\n")
    assert summary([diag]) == [("schema-unknown-key", 6, 7)]
    assert diag.hint == "did you mean 'max'?"


def test_one_of_deep_type_error():
    [diag] = check("items:\n  - name: a\n    cost: 1\n    amount: {min: x}\n")
    assert summary([diag]) == [("schema-type", 4, 19)]
    assert diag.message == "expected integer, got string 'x'"


def test_one_of_type_alternatives_are_listed_together():
    [diag] = check("items:\n  - name: a\n    cost: 1\n    amount: lots\n")
    assert summary([diag]) == [("schema-type", 4, 13)]
    assert diag.message == "expected integer or object, got string 'lots'"


def test_tied_alternatives_report_the_first():
    schema = {"anyOf": [{"type": "object", "required": ["a"]}, {"type": "object", "required": ["b"]}]}
    [diag] = check("c: 1\n", schema)
    assert summary([diag]) == [("schema-missing-key", 1, 1)]
    assert diag.message == "missing required key 'a' in the top-level mapping"


def test_other_keywords_keep_the_jsonschema_message():
    [diag] = check("items:\n  - name: a\n    cost: 1\n    tags: [a, b, c]\n")
    assert summary([diag]) == [("schema-invalid", 4, 11)]
    assert "is too long" in diag.message


def test_all_errors_are_reported_sorted_by_position():
    text = (
        "items:\n"
        "  - name: 1\n"
        "    cost: x\n"
        "  - name: b\n"
        "    cost: 2\n"
        "    color: pink\n"
        "    cots: 1\n"
        "extra: 1\n"
    )
    assert summary(check(text)) == [
        ("schema-type", 2, 11),
        ("schema-type", 3, 11),
        ("schema-enum", 6, 12),
        ("schema-unknown-key", 7, 5),
        ("schema-unknown-key", 8, 1),
    ]


def test_formats_are_not_asserted():
    schema = {"type": "object", "properties": {"mail": {"type": "string", "format": "email"}}}
    assert check("mail: not an address\n", schema) == []


def test_load_schema_reads_and_caches(tmp_path, monkeypatch):
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    (tmp_path / "thing.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    monkeypatch.setattr(schema_check, "SCHEMA_DIR", tmp_path)
    load_schema.cache_clear()
    try:
        assert load_schema("thing") == schema
        assert load_schema("thing") is load_schema("thing")
        (tmp_path / "broken.schema.json").write_text('{"type": 5}', encoding="utf-8")
        with pytest.raises(jsonschema.SchemaError):
            load_schema("broken")
    finally:
        load_schema.cache_clear()


def test_schema_dir_is_at_the_repository_root():
    # In a checkout (or an editable install) the schemas are read in place.
    assert schema_check.SCHEMA_DIR == Path(__file__).resolve().parents[1] / "schemas"


def test_a_key_no_alternative_knows_is_named_with_a_hint():
    schema = {"oneOf": [
        {"type": "object", "additionalProperties": False, "required": ["choose"],
         "properties": {"player": {"type": "integer"}, "choose": {"type": "integer"}}},
        {"type": "object", "additionalProperties": False, "required": ["expect"],
         "properties": {"expect": {"type": "string"}}},
    ]}
    data, locator = load_yaml_text("{player: 1, chooze: 0}\n", "step.yaml")
    [diag] = check_schema(data, schema, locator)
    assert (diag.code, diag.line, diag.col) == ("schema-unknown-key", 1, 13)
    assert diag.hint == "did you mean 'choose'?"
