"""Effect-language values: plain data, plus a few tagged kinds of the engine's own.

Numbers, strings, booleans, none, lists and records (dicts) are themselves.
Content records (cards, boards, ...) are referred to by their id string.
Things the engine knows are small immutable objects with an explicit kind:

  Player(seat)                       a seat, a person's or a scripted one (0-based)
  Zone(name, of, n)                  a zone; ``of`` the owner's seat, ``n`` one zone of a group
  Grid(grid, of)                     a grid (named as rooms and sides name theirs)
  Room(grid, of, r, c)               one room of a grid
  Side(grid, of, r, c, side)         one side of a room ("n", "e", "s", "w")
  Track(name, of)                    a track (its marker's position is state)
  GraphRef(name)                     a graph declared in data (nodes are record ids)
  Effect(key)                        a compiled program ("record.field")
  Condition(key)                     a record's condition field, evaluated when read

A content record or a record literal is a dict, so no data can pass for an
engine value: ``{"player": 99}`` is just a record with a field. In a saved
state an engine value is written ``{"$": kind, ...fields}``; the ``$`` key is
reserved (record literals and content may not use it), so reading a state
back can tell the two apart. A zone is always a reference: only the zone
verbs touch its list, so no local, frame or option can alias the state.
"""
from __future__ import annotations

import copyreg
from dataclasses import dataclass, fields
from operator import attrgetter


class RuleError(Exception):
    """Content asked for something impossible at run time (a content bug)."""


class InternalError(Exception):
    """A bug in Rulebook itself (the engine or a mechanics function failed), not in the content.

    Raised while content runs, with the statement's position in the message;
    the game's state is left as it was before the call that failed.
    ``detail`` is what failed, without the position.
    """

    def __init__(self, detail: str, where: str = ""):
        place = f" at {where}" if where else ""
        super().__init__(f"internal error (a bug in Rulebook, not in the rules){place}: {detail}")
        self.detail = detail
        self.located = bool(where)


TAG = "$"


class Value:
    """An engine value: hashable, with a kind name, and never changed once made.

    The classes are not ``frozen`` dataclasses only because those are four
    times slower to create, and rooms are made by the thousand; nothing
    assigns to a value's fields, and ``plain_copy`` shares them.
    """
    __slots__ = ()
    kind = "value"

    def to_json(self) -> dict:
        out = {TAG: self.kind}
        for f in fields(self):
            v = getattr(self, f.name)
            if v is not None:
                out[f.name] = v
        return out


@dataclass(slots=True, unsafe_hash=True)
class Player(Value):
    seat: int
    kind = "player"


class _Players(dict):
    """{seat: its player value}, each made once (a player value never changes)."""

    def __missing__(self, seat: int) -> Player:
        made = self[seat] = Player(seat)
        return made


PLAYERS = _Players()
"""Shared player values by seat, for code that makes many (``players``, generated code)."""


@dataclass(slots=True, unsafe_hash=True)
class Zone(Value):
    name: str
    of: int | None = None
    n: int | None = None
    kind = "zone"


@dataclass(slots=True, unsafe_hash=True)
class Grid(Value):
    grid: str                   # its name (``grid`` as in rooms and sides, which name theirs so)
    of: int | None = None
    kind = "grid"


def cell_key(r: int, c: int) -> str:
    """A cell's key in its grid's items (the saved state's ``"row,col"``)."""
    return f"{r},{c}"


@dataclass(unsafe_hash=True)
class Room(Value):
    """A room. Besides its fields it keeps, in slots that are no fields (equality, hashing,
    saving, pickling and copying never see them), its cell's key in its grid's items
    (``cell``) and, where its grid's geometry made it (``grids``), its sides (``sides``): what
    generated code reads of it without a table look-up. A room made elsewhere (decoded,
    unpickled, ``room(g, r, c)``) works its key out when made; its ``sides`` is
    ``unset``, and the reader asks the geometry."""
    __slots__ = ("grid", "of", "r", "c", "cell", "sides")
    grid: str
    of: int | None
    r: int
    c: int
    kind = "room"
    unset = object()            # what a slot the geometry sets reads on a value it did not make

    @property
    def grid_value(self) -> Grid:
        return Grid(self.grid, self.of)

    def __post_init__(self):
        # Set here, not worked out on a first read by ``__getattr__``: a class with one has no
        # specialised attribute reads in CPython, so every ``room.r`` took the slow path.
        self.cell = cell_key(self.r, self.c)
        self.sides = Room.unset


