"""Rooms and sides keep their keys (a cell's, an edge's, the room across) in slots that are no
fields: a grid's geometry sets them, any other room or side works them out (or leaves them
unset for the readers to ask the geometry), and equality, hashing, saving and pickling are
the fields' alone, as before."""
from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

from interpreter.content.ruleset import load_ruleset
from interpreter.engine.evaluate import Ctx
from interpreter.engine.game import Game
from interpreter.mechanics import grids
from interpreter.model.values import Room, Side, decode, encode

RULESETS = Path(__file__).resolve().parent / "rulesets"


def _geometry():
    game = Game.new(load_ruleset(str(RULESETS / "ttt")), players=2)
    return game, grids._geometry(Ctx(game, {}), grids.Grid("board", None))


def test_a_geometrys_rooms_and_sides_carry_their_keys():
    _, geo = _geometry()
    room = geo.at[2, 3]
    assert room.cell == "2,3" and room.sides is geo.sides[2, 3]
    for side in room.sides:
        assert side.edge == grids.edge_key(2, 3, side.side) and side.cell == "2,3"
        assert side.home is room and side.room is room
        assert side.across is geo.across[2, 3, side.side]
    assert [s.across for s in room.sides] == [geo.at[1, 3], None, geo.at[3, 3], geo.at[2, 2]]


def test_a_room_or_side_made_elsewhere_works_its_keys_out_and_equals_the_geometrys():
    _, geo = _geometry()
    room, side = geo.at[1, 2], geo.sides[1, 2][3]            # the west side of (1, 2)
    made, made_side = Room("board", None, 1, 2), Side("board", None, 1, 2, "w")
    assert made == room and hash(made) == hash(room) and made_side == side and hash(made_side) == hash(side)
    assert made.cell == "1,2" and made.sides is Room.unset
    assert made_side.edge == "1,1,e" == side.edge and made_side.across is Room.unset
    assert made_side.room == room and made_side.cell == "1,2"
    for value in (room, side):                               # the slots never reach a copy or a save
        text = json.dumps(value, default=encode)
        assert set(json.loads(text)) == {"$", "grid", "r", "c"} | ({"side"} if value is side else set())
        back = json.loads(text, object_hook=decode)
        for again in (back, pickle.loads(pickle.dumps(value)), copy.deepcopy(value), copy.copy(value)):
            assert again == value and hash(again) == hash(value) and repr(again) == repr(value)
    assert pickle.loads(pickle.dumps(room)).sides is Room.unset   # (its readers then ask the geometry)


def test_generated_reads_of_rooms_and_sides_not_the_geometrys_match_the_closures(monkeypatch):
    """Rooms made by ``room(g, r, c)`` and sides by ``side(r, d)`` have no keys from the geometry:
    generated code reads them through the fallbacks, with the closures' values."""
    from test_compiler import _both_ways, _same_values
    texts = ['room(board, 2, 2).empty', 'list(s.walled for s in sides(room(board, 2, 2)))',
             'list(s.across for s in sides(room(board, 1, 1)))', 'side(room(board, 1, 2), "w").across',
             'side(room(board, 3, 3), "s").across == none', 'side(room(board, 2, 1), "n").room.row',
             'list(r.item for r in rooms(board))', 'side(room(board, 2, 2), "n").room.empty',
             'list(s.room.item for s in sides(room(board, 1, 1)))', 'list(s.room.empty for s in sides(room(board, 3, 2)))',
             'count(s for s in sides(room(board, 2, 2)) if s.walled)']
    compiled, reference, program = _both_ways(monkeypatch, RULESETS / "ttt")
    for game in (compiled, reference):                       # an item and a wall to find
        game.state["grids"]["board"]["items"]["1,2"] = "x"
        game.state["grids"]["board"]["walls"].append(grids.edge_key(2, 2, "n"))
    assert compiled.evaluate('side(room(board, 1, 2), "s").walled') is True
    assert compiled.evaluate('count(r for r in rooms(board) if not r.empty)') == 1
    _same_values(texts, compiled, reference, program)
