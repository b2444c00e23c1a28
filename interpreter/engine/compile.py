"""Compile expression trees to Python closures, once, the first time they run.

A closure per node calls its children's closures directly, so evaluating
an expression costs a few function calls instead of a table dispatch per
node. The closure is kept on the (frozen) node itself; the tree stays the
source of truth for error messages and explanations.
"""
from __future__ import annotations

from ..dsl import ast, kinds
from . import budget
from ..model import limits
from ..model.values import (Condition, Effect, Grid, GraphRef, InternalError, Player, Room, RuleError,
                            Side, Track, Zone, describe, items_of, truth)


def compiled(node):
    """The closure ``fn(ctx) -> value`` for an expression node."""
    fn = node.__dict__.get("_fn")
    if fn is None:
        fn = COMPILE[node.__class__](node)
        object.__setattr__(node, "_fn", fn)
    return fn


def _literal(node):
    value = node.value
    return lambda ctx: value


def _name(node):
    from .evaluate import lookup
    name = node.id

    def fn(ctx):
        env = ctx.env
        if name in env:
            return env[name]
        return lookup(name, ctx)
    return fn


def _list(node):
    items = [compiled(i) for i in node.items]
    return lambda ctx: [f(ctx) for f in items]


def _dict(node):
    pairs = [(k, compiled(v)) for k, v in node.pairs]
    return lambda ctx: {k: f(ctx) for k, f in pairs}


def _attribute(node):
    from .evaluate import attribute, player_attribute
    from ..mechanics.grids import ROOM_READERS
    obj, name = compiled(node.obj), node.name
    room_reader = ROOM_READERS.get(name)

    def fn(ctx):
        value = obj(ctx)
        kind = type(value)
        if kind is str and name != "id":           # a content record's plain field (most read)
            record = ctx.game.rules.entities.get(value)
            if record is not None:
                field = record.get(name, _MISSING)
                if field is not _MISSING and type(field) is not Condition:
                    return field
        elif kind is Room and room_reader is not None:
            return room_reader(ctx, value)
        elif kind is dict and name in value:
            return value[name]
        elif kind is Player:
            return player_attribute(value.seat, name, ctx)
        return attribute(value, name, ctx)         # everything else, and every error
    return fn


def _index(node):
    from .evaluate import index
    obj, key = compiled(node.obj), compiled(node.key)
    return lambda ctx: index(obj(ctx), key(ctx), ctx.game.state)


def _function(node):
    from ..mechanics import FUNCTIONS
    name = node.name
    args = [compiled(a) for a in node.args]
    entry = FUNCTIONS.get(name)
    walks = budget.WALKS[entry.walks] if entry is not None and entry.walks else None

    one = args[0] if len(args) == 1 else None

    def fn(ctx):
        function = ctx.game.functions.get(name)
        if function is None:
            raise RuleError(f"unknown function '{name}'")
        values = [one(ctx)] if one is not None else [a(ctx) for a in args]
        try:
            result = function(ctx, values)
        except _PYTHON_ERRORS as exc:
            raise misuse(ctx, name, values, exc) from exc
        if walks is not None and function is entry.fn:     # not a ruleset function of that name
            walks(ctx.game, values, result)
        return result
    return fn


def _generator(node):
    name, var = node.name, node.var
    element, iterable = compiled(node.element), compiled(node.iterable)
    cond = compiled(node.cond) if node.cond is not None else None

    stop_at = {"any": True, "all": False}.get(name)     # these may stop early

    def fn(ctx):
        items = items_of(iterable(ctx), ctx.game.state)
        if type(items) is not list:
            raise RuleError(f"'for' needs a list, got {describe(items)}")
        budget.charge(ctx.game, len(items))            # nested generators multiply
        env = ctx.env
        saved = env.get(var, _MISSING)
        values = []
        try:
            for item in items:
                env[var] = item
                if cond is None or cond(ctx):
                    value = element(ctx)
                    if stop_at is not None and bool(value) is stop_at:
                        return stop_at
                    values.append(value)
        finally:
            if saved is _MISSING:
                env.pop(var, None)
            else:
                env[var] = saved
        try:
            return ctx.game.functions[name](ctx, [values])
        except _PYTHON_ERRORS as exc:
            raise misuse(ctx, name, [values], exc) from exc
    return fn