@dataclass(unsafe_hash=True)
class Side(Value):
    """A side of a room. As a room does, it keeps (in slots that are no fields) its room's
    cell key (``cell``), its edge's key in its grid's walls (``edge``, one key per edge
    whichever room it is seen from), its room (``home``: the geometry's where the geometry
    made the side) and the room across (``across``: None off the grid; ``Room.unset`` on a
    side the geometry did not make)."""
    __slots__ = ("grid", "of", "r", "c", "side", "cell", "edge", "home", "across")
    grid: str
    of: int | None
    r: int
    c: int
    side: str
    kind = "side"

    @property
    def grid_value(self) -> Grid:
        return Grid(self.grid, self.of)

    @property
    def room(self) -> Room:
        return self.home

    @staticmethod
    def edge_key(r: int, c: int, side: str) -> str:
        """One name per edge, whichever room it is seen from."""
        if side == "w":
            return f"{r},{c - 1},e"
        if side == "n":
            return f"{r - 1},{c},s"
        return f"{r},{c},{side}"

    def __post_init__(self):                       # (as ``Room``'s: no ``__getattr__``)
        self.cell = cell_key(self.r, self.c)
        self.edge = Side.edge_key(self.r, self.c, self.side)
        self.home = Room(self.grid, self.of, self.r, self.c)
        self.across = Room.unset


@dataclass(slots=True, unsafe_hash=True)
class Track(Value):
    name: str
    of: int | None = None
    kind = "track"


@dataclass(slots=True, unsafe_hash=True)
class GraphRef(Value):
    name: str
    kind = "graph"


@dataclass(slots=True, unsafe_hash=True)
class Effect(Value):
    key: str
    kind = "effect"


@dataclass(slots=True, unsafe_hash=True)
class Condition(Value):
    """A record's condition field: evaluated where it is read, so never a value itself."""
    key: str
    kind = "condition"


def _fast_pickling(cls) -> None:
    """Pickle ``cls`` as a constructor call on its fields (one C ``attrgetter``), not by the
    dataclass's own ``__getstate__``: states are pickled at every decision (game checkpoints,
    snapshots), and engine values in them are pickled about twice as fast so."""
    get = attrgetter(*(f.name for f in fields(cls)))
    if len(fields(cls)) == 1:
        copyreg.pickle(cls, lambda value: (cls, (get(value),)))
    else:
        copyreg.pickle(cls, lambda value: (cls, get(value)))


for _cls in (Player, Zone, Grid, Room, Side, Track, GraphRef, Effect, Condition):
    _fast_pickling(_cls)


KINDS = {cls.kind: cls for cls in (Player, Zone, Grid, Room, Side, Track, GraphRef, Effect)}


# ---------------------------------------------------------------- JSON

def encode(value):
    """``json.dumps(..., default=encode)``: an engine value as its tagged record."""
    if isinstance(value, Value):
        return value.to_json()
    raise TypeError(f"{type(value).__name__} is not plain data")


def decode(record: dict):
    """``json.loads(..., object_hook=decode)``: a tagged record back to its value."""
    kind = record.get(TAG)
    if kind is None:
        return record
    cls = KINDS.get(kind)
    if cls is None:
        raise ValueError(f"unknown kind of value {kind!r}")
    args = {k: v for k, v in record.items() if k != TAG}
    if "of" in cls.__dataclass_fields__:
        args.setdefault("of", None)         # written only when set: a table's grid has no owner
    try:
        return cls(**args)
    except TypeError:
        raise ValueError(f"a malformed {kind} value: {record}") from None


def to_plain(value):
    """A deep copy in which engine values are written as tagged records (views, JSON)."""
    kind = type(value)
    if kind is dict:
        return {k: to_plain(v) for k, v in value.items()}
    if kind is list:
        return [to_plain(v) for v in value]
    if isinstance(value, Value):
        return value.to_json()
    return value


