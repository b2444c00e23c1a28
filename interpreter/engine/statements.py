"""Simple statements: resources, assignments and mechanic verbs.

These run inline (no frame of their own); the mechanics table supplies the
verbs, this module the statements the grammar knows by name.
"""
from __future__ import annotations

from ..dsl import ast
from . import budget
from . import machine
from .evaluate import Ctx, attribute, evaluate, lookup
from ..model.values import Effect, Player, RuleError, describe, items_of, seat


def _moves(node, ctx: Ctx) -> tuple:
    """``(seat, amounts)`` of a gain, spend or lose, every amount worked out before any is moved:
    the seat ``for P``, else the acting player; each amount ``(counter, count)``."""
    who = node.who
    if who is None:
        me = ctx.env.get("self")
        i = ctx.me if me is None else me.seat           # (ctx.me's error when nobody acts)
    else:
        fn = who.__dict__.get("_fn")                    # its generated code, without evaluate's call
        value = fn(ctx) if fn is not None else evaluate(who, ctx)
        i = value.seat if type(value) is Player else seat(value)
    how, plan = node.__dict__.get("_plan") or _planned(node)
    if how is _ONE:                       # one named counter, its count an expression (the most run)
        name, count = plan
        fn = count.__dict__.get("_fn")
        count = fn(ctx) if fn is not None else evaluate(count, ctx)
        if type(count) is not int or count < 0:
            _refuse(name, count)
        return i, ((name, count),)
    if how is _FIXED:                     # named counters, literal counts: the same every time
        return i, plan
    out = []
    for name, count, counter in plan:
        if counter is not None:
            name = _counter(counter, ctx)
        if count.__class__ is not int:                  # an expression (a literal is its number)
            fn = count.__dict__.get("_fn")
            count = fn(ctx) if fn is not None else evaluate(count, ctx)
            if type(count) is not int or count < 0:
                _refuse(name, count)
        out.append((name, count))
    return i, out


_FIXED, _ONE, _ANY = "fixed", "one", "any"      # how a statement's amounts are worked out (_planned)


def _planned(node) -> tuple:
    """``(how, amounts)``, once per statement: each amount as ``(name, count, counter)``, the
    count a number where it is written as one (whole, not negative), else its expression; or,
    ``_FIXED``, every amount as ``(name, count)`` when all are named and written so; or,
    ``_ONE``, ``(name, expression)`` for one named counter and a count to work out."""
    plan = []
    for amount in node.amounts:
        count = amount.count
        if count.__class__ is ast.Literal and type(count.value) is int and count.value >= 0:
            count = count.value
        plan.append((amount.name, count, amount.counter))
    if all(counter is None and type(count) is int for _, count, counter in plan):
        planned = (_FIXED, tuple((name, count) for name, count, _ in plan))
    elif len(plan) == 1 and plan[0][2] is None:
        planned = (_ONE, plan[0][:2])
    else:
        planned = (_ANY, tuple(plan))
    object.__setattr__(node, "_plan", planned)
    return planned


def _refuse(name: str, count) -> None:
    if type(count) is not int:
        raise RuleError(f"'{name}' needs a whole number, got {describe(count)}")
    raise RuleError(f"cannot move a negative amount ({count}) of '{name}'")


def _counter(expr, ctx: Ctx) -> str:
    """``gain N of EXPR``: the counter EXPR names, which must be declared."""
    name = evaluate(expr, ctx)
    if type(name) is not str or name not in ctx.game.rules.counters:
        raise RuleError(f"'of' needs the name of a counter, got {describe(name)}")
    return name


def gain(game, ctx: Ctx, node) -> None:
    i, amounts = _moves(node, ctx)                      # every amount worked out first
    for name, count in amounts:
        game.counters.gain(i, name, count)


def spend(game, ctx: Ctx, node) -> None:
    """All or nothing: the total of each counter is checked before any is paid."""
    i, amounts = _moves(node, ctx)
    if len(amounts) == 1:                          # the usual case: spend checks it before paying
        game.counters.spend(i, *amounts[0])
        return
    totals: dict = {}
    for name, count in amounts:
        totals[name] = totals.get(name, 0) + count
    for name, count in totals.items():
        game.counters.check_spend(i, name, count)
    for name, count in amounts:
        game.counters.spend(i, name, count)


def lose(game, ctx: Ctx, node) -> None:
    i, amounts = _moves(node, ctx)
    for name, count in amounts:
        game.counters.lose(i, name, count)


