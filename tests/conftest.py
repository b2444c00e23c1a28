"""Shared fixtures: rulesets are loaded once per test session."""
from __future__ import annotations

import pytest

from interpreter.content.ruleset import load_ruleset


@pytest.fixture(scope="session")
def lairs():
    return load_ruleset("lairs")
