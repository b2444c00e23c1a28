"""Safe YAML loading: core-schema scalars, errors at exact positions, and the Locator."""

import math

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.content import yaml_source
from interpreter.content.yaml_source import MAX_DEPTH, load_yaml, load_yaml_text
from interpreter.diagnostics import ContentError


def load_file(tmp_path, text, **limits):
    path = tmp_path / "input.yaml"
    path.write_text(text, encoding="utf-8")
    return load_yaml(path, **limits)


def error_of(tmp_path, text, **limits):
    """The single diagnostic raised by loading `text` from a file."""
    with pytest.raises(ContentError) as caught:
        load_file(tmp_path, text, **limits)
    [diag] = caught.value.diagnostics
    assert diag.file == str(tmp_path / "input.yaml")
    return diag


# ---------------------------------------------------------------- scalars


@pytest.mark.parametrize(
    "text, expected",
    [
        ("NO", "NO"), ("no", "no"), ("yes", "yes"), ("Yes", "Yes"), ("on", "on"), ("off", "off"),
        ("y", "y"), ("n", "n"),
        ("true", True), ("True", True), ("TRUE", True), ("false", False), ("FALSE", False),
        ("tRUE", "tRUE"),
        ("~", None), ("null", None), ("Null", None), ("NULL", None), ("", None), ("nULL", "nULL"),
        ("010", 10), ("-7", -7), ("+3", 3), ("0o17", 15), ("0x1F", 31), ("0b101", "0b101"),
        ("1:20", "1:20"), ("1_000", "1_000"), ("017o", "017o"),
        ("1.5", 1.5), ("1e3", 1000.0), ("-2.5E-1", -0.25), (".5", 0.5), ("1.", 1.0),
        (".inf", math.inf), ("-.Inf", -math.inf), ("+.INF", math.inf),
        ("2001-12-14", "2001-12-14"), ("12:30:00", "12:30:00"), ("=", "="), ("<<", "<<"),
        ("'true'", "true"), ('"010"', "010"), ("!!str 12", "12"), ("!!int '12'", 12),
        ("!!float 2", 2.0), ("!!bool true", True), ("!!null ''", None), ("! 12", "12"),
    ],
)
def test_scalars_follow_the_yaml_1_2_core_schema(text, expected):
    data, _ = load_yaml_text(f"v: {text}\n")
    assert data["v"] == expected
    assert type(data["v"]) is type(expected)


def test_nan_is_a_float():
    data, _ = load_yaml_text("v: .NaN\n")
    assert math.isnan(data["v"])


def test_empty_and_comment_only_files_load_as_none(tmp_path):
    assert load_file(tmp_path, "")[0] is None
    assert load_file(tmp_path, "# nothing here\n")[0] is None


def test_merge_key_is_a_plain_key():
    data, _ = load_yaml_text("base: &b {x: 1}\nderived:\n  <<: *b\n  y: 2\n")
    assert data["derived"] == {"<<": {"x": 1}, "y": 2}


def test_alias_gives_an_equal_independent_copy():
    data, _ = load_yaml_text("base: &b {x: 1, y: [1, 2]}\ncopy: *b\n")
    assert data["copy"] == data["base"] == {"x": 1, "y": [1, 2]}
    data["copy"]["y"].append(3)
    assert data["base"]["y"] == [1, 2]


def test_an_anchor_name_may_be_reused():
    data, _ = load_yaml_text("a: &x 1\nb: *x\nc: &x 2\nd: *x\n")
    assert data == {"a": 1, "b": 1, "c": 2, "d": 2}


def test_a_byte_order_mark_is_skipped():
    data, locator = load_yaml_text("\ufeffa: 1\nb: 2\n")
    assert data == {"a": 1, "b": 2}
    assert locator.at(("b",)) == (2, 4)


# ---------------------------------------------------------------- errors


def test_file_over_the_size_limit(tmp_path):
    diag = error_of(tmp_path, "a: 1\n" * 40, max_bytes=100)
    assert (diag.code, diag.line, diag.col) == ("yaml-too-large", 1, 1)
    assert "200" in diag.message and "100" in diag.message


