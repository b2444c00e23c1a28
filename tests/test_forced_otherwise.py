"""``machine.only_otherwise``: a choice left with its ``otherwise`` alone, taken without a frame,
writes what the frame's way (``machine._decide``) writes, and nothing else."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.dsl import ast
from interpreter.engine import machine
from interpreter.engine.game import Game
from interpreter.model.values import Player, RuleError

TOY = Path(__file__).parent / "rulesets" / "toy"


@pytest.fixture(scope="module")
def toy():
    return load_ruleset(str(TOY))


def _choice(rules, label) -> int:
    """The node id of the newest 'choose' whose ``otherwise`` is ``label`` (a text ``execute`` ran)."""
    return max(k for k, node in enumerate(rules.nodes) if node.__class__ is ast.ChooseIn
               and node.otherwise is not None and node.otherwise_label == label)


@pytest.mark.parametrize("text, label, player", [
    ('choose c in [] label c:\n  pass\notherwise "keep it":\n  pass\n', "keep it", 0),
    ('choose openly c in []:\n  pass\notherwise:\n  pass\n', None, 1),
    ('choose secretly "which" c in []:\n  pass\notherwise "no card":\n  pass\n', "no card", 1),
    ('choose c in []:\n  pass\notherwise "nobody":\n  pass\n', "nobody", None),
])
def test_a_lone_otherwise_is_logged_as_the_frames_way_logs_it(toy, text, label, player):
    framed, direct = Game.new(toy, players=2, seed=1), Game.new(toy, players=2, seed=1)
    framed.forced, direct.forced = [], []
    framed.execute(text, player=player)            # the frame's way: _decide takes the lone option
    n = _choice(toy, label)
    before = json.loads(direct.to_json())
    th = machine.new_thread([], {"self": None if player is None else Player(player)})
    direct.thread = th
    machine.only_otherwise(direct, th, n, None if player is None else Player(player))
    assert direct.state["log"][-1] == framed.state["log"][-1]
    assert "(only option)" in direct.state["log"][-1]["text"]
    assert direct.forced == framed.forced and len(direct.forced) == 1
    after = json.loads(direct.to_json())
    assert after["log"][:-1] == before["log"] and len(after["log"]) == len(before["log"]) + 1
    assert {**after, "log": None} == {**before, "log": None}      # the log line and nothing else


def test_a_lone_otherwise_asked_of_no_seat_is_refused_at_the_choice(toy):
    text = 'choose c in []:\n  pass\notherwise "keep it":\n  pass\n'
    game = Game.new(toy, players=2, seed=1)
    game.execute(text, player=0)
    n = _choice(toy, "keep it")
    th = machine.new_thread([], {"self": None})
    with pytest.raises(RuleError) as caught:
        machine.only_otherwise(game, th, n, "somebody")
    node = toy.nodes[n]
    assert caught.value.position == (node.line, node.col)
