"""Every ruleset, every player count, every option value: random games that keep the rules' promises.

Parametrised over every bundled ruleset (and the toy fixture), so a new game
is tried by existing. ``pytest --soak N`` plays N seeds per set-up instead of 1.
"""
from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from interpreter.agents.driver import random_mover
from interpreter.engine.game import Game

from .harness import (RULESET_IDS, check_no_leak, final_hashes, hidden_variant,
                      option_values, random_playout, rules_of, setups, short_name)

HARNESS = os.path.join(os.path.dirname(__file__), "harness.py")


def pytest_generate_tests(metafunc):
    if "setup" in metafunc.fixturenames:
        soak = metafunc.config.getoption("soak")
        cases = [(name, *case) for name in RULESET_IDS for case in setups(rules_of(name), soak)]
        metafunc.parametrize("setup", cases, ids=[f"{short_name(n)}-{p}p-seed{s}" for n, p, _, s in cases])


@pytest.mark.parametrize("name", RULESET_IDS, ids=short_name)
def test_setups_cover_every_player_count_and_option_value(name):
    rules = rules_of(name)
    games = setups(rules)
    counts = range(rules.players["min"], rules.players["max"] + 1)
    assert {players for players, _, _ in games} == set(counts)
    for option in rules.options:
        for index in range(len(option_values(rules, option, rules.players["max"]))):
            assert any(options[option] == option_values(rules, option, players)[index]
                       for players, options, _ in games), (option, index)


def test_random_playout(setup):
    name, players, options, seed = setup
    stats = random_playout(rules_of(name), players, options, seed)
    assert stats["decisions"] > 0 and stats["leak_checks"] > 0


@pytest.mark.parametrize("name", RULESET_IDS, ids=short_name)
def test_same_game_in_another_process_and_hash_seed(name):
    """Seeded games (random, and a look-ahead bot's) end in the same state in another
    process with another PYTHONHASHSEED: nothing depends on the order of a set or on ``hash``."""
    rules = rules_of(name)
    players, seed = rules.players["min"], 3
    mine = os.environ.get("PYTHONHASHSEED", "random")
    other = "1" if mine == "0" else "0"
    run = subprocess.Popen([sys.executable, HARNESS, name, str(players), str(seed), "{}"],
                           env={**os.environ, "PYTHONHASHSEED": other},
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    here = final_hashes(name, players, seed, {})           # while the other process plays
    out, err = run.communicate()
    assert run.returncode == 0, err
    assert out.split() == here


@pytest.mark.parametrize("name", RULESET_IDS, ids=short_name)
def test_hidden_variants_change_something(name):
    """The leak test is not empty: where a ruleset hides anything, re-dealing it changes the state."""
    rules = rules_of(name)
    hides = rules.visibility or any(spec.get("visible", "all") != "all" for spec in rules.zones.values())
    if not hides:
        pytest.skip("this ruleset hides nothing")
    players = rules.players["max"]
    game = Game.new(rules, players=players, seed=5)
    move, rnd = random_mover(5), random.Random(5)
    changed = 0
    for _ in range(6):
        changed += any(hidden_variant(game, seat, rnd)[1] for seat in range(players))
        if game.over:
            break
        move(game, game.pending())
    assert changed


@pytest.mark.parametrize("name", RULESET_IDS, ids=short_name)
def test_the_leak_check_catches_a_leak(name, monkeypatch):
    """A view that shows the whole state (hidden parts too) fails the leak check."""
    rules = rules_of(name)
    game = Game.new(rules, players=rules.players["max"], seed=5)
    plain = Game.view
    monkeypatch.setattr(Game, "view", lambda self, seat: {**plain(self, seat), "leak": self.to_json()})
    rnd = random.Random(5)
    changed = False
    try:
        for _ in range(10):
            changed |= check_no_leak(game, 0, rnd)
    except AssertionError as exc:
        assert "hidden from them" in str(exc)
        return
    if not changed:                         # everything is public: nothing could leak
        pytest.skip(f"{short_name(name)} hides nothing from P1")
    pytest.fail("a view showing the whole state passed the leak check")
