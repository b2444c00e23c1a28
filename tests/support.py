"""Helpers shared by the tests that edit a copy of a ruleset and look for positions."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

RULESETS = Path(__file__).resolve().parent / "rulesets"
TOOLS = Path(__file__).resolve().parents[1] / "tools"


def tool(name: str):
    """The module ``tools/<name>.py`` (tools are scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def edit(path: Path, old: str, new: str) -> None:
    """Replace the first ``old`` in the file with ``new`` (it must be there)."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def position(path: Path, needle: str, nth: int = 1, offset: int = 0) -> tuple[int, int]:
    """1-based (line, col) of the ``nth`` line holding ``needle`` (plus ``offset`` columns)."""
    found = 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            found += 1
            if found == nth:
                return number, line.index(needle) + 1 + offset
    raise AssertionError(f"{needle!r} not found")


def errors_both_ways(folder, monkeypatch) -> list:
    """The error a new game of ``folder`` stops with: in generated code, then in the closures."""
    from interpreter.content.ruleset import load_ruleset
    from interpreter.engine import codegen
    from interpreter.engine.game import Game
    from interpreter.model.values import RuleError
    messages = []
    for enabled in (True, False):
        monkeypatch.setattr(codegen, "ENABLED", enabled)
        rules = load_ruleset(str(folder))
        with pytest.raises(RuleError) as caught:
            Game.new(rules)
        messages.append(str(caught.value))
        assert ("_program" in rules.__dict__) is enabled
    return messages
