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

import marshal
from itertools import chain as _joined, compress, repeat
from operator import is_not, itemgetter

from ..dsl import ast, kinds
from ..model.values import Condition, PLAYERS, RuleError, describe, seat


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
        listed = _in_play(game, i)
        if _conditioned(game.rules).isdisjoint(listed):     # none has an ``active`` condition
            kept = game.memo[key] = list(listed)
        else:
            kept = game.memo[key] = [rid for rid in listed if _active(game, rid, i)]
    return kept


def _conditioned(rules) -> frozenset:
    """The records with an ``active`` field (found once per ruleset)."""
    found = rules.__dict__.get("_conditioned")
    if found is None:
        found = rules._conditioned = frozenset(
            rid for rid, record in rules.entities.items() if record.get("active", True) is not True)
    return found


def _in_play(game, i: int) -> list:
    """The record ids the sources function gives for seat ``i``, active or not."""
    return _lists(game, (i,))[0]


def _lists(game, seats) -> list:
    """The record ids the sources function gives for each of ``seats``, active or not (memo
    kept; kept across statements, ``_kept``)."""
    memo = game.memo
    asked = memo.get(_ASKED)                  # every seat's list in the memo already
    if asked is not None:
        return list(map(asked.__getitem__, seats))
    kept = memo.get(_KEPT)
    if kept is None:                          # once per memo: the table stands still meanwhile
        kept = memo[_KEPT] = _kept(game)
    if kept is not False and len(seats) > 1 and _EVERY in kept:
        keys, lists, cost, deepest = kept[_EVERY]        # every seat kept, none asked yet:
        depth = game.depth                               # as one seat after another would
        cost += len(lists) * (depth > 0)
        if depth <= deepest and game.steps >= cost and len(seats) == len(lists) and memo.keys().isdisjoint(keys):
            game.steps -= cost
            memo.update(keys)
            memo[_ASKED] = lists
            return list(map(lists.__getitem__, seats))
    out = []
    for i in seats:
        key = _KEYS[i]
        found = memo.get(key)
        if found is None:
            entry = None if kept is False else kept.get(i)
            depth = game.depth                # its cost, and the call's own step when nested
            if entry is not None and depth <= entry[2] and game.steps >= entry[1] + (depth > 0):
                game.steps -= entry[1] + (depth > 0)
                found = entry[0]
            else:
                found = _work_out(game, i, kept)
            memo[key] = found
        out.append(found)
    return out


class _Keys(dict):
    """Seat -> its memo key, each made once."""

    def __missing__(self, i: int) -> tuple:
        made = self[i] = ("$in_play", i)
        return made


_KEYS = _Keys()


def _found(game, name: str, i: int) -> list:
    """The sources function's list for seat ``i``, checked."""
    # Called as a ruleset function is (its generated code, the memo, the caller's step budget),
    # not evaluated as a tree: that ran the closures, and gave every call a fresh budget.
    me = PLAYERS[i]
    found = game.functions[name](context(game, {"self": me}), [me])
    try:                                      # only strings are ids: no other value is a key
        ids = type(found) is list and all(map(game.rules.entities.__contains__, found))
    except TypeError:                         # a list or record in the list
        ids = False
    if not ids:
        raise RuleError(f"the sources function '{name}' must give a list of record ids, "
                        f"got {describe(found)}")
    return found


# ---------------------------------------------------------------- sources kept across statements
#
# The memo is cleared whenever content runs, yet a seat's sources seldom change: the
# sources function reads a few parts of the table (``table_reads``), and while those hold
# the same values it gives the same list. So each seat's list is kept on the game with the
# values it was worked out from (their ``marshal`` bytes, which tell true from 1; a part
# holding a zone, grid or player value cannot be written so, and keeps nothing), and taken
# again while they match. Worked out, it runs with a memo of its own, so what it costs is
# a function of those values alone; taken again, that cost is charged again, and only where
# working it out would not have run out of budget (steps, call depth): a game plays the
# same whether the list was kept or not, a saved game resumed the same as the original.