def plain_copy(value):
    """A deep copy of state data; engine values are immutable, so they are shared."""
    kind = type(value)
    if kind is dict:
        return {k: plain_copy(v) for k, v in value.items()}
    if kind is list:
        return [plain_copy(v) for v in value]
    return value


# ---------------------------------------------------------------- reading values

def seat(value) -> int:
    """The seat index of a player value."""
    if type(value) is Player:
        return value.seat
    raise RuleError(f"expected a player, got {describe(value)}")


def zone_list(state: dict, ref: Zone) -> list:
    """The live list of a zone reference (a numbered group gives its list of lists)."""
    of = ref.of
    zones = state["zones"] if of is None else state["players"][of]["zones"]
    live = zones[ref.name]
    return live if ref.n is None else live[ref.n - 1]


def items_of(value, state: dict):
    """What iterating over a value gives: a zone's ids (copied), a group's zones, a list."""
    if type(value) is Zone:
        of = value.of                             # (zone_list, without its call)
        live = (state["zones"] if of is None else state["players"][of]["zones"])[value.name]
        if value.n is not None:
            return list(live[value.n - 1])
        if not live or type(live[0]) is not list:     # a zone's ids (the usual case)
            return list(live)
        where = (value.name, of, len(live))       # a numbered group: its zones
        group = _GROUPS.get(where)
        if group is None:                         # values never change: made once
            group = _GROUPS[where] = [Zone(value.name, of, k) for k in range(1, len(live) + 1)]
        return list(group)
    return value


_GROUPS: dict = {}        # (zone, owner, size) -> the zones of a numbered group


def truth(value, state: dict) -> bool:
    """Whether a value counts as true; a zone counts by its cards (empty is false)."""
    if type(value) is Zone:
        return bool(zone_list(state, value))
    return bool(value)


# ---------------------------------------------------------------- reading them aloud

def seat_label(i: int, names=None) -> str:
    """A seat as people read it: its declared name, or P1, P2, ..."""
    if names is not None and i < len(names):
        return names[i]
    return f"P{i + 1}"


def _described(value, names) -> str:
    """A list or record's label, its size already checked (``describe``)."""
    kind = type(value)
    if kind is dict:
        return "{" + ", ".join(f"{k}: {_described(v, names)}" for k, v in value.items()) + "}"
    if kind is list:
        return "[" + ", ".join(_described(v, names) for v in value) + "]"
    return describe(value, names)


def describe(value, names=None) -> str:
    """A short readable label for any value (option labels, log lines).

    ``names`` are the seats' names (``Game.seat_names``), when known.
    """
    kind = type(value)
    if kind is str:
        return value
    if kind is Zone:                         # the most written after strings (every move's log line)
        said = value.name if value.of is None else f"{seat_label(value.of, names)}'s {value.name}"
        return said if value.n is None else f"{said} #{value.n}"
    if kind is int:                          # (labels, costs)
        return str(value)
    if kind is Player:
        i = value.seat
        return names[i] if names is not None and i < len(names) else f"P{i + 1}"
    if kind is Room:
        return room_name(value)
    if kind is Side:
        return f"{room_name(value)} {SIDE_WORDS[value.side]} side"
    if kind is Grid:
        return value.grid if value.of is None else f"{seat_label(value.of, names)}'s {value.grid}"
    if kind is Track:
        return value.name if value.of is None else f"{seat_label(value.of, names)}'s {value.name}"
    if kind is GraphRef:
        return value.name
    if kind is Effect:
        return value.key
    if kind is dict or kind is list:
        _limits().weighed(value)             # a part shown each time it appears: bounded first
        return _described(value, names)
    if value is None:
        return "none"
    if value is True or value is False:
        return "true" if value else "false"
    return str(value)


def _limits():
    """The size limits' module (found late: it reads this module's RuleError)."""
    global _LIMITS
    if _LIMITS is None:
        from . import limits as _LIMITS
    return _LIMITS


_LIMITS = None


SIDE_WORDS = {"n": "north", "e": "east", "s": "south", "w": "west"}


def room_name(room) -> str:
    """Rooms read like a chess board: column letter, row number (C5 = row 5, column 3)."""
    return f"{'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[room.c - 1]}{room.r}"