def test_size_is_checked_before_reading(tmp_path, monkeypatch):
    huge = tmp_path / "huge.yaml"
    with open(huge, "wb") as stream:
        stream.truncate(20 * 10**9)  # sparse: its stat size is 20 GB, nothing on disk
    reads = []
    real_fdopen = yaml_source.os.fdopen

    class Spy:
        def __init__(self, stream):
            self.stream = stream

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.stream.close()

        def read(self, *args):
            reads.append(args)
            return self.stream.read(*args)

    monkeypatch.setattr(yaml_source.os, "fdopen", lambda *a, **k: Spy(real_fdopen(*a, **k)))
    with pytest.raises(ContentError) as caught:
        load_yaml(huge)
    assert caught.value.diagnostics[0].code == "yaml-too-large"
    assert "20,000,000,000" in caught.value.diagnostics[0].message
    assert reads == []                       # refused on its stat size alone
    small = tmp_path / "small.yaml"
    small.write_text("a: 1\n", encoding="utf-8")
    assert load_yaml(small)[0] == {"a": 1} and reads  # the spy does see reads


def test_text_over_the_size_limit():
    with pytest.raises(ContentError) as caught:
        load_yaml("mem.yaml", text="é" * 60, max_bytes=100)  # 120 bytes in UTF-8
    assert caught.value.diagnostics[0].code == "yaml-too-large"


# Each error is reported with its code at the exact line and column.
ERRORS_AT = [
    ("syntax_error_points_at_the_problem", "a: 1\nb: [1, 2\nc: 3\n", {}, ("yaml-syntax", 3, 2)),
    ("keys_equal_after_reading_are_duplicates", "true: 1\nTrue: 2\n", {}, ("yaml-duplicate-key", 2, 1)),
    ("integer_with_too_many_digits", "a: 1\nb: " + "9" * 5000 + "\n", {}, ("yaml-invalid-value", 2, 4)),
    ("complex_key_is_refused", "a: 1\n? [a, b]\n: 1\n", {}, ("yaml-complex-key", 2, 3)),
    ("alias_to_a_collection_as_key_is_refused", "a: &k [1]\n*k : 2\n", {}, ("yaml-complex-key", 2, 1)),
    ("node_limit_without_aliases", "- 1\n- 2\n- 3\n- 4\n", {"max_nodes": 4}, ("yaml-too-many-nodes", 4, 3)),
    ("recursive_alias_is_refused", "a: &a [1, *a]\n", {}, ("yaml-recursive-alias", 1, 11)),
    ("undefined_alias_is_a_syntax_error", "a: 1\nb: *nope\n", {}, ("yaml-syntax", 2, 4)),
    ("second_document_is_refused", "a: 1\n---\nb: 2\n", {}, ("yaml-syntax", 2, 1)),
]


@pytest.mark.parametrize("case,text,limits,where", ERRORS_AT, ids=[c[0] for c in ERRORS_AT])
def test_error_is_reported_where_it_is(tmp_path, case, text, limits, where):
    diag = error_of(tmp_path, text, **limits)
    assert (diag.code, diag.line, diag.col) == where


def test_tab_indentation_gets_a_hint(tmp_path):
    diag = error_of(tmp_path, "a:\n\tb: 1\n")
    assert (diag.code, diag.line, diag.col) == ("yaml-syntax", 2, 1)
    assert "tabs" in diag.hint


def test_invalid_utf8_is_reported_where_it_is(tmp_path):
    path = tmp_path / "input.yaml"
    path.write_bytes(b"a: 1\nb: caf\xe9\n")
    with pytest.raises(ContentError) as caught:
        load_yaml(path)
    [diag] = caught.value.diagnostics
    assert (diag.code, diag.line, diag.col) == ("yaml-encoding", 2, 7)


def test_control_character_is_reported_where_it_is(tmp_path):
    diag = error_of(tmp_path, "a: 1\nbé: x\x07y\n")
    assert (diag.code, diag.line, diag.col) == ("yaml-syntax", 2, 6)
    assert "U+0007" in diag.message