_MISSING = object()
_PYTHON_ERRORS = (TypeError, ValueError, KeyError, IndexError, AttributeError)


def misuse(ctx, name: str, values: list, exc: Exception) -> Exception:
    """Whose fault a Python exception in function ``name`` is.

    The content's (a RuleError) when the values it gave do not fit the
    function's signature: the checker cannot see every value's kind before
    play (a field of kind "anything"). When they fit, the function itself
    failed: an InternalError, a bug in Rulebook.
    """
    from ..mechanics import FUNCTIONS
    call = f"{name}({', '.join(map(describe, values))})"
    function = FUNCTIONS.get(name)
    if function is not None:
        signature = function.signature
        if not signature.takes(len(values)):
            return RuleError(f"{call}: '{name}' takes {signature.arity} values, got {len(values)}")
        for i, value in enumerate(values):
            kind = signature.param(i)
            if not value_fits(value, kind, ctx.game.state):
                return RuleError(f"{call}: value {i + 1} should be {kind}, got {describe(value)}")
    return InternalError(f"{call} failed with {type(exc).__name__}: {exc}")


def value_fits(value, kind, state) -> bool:
    """Whether a run-time value is of ``kind`` (a signature's kind; see dsl/kinds.py)."""
    if kind == kinds.ANY or isinstance(kind, kinds.Var):
        return True
    if isinstance(kind, kinds.Union):
        return any(value_fits(value, option, state) for option in kind.options)
    if isinstance(kind, kinds.ListOf):
        items = items_of(value, state)
        return type(items) is list and all(value_fits(item, kind.item, state) for item in items)
    if isinstance(kind, (kinds.Zone, kinds.Group)):
        return type(value) is Zone
    if isinstance(kind, kinds.Record):
        return type(value) is str
    if isinstance(kind, kinds.Plain):
        return type(value) is dict
    return type(value) is _BASIC.get(kind, object)


_BASIC = {kinds.NUMBER: int, kinds.BOOL: bool, kinds.STRING: str, kinds.NONE: type(None),
          kinds.PLAYER: Player, kinds.GRID: Grid, kinds.ROOM: Room, kinds.SIDE: Side,
          kinds.EFFECT: Effect, kinds.TRACK: Track, kinds.GRAPH: GraphRef}


def _int(value, op):
    if type(value) is not int:
        raise RuleError(f"'{op}' needs numbers, got {describe(value)}")
    return value


def _plus(a, b):
    ta = type(a)
    if ta is type(b):                      # the limits' checks written out: + is common
        if ta is list:
            value = a + b
            return value if len(value) <= limits.MAX_ITEMS else limits.sized(value)
        if ta is str:
            value = a + b
            return value if len(value) <= limits.MAX_CHARS else limits.sized(value)
        if ta is int:
            value = a + b
            return value if -_SMALL < value < _SMALL else limits.number(value)
    raise RuleError(f"cannot add {describe(a)} and {describe(b)}")


_SMALL = 2 ** 63                           # as ``limits.number``: smaller numbers are never too long


def _divide(a, b, op):
    _int(a, op), _int(b, op)
    if b == 0:
        raise RuleError("division by zero")
    return a // b if op == "/" else a % b


def _container(value):
    if type(value) not in (list, dict, str):
        raise RuleError(f"'in' needs a list, got {describe(value)}")
    return value


def _member(a, b) -> bool:
    try:
        return a in _container(b)
    except TypeError:                      # 1 in "abc", [1] in a record
        raise RuleError(f"cannot look for {describe(a)} in {describe(b)}") from None


