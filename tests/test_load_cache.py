"""Checks remembered by content hash (content/checked.py): a second load skips the schema
checks, the parsing and `validate`'s smoke games it passed before, and any change to a file,
to the code or to the limits checks afresh, with the same `file:line:col` errors. The cache
is private, and a damaged or foreign entry is ignored."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.content import checked, ruleset, schema_check
from interpreter.diagnostics import ContentError
from interpreter.dsl import lark_cache, parser

TOY = Path(__file__).parent / "rulesets" / "toy"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache folder of this test's own; what the process read before is forgotten."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(lark_cache.ENV_FOLDER, str(folder))
    checked.forget()
    yield folder
    checked.forget()


@pytest.fixture
def toy(tmp_path):
    target = tmp_path / "toy"
    shutil.copytree(TOY, target)
    return target


def fresh():
    """As a new process: nothing read from the cache file yet."""
    checked.forget()


class Counting:
    """Counts calls of a module function, calling through to it."""

    def __init__(self, monkeypatch, module, name):
        self.calls, original = 0, getattr(module, name)

        def counted(*args, **kwargs):
            self.calls += 1
            return original(*args, **kwargs)
        monkeypatch.setattr(module, name, counted)


def test_a_second_load_checks_nothing_it_checked_before(cache, toy, monkeypatch):
    schemas = Counting(monkeypatch, schema_check, "check_schema")
    parses = Counting(monkeypatch, parser, "_parse")
    first = ruleset.load_ruleset(str(toy))
    assert schemas.calls > 0 and parses.calls > 0
    schemas.calls = parses.calls = 0
    fresh()
    second = ruleset.load_ruleset(str(toy))
    assert (schemas.calls, parses.calls) == (0, 0)
    assert second.fingerprint == first.fingerprint
    assert [repr(n) for n in second.nodes] == [repr(n) for n in first.nodes]   # the same trees
    assert second.where(second.start) == first.where(first.start)


def test_a_changed_file_is_checked_again_and_its_error_placed(cache, toy):
    ruleset.load_ruleset(str(toy))
    fresh()
    manifest = toy / "game.yaml"
    manifest.write_text(manifest.read_text().replace("score: points", "score: points\nscroe: 1"))
    with pytest.raises(ContentError) as caught:
        ruleset.load_ruleset(str(toy))
    [diag] = caught.value.diagnostics
    assert (diag.code, diag.line, diag.col) == ("schema-unknown-key", 7, 1)


def test_a_changed_text_is_parsed_again_and_its_error_placed(cache, toy):
    ruleset.load_ruleset(str(toy))
    fresh()
    flow = toy / "flow.yaml"
    flow.write_text(flow.read_text().replace("expr: x * 2", "expr: x * * 2"))
    result = CliRunner().invoke(cli, ["validate", str(toy)])
    assert result.exit_code == 1
    assert "flow.yaml:18:15: error[dsl-syntax]" in result.output and "^" in result.output


def test_validate_plays_its_smoke_games_once_per_content(cache, toy, monkeypatch):
    from interpreter.engine import smoke
    games = Counting(monkeypatch, smoke, "_smoke")
    for _ in range(2):
        fresh()
        result = CliRunner().invoke(cli, ["validate", str(toy)])
        assert result.exit_code == 0, result.output
    assert games.calls == 2                       # two player counts, played the first time only
    flow = toy / "flow.yaml"
    flow.write_text(flow.read_text().replace("expr: x * 2", "expr: x * 3"))
    fresh()
    assert CliRunner().invoke(cli, ["validate", str(toy)]).exit_code == 0
    assert games.calls == 4


def test_lower_limits_are_not_the_limits_that_passed(cache, toy, monkeypatch):
    from interpreter.engine import budget, smoke
    assert CliRunner().invoke(cli, ["validate", str(toy)]).exit_code == 0
    games = Counting(monkeypatch, smoke, "_smoke")
    monkeypatch.setattr(budget, "MAX_STEPS", 10)
    fresh()
    result = CliRunner().invoke(cli, ["validate", str(toy)])
    assert games.calls == 2 and result.exit_code == 1 and "smoke-game" in result.output


def test_other_code_does_not_read_these_digests(cache, toy, monkeypatch):
    ruleset.load_ruleset(str(toy))
    schemas = Counting(monkeypatch, schema_check, "check_schema")
    fresh()
    monkeypatch.setattr(checked, "code_stamp", lambda: "another version of the code")
    ruleset.load_ruleset(str(toy))
    assert schemas.calls > 0


def test_digests_change_with_every_part():
    assert len({checked.digest("a", "b"), checked.digest("ab"), checked.digest("a", "c"),
                checked.digest(b"a", "b")} ) == 3          # bytes and text of the same bytes agree


@pytest.mark.parametrize("damage", [b"\x00not json", b'{"format": 999, "passed": ["x"]}',
                                    b'{"format": 1, "passed": 7}', b"[]"])
def test_a_damaged_or_foreign_file_counts_as_empty(cache, toy, monkeypatch, damage):
    cache.mkdir(mode=0o700)
    (cache / checked.FILE).write_bytes(damage)
    os.chmod(cache / checked.FILE, 0o600)
    ruleset.load_ruleset(str(toy))                # checks everything, then writes a good file
    assert json.loads((cache / checked.FILE).read_text())["format"] == checked.FORMAT


def test_damaged_trees_are_parsed_again(cache, toy, monkeypatch):
    ruleset.load_ruleset(str(toy))
    for kept in cache.glob("parsed-*.pickle"):
        kept.write_bytes(b"damaged")
    parses = Counting(monkeypatch, parser, "_parse")
    fresh()
    rules = ruleset.load_ruleset(str(toy))
    assert parses.calls > 0 and rules.start is not None


def test_a_cache_others_may_write_is_not_read(cache, toy, monkeypatch):
    ruleset.load_ruleset(str(toy))
    os.chmod(cache / checked.FILE, 0o666)
    for kept in cache.glob("parsed-*.pickle"):
        os.chmod(kept, 0o666)
    schemas = Counting(monkeypatch, schema_check, "check_schema")
    parses = Counting(monkeypatch, parser, "_parse")
    fresh()
    ruleset.load_ruleset(str(toy))
    assert schemas.calls > 0 and parses.calls > 0


def test_an_empty_folder_setting_turns_it_off(tmp_path, monkeypatch, toy):
    monkeypatch.setenv(lark_cache.ENV_FOLDER, "")
    checked.forget()
    try:
        ruleset.load_ruleset(str(toy))
        schemas = Counting(monkeypatch, schema_check, "check_schema")
        fresh()
        ruleset.load_ruleset(str(toy))
        assert schemas.calls > 0
    finally:
        checked.forget()


def test_only_the_newest_digests_are_kept(cache, monkeypatch):
    monkeypatch.setattr(checked, "KEEP", 3)
    for key in "abcde":
        checked.remember(key)
    fresh()
    assert [checked.passed(k) for k in "abcde"] == [False, False, True, True, True]


def test_lower_parser_limits_parse_again(cache, toy, monkeypatch):
    ruleset.load_ruleset(str(toy))
    fresh()
    monkeypatch.setattr(parser, "MAX_DEPTH", 3)
    with pytest.raises(ContentError) as caught:
        ruleset.load_ruleset(str(toy))
    assert any("deep" in d.message for d in caught.value.diagnostics)