def assign(game, ctx: Ctx, node) -> None:
    fn = node.value.__dict__.get("_fn")                 # its generated code, without evaluate's call
    value = fn(ctx) if fn is not None else evaluate(node.value, ctx)
    kind = type(value)
    if kind is list:                                    # anything else is kept as it is (budget.kept)
        value = budget.kept(game, value) if value else []     # (an empty list, the most kept: a copy)
    elif kind is dict:
        value = budget.kept(game, value)
    _store(game, ctx, node.target, value)


def augassign(game, ctx: Ctx, node) -> None:
    current = _load(game, ctx, node.target)
    fn = node.value.__dict__.get("_fn")                 # its generated code, without evaluate's call
    delta = items_of(fn(ctx) if fn is not None else evaluate(node.value, ctx), game.state)
    if node.op == "+=":
        if type(current) is list:              # a list grows by a list, or by one item
            value = current + (delta if type(delta) is list else [delta])
        elif type(current) is str and type(delta) is str:
            value = current + delta
        else:
            value = _int(current) + _int(delta)
    else:
        value = _int(current) - _int(delta)
    _store(game, ctx, node.target, budget.kept(game, budget.sized(value), copy=False))


def _int(value):
    if type(value) is not int:
        raise RuleError(f"expected a number, got {describe(value)}")
    return value


def _load(game, ctx, target):
    value = lookup(target[0], ctx)
    for name in target[1:]:
        value = attribute(value, name, ctx)
    return value


def _store(game, ctx: Ctx, target: tuple, value) -> None:
    """``x = v`` sets a local (or a declared game variable); ``p.x = v`` a player's."""
    env = ctx.env
    name = target[0]
    if len(target) == 1:
        if name in env or name not in game.rules.vars:
            env[name] = value
        else:
            game.state["vars"][name] = value
        return
    owner = env[name] if name in env else lookup(name, ctx)     # (lookup's first look, inline)
    if len(target) > 2:
        for name in target[1:-1]:
            owner = attribute(owner, name, ctx)
    if type(owner) is Player:                   # (_set_field's usual case, inline)
        game.set_player_value(owner.seat, target[-1], value)
    else:
        _set_field(game, owner, target[-1], value)


def _set_field(game, owner, field: str, value) -> None:
    """A player's counter or variable; nothing else has settable fields."""
    if type(owner) is Player:
        game.set_player_value(owner.seat, field, value)
    else:
        raise RuleError(f"cannot set '{field}' of {describe(owner)}")


def set_to(game, ctx: Ctx, node) -> None:
    """``set players[2].coin to 5``: a field of any player, reached by any expression."""
    value = budget.kept(game, evaluate(node.value, ctx))
    target = node.target
    if target.__class__ is ast.Name:
        _store(game, ctx, (target.id,), value)
        return
    _set_field(game, evaluate(target.obj, ctx), target.name, value)


def call(game, ctx: Ctx, node) -> None:
    verb = game.verbs[node.verb]
    if node.arg is None:
        arg = None
    elif verb.takes_program:
        arg = program(game, ctx, node.arg)
    else:
        arg = evaluate(node.arg, ctx)
    keywords = {k: evaluate(v, ctx) for k, v in node.keywords}
    verb.run(ctx, arg, keywords)


def program(game, ctx: Ctx, target) -> tuple:
    """What ``do`` (or any verb taking a program) runs: ``(root, locals)``.

    ``proc(args)`` names a procedure; any other expression must give an
    effect (a record's effect field), which runs with ``this`` bound to the record.
    """
    env = {"self": ctx.env.get("self")}
    if target.__class__ is ast.Function and target.name in game.rules.procedures:
        params, root = game.rules.procedures[target.name]
        args = [budget.kept(game, evaluate(a, ctx), copy=False) for a in target.args]
        if len(args) != len(params):
            raise RuleError(f"'{target.name}' takes {len(params)} values, got {len(args)}")
        env.update(zip(params, args))
        return root, env
    effect = evaluate(target, ctx)
    if type(effect) is not Effect:
        raise RuleError(f"'do' needs a procedure or an effect, got {describe(effect)}")
    env["this"] = effect.key.split(".", 1)[0]
    return game.rules.effects[effect.key], env


machine.SIMPLE.update({
    ast.Gain: gain,
    ast.Spend: spend,
    ast.Lose: lose,
    ast.Assign: assign,
    ast.AugAssign: augassign,
    ast.SetTo: set_to,
    ast.Call: call,
    ast.Pass: lambda game, ctx, node: None,
})
