"""Grids: rooms in rows and columns, one item per room, walls on edges.

A grid is declared in the ruleset's components (rows, columns, tagged rooms
such as a start square) globally or per player. Walls are undirected edges:
the east side of (r, c) is the west side of (r, c+1); a wall on the grid's
boundary is allowed and blocks nothing. Reachability walks the geometry built once per ruleset.
"""
from __future__ import annotations

from ..model.values import Grid, PLAYERS, Room, RuleError, Side, describe
from ..dsl.kinds import GRID
from .component import ComponentKind, visible_plain

_STEP = {"n": (-1, 0), "s": (1, 0), "w": (0, -1), "e": (0, 1)}
_SIDES = ("n", "e", "s", "w")          # a room's sides, in the order ``sides`` lists them


def _data(ctx, value) -> dict:
    """The plain data (items, walls) of the grid a grid, room or side belongs to."""
    state = ctx.game.state
    if value.of is None:
        return state["grids"][value.grid]
    return state["players"][value.of]["grids"][value.grid]


def _spec(ctx, value) -> dict:
    return ctx.game.rules.grids[value.grid]


class _Geometry:
    """What never changes about one grid (of one owner): its rooms, lines, tags and neighbours.

    Built once per ruleset on first use and kept on the rules object (never
    in the state). Rooms are immutable values, so the lists are shared:
    effect-language lists are copied before they are stored or grown.
    """

    __slots__ = ("rooms", "at", "rows", "cols", "tagged", "tags", "adjacent", "steps", "sides", "across")

    def __init__(self, name: str, of, spec: dict):
        nr, nc = spec["rows"], spec["cols"]
        self.at = {(r, c): Room(name, of, r, c) for r in range(1, nr + 1) for c in range(1, nc + 1)}
        self.rooms = list(self.at.values())                      # row by row
        self.rows = {r: [self.at[r, c] for c in range(1, nc + 1)] for r in range(1, nr + 1)}
        self.cols = {c: [self.at[r, c] for r in range(1, nr + 1)] for c in range(1, nc + 1)}
        self.tagged = {tag: [self.at.get((r, c)) or Room(name, of, r, c) for r, c in cells]
                       for tag, cells in spec["tags"].items()}
        self.tags = {cell: [tag for tag, cells in spec["tags"].items() if list(cell) in cells]
                     for cell in self.at}
        self.steps = {}                          # (r, c) -> [(edge key, room across)], in _STEP order
        for (r, c) in self.at:
            self.steps[r, c] = [(edge_key(r, c, side), self.at[r + dr, c + dc])
                                for side, (dr, dc) in _STEP.items() if (r + dr, c + dc) in self.at]
        self.adjacent = {cell: [room for _, room in steps] for cell, steps in self.steps.items()}
        self.sides = {(r, c): [Side(name, of, r, c, side) for side in _SIDES] for (r, c) in self.at}
        self.across = {(r, c, side): self.at.get((r + dr, c + dc))       # (row, col, side) -> room or None
                       for (r, c) in self.at for side, (dr, dc) in _STEP.items()}
        for (r, c), room in self.at.items():       # what generated code reads of them (``Room``, ``Side``;
            room.sides = self.sides[r, c]          # their keys are set as they are made)
            for side in room.sides:                # (the room's own key: one string for both)
                side.cell, side.home, side.across = room.cell, room, self.across[r, c, side.side]


def geometries(rules) -> dict:
    """{(grid, owner): its ``_Geometry``}, kept on the rules object (generated code reads it too)."""
    cache = rules.__dict__.get("_grid_geometry")
    if cache is None:
        cache = rules.__dict__["_grid_geometry"] = {}
    return cache


def _geometry(ctx, value) -> _Geometry:
    rules = ctx.game.rules
    key = (value.grid, value.of)
    geo = geometries(rules).get(key)
    if geo is None:
        geo = rules.__dict__["_grid_geometry"][key] = _Geometry(value.grid, value.of, rules.grids[value.grid])
    return geo


def _room(grid, r: int, c: int) -> Room:
    return Room(grid.grid, grid.of, r, c)


def _grid_of(value) -> Grid:
    kind = type(value)
    if kind is Grid:
        return value
    if kind is Room or kind is Side:
        return Grid(value.grid, value.of)
    raise RuleError(f"expected a grid or a room, got {describe(value)}")


def _check_room(value) -> Room:
    if type(value) is not Room:
        raise RuleError(f"expected a room, got {describe(value)}")
    return value


def _side(room: Room, which: str) -> Side:
    return Side(room.grid, room.of, room.r, room.c, which)


edge_key = Side.edge_key
"""One name per edge, whichever room it is seen from."""


def _walled(ctx, side: Side) -> bool:
    return edge_key(side.r, side.c, side.side) in _data(ctx, side)["walls"]


