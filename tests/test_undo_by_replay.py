"""A failed answer is undone by replay: the state is exactly as before, wherever the content failed.

A game only the engine has read (``Game.new``, ``from_json``, ``clone``) takes no copy before
an answer: if the content fails halfway, the game goes back to its last saved position and
replays the answers given since. These tests fail effects halfway in a nested call, in a hook
and inside ``simultaneously``, in a sealed game and in one whose state was read (which copies
first), and check the state, the log and the game's future against a twin that never failed.
"""
from __future__ import annotations

import json
import random

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.engine import game as game_module
from interpreter.engine.game import Game, sealed_state
from interpreter.model.values import RuleError, decode
from test_language import toy_with

# The second option of each choice fails in a call inside a call; the third in a counter's hook.
START = """\
shuffle deck
simultaneously for each p in players:
  choose one: gain 1 coin | do outer() | gain 1 mov
for each p in players:
  as p:
    choose one: gain 2 coin | do outer() | gain 1 mov
"""
PROCEDURES = {
    "outer": {"params": [], "do": "step = 1\nself.picked = [1]\ndo inner()"},
    "inner": {"params": [], "do": "move 1 from deck to discard\ngain 1 points\nspend 20 coin"},
    "hooked": {"params": ["amount"], "do": "step = 9\nmove 1 from deck to discard\nspend 20 coin"},
}


@pytest.fixture(scope="module")
def failing(tmp_path_factory):
    folder = tmp_path_factory.mktemp("failing")
    rules_dir = folder / "toy"
    toy_with(folder, START, procedures=PROCEDURES)
    components = rules_dir / "components.yaml"
    data = json.loads(components.read_text())          # toy_with writes it back as JSON
    data["counters"]["mov"]["on_gain"] = "hooked"
    components.write_text(json.dumps(data))
    return load_ruleset(str(rules_dir))


def _play_on(game) -> None:
    while not game.over:
        d = game.pending()[0]
        game.apply(d.player, 0)


@pytest.mark.parametrize("sealed", [True, False], ids=["sealed", "read"])
@pytest.mark.parametrize("option", [1, 2], ids=["nested-call", "hook"])
@pytest.mark.parametrize("where", ["simultaneously", "main"])
def test_a_failure_halfway_changes_nothing_and_the_game_goes_on_as_its_twin(failing, where, option, sealed):
    game, twin = Game.new(failing, players=3, seed=4), Game.new(failing, players=3, seed=4)
    if not sealed:
        assert game.state["result"] is None            # read from outside: copies before each answer
    answers = [(0, 0), (2, 0)] if where == "simultaneously" else [(0, 0), (1, 0), (2, 0)]
    for player, index in answers:
        game.apply(player, index)
        twin.apply(player, index)
    failing_seat = game.pending()[0].player if where == "main" else 1
    assert (where == "main") == (not sealed_state(game)["flow"]["threads"])
    before = game.to_json()
    with pytest.raises(RuleError, match=r"flow\.yaml:\d+:\d+: .*cannot spend 20 coin"):
        game.apply(failing_seat, option)
    assert game.to_json() == before
    assert game._sealed is sealed                      # the replay needed no copy, nor read the state
    _play_on(game)
    _play_on(twin)
    assert game.to_json() == twin.to_json()


def test_the_failure_really_came_after_changes(failing, monkeypatch):
    """The effects above did change the state before failing (else the tests prove nothing)."""
    game = Game.new(failing, players=3, seed=4)
    game.apply(0, 0)
    seen = {}
    undo = Game._restore

    def spy(self, saved):
        seen["state"] = self.to_json()
        undo(self, saved)
    monkeypatch.setattr(Game, "_restore", spy)
    before = game.to_json()
    with pytest.raises(RuleError):
        game.apply(1, 2)
    assert seen["state"] != before and '"step":9' in seen["state"] and game.to_json() == before


def test_the_game_is_sealed_until_its_state_is_read(failing):
    game = Game.new(failing, players=2, seed=1)
    assert game._sealed
    assert Game.from_json(failing, game.to_json())._sealed and game.clone()._sealed
    assert not Game.load(failing, json.loads(game.to_json(), object_hook=decode))._sealed   # the caller has it
    game.apply(0, 0)
    assert game._sealed and type(game) is not Game
    game.state["vars"]["step"] = 5                     # whoever reads it may write it
    assert not game._sealed and type(game) is Game
    with pytest.raises(RuleError):
        game.apply(1, 1)
    assert game.state["vars"]["step"] == 5             # the write is kept: a copy was taken


def test_failures_far_from_the_saved_position_inside_and_outside_simultaneously(monkeypatch):
    """A four-player Lairs game: a move fails halfway through many answers, more than
    ``REPLAY_SPAN`` after the game's start; each time the state is as before, and the game
    played on is the twin's."""
    rules = load_ruleset("lairs")
    game, twin = Game.new(rules, players=4, seed=11), Game.new(rules, players=4, seed=11)
    armed = {"on": False}
    real = Game.log_move

    def failing_move(self, cards, source, target):
        real(self, cards, source, target)          # the cards have moved and it is logged...
        if armed["on"]:
            armed["on"] = False                        # once: the replay that undoes it moves alike
            raise RuleError("a move fails halfway")    # ...then the effect fails
    monkeypatch.setattr(Game, "log_move", failing_move)
    rnd, failed, inside = random.Random(11), 0, 0
    while not game.over:
        d = game.pending()[0]
        k = rnd.randrange(d.count)
        if game.answered()[0] % 3 == 0:
            blocked = bool(sealed_state(game)["flow"]["threads"])
            before = game.to_json()
            armed["on"] = True
            try:
                game.apply(d.player, k)
            except RuleError:
                failed += 1
                inside += blocked
                assert game.to_json() == before
            else:
                twin.apply(d.player, k)
                continue
            finally:
                armed["on"] = False
        game.apply(d.player, k)
        twin.apply(d.player, k)
    assert game._sealed and game.answered()[0] > 2 * game_module.REPLAY_SPAN
    assert failed >= 10 and inside >= 1
    assert game.to_json() == twin.to_json()
