"""Shared fixtures: rulesets are loaded once per test session."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset

TOY = Path(__file__).resolve().parent / "rulesets" / "toy"


@pytest.fixture(scope="session")
def lairs():
    return load_ruleset("lairs")


@pytest.fixture
def toy(tmp_path):
    """A copy of the toy fixture ruleset to edit (a test file may define its own ``toy``)."""
    target = tmp_path / "toy"
    shutil.copytree(TOY, target)
    return target


def pytest_addoption(parser):
    parser.addoption("--soak", type=int, default=1, metavar="N",
                     help="conformance harness: random games per set-up (default 1)")