def _across(ctx, side: Side):
    geo = _geometry(ctx, side)
    found = geo.across.get((side.r, side.c, side.side), _OFF)
    if found is _OFF:                           # a side off the grid (from a saved state)
        dr, dc = _STEP[side.side]
        return geo.at.get((side.r + dr, side.c + dc))
    return found


_OFF = object()


# ---------------------------------------------------------------- attributes

def attribute(value, name: str, ctx):
    """``room.item``, ``side.walled``, ``grid.rows`` ..."""
    kind = type(value)
    if kind is Room:
        return _ROOM_ATTRS[name](ctx, value) if name in _ROOM_ATTRS else _no(value, name)
    if kind is Side:
        return _SIDE_ATTRS[name](ctx, value) if name in _SIDE_ATTRS else _no(value, name)
    if name in ("rows", "cols"):
        return _spec(ctx, value)[name]
    if name == "owner":
        return _owner(value)
    return _no(value, name)


def _owner(value):
    return None if value.of is None else PLAYERS[value.of]


def _no(value, name):
    raise RuleError(f"{describe(value)} has no '{name}'")


def _tags(ctx, room) -> list:
    cache = ctx.game.rules.__dict__.get("_grid_geometry")          # _geometry, inline: read often
    geo = cache.get((room.grid, room.of)) if cache is not None else None
    return (geo or _geometry(ctx, room)).tags[room.r, room.c]


def _item(ctx, room):
    return _data(ctx, room)["items"].get(room.cell)


def room_item(state: dict, room: Room):
    """What is in ``room`` (none if empty), read from the state in one call (compiled code's
    ``room.item`` and ``room.empty``)."""
    data = state["grids"] if room.of is None else state["players"][room.of]["grids"]
    return data[room.grid]["items"].get(room.cell)


_ROOM_ATTRS = {
    "row": lambda ctx, room: room.r,
    "col": lambda ctx, room: room.c,
    "name": lambda ctx, room: describe(room),
    "item": _item,
    "empty": lambda ctx, room: _item(ctx, room) is None,
    "tags": _tags,
    "owner": lambda ctx, room: _owner(room),
    "grid": lambda ctx, room: _grid_of(room),
}

ROOM_READERS = _ROOM_ATTRS          # read directly by the evaluator: rooms are read most

_SIDE_ATTRS = {
    "name": lambda ctx, side: describe(side),
    "room": lambda ctx, side: side.room,
    "side": lambda ctx, side: side.side,
    "walled": _walled,
    "across": _across,
    "boundary": lambda ctx, side: _across(ctx, side) is None,
}

SIDE_READERS = _SIDE_ATTRS          # read directly by compiled code


# What each attribute gives, for the checker (kinds as in signatures; keep in step with the above).
ATTRIBUTE_KINDS = {
    "grid": {"rows": "number", "cols": "number", "owner": "player or none"},
    "room": {"row": "number", "col": "number", "name": "string", "item": "any", "empty": "bool",
             "tags": "list of string", "owner": "player or none", "grid": "grid"},
    "side": {"name": "string", "room": "room", "side": "string", "walled": "bool",
             "across": "room or none", "boundary": "bool"},
}


# ---------------------------------------------------------------- functions

def rooms(ctx, args):
    """rooms(GRID): every room, row by row"""
    return _geometry(ctx, _grid_of(args[0])).rooms


def row(ctx, args):
    """row(GRID, N): the rooms of row N (an empty list if N is off the grid)"""
    return _geometry(ctx, _grid_of(args[0])).rows.get(args[1], [])


def column(ctx, args):
    """column(GRID, N): the rooms of column N (an empty list if N is off the grid)"""
    return _geometry(ctx, _grid_of(args[0])).cols.get(args[1], [])


def room(ctx, args):
    """room(GRID, R, C)"""
    grid, r, c = _grid_of(args[0]), args[1], args[2]
    found = _geometry(ctx, grid).at.get((r, c)) if type(r) is int and type(c) is int else None
    if found is None:
        raise RuleError(f"there is no room ({r}, {c})")
    return found


def tagged(ctx, args):
    """tagged(GRID, TAG): the rooms carrying a tag from the grid's declaration"""
    grid, tag = _grid_of(args[0]), args[1]
    found = _geometry(ctx, grid).tagged.get(tag)
    if found is None:
        raise RuleError(f"the grid has no tag '{tag}'")
    return found


def sides(ctx, args):
    """sides(ROOM): its four sides (north, east, south, west)"""
    rm = _check_room(args[0])
    found = _geometry(ctx, rm).sides.get((rm.r, rm.c))      # made once (sides are values)
    return found if found is not None else [_side(rm, s) for s in _SIDES]


def side(ctx, args):
    """side(ROOM, "n"|"e"|"s"|"w"): one side of a room"""
    rm, which = _check_room(args[0]), args[1]
    if which not in _STEP:
        raise RuleError(f"a side is n, e, s or w, not {describe(which)}")
    return _side(rm, which)