def _kept(game):
    """The seats' lists kept for the values the sources function reads now: seat -> (list,
    its step cost at the top, the call depth it was worked out at), with ``_MARKS`` each
    seat's mark (``_marked``) and ``_EVERY`` when every seat is kept; False when none can be."""
    rules = game.rules
    try:
        reads = rules._sources_reads
    except AttributeError:                    # once per ruleset
        reads = rules._sources_reads = None if rules.sources is None else table_reads(rules, rules.sources)
        rules._sources_own = reads is not None and seat_wise(rules, rules.sources)
    if reads is None or game.tracer is not None:
        return False
    marks = _marked(game.state, reads, rules._sources_own)
    if marks is None:
        return False
    last = game.__dict__.get("_sources_kept")    # (marks, their kept lists, each seat's last)
    if last is not None and last[0] == marks:
        return last[1]
    store = last[2] if last is not None and len(last[2]) == len(marks) else [None] * len(marks)
    kept = {_MARKS: (marks, store)}
    for i, held in enumerate(store):          # (seat -> its mark, its entry)
        if held is not None and held[0] == marks[i]:
            kept[i] = held[1]
    _every(kept, len(marks))
    game._sources_kept = (marks, kept, store)
    return kept


def _every(kept: dict, n: int) -> None:
    """Every seat kept: their sums, for ``_lists``."""
    if len(kept) - (_EVERY in kept) == n + 1:
        entries = [kept[k] for k in range(n)]
        kept[_EVERY] = ({_KEYS[k]: entry[0] for k, entry in enumerate(entries)},
                        [entry[0] for entry in entries], sum(map(_SECOND, entries)),
                        min(map(_THIRD, entries)))     # (at C speed)


_SECOND, _THIRD = itemgetter(1), itemgetter(2)


def _work_out(game, i: int, kept) -> list:
    """Seat ``i``'s list worked out; to be kept (``kept`` not False), with a memo of its own,
    so that its cost is a function of the values read alone."""
    name = game.rules.sources
    if kept is False:
        return [] if name is None else _found(game, name, i)
    memo, steps, depth = game.memo, game.steps, game.depth
    game.memo = {}
    try:
        found = _found(game, name, i)
    finally:
        game.memo = memo
    entry = kept[i] = (found, steps - game.steps - (depth > 0), depth)
    marks, store = kept[_MARKS]
    store[i] = (marks[i], entry)
    _every(kept, len(marks))
    return found


_KEPT = ("$kept",)                            # the memo's key of the lists kept for its state
_EVERY = "$every"                             # the kept lists' key of every seat's at once
_MARKS = "$marks"                             # the kept lists' key of each seat's mark
_ASKED = ("$asked",)                          # the memo's key of them, once all are in it


def _marked(state: dict, reads: tuple, own: bool):
    """Each seat's mark: the bytes of the table parts ``reads`` names, of its own sheet's and
    the table's when it reads only its own (``own``, ``seat_wise``), else of every sheet's
    (None when a part cannot be written)."""
    mine, table, _ = reads
    sheets = state["players"]
    try:
        if own:                               # each kind's part of every sheet, then by sheet
            shared = [get(part(state)) for part, get in table]
            if not mine:
                return [marshal.dumps(((), shared), 4)] * len(sheets)
            columns = [[*map(get, map(part, sheets))] for part, get in mine]
            return [marshal.dumps((row, shared), 4) for row in zip(*columns)]
        parts: list = []
        for part, get in mine:                # each kind's part of every sheet, at C speed
            parts += map(get, map(part, sheets))
        for part, get in table:
            parts.append(get(part(state)))
        return [marshal.dumps(parts, 4)] * len(sheets)
    except (KeyError, TypeError, ValueError):
        return None


def table_reads(rules, name: str):
    """What ruleset function ``name`` reads of the table (and every function, condition field
    and built-in it reaches), found once per ruleset: ``(mine, table, keys)``, each seat's
    parts and the table's as ``(getter of a kind's part of a sheet or of the state, getter of
    the names read there)`` pairs, and the state keys of the table's; None when it may read
    more than its names say (a built-in that says so, an impure or unknown one, a statement).
    A player component is read for every seat; a seat, an entity, a constant or a record's
    plain field is no part of the table.
    """
    found = rules.__dict__.setdefault("_table_reads", {})
    if name not in found:
        found[name] = _table_reads(rules, name)
    return found[name]


