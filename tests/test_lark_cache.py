"""The parser's disk cache: keyed by grammar and versions, written atomically
in a private folder, never read when others could have written it, and never
in the way when it cannot be used."""
from __future__ import annotations

import os
from pathlib import Path

import lark
import pytest

from interpreter.dsl import lark_cache, parser
from interpreter.dsl.lark_cache import cache_path, cached_lark

GRAMMAR = Path(parser.__file__).with_name("effects.lark")
OPTIONS = dict(parser="lalr", start="program", propagate_positions=True, maybe_placeholders=True)
TEXT = "if self.coin > 2:\n  gain 1 coin\n"


def build(folder):
    return cached_lark(GRAMMAR, postlex=parser._Layout(), **OPTIONS)


@pytest.fixture
def folder(tmp_path, monkeypatch):
    target = tmp_path / "cache"
    monkeypatch.setenv(lark_cache.ENV_FOLDER, str(target))
    return target


def files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_the_first_build_writes_one_private_file_and_the_next_reads_it(folder):
    built = build(folder)
    assert len(files(folder)) == 1 and not files(folder)[0].startswith(".tmp")
    (cached,) = folder.iterdir()
    assert oct(folder.stat().st_mode & 0o777) == "0o700"
    assert cached.stat().st_mode & 0o077 == 0
    loaded = lark_cache._load(cached, parser._Layout())
    assert loaded is not None
    assert loaded.parse(TEXT) == built.parse(TEXT)
    assert build(folder).parse(TEXT) == built.parse(TEXT)
    assert len(files(folder)) == 1


def test_a_file_others_may_write_is_never_loaded(folder):
    build(folder)
    (cached,) = folder.iterdir()
    cached.chmod(0o666)
    assert lark_cache._load(cached, parser._Layout()) is None
    cached.chmod(0o600)
    folder.chmod(0o777)
    assert lark_cache._load(cached, parser._Layout()) is None


def test_a_damaged_file_is_replaced(folder):
    build(folder)
    (cached,) = folder.iterdir()
    cached.write_bytes(b"not a pickle")
    assert build(folder).parse(TEXT)
    assert lark_cache._load(cached, parser._Layout()) is not None


def test_an_unwritable_place_falls_back_silently(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv(lark_cache.ENV_FOLDER, str(blocker / "cache"))   # under a file
    assert build(None).parse(TEXT)


def test_an_empty_setting_turns_the_cache_off(tmp_path, monkeypatch):
    monkeypatch.setenv(lark_cache.ENV_FOLDER, "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert build(None).parse(TEXT)
    assert list(tmp_path.iterdir()) == []


def test_the_key_covers_grammar_options_postlexer_and_lark_version(folder, monkeypatch):
    grammar = GRAMMAR.read_text(encoding="utf-8")
    first = cache_path(grammar, "_Layout", OPTIONS)
    assert first == cache_path(grammar, "_Layout", dict(OPTIONS))
    assert first != cache_path(grammar + "\n", "_Layout", OPTIONS)
    assert first != cache_path(grammar, "_ExpressionLayout", OPTIONS)
    assert first != cache_path(grammar, "_Layout", dict(OPTIONS, start="expression"))
    monkeypatch.setattr(lark, "__version__", "0.0.0")
    assert first != cache_path(grammar, "_Layout", OPTIONS)
    assert first.parent == folder


def test_the_default_folder_is_per_user(monkeypatch, tmp_path):
    monkeypatch.delenv(lark_cache.ENV_FOLDER, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_path("g", "x", {}).parent == tmp_path / "rulebook"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")      # ignored, as the spec says
    assert cache_path("g", "x", {}).parent == Path(os.path.expanduser("~")) / ".cache" / "rulebook"