def adjacent(ctx, args):
    """adjacent(ROOM): orthogonal neighbours on the grid, walls or not"""
    rm = _check_room(args[0])
    return _geometry(ctx, rm).adjacent[rm.r, rm.c]


def neighbours(ctx, args):
    """neighbours(ROOM): the rooms one step away with no wall between"""
    rm = _check_room(args[0])
    walls = _data(ctx, rm)["walls"]
    steps = _geometry(ctx, rm).steps[rm.r, rm.c]
    if not walls:
        return [room for _, room in steps]
    return [room for key, room in steps if key not in walls]


def walls(ctx, args):
    """walls(GRID): the walled sides, each named once (from its north or west room)"""
    grid = _grid_of(args[0])
    out = []
    for key in sorted(_data(ctx, grid)["walls"]):
        r, c, side = (int(x) if x.isdigit() else x for x in key.split(","))
        if r == 0:                              # boundary walls are named from the room inside
            r, side = 1, "n"
        elif c == 0:
            c, side = 1, "w"
        out.append(_side(_room(grid, r, c), side))
    return out


def reachable(ctx, args):
    """reachable(ROOM): every room connected to ROOM without crossing a wall"""
    rm = _check_room(args[0])
    walls = set(_data(ctx, rm)["walls"])
    steps = _geometry(ctx, rm).steps
    seen = {(rm.r, rm.c): rm}
    todo = [rm]
    while todo:                          # a walk over the geometry built once: no graph per call
        here = todo.pop()
        for key, room in steps[here.r, here.c]:
            if key not in walls and (room.r, room.c) not in seen:
                seen[room.r, room.c] = room
                todo.append(room)
    return [seen[cell] for cell in sorted(seen)]


# ---------------------------------------------------------------- verbs

def put(ctx, arg, kw) -> None:
    """put ITEM at ROOM (the room must be empty)"""
    rm = _check_room(kw.get("at"))
    if ctx.game.block_open:                # (``guard`` has nothing to refuse or keep else)
        ctx.game.guard(rm.of, rm.grid)
    items = _data(ctx, rm)["items"]
    key = rm.cell
    if key in items:
        raise RuleError(f"{describe(rm)} already holds {describe(items[key])}")
    items[key] = arg
    ctx.game.log_to_viewers(f"{ctx.game.describe(arg)} placed in {describe(rm)}", "grids", rm.grid, rm.of)


def wall(ctx, arg, kw) -> None:
    """wall SIDE: draw a wall on a side of a room"""
    if type(arg) is not Side:
        raise RuleError(f"'wall' needs a side of a room, got {describe(arg)}")
    if ctx.game.block_open:                # (``guard`` has nothing to refuse or keep else)
        ctx.game.guard(arg.of, arg.grid)
    walls = _data(ctx, arg)["walls"]
    key = edge_key(arg.r, arg.c, arg.side)
    if key in walls:
        raise RuleError(f"the {describe(arg)} already has a wall")
    walls.append(key)
    ctx.game.log_to_viewers(f"wall on the {describe(arg)}", "grids", arg.grid, arg.of)


def new_data() -> dict:
    """The plain data of an empty grid."""
    return {"items": {}, "walls": []}


# ---------------------------------------------------------------- the component kind

SCHEMA = {'description': 'A rectangular sheet of rooms, rows and columns numbered from 1.',
 'type': 'object',
 'required': ['rows', 'cols'],
 'additionalProperties': False,
 'properties': {'per_player': {'description': 'Each player has a sheet of their own.',
                               'type': 'boolean',
                               'default': False},
                'rows': {'description': 'Number of rows.',
                         'type': 'integer',
                         'minimum': 1,
                         'maximum': 26},
                'cols': {'description': 'Number of columns.',
                         'type': 'integer',
                         'minimum': 1,
                         'maximum': 26},
                'tags': {'description': "Named sets of cells (a room's `tags` lists the names "
                                        'of those holding it).',
                         'type': 'object',
                         'propertyNames': {'pattern': '^[a-z][a-z0-9_]*$'},
                         'additionalProperties': {'description': 'The cells carrying this tag.',
                                                  'type': 'array',
                                                  'items': {'$ref': '#/definitions/cell'}}},
                'visible_to': {'description': 'Who may see the sheet (default: everyone).',
                               '$ref': '#/definitions/visible_to'},
                'description': {'description': 'What the sheet represents.', 'type': 'string'}}}

KIND = ComponentKind(
    section="grids", state_key="grids", schema=SCHEMA, where="declared",
    new=lambda spec, rules: new_data(),
    value=lambda ctx, name, owner: Grid(name, owner),
    pure=True,
    view=visible_plain,
    attributes=ATTRIBUTE_KINDS,
    language_kind=lambda spec, of_value: GRID,
    summary="Rectangular sheets of rooms, by name.")
