"""Diagnostics: locations, compiler-style text, JSON, and "did you mean"."""

import json

import pytest

from interpreter.diagnostics import ContentError, Diagnostic, did_you_mean, render_json, render_text

SOURCE = "name: x\ncots: 3\n"


@pytest.mark.parametrize(
    "diag, expected",
    [
        (Diagnostic("x-y", "m", "a.yaml", 3, 7), "a.yaml:3:7"),
        (Diagnostic("x-y", "m", "a.yaml", 3), "a.yaml:3"),
        (Diagnostic("x-y", "m", "a.yaml"), "a.yaml"),
        (Diagnostic("x-y", "m", None, 3, 7), "3:7"),
        (Diagnostic("x-y", "m"), ""),
    ],
)
def test_location_leaves_out_unknown_parts(diag, expected):
    assert diag.location() == expected


def test_render_text_shows_header_source_line_caret_and_hint():
    diag = Diagnostic("schema-unknown-key", "unknown key 'cots'", "a.yaml", 2, 1, hint="did you mean 'cost'?")
    assert render_text([diag], sources={"a.yaml": SOURCE}) == (
        "a.yaml:2:1: error[schema-unknown-key]: unknown key 'cots'\n"
        "  cots: 3\n"
        "  ^\n"
        "  = hint: did you mean 'cost'?"
    )


def test_render_text_puts_the_caret_under_the_column():
    diag = Diagnostic("dsl-syntax", "unexpected token", "a.yaml", 2, 7)
    assert render_text([diag], sources={"a.yaml": SOURCE}).splitlines()[1:] == ["  cots: 3", "        ^"]


def test_render_text_spans_col_to_end_col():
    diag = Diagnostic("yaml-duplicate-key", "dup", "a.yaml", 2, 1, end_col=5)
    assert render_text([diag], sources={"a.yaml": SOURCE}).splitlines()[2] == "  ^^^^"


def test_render_text_keeps_tabs_so_the_caret_lines_up():
    diag = Diagnostic("dsl-syntax", "bad", "t.txt", 1, 4)
    assert render_text([diag], sources={"t.txt": "\t\tab"}).splitlines()[2] == "  \t\t ^"


def test_render_text_gives_wide_characters_two_cells():
    diag = Diagnostic("dsl-syntax", "bad", "t.txt", 1, 5)  # under the x: two wide, two narrow before it
    assert render_text([diag], sources={"t.txt": "名前: x"}).splitlines()[2] == "  " + " " * 6 + "^"


def test_render_text_never_reads_the_file_again(tmp_path):
    # What is on disk now may not be what was loaded (a symlink to a secret).
    path = tmp_path / "a.yaml"
    path.write_text("SECRET=1\n", encoding="utf-8")
    diag = Diagnostic("schema-type", "expected string", str(path), 1, 7)
    assert render_text([diag]) == f"{path}:1:7: error[schema-type]: expected string"
    assert "name: x" in render_text([diag], sources={str(path): SOURCE})


def test_render_text_skips_the_source_when_unavailable(tmp_path):
    missing = Diagnostic("yaml-syntax", "bad", str(tmp_path / "gone.yaml"), 1, 1)
    past_end = Diagnostic("yaml-syntax", "bad", "a.yaml", 9, 1)
    no_line = Diagnostic("yaml-syntax", "bad", "a.yaml")
    text = render_text([missing, past_end, no_line], sources={"a.yaml": SOURCE})
    assert text.splitlines() == [
        f"{tmp_path / 'gone.yaml'}:1:1: error[yaml-syntax]: bad",
        "a.yaml:9:1: error[yaml-syntax]: bad",
        "a.yaml: error[yaml-syntax]: bad",
    ]


def test_render_text_without_any_location_and_as_warning():
    diag = Diagnostic("dsl-unused", "never used", severity="warning", hint="remove it")
    assert render_text([diag]) == "warning[dsl-unused]: never used\n  = hint: remove it"


def test_render_text_follows_yaml_line_breaks():
    diag = Diagnostic("yaml-syntax", "bad", "a.yaml", 2, 1)
    assert render_text([diag], sources={"a.yaml": "a: 1\r\nb: 2\r\n"}).splitlines()[1] == "  b: 2"


def test_render_json_round_trips():
    diags = [
        Diagnostic("schema-enum", "expected one of 'a', 'b'", "x.yaml", 4, 2, 5, "did you mean 'a'?"),
        Diagnostic("dsl-unused", "never used", severity="warning"),
    ]
    assert [Diagnostic(**item) for item in json.loads(render_json(diags))] == diags


def test_content_error_str_renders_every_diagnostic():
    error = ContentError(
        [Diagnostic("yaml-syntax", "first", "a.yaml", 1, 1), Diagnostic("yaml-syntax", "second", "a.yaml", 2, 3)],
        sources={"a.yaml": SOURCE},
    )
    assert len(error.diagnostics) == 2
    assert str(error) == (
        "a.yaml:1:1: error[yaml-syntax]: first\n  name: x\n  ^\n"
        "a.yaml:2:3: error[yaml-syntax]: second\n  cots: 3\n    ^"
    )


def test_did_you_mean_suggests_the_closest_candidate():
    assert did_you_mean("cots", ["cost", "name", "effect"]) == "did you mean 'cost'?"
    assert did_you_mean("zzz", ["cost", "name"]) is None
    assert did_you_mean(3, [1, 2, 4]) is None
    assert did_you_mean("rde", ["red", "green"]) == "did you mean 'red'?"
