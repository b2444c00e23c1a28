"""The value model (interpreter/model/values.py): engine values are tagged, records are data.

A player, zone, grid, room, side or effect is an immutable object with an
explicit kind; a content record or record literal is a plain dict that may
use any key but the reserved ``$``, so no data can pass for an engine value.
"""
from __future__ import annotations

import json

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.content.yaml_source import load_yaml
from interpreter.diagnostics import ContentError
from interpreter.dsl.parser import DslError, parse_expression
from interpreter.engine.game import Game
from interpreter.model.values import (Effect, Grid, Player, Room, RuleError, Side, Zone, decode,
                                      describe, encode, to_plain)

from test_language import PARKED, toy_with


@pytest.fixture
def parked(tmp_path):
    return Game.new(toy_with(tmp_path, PARKED), players=2, seed=1)


def test_values_round_trip_through_json():
    values = [Player(2), Zone("hand", 1), Zone("pile", None, 3), Grid("board"), Room("board", 0, 2, 3),
              Side("board", 0, 2, 3, "e"), Effect("c1.play")]
    text = json.dumps(values, default=encode)
    assert json.loads(text, object_hook=decode) == values
    assert to_plain(Player(2)) == {"$": "player", "seat": 2}


def test_values_are_hashable_and_compare_by_kind():
    assert len({Player(1), Player(1), Zone("p", 1)}) == 2
    assert Player(1) != {"player": 1}
    assert Room("g", 0, 1, 1) != Side("g", 0, 1, 1, "n")


def test_a_record_may_use_any_key(parked):
    assert parked.evaluate('{side: 1, coins: 0}.side') == 1
    assert parked.evaluate('{"player": 99, "zone": "x", "grid": 1, "r": 1}.zone') == "x"
    assert describe({"side": 1, "coins": 0}) == "{side: 1, coins: 0}"
    assert describe({"player": 1, "r": 2, "c": 3}) == "{player: 1, r: 2, c: 3}"


def test_a_record_literal_cannot_forge_a_player(parked):
    with pytest.raises(RuleError, match="needs a player"):           # seen by the checker...
        parked.execute('as {"player": 1}: gain 1 points')
    # ...and refused at run time where the kind cannot be known (secret is declared null)
    parked.execute('self.secret = {"player": 1, "zone": "deck"}', player=0)
    with pytest.raises(RuleError, match="expected a player"):
        parked.execute("as players[1].secret: gain 1 points")
    with pytest.raises(RuleError, match="has no 'points'"):
        parked.evaluate("players[1].secret.points")
    with pytest.raises(RuleError, match="must be a zone"):
        parked.execute("shuffle players[1].secret")
    assert parked.evaluate("players[1].points") == 0


def test_the_tag_key_is_reserved_in_effect_text():
    with pytest.raises(DslError) as err:
        parse_expression('{"$": "player", "seat": 0}')
    assert err.value.code == "dsl-reserved-key" and err.value.col == 2


def test_the_tag_key_is_reserved_in_content(tmp_path):
    toy_with(tmp_path, PARKED)
    components = tmp_path / "toy" / "components.yaml"
    data, _ = load_yaml(components)
    data.setdefault("constants", {})["forged"] = {"$": "player", "seat": 0}
    components.write_text(json.dumps(data, indent=1))
    with pytest.raises(ContentError) as err:
        load_ruleset(str(tmp_path / "toy"))
    [diag] = err.value.diagnostics
    lines = components.read_text().splitlines()
    assert diag.code == "reserved-key" and lines[diag.line - 1].strip().startswith('"$"')


def test_a_saved_state_keeps_its_values(parked):
    parked.execute("self.points = 0", player=0)
    again = Game.from_json(parked.rules, parked.to_json())
    assert again.state == parked.state
    assert again.to_json() == parked.to_json()


# ---------------------------------------------------------------- weighing kept values

def _walked(value, depth: int = 1) -> tuple:
    """What ``limits.weighed`` counts, walked plainly: (items, characters, deepest nesting)."""
    items = list(value.values()) if type(value) is dict else value
    n, chars, deepest = len(items), sum(len(x) for x in items if type(x) is str), depth
    for x in items:
        if type(x) in (list, dict):
            more = _walked(x, depth + 1)
            n, chars, deepest = n + more[0], chars + more[1], max(deepest, more[2])
    return n, chars, deepest


WEIGHED = {
    "ids": ["a", "bb", "ccc"],
    "one id": ["abc"],
    "a record": {"id": "x", "n": 3, "tokens": [], "seen": {}},
    "records": [{"card": "x", "lot": 1}, {"card": "yy", "lot": 2, "down": True}],
    "records holding lists": [{"card": "x", "tokens": ["t1", "t2"]}, {"card": "y"}],
    "nested": [["a", ["b", []]], {"k": ["c"]}, "d"],
}


@pytest.mark.parametrize("name", sorted(WEIGHED))
def test_weighing_takes_short_cuts_that_count_as_the_walk_does(name, monkeypatch):
    """The flat passes (ids, a record, a list of records) give the walk's count, and each limit
    refuses there just as the walk does (tests lower them)."""
    from interpreter.model import limits
    value = WEIGHED[name]
    n, chars, deepest = _walked(value)
    assert limits.weighed(value) == n
    for limit, over in (("MAX_NODES", n - 1), ("MAX_CHARS_HELD", chars - 1), ("MAX_NESTING", deepest - 1)):
        with monkeypatch.context() as patched:
            patched.setattr(limits, limit, over)
            with pytest.raises(RuleError):
                limits.weighed(value)
            patched.setattr(limits, limit, over + 1)
            assert limits.weighed(value) == n