def _table_reads(rules, name: str):
    from . import COMPONENTS, FUNCTIONS        # the table imports this module
    mine: dict = {}                            # a sheet's key -> names (None: all of it)
    table: dict = {}                           # the same, of the state itself
    conditions: dict = {}                      # field name -> the expressions of its condition fields
    for record in rules.entities.values():
        for field, value in record.items():
            if type(value) is Condition:
                conditions.setdefault(field, []).append(rules.expressions[value.key])
    trees, seen = [rules.functions[name][1]], {name}
    while trees:
        stack = [trees.pop()]
        while stack:
            node = stack.pop()
            cls = node.__class__
            if cls not in _EXPRESSIONS:
                return None
            stack.extend(node.children())
            if cls is ast.Name:
                tag, kind = rules.names.get(node.id, (None, None))
                if kind is None or tag not in ("mine", "table", "builtin"):
                    continue                   # a local, a seat, a constant, an entity, a table's ids
                if tag == "builtin":
                    if node.id in ("game_over", "winners"):
                        table["result"] = None
                elif kind.state_key is not None:
                    if tag == "mine":
                        _read(mine, kind.state_key, node.id)
                    else:
                        _read(table, kind.state_key, node.id)
            elif cls is ast.Attribute:
                kind = rules.player_components.get(node.name)
                if kind is not None and kind.state_key is not None:
                    _read(mine, kind.state_key, node.name)
                elif node.name == "place":
                    table["result"] = None
                if ("field", node.name) not in seen:    # a condition field is an expression too
                    seen.add(("field", node.name))
                    trees.extend(conditions.get(node.name, ()))
            elif cls is ast.Function or cls is ast.Generator:
                if node.name in rules.functions:
                    if node.name not in seen:
                        seen.add(node.name)
                        trees.append(rules.functions[node.name][1])
                    continue
                entry = FUNCTIONS.get(node.name)
                if entry is None or not entry.pure or entry.reads is None:
                    return None
                for section in entry.reads:           # a section read whole
                    kind = COMPONENTS[section]
                    if kind.where != "table":
                        mine[kind.state_key] = None
                    if kind.where != "player":
                        table[kind.state_key] = None
    return _getters(mine), _getters(table), tuple(sorted(table))


def seat_wise(rules, name: str) -> bool:
    """Whether ruleset function ``name``, called for one seat (``self`` and its first parameter
    that seat), reads player components of that seat alone: through ``self``, its own names,
    or a parameter every call it reaches passes that seat on to. Each function is walked once
    per set of such parameters; a generator binding one of their names, a player component
    read through anything else, or a built-in reading a player section says no."""
    from . import COMPONENTS, FUNCTIONS        # the table imports this module
    conditions: dict = {}                     # field name -> the expressions of its condition fields
    for record in rules.entities.values():
        for field, value in record.items():
            if type(value) is Condition:
                conditions.setdefault(field, []).append(rules.expressions[value.key])
    params = rules.functions[name][0]
    todo = [(rules.functions[name][1], frozenset(params[:1]) | _SELF)]
    seen: set = set()
    while todo:
        tree, own = todo.pop()
        if (id(tree), own) in seen:
            continue
        seen.add((id(tree), own))
        if len(seen) > 10_000:                # a bound on the walk, whatever the content
            return False
        stack = [tree]
        while stack:
            node = stack.pop()
            cls = node.__class__
            stack.extend(node.children())
            if cls is ast.Attribute:
                if node.name in rules.player_components and not (
                        type(node.obj) is ast.Name and node.obj.id in own) and not _a_record(rules, node):
                    return False
                todo += [(field, _SELF) for field in conditions.get(node.name, ())]
            elif cls is ast.Generator:
                if node.var in own or node.name in rules.functions:
                    return False
            if cls is ast.Function or cls is ast.Generator:
                if node.name in rules.functions:
                    names, body = rules.functions[node.name]
                    passed = {names[k] for k, arg in enumerate(node.args[:len(names)])
                              if type(arg) is ast.Name and arg.id in own}
                    if "self" in names and "self" not in passed:
                        return False          # (a parameter named so hides the seat's own)
                    todo.append((body, frozenset(passed) | _SELF))
                    continue
                entry = FUNCTIONS.get(node.name)
                if entry is None or entry.reads is None:
                    return False
                if any(COMPONENTS[section].where != "table" for section in entry.reads):
                    return False
    return True


