"""Evaluate effect-language expressions against a game state.

One small function per syntax node, chosen from the ``EVALUATE`` table; the
names an expression may use are resolved in ``lookup`` (locals first, then
the game's own declarations) and attributes in ``attribute``.
"""
from __future__ import annotations

from ..dsl import ast
from .values import RuleError, describe, is_player, player


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
        return who["player"]

    def player_data(self, i: int) -> dict:
        return self.game.state["players"][i]


def evaluate(node, ctx: Ctx):
    """The value of an expression node."""
    return EVALUATE[node.__class__](node, ctx)


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
    state = game.state
    if tag == "var":
        return state["vars"][name]
    if tag == "zone":
        return state["zones"][name]
    if tag == "mine":                       # a per-player declaration, for self
        return player_attribute(ctx.me, name, ctx)
    if tag == "builtin":
        return what(ctx)
    return what                             # constants, entity ids, tables


def player_attribute(i: int, name: str, ctx: Ctx):
    data = ctx.player_data(i)
    for part in ("counters", "vars", "zones"):
        section = data[part]
        if name in section:
            return section[name]
    if name in data["grids"]:
        return {"grid": name, "of": i}
    builtin = PLAYER_BUILTINS.get(name)
    if builtin is None:
        raise RuleError(f"players have no '{name}'")
    return builtin(i, ctx)


def _neighbour(i: int, step: int, ctx: Ctx):
    n = len(ctx.game.state["players"])
    return player((i + step) % n)


PLAYER_BUILTINS = {
    "seat": lambda i, ctx: i + 1,
    "name": lambda i, ctx: f"P{i + 1}",
    "left": lambda i, ctx: _neighbour(i, 1, ctx),     # clockwise: the next seat
    "right": lambda i, ctx: _neighbour(i, -1, ctx),
    "neighbours": lambda i, ctx: _unique([_neighbour(i, 1, ctx), _neighbour(i, -1, ctx)], i),
}


def _unique(players, me):
    out = []
    for p in players:
        if p["player"] != me and p not in out:
            out.append(p)
    return out


def attribute(value, name: str, ctx: Ctx):
    """``value.name`` for every kind of value."""
    if type(value) is dict:
        if "player" in value:
            return player_attribute(value["player"], name, ctx)
        if "grid" in value:
            return ctx.game.mechanics.grid_attribute(value, name, ctx)
        if name in value:
            return value[name]
        raise RuleError(f"{describe(value)} has no '{name}'")
    if type(value) is str:
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
    if type(value) is dict and "expr" in value and len(value) == 1:
        env = {"self": ctx.env.get("self"), "this": record_id}
        return evaluate(ctx.game.rules.expressions[value["expr"]], Ctx(ctx.game, env))
    return value


# ---------------------------------------------------------------- nodes

def _name(node, ctx):
    return lookup(node.id, ctx)


def _attribute(node, ctx):
    return attribute(evaluate(node.obj, ctx), node.name, ctx)


def _index(node, ctx):
    container = evaluate(node.obj, ctx)
    key = evaluate(node.key, ctx)
    if type(container) is list:
        if type(key) is not int or not 1 <= key <= len(container):
            raise RuleError(f"index {describe(key)} is outside 1..{len(container)}")
        return container[key - 1]                  # the language counts from 1
    if type(container) is dict:
        k = key if type(key) is str else describe(key)
        if k not in container:
            raise RuleError(f"no '{k}' in {describe(container)}")
        return container[k]
    raise RuleError(f"cannot index {describe(container)}")


def _function(node, ctx):
    fn = ctx.game.functions.get(node.name)
    if fn is None:
        raise RuleError(f"unknown function '{node.name}'")
    return fn(ctx, [evaluate(a, ctx) for a in node.args])


def _generator(node, ctx):
    items = evaluate(node.iterable, ctx)
    env = ctx.env
    saved = env.get(node.var, _MISSING)
    values = []
    try:
        for item in items:
            env[node.var] = item
            if node.cond is None or evaluate(node.cond, ctx):
                values.append(evaluate(node.element, ctx))
    finally:
        if saved is _MISSING:
            env.pop(node.var, None)
        else:
            env[node.var] = saved
    return ctx.game.functions[node.name](ctx, [values])


_MISSING = object()


def _number(a, op):
    if type(a) is not int:
        raise RuleError(f"'{op}' needs numbers, got {describe(a)}")
    return a


def _binop(node, ctx):
    op = node.op
    a = evaluate(node.left, ctx)
    b = evaluate(node.right, ctx)
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    if op == "in":
        return a in b
    if op == "not in":
        return a not in b
    if op == "+" and type(a) is list and type(b) is list:
        return a + b
    if op == "+" and type(a) is str and type(b) is str:
        return a + b
    a, b = _number(a, op), _number(b, op)
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op in ("/", "%"):
        if b == 0:
            raise RuleError("division by zero")
        return a // b if op == "/" else a % b
    if op == "<":
        return a < b
    if op == "<=":
        return a <= b
    if op == ">":
        return a > b
    return a >= b


def _boolop(node, ctx):
    left = evaluate(node.left, ctx)
    if node.op == "and":
        return evaluate(node.right, ctx) if left else left
    return left if left else evaluate(node.right, ctx)


def _dict(node, ctx):
    return {k: evaluate(v, ctx) for k, v in node.pairs}


EVALUATE = {
    ast.Literal: lambda node, ctx: node.value,
    ast.Name: _name,
    ast.ListExpr: lambda node, ctx: [evaluate(i, ctx) for i in node.items],
    ast.DictExpr: _dict,
    ast.Attribute: _attribute,
    ast.Index: _index,
    ast.Function: _function,
    ast.Generator: _generator,
    ast.BinOp: _binop,
    ast.BoolOp: _boolop,
    ast.Conditional: lambda node, ctx: evaluate(node.then if evaluate(node.cond, ctx) else node.orelse, ctx),
    ast.Not: lambda node, ctx: not evaluate(node.operand, ctx),
    ast.Negate: lambda node, ctx: -_number(evaluate(node.operand, ctx), "-"),
}


def truthy(value) -> bool:
    return bool(value)


__all__ = ["Ctx", "evaluate", "lookup", "attribute", "player_attribute", "is_player"]