def test_duplicate_key_points_at_the_second_occurrence(tmp_path):
    diag = error_of(tmp_path, "a: 1\nb:\n  c: 2\n  d: 3\n  c: 4\n")
    assert (diag.code, diag.line, diag.col, diag.end_col) == ("yaml-duplicate-key", 5, 3, 4)
    assert "'c'" in diag.message and "line 3" in diag.message


def test_python_tags_are_refused_and_never_run(tmp_path):
    marker = tmp_path / "ran"
    diag = error_of(tmp_path, f'a: 1\nb: !!python/object/apply:os.system ["touch {marker}"]\n')
    assert (diag.code, diag.line, diag.col) == ("yaml-unsafe-tag", 2, 4)
    assert "python/object/apply:os.system" in diag.message
    assert not marker.exists()


@pytest.mark.parametrize(
    "tagged",
    ["!foo x", "!!set {a}", "!!binary aGk=", "!!timestamp 2001-12-14", "!!python/name:os.system x",
     "!<tag:example.com,2000:x> y", "!!omap [a: 1]"],
)
def test_only_standard_tags_are_allowed(tmp_path, tagged):
    diag = error_of(tmp_path, f"k:\n  - {tagged}\n")
    assert (diag.code, diag.line, diag.col) == ("yaml-unsafe-tag", 2, 5)


@pytest.mark.parametrize("text", ["a: !!int abc\n", "a: !!bool yes\n", "a: !!str [1]\n", "a: !!map x\n"])
def test_standard_tag_on_a_value_it_cannot_describe(tmp_path, text):
    diag = error_of(tmp_path, text)
    assert (diag.code, diag.line, diag.col) == ("yaml-invalid-value", 1, 4)


def test_alias_to_a_scalar_is_a_fine_key():
    data, _ = load_yaml_text("a: &k name\n*k : 2\n")
    assert data == {"a": "name", "name": 2}


BILLION_LAUGHS = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}'] * 9)}]\n" for prev, name in zip("abcdefgh", "bcdefghi")
)


def test_alias_bomb_is_refused_before_its_copy_is_built(tmp_path, monkeypatch):
    built = []
    real_scalar = yaml_source._scalar
    monkeypatch.setattr(yaml_source, "_scalar", lambda node: built.append(1) or real_scalar(node))
    diag = error_of(tmp_path, BILLION_LAUGHS)
    # Lines 1-5 make 74,738 nodes and each *e copies 66,430: the second *e crosses 200,000.
    assert (diag.code, diag.line, diag.col) == ("yaml-too-many-nodes", 6, 12)
    assert "expanding this alias" in diag.message
    # Only the copies that fit were built: the one that would cross the limit never started.
    assert len(built) < 74_738 + 66_430


def test_node_limit_counts_alias_copies(tmp_path):
    text = "a: &a [1, 2, 3]\nb: *a\nc: *a\n"  # root, then 3 keys and 3 lists of 4 nodes each
    assert load_file(tmp_path, text, max_nodes=16)[0]["c"] == [1, 2, 3]
    diag = error_of(tmp_path, text, max_nodes=15)
    assert (diag.code, diag.line, diag.col) == ("yaml-too-many-nodes", 3, 4)


def test_deep_nesting_is_refused_without_crashing(tmp_path):
    text = "[" * 100_000 + "]" * 100_000  # would overflow the C composer's stack
    diag = error_of(tmp_path, text)
    assert (diag.code, diag.line) == ("yaml-too-deep", 1)
    # our composer stops at MAX_DEPTH; newer libyaml may stop first at its own limit
    assert diag.col in (MAX_DEPTH + 1, 1001)


def test_nesting_through_aliases_is_bounded(tmp_path):
    diag = error_of(tmp_path, f"a: &a {'[' * 60}1{']' * 60}\nb: {'[' * 60}*a{']' * 60}\n")
    assert (diag.code, diag.line) == ("yaml-too-deep", 1)


