"""roll(N): a seedable die, drawn from the game's own random stream (fixture tests/rulesets/dice)."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.engine.game import Game
from interpreter.model.values import RuleError

DICE = load_ruleset(str(Path(__file__).parent / "rulesets" / "dice"))


def _faces(seed: int, throws: int = 40) -> list:
    game = Game.new(DICE, players=1, seed=seed)
    return [game.evaluate("roll(6)") for _ in range(throws)]


def test_a_roll_is_a_face_of_the_die_and_every_face_comes_up():
    faces = _faces(1, 200)
    assert set(faces) == {1, 2, 3, 4, 5, 6}


def test_the_same_seed_rolls_the_same_faces_and_another_seed_does_not():
    assert _faces(7) == _faces(7)
    assert _faces(7) != _faces(8)


def test_a_roll_advances_the_saved_random_stream():
    game = Game.new(DICE, players=1, seed=2)
    before = game.state["rng"]
    game.evaluate("roll(6)")
    assert game.state["rng"] != before
    copy = Game.from_json(DICE, game.to_json())
    assert copy.evaluate("roll(20)") == game.evaluate("roll(20)")


def test_a_one_faced_die_always_shows_one():
    game = Game.new(DICE, players=1, seed=2)
    assert {game.evaluate("roll(1)") for _ in range(5)} == {1}


@pytest.mark.parametrize("text", ["roll(0)", "roll(-2)", 'roll("six")'])
def test_a_die_needs_a_whole_number_of_faces(text):
    game = Game.new(DICE, players=1, seed=2)
    with pytest.raises(RuleError, match="roll"):
        game.evaluate(text)


def test_a_table_read_from_a_roll_scores_what_the_face_says():
    game = Game.new(DICE, players=2, seed=4)
    while game.pending():
        game.apply(game.pending()[0].player, 0)          # always roll
    for seat in (0, 1):
        faces = game.evaluate("self.faces", player=seat)
        assert len(faces) == 3
        expect = sum(1 if f <= 2 else 2 if f <= 4 else 3 for f in faces)
        assert game.evaluate("self.points", player=seat) == expect
