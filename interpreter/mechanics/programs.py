"""Statements that run other programs: ``do``, hook points (``signal``) and modifiers.

Every one of them is a simple statement that asks the game to ``call`` a
program (or to ``schedule`` a frame of its own); the machine pushes those
right after the statement, so they run before the next one and live in the
state like any frame. This module is that protocol's home for content:

- ``do proc(args)`` / ``do record.effect [with {names}]``: run a program.
- ``signal "point" with {names}``: every record in play that has a handler
  for the hook point runs it, with ``self`` its owner, ``this`` the record
  and the point's declared names bound. Who listens is fixed when the point
  is raised; seats take their turn from the acting player on, and an owner
  with several listeners chooses their order (a decision). A point declared
  ``heard_by: self`` is heard only by the raising player's own sources.
- ``modifier(p, "key")``: the sum of what every active source of ``p``
  contributes to a declared key, re-read each time.

"In play" is the ruleset's ``sources`` function (flow.yaml) of one seat; a
source with an ``active`` field counts only while that condition holds.
"""
from __future__ import annotations

from ..model.values import Player, RuleError, describe, seat


def do(ctx, arg, kw) -> None:
    """do PROCEDURE(ARGS) | do EFFECT [with RECORD]: run it now, before the next statement"""
    root, env = arg
    bindings = kw.get("with")
    if bindings is not None:
        if type(bindings) is not dict:
            raise RuleError("'with' needs a record of names")
        env.update(bindings)
    ctx.game.call(root, env)


# ---------------------------------------------------------------- sources

def sources(game, i: int) -> list:
    """The record ids in play for seat ``i`` whose ``active`` condition (if any) holds.

    Kept in the game's memo, like a ruleset function's result, while the
    state stands still: several modifiers read one state's sources.
    """
    key = ("$sources", i)
    kept = game.memo.get(key)
    if kept is None:
        kept = game.memo[key] = [rid for rid in _in_play(game, i) if _active(game, rid, i)]
    return kept


def _in_play(game, i: int) -> list:
    """The record ids the sources function gives for seat ``i``, active or not (memo kept)."""
    name = game.rules.sources
    if name is None:
        return []
    key = ("$in_play", i)
    kept = game.memo.get(key)
    if kept is not None:
        return kept
    # Called as a ruleset function is (its generated code, the memo, the caller's step budget),
    # not evaluated as a tree: that ran the closures, and gave every call a fresh budget.
    me = Player(i)
    found = game.functions[name](context(game, {"self": me}), [me])
    try:                                      # only strings are ids: no other value is a key
        ids = type(found) is list and all(map(game.rules.entities.__contains__, found))
    except TypeError:                         # a list or record in the list
        ids = False
    if not ids:
        raise RuleError(f"the sources function '{name}' must give a list of record ids, "
                        f"got {describe(found)}")
    game.memo[key] = found
    return found


def keep_in_play(game) -> None:
    """Clear the memo but the seats' in-play records (``_in_play``): for a mechanic whose step
    changed nothing the sources function reads."""
    memo = game.memo
    kept = {key: memo[key] for key in _IN_PLAY[:len(game.state["players"])] if key in memo}
    memo.clear()
    memo.update(kept)


_IN_PLAY = [("$in_play", i) for i in range(256)]    # the memo keys, made once (a seat past them: not kept)


def context(game, env: dict):
    """An expression context (``engine.evaluate.Ctx``, found late: the engine imports this)."""
    global _Ctx
    if _Ctx is None:
        from ..engine.evaluate import Ctx as _Ctx
    return _Ctx(game, env)


_Ctx = None


def _active(game, rid: str, i: int) -> bool:
    value = game.rules.entities[rid].get("active", True)
    return value is True or bool(game.record_value(rid, value, i))


def _seat_order(game, first: int | None) -> list:
    """People from ``first`` on, clockwise, then the scripted seats."""
    people = game.people
    start = first if first is not None and first < people else 0
    return [*range(start, people), *range(start), *range(people, len(game.state["players"]))]


# ---------------------------------------------------------------- hook points