def test_error_message_shows_the_source_line():
    with pytest.raises(ContentError) as caught:
        load_yaml_text("a: 1\na: 2\n", file="mem.yaml")
    assert str(caught.value).splitlines() == [
        "mem.yaml:2:1: error[yaml-duplicate-key]: duplicate key 'a' (first defined on line 1)",
        "  a: 2",
        "  ^",
    ]


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_loads_or_raises_content_error(text):
    try:
        load_yaml_text(text)
    except ContentError as error:
        assert error.diagnostics and all(diag.line and diag.col for diag in error.diagnostics)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=" \t\n\r-:?,[]{}&*!|>'\"#%@`~<=.0123456789abxy\\é\x00\x85\u2028\ufeff"))
def test_yaml_like_text_loads_or_raises_content_error(text):
    try:
        load_yaml_text(text)
    except ContentError as error:
        assert error.diagnostics and all(diag.line and diag.col for diag in error.diagnostics)


# ---------------------------------------------------------------- locator

NESTED = """\
title: plain value
items:
  - name: first
    effect: gain 2 unit
  - name: second
    effect: 'gain 3 unit'
    extra:
      - "spend 1 unit"
"""


def test_at_points_at_values():
    _, locator = load_yaml_text(NESTED)
    assert locator.file == "<string>"
    assert locator.at(()) == (1, 1)
    assert locator.at(("title",)) == (1, 8)
    assert locator.at(("items",)) == (3, 3)
    assert locator.at(("items", 0)) == (3, 5)
    assert locator.at(("items", 1, "effect")) == (6, 13)
    assert locator.at(["items", 1, "extra", 0]) == (8, 9)


def test_at_falls_back_to_the_nearest_known_ancestor():
    _, locator = load_yaml_text(NESTED)
    assert locator.at(("items", 1, "missing", 4)) == (5, 5)
    assert locator.at(("nowhere",)) == (1, 1)
    _, empty = load_yaml_text("")
    assert empty.at(("a", 1)) == (1, 1)


def test_key_at_points_at_keys():
    _, locator = load_yaml_text(NESTED)
    assert locator.key_at(("items", 1, "effect")) == (6, 5)
    assert locator.key_at(("title",)) == (1, 1)
    assert locator.key_at(("items", 1)) == (5, 5)  # a list item has no key
    assert locator.key_at(("items", 1, "nope")) == (5, 5)


def test_alias_positions():
    _, locator = load_yaml_text("base: &b {x: 1}\ncopy: *b\n")
    assert locator.at(("copy",)) == (2, 7)
    assert locator.key_at(("copy",)) == (2, 1)
    assert locator.at(("copy", "x")) == (1, 14)


def test_text_position_in_plain_scalars():
    _, locator = load_yaml_text(NESTED)
    assert locator.text_position(("title",), 1, 1) == (1, 8)
    assert locator.text_position(("title",), 1, 7) == (1, 14)
    assert locator.text_position(("items", 0, "effect"), 1, 8) == (4, 20)


def test_text_position_in_quoted_scalars():
    _, locator = load_yaml_text(NESTED)
    assert locator.text_position(("items", 1, "effect"), 1, 1) == (6, 14)
    assert locator.text_position(("items", 1, "effect"), 1, 8) == (6, 21)
    assert locator.text_position(("items", 1, "extra", 0), 1, 7) == (8, 16)


def test_text_position_past_the_end_and_before_the_start():
    _, locator = load_yaml_text("a: 'abc'\n")
    assert locator.text_position(("a",), 1, 4) == (1, 8)  # just past the text, on the quote
    assert locator.text_position(("a",), 1, 99) == (1, 8)
    assert locator.text_position(("a",), 1, 0) == (1, 5)


def test_text_position_after_tags_and_anchors():
    _, locator = load_yaml_text("a: !!str &t gain 2\nb: &q 'xy'\n")
    assert locator.text_position(("a",), 1, 6) == (1, 18)
    assert locator.text_position(("b",), 1, 2) == (2, 9)


def test_text_position_skips_escapes_in_double_quotes():
    _, locator = load_yaml_text('a: "say \\"hi\\" now"\n')
    assert locator.text_position(("a",), 1, 6) == (1, 11)  # the h of hi
    assert locator.text_position(("a",), 1, 10) == (1, 16)  # the n of now


LITERAL = """\
rules:
  - effect: |
      gain 2 unit
        then spend 1

      draw 3
    other: x
"""