_SELF = frozenset({"self"})


def _a_record(rules, node) -> bool:
    """Whether the checker's kinds say ``node.obj`` is a record (its id or one built), never a
    player: ``node`` reads a record's field of a player component's name."""
    kind = rules.__dict__.get("owner_kinds", {}).get(id(node))
    if kind is None or kind == kinds.ANY or len(kinds.options_of(kind)) != 1:
        return False
    return kind == kinds.STRING or isinstance(kind, (kinds.Record, kinds.Plain))


def _getters(parts: dict) -> tuple:
    return tuple((itemgetter(key), _whole if names is None else itemgetter(*sorted(names)))
                 for key, names in sorted(parts.items()))


def _read(parts: dict, key: str, name: str) -> None:
    names = parts.setdefault(key, set())
    if names is not None:                     # (None: the whole part is read)
        names.add(name)


def _whole(part):
    return part


_EXPRESSIONS = frozenset(ast.EXPRESSIONS)


def keep_in_play(game) -> None:
    """Clear the memo but the seats' in-play records (``_in_play``) and the lists kept for the
    table's values: for a mechanic whose step changed nothing the sources function reads."""
    memo = game.memo
    keys = _held(len(game.state["players"]))
    values = list(map(memo.get, keys))        # at C speed: no value is None
    memo.clear()
    memo.update(compress(zip(keys, values), map(is_not, values, repeat(None))))


def _held(n: int) -> tuple:
    """The memo keys ``keep_in_play`` keeps for ``n`` seats (made once per count)."""
    keys = _HELD.get(n)
    if keys is None:
        keys = _HELD[n] = (_KEPT, _ASKED, *map(_KEYS.__getitem__, range(n)))
    return keys


_HELD: dict = {}


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


def _seat_order(game, first: int | None) -> tuple:
    """People from ``first`` on, clockwise, then the scripted seats (made once per count)."""
    people = game.people
    start = first if first is not None and first < people else 0
    key = (start, people, len(game.state["players"]))
    order = _ORDERS.get(key)
    if order is None:
        order = _ORDERS[key] = (*range(start, people), *range(start), *range(people, key[2]))
    return order


_ORDERS: dict = {}


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
    seats = _seat_order(game, first) if only is None else (only,)
    lists = _lists(game, seats)
    if hearing.keys().isdisjoint(_joined.from_iterable(lists)):
        return chain                          # nobody's records in play hear it
    for i, found in zip(seats, lists):
        for rid in filter(hearing.__contains__, found):
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
    pick = 0
    if len(chain) > 1 and owner < game.people:
        mine = [k for k, entry in enumerate(chain) if entry["owner"] == owner]
        if len(mine) > 1:
            if "answer" not in frame:
                prompt = f"which first, on {frame['hook'].replace('_', ' ')}"
                waiting = game.decide(th, frame, len(mine), prompt, PLAYERS[owner])
                if waiting is not None:
                    return waiting
            pick = mine[frame.pop("answer")]
    entry = chain.pop(pick)
    env = dict(frame["names"], self=PLAYERS[owner], this=entry["record"])
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
    adding = _adding(game.rules, key)
    for rid in filter(adding.__contains__, sources(game, i)):
        for value in adding[rid]:
            if type(value) is not int:
                value = game.record_value(rid, value, i)
                if type(value) is not int:
                    raise RuleError(f"modifier '{key}' of {rid} must be a whole number, got {describe(value)}")
            total += value
    return total


def _adding(rules, key: str) -> dict:
    """The records whose modifier fields fill ``key``: record id -> those values (found once
    per ruleset and key)."""
    by_key = rules.__dict__.setdefault("_adding", {})
    found = by_key.get(key)
    if found is None:
        found = by_key[key] = {rid: held for rid, mods in _modifiers(rules).items()
                               if (held := tuple(m[key] for m in mods if key in m))}
    return found


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
