"""Evaluate effect-language expressions against a game state.

Expressions are compiled to closures (``compile.py``); this module says what
names and attributes mean: ``lookup`` resolves a name (locals first, then the
game's own declarations) and ``attribute`` reads ``value.name`` for players,
grids, rooms, content records and plain records.
"""
from __future__ import annotations

from ..mechanics import ATTRIBUTES as VALUE_ATTRIBUTES
from ..mechanics.grids import ROOM_READERS as _ROOM_READERS
from ..mechanics.seats import PLAYER_ATTRIBUTES
from .compile import compiled
from ..model.values import Condition, Player, Room, RuleError, Zone, describe, items_of


class Ctx:
    """What an expression can see: the game, the thread's locals, who acts."""

    __slots__ = ("game", "env")

    def __init__(self, game, env: dict):
        self.game = game
        self.env = env

    @property
    def me(self) -> int:
        who = self.env.get("self")
        if who is None:
            raise RuleError("'self' is used where no player is acting")
        return who.seat

    def player_data(self, i: int) -> dict:
        return self.game.state["players"][i]

    def attribute(self, value, name: str):
        """``value.name`` (for mechanics that read attributes)."""
        return attribute(value, name, self)

    def items(self, value):
        """What iterating over ``value`` gives (a zone's cards, a list)."""
        return items_of(value, self.game.state)


def evaluate(node, ctx: Ctx):
    """The value of an expression node (compiled to a closure on first use)."""
    fn = node.__dict__.get("_fn")
    return (fn or compiled(node))(ctx)


# ---------------------------------------------------------------- names

def lookup(name: str, ctx: Ctx):
    """Locals, then the ruleset's declared names (see Ruleset.names)."""
    env = ctx.env
    if name in env:
        return env[name]
    game = ctx.game
    kind = game.rules.names.get(name)
    if kind is None:
        raise RuleError(f"unknown name '{name}'")
    tag, what = kind
    if tag == "table":                      # a component of the table's
        return what.value(ctx, name, None)
    if tag == "mine":                       # a per-player component, for self
        return what.value(ctx, name, ctx.me)
    if tag == "builtin":
        return what(ctx)
    if tag == "seat":                       # a scripted seat, if it sits in this game
        return game.scripted_seat(name)
    return what                             # constants, entity ids, tables


def player_attribute(i: int, name: str, ctx: Ctx):
    kind = ctx.game.rules.player_components.get(name)
    if kind is not None:
        return kind.value(ctx, name, i)
    builtin = PLAYER_ATTRIBUTES.get(name)
    if builtin is None:
        raise RuleError(f"players have no '{name}'")
    return builtin(i, ctx)


def attribute(value, name: str, ctx: Ctx):
    """``value.name`` for every kind of value."""
    kind = type(value)
    if kind is dict:
        if name in value:
            return value[name]
        raise RuleError(f"{describe(value)} has no '{name}'")
    if kind is Room:                        # the most read, first (grids.attribute)
        reader = _ROOM_READERS.get(name)
        if reader is not None:
            return reader(ctx, value)
    if kind is Player:
        return player_attribute(value.seat, name, ctx)
    reader = VALUE_ATTRIBUTES.get(kind)
    if reader is not None:
        return reader(value, name, ctx)
    if kind is str:
        record = ctx.game.rules.entities.get(value)
        if record is None:
            raise RuleError(f"'{value}' is not a content id, so it has no '{name}'")
        if name == "id":
            return value
        if name in record:
            return _field(record[name], value, ctx)
        raise RuleError(f"'{value}' has no field '{name}'")
    if value is None:
        raise RuleError(f"none has no '{name}'")
    raise RuleError(f"{describe(value)} has no '{name}'")


def _field(value, record_id: str, ctx: Ctx):
    """A record's field; condition fields are evaluated where they are read."""
    if type(value) is Condition:
        env = {"self": ctx.env.get("self"), "this": record_id}
        return evaluate(ctx.game.rules.expressions[value.key], Ctx(ctx.game, env))
    return value


# ---------------------------------------------------------------- indexing

_MEMBERS: dict = {}       # (zone, owner, n) -> the value of one zone of a group


def index(container, key, state=None):
    """``container[key]``: lists count from 1, as rules do; records by field name."""
    if type(container) is Zone and state is not None:
        name, of = container.name, container.of             # (zone_list, without its call)
        live = (state["zones"] if of is None else state["players"][of]["zones"])[name]
        if container.n is not None:
            live = live[container.n - 1]
        elif type(key) is int and live and type(live[0]) is list:     # pile[2]: one zone of a group
            if not 1 <= key <= len(live):
                raise RuleError(f"index {key} is outside 1..{len(live)}")
            member = _MEMBERS.get((name, of, key))
            if member is None:                              # values never change: made once
                member = _MEMBERS[name, of, key] = Zone(name, of, key)
            return member
        container = live                                    # only read below: not copied
    elif type(container) is dict and type(key) is str and key in container:   # a record's field
        return container[key]
    if type(container) is list:
        if type(key) is not int or not 1 <= key <= len(container):
            raise RuleError(f"index {describe(key)} is outside 1..{len(container)}")
        return container[key - 1]
    if type(container) is dict:
        k = key if type(key) is str else describe(key)
        if k not in container:
            raise RuleError(f"no '{k}' in {describe(container)}")
        return container[k]
    raise RuleError(f"cannot index {describe(container)}")


__all__ = ["Ctx", "evaluate", "lookup", "attribute", "player_attribute", "index"]