def test_text_position_in_literal_blocks():
    data, locator = load_yaml_text(LITERAL)
    assert data["rules"][0]["effect"] == "gain 2 unit\n  then spend 1\n\ndraw 3\n"
    path = ("rules", 0, "effect")
    assert locator.text_position(path, 1, 1) == (3, 7)
    assert locator.text_position(path, 1, 6) == (3, 12)
    assert locator.text_position(path, 2, 1) == (4, 7)
    assert locator.text_position(path, 2, 3) == (4, 9)
    assert locator.text_position(path, 4, 6) == (6, 12)


def test_text_position_in_literal_block_with_leading_blank_lines():
    text = "a: |\n\n\n  x = 1\nb: 2\n"
    data, locator = load_yaml_text(text)
    assert data["a"] == "\n\nx = 1\n"
    assert locator.text_position(("a",), 3, 3) == (4, 5)


def test_text_position_in_literal_block_with_indentation_indicator():
    data, locator = load_yaml_text("a: |2\n    indented\n  base\nb: 1\n")
    assert data["a"] == "  indented\nbase\n"
    assert locator.text_position(("a",), 1, 1) == (2, 3)
    assert locator.text_position(("a",), 1, 3) == (2, 5)
    assert locator.text_position(("a",), 2, 1) == (3, 3)


def test_text_position_in_folded_blocks():
    text = "a: >\n  gain 2\n  unit\n\n  draw 1\nb: 1\n"
    data, locator = load_yaml_text(text)
    assert data["a"] == "gain 2 unit\ndraw 1\n"
    assert locator.text_position(("a",), 1, 1) == (2, 3)
    assert locator.text_position(("a",), 1, 8) == (3, 3)  # "unit", folded onto line 1
    assert locator.text_position(("a",), 2, 6) == (5, 8)


def test_text_position_in_multi_line_plain_scalars():
    text = "a: gain 2\n   unit\n\n   draw 1\nb: 1\n"
    data, locator = load_yaml_text(text)
    assert data["a"] == "gain 2 unit\ndraw 1"
    assert locator.text_position(("a",), 1, 8) == (2, 4)
    assert locator.text_position(("a",), 2, 1) == (4, 4)


def test_text_position_with_crlf_line_ends():
    data, locator = load_yaml_text("a: 1\r\nb: |\r\n  x y\r\n  z\r\n")
    assert data["b"] == "x y\nz\n"
    assert locator.text_position(("b",), 2, 1) == (4, 3)


def test_text_position_through_an_alias_points_at_the_anchor():
    _, locator = load_yaml_text("a: &t gain 2\nb: *t\n")
    assert locator.text_position(("b",), 1, 6) == (1, 12)


def test_text_position_of_a_non_string_falls_back_to_at():
    _, locator = load_yaml_text("a:\n  b: [1]\n")
    assert locator.text_position(("a",), 1, 3) == (2, 3)
    assert locator.text_position(("a", "zz"), 1, 3) == (2, 3)


@settings(max_examples=300, deadline=None)
@given(
    values=st.lists(st.text(alphabet="ab yz-+=():#'\"\\\né", min_size=1, max_size=30), min_size=1, max_size=3),
    style=st.sampled_from([None, "|", ">", "'", '"']),
    indent=st.integers(2, 6),
    width=st.sampled_from([10, 30, 80]),
)
def test_text_position_finds_each_character_in_every_style(values, style, indent, width):
    doc = {"k": [{"v": value} for value in values]}
    text = yaml.safe_dump(doc, default_style=style, indent=indent, width=width, allow_unicode=True)
    data, locator = load_yaml_text(text)
    assert data == yaml.safe_load(text)  # not always `doc`: PyYAML's emitter can misfold
    lines = text.split("\n")
    for index, value in enumerate(item["v"] for item in data["k"]):
        for line, value_line in enumerate(value.split("\n"), 1):
            for col, char in enumerate(value_line, 1):
                if char not in " '\"\\":  # blanks and quotes may be folds and escapes
                    found_line, found_col = locator.text_position(("k", index, "v"), line, col)
                    assert lines[found_line - 1][found_col - 1] == char
