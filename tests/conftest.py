"""Shared fixtures: rulesets are loaded once per test session."""
from __future__ import annotations

import pytest

from interpreter.content.ruleset import load_ruleset


@pytest.fixture(scope="session")
def lairs():
    return load_ruleset("lairs")


def pytest_addoption(parser):
    parser.addoption("--soak", type=int, default=1, metavar="N",
                     help="conformance harness: random games per set-up (default 1)")