def _equal(a, b) -> bool:
    """Python's == but true is not 1 (nor false 0)."""
    return a == b and (type(a) is bool) is (type(b) is bool)


_BINARY = {
    "==": _equal,
    "!=": lambda a, b: not _equal(a, b),
    "in": _member,
    "not in": lambda a, b: not _member(a, b),
    "+": _plus,
    "-": lambda a, b: budget.number(_int(a, "-") - _int(b, "-")),
    "*": lambda a, b: budget.number(_int(a, "*") * _int(b, "*")),
    "/": lambda a, b: _divide(a, b, "/"),
    "%": lambda a, b: _divide(a, b, "%"),
    "<": lambda a, b: _int(a, "<") < _int(b, "<"),
    "<=": lambda a, b: _int(a, "<=") <= _int(b, "<="),
    ">": lambda a, b: _int(a, ">") > _int(b, ">"),
    ">=": lambda a, b: _int(a, ">=") >= _int(b, ">="),
}


def _binop(node):
    left, right, op = compiled(node.left), compiled(node.right), _BINARY[node.op]
    if node.op in ("==", "!=", "in", "not in", "+"):       # zones compare by their cards
        def fn(ctx):
            a, b = left(ctx), right(ctx)
            if type(a) is Zone:
                a = items_of(a, ctx.game.state)
            if type(b) is Zone:
                b = items_of(b, ctx.game.state)
            budget.operands(ctx.game, a, b)            # what they walk
            return op(a, b)
        return fn
    return lambda ctx: op(left(ctx), right(ctx))


def _boolop(node):
    from .codegen import TRACING
    left, right = compiled(node.left), compiled(node.right)
    if TRACING:                                # the trace hook: the right side is evaluated
        right = _told(node, right, "right")
    if node.op == "and":
        def both(ctx):
            a = left(ctx)
            if a is True:                              # the common case, without a call
                return right(ctx)
            return right(ctx) if a is not False and truth(a, ctx.game.state) else a
        return both

    def either(ctx):
        a = left(ctx)
        if a is False:
            return right(ctx)
        return a if a is True or truth(a, ctx.game.state) else right(ctx)
    return either


def _told(node, fn, arm):
    """``fn`` that first tells the game's tracer, if any, that ``arm`` of ``node`` ran."""
    def traced(ctx):
        if ctx.game.tracer is not None:
            ctx.game.tracer.ran(ctx.game, node, arm)
        return fn(ctx)
    return traced


def _conditional(node):
    from .codegen import TRACING
    cond, then, orelse = compiled(node.cond), compiled(node.then), compiled(node.orelse)
    if not TRACING:
        return lambda ctx: then(ctx) if truth(cond(ctx), ctx.game.state) else orelse(ctx)

    def traced(ctx):                           # the trace hook (codegen.TRACING): which arm ran
        arm = "then" if truth(cond(ctx), ctx.game.state) else "else"
        if ctx.game.tracer is not None:
            ctx.game.tracer.ran(ctx.game, node, arm)
        return then(ctx) if arm == "then" else orelse(ctx)
    return traced


def _not(node):
    operand = compiled(node.operand)

    def fn(ctx):
        a = operand(ctx)
        return not a if type(a) is bool else not truth(a, ctx.game.state)
    return fn


def _negate(node):
    operand = compiled(node.operand)
    return lambda ctx: -_int(operand(ctx), "-")


COMPILE = {
    ast.Literal: _literal,
    ast.Name: _name,
    ast.ListExpr: _list,
    ast.DictExpr: _dict,
    ast.Attribute: _attribute,
    ast.Index: _index,
    ast.Function: _function,
    ast.Generator: _generator,
    ast.BinOp: _binop,
    ast.BoolOp: _boolop,
    ast.Conditional: _conditional,
    ast.Not: _not,
    ast.Negate: _negate,
}
