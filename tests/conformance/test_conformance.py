"""Every ruleset, every player count, every option value (and every pair of a per-seat option's
values side by side): random games that keep the rules' promises.

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

from .harness import (RULESET_IDS, allowed_values, check_no_leak, final_hashes, hidden_variant,
                      option_values, per_seat_options, random_playout, rules_of, seat_lists, setups,
                      short_name, switched_on)

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
    seated = per_seat_options(rules)
    for option in rules.options:
        if option in seated:                      # every value and every pair in one game
            values = allowed_values(rules, option)
            together = [set(options[option]) for _, options, _ in games]
            assert all(any({a, b} <= game for game in together) for a in values for b in values), option
            assert all(len(options[option]) <= players for players, options, _ in games)
            continue
        for index in range(len(option_values(rules, option, rules.players["max"]))):
            assert any(options[option] == option_values(rules, option, players)[index]
                       for players, options, _ in games), (option, index)


@pytest.mark.parametrize("values, counts", [(list("abcdefgh"), [2, 3, 4, 5]), (list("abcde"), [2, 3]),
                                            (list("abc"), [2, 3, 4, 5]), (["a"], [1, 2]),
                                            (list(range(12)), [3, 4])])
def test_seat_lists_seat_every_pair_once_at_least_in_few_games(values, counts):
    seated, plans = seat_lists({"x": values, "y": values[:2]}, counts)
    assert seated[:len(counts)] == sorted(counts, reverse=True)   # every count, largest first
    assert set(seated[len(counts):]) <= {max(counts)}
    for name, pool in (("x", values), ("y", values[:2])):
        games = plans[name]
        assert len(games) == len(seated)
        for players, game in zip(seated, games):
            assert len(set(game)) == len(game) <= players and set(game) <= set(pool)
        assert all(any({a, b} <= set(game) for game in games) for a in pool for b in pool)
        assert games[-1] == [] or name == "x"     # a covered option is left to the game
    pairs = len(values) * (len(values) - 1) // 2
    per_game = max(counts) * (max(counts) - 1) // 2
    assert len(seated) <= len(counts) + 2 * -(-pairs // per_game)   # small: near the bound
    assert seat_lists({"x": values, "y": values[:2]}, counts) == (seated, plans)   # the same every run


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
    game = Game.new(rules, players=players, seed=5, options=switched_on(rules))
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
    game = Game.new(rules, players=rules.players["max"], seed=5, options=switched_on(rules))
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
