"""The built-ins' short cuts give what their plain paths give: values, errors and limits.

Each plain path is the built-in as it was written before its short cut (a loop over the
items: ``unique``'s is still its fallback, ``core._unique_compared``); the built-in must agree
with it on every input, the refused ones included.
"""
from __future__ import annotations

import random

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.engine.evaluate import Ctx
from interpreter.engine.game import Game
from interpreter.mechanics import core
from interpreter.model import limits
from interpreter.model.values import PLAYERS, Room, RuleError, Zone, describe


def _ctx():
    game = Game.new(load_ruleset("lairs"), players=3, seed=1)
    return Ctx(game, {"self": PLAYERS[0]})


def _outcome(fn, *args):
    try:
        return ("value", fn(*args))
    except RuleError as exc:
        return ("error", str(exc))


def _plain_flatten(ctx, parts):
    out = []
    for part in parts:
        out.extend(part if type(part) is list else core._list(part, "flatten", ctx))
    return limits.sized(out)


def _plain_text(ctx, args):
    names = ctx.game.seat_names
    said = " ".join(filter(None, [v if type(v) is str else describe(v, names) for v in args]))
    return limits.sized(said)


_ATOMS = [0, 1, 2, True, False, None, "", "a", "b", "1", PLAYERS[0], PLAYERS[1],
          Room("lair", 0, 1, 1), Room("lair", 0, 1, 1), Room("lair", 1, 1, 1)]


def _value(rnd, depth=0):
    if depth < 2 and rnd.random() < 0.2:
        return [_value(rnd, depth + 1) for _ in range(rnd.randrange(3))]
    if depth < 2 and rnd.random() < 0.1:
        return {"k": _value(rnd, depth + 1)}
    return rnd.choice(_ATOMS)


def test_unique_keeps_the_first_of_equal_items_as_the_set_did():
    rnd = random.Random(7)
    for _ in range(2000):
        items = [_value(rnd) for _ in range(rnd.randrange(8))]
        got = core.unique(None, [items])
        assert got == core._unique_compared(items) and [type(x) for x in got] == [type(x) for x in core._unique_compared(items)]
        assert got is not items
    assert core.unique(None, [[1, True, 1.0 == 1]]) == [1]          # equal values, as a set sees them


def test_flatten_adds_lists_up_as_the_loop_did(monkeypatch):
    ctx = _ctx()
    rnd = random.Random(8)
    zone = Zone("mission_row")
    parts_of = [lambda: [], lambda: [1, 2], lambda: [[1], "a"], lambda: "ab", lambda: {"k": 1},
                lambda: 3, lambda: None, lambda: zone, lambda: (1, 2)]
    for _ in range(1500):
        parts = [rnd.choice(parts_of)() for _ in range(rnd.randrange(20))]
        got = _outcome(core.flatten, ctx, [parts])
        assert got == _outcome(_plain_flatten, ctx, parts), parts
    one = [1, 2]
    assert core.flatten(ctx, [[one]]) is not one                   # never the part itself
    monkeypatch.setattr(limits, "MAX_ITEMS", 10)
    assert _outcome(core.flatten, ctx, [[[1] * 6, [2] * 5]])[0] == "error"
    assert core.flatten(ctx, [[[1] * 6, [2] * 4]]) == [1] * 6 + [2] * 4


def test_text_writes_what_describe_writes(monkeypatch):
    ctx = _ctx()
    rnd = random.Random(9)
    words = ["", "on", "store", 0, 7, -3, True, None, PLAYERS[1], Room("lair", 0, 2, 3), [1, "a"], {"k": 2}]
    for _ in range(2000):
        args = [rnd.choice(words) for _ in range(rnd.randrange(6))]
        assert _outcome(core.text, ctx, args) == _outcome(_plain_text, ctx, args), args
    monkeypatch.setattr(limits, "MAX_CHARS", 5)
    for args in (["abc", "def"], ["abc", 12], [1234, 56], ["abcdef"]):
        assert _outcome(core.text, ctx, args) == _outcome(_plain_text, ctx, args) == \
            ("error", _outcome(limits.sized, "x" * 6)[1])


@pytest.mark.parametrize("fn, name", [(core.count, "count"), (core.any_of, "any"), (core.all_of, "all"),
                                      (core.first, "first"), (core.largest, "max"), (core.smallest, "min")])
def test_list_readers_read_a_zone_as_its_list(fn, name):
    ctx = _ctx()
    row = ctx.game.state["zones"]["mission_row"]
    assert row
    assert fn(ctx, [Zone("mission_row")]) == fn(ctx, [list(row)])
    assert _outcome(fn, ctx, ["x"]) == ("error", f"{name}() needs a list, got x")
    assert _outcome(fn, ctx, [None]) == ("error", f"{name}() needs a list, got none")