def signal(ctx, arg, kw) -> None:
    """signal "POINT" [with RECORD]: every listener in play runs its handler for POINT"""
    game = ctx.game
    hooks = game.rules.hooks
    if type(arg) is not str or arg not in hooks:
        raise RuleError(f"{describe(arg)} is not a declared hook point")
    names = kw.get("with", {})
    declared = hooks[arg].get("names", [])
    if type(names) is not dict or sorted(names) != sorted(declared):
        raise RuleError(f"hook point '{arg}' takes the names {declared}, got {describe(names)}")
    me = ctx.env.get("self")
    first = None if me is None else seat(me)
    if hooks[arg].get("heard_by") == "self":
        if first is None:
            raise RuleError(f"hook point '{arg}' is heard by the player who raises it: raise it as a player")
        chain = listeners(game, arg, first, only=first)
    else:
        chain = listeners(game, arg, first)
    if chain:
        game.schedule(hook=arg, chain=chain, names=names)


def listeners(game, point: str, first: int | None, only: int | None = None) -> list:
    """Who hears ``point`` now: ``{"owner", "record", "effect"}`` from seat ``first`` on
    (seat ``only``'s sources alone, when given).

    A mechanic that raises a hook point itself pushes a frame of its own with
    this chain (``hook``, ``chain``, ``names``) and resumes it with ``resume_chain``.
    """
    chain = []
    hearing = _hearing(game.rules, point)
    if not hearing:                           # no record has a handler for it: nobody to find
        return chain
    for i in _seat_order(game, first) if only is None else [only]:
        for rid in filter(hearing.__contains__, _in_play(game, i)):
            if _active(game, rid, i):         # only a record that hears the point needs be active
                chain.append({"owner": i, "record": rid, "effect": hearing[rid]})
    return chain


def _hearing(rules, point: str) -> dict:
    """The records with a handler for ``point``: record id -> effect key (found once per ruleset)."""
    by_point = rules.__dict__.get("_hearing")
    if by_point is None:
        by_point = {}
        for rid, handlers in rules.handlers.items():
            for heard, key in handlers.items():
                by_point.setdefault(heard, {})[rid] = key
        rules._hearing = by_point
    return by_point.get(point, _NONE)


_NONE: dict = {}


def resume_chain(game, th, frame, node):
    """Run the next listener of a raised hook point; its owner picks among their own."""
    chain = frame["chain"]
    if not chain:
        th["frames"].pop()
        return None
    owner = chain[0]["owner"]
    mine = [k for k, entry in enumerate(chain) if entry["owner"] == owner]
    pick = 0
    if len(mine) > 1 and owner < game.people:
        if "answer" not in frame:
            prompt = f"which first, on {frame['hook'].replace('_', ' ')}"
            waiting = game.decide(th, frame, len(mine), prompt, Player(owner))
            if waiting is not None:
                return waiting
        pick = mine[frame.pop("answer")]
    entry = chain.pop(pick)
    env = dict(frame["names"], self=Player(owner), this=entry["record"])
    th["envs"].append(env)
    game.push_call(th, game.rules.effects[entry["effect"]])
    return None


def chain_labels(game, th, frame, node, ks) -> list:
    """Labels ``ks`` of the owner's "which first" decision: the names of their listeners."""
    chain = frame["chain"]
    owner = chain[0]["owner"]
    mine = [entry for entry in chain if entry["owner"] == owner]
    return [_listener_label(game, mine[k]["record"]) for k in ks]


def _listener_label(game, rid: str) -> str:
    record = game.rules.entities[rid]
    return record.get("name") or rid


# ---------------------------------------------------------------- modifiers

def modifier(ctx, args):
    """modifier(PLAYER, "key"): what every active source of PLAYER adds to a declared key"""
    game = ctx.game
    who, key = args
    i = seat(who)
    if key not in game.rules.modifier_keys:
        raise RuleError(f"{describe(key)} is not a declared modifier")
    total = 0
    tables = _modifiers(game.rules)
    for rid in sources(game, i):
        for mods in tables.get(rid, ()):
            value = mods.get(key, 0)
            if type(value) is not int:
                value = game.record_value(rid, value, i)
            if type(value) is not int:
                raise RuleError(f"modifier '{key}' of {rid} must be a whole number, got {describe(value)}")
            total += value
    return total


def _modifiers(rules) -> dict:
    """Each record's modifier fields that it fills: record id -> their values (found once per
    ruleset)."""
    found = rules.__dict__.get("_modifiers")
    if found is None:
        found = {}
        for rid, record in rules.entities.items():
            fields = rules.modifier_fields.get(record.get("table"), ())
            held = tuple(record[field] for field in fields if field in record)
            if held:
                found[rid] = held
        rules._modifiers = found
    return found
