"""General functions of the effect language: counting, comparing, choosing."""
from __future__ import annotations

from itertools import chain

from ..model import limits, rng
from ..model.values import Effect, Grid, Player, Room, RuleError, Side, Zone, describe, items_of, seat


def _list(value, fn: str, ctx=None) -> list:
    if type(value) is list:                  # the usual case: a list, not a zone
        return value
    if ctx is not None:
        value = items_of(value, ctx.game.state)
    if type(value) is not list:
        raise RuleError(f"{fn}() needs a list, got {describe(value)}")
    return value


def _read(value, fn: str, ctx) -> list:
    """As ``_list``, but a zone's live list itself, not a copy: for a function that only reads
    it (a numbered group still gives its zones)."""
    kind = type(value)
    if kind is list:                          # the usual case
        return value
    if kind is Zone:
        of, state = value.of, ctx.game.state      # (zone_list, without its call)
        live = (state["zones"] if of is None else state["players"][of]["zones"])[value.name]
        if value.n is not None:
            return live[value.n - 1]
        if not live or type(live[0]) is not list:
            return live
    return _list(value, fn, ctx)


def count(ctx, args):
    """count(LIST) / count(x for x in LIST if COND): how many"""
    return len(_read(args[0], "count", ctx))


def total(ctx, args):
    """sum(LIST): the total of numbers (0 for an empty list)"""
    return sum(_read(args[0], "sum", ctx))


def largest(ctx, args):
    """max(LIST) or max(A, B, ...): the largest (none for an empty list)"""
    values = _read(args[0], "max", ctx) if len(args) == 1 else args
    return max(values) if values else None


def smallest(ctx, args):
    """min(LIST) or min(A, B, ...): the smallest (none for an empty list)"""
    values = _read(args[0], "min", ctx) if len(args) == 1 else args
    return min(values) if values else None


def inclusive_range(ctx, args):
    """range(A, B): A, A+1, ..., B (both ends included, as rules count)"""
    a, b = args
    if type(a) is not int or type(b) is not int:
        raise RuleError("range() needs whole numbers")
    limits.span(a, b)
    return list(range(a, b + 1))


def absolute(ctx, args):
    """abs(N)"""
    return abs(args[0])


def first(ctx, args):
    """first(LIST): the first item, or none"""
    items = _read(args[0], "first", ctx)
    return items[0] if items else None


def with_most(ctx, args):
    """with_most(ITEMS, VALUES): the items whose value is the largest"""
    return _extreme(ctx, args, max)


def with_least(ctx, args):
    """with_least(ITEMS, VALUES): the items whose value is the smallest"""
    return _extreme(ctx, args, min)


def _extreme(ctx, args, pick):
    items, values = _list(args[0], "with_most", ctx), _list(args[1], "with_most", ctx)
    if len(items) != len(values):
        raise RuleError("with_most()/with_least() need lists of the same length")
    if not items:
        return []
    best = pick(values)
    return [item for item, value in zip(items, values) if value == best]


def any_of(ctx, args):
    """any(LIST): true if some item is true"""
    return any(_read(args[0], "any", ctx))


def all_of(ctx, args):
    """all(LIST): true if every item is true"""
    return all(_read(args[0], "all", ctx))


def unique(ctx, args):
    """unique(LIST): the items without repeats, in first-seen order"""
    out, seen, unhashed = [], set(), []       # a set: 100,000 items compared pairwise took hours
    for item in _list(args[0], "unique", ctx):
        kind = type(item)
        if kind is list or kind is dict:           # rare: compared with the other lists and records
            if item in unhashed:
                continue
            unhashed.append(item)
        elif item in seen:
            continue
        else:
            seen.add(item)
        out.append(item)
    return out


def headroom(ctx, args):
    """headroom(PLAYER, "counter"): how much more may still be gained (caps)"""
    who = args[0]
    room = ctx.game.counters.headroom(who.seat if type(who) is Player else seat(who), args[1])
    return 10 ** 9 if room is None else room


def roll(ctx, args):
    """roll(N): a die of N faces, 1..N, from the game's seeded random stream.

    It advances the stream, so call it in a statement (``face = roll(6)``),
    not inside a ruleset function, whose results are kept while the state
    stands still.
    """
    sides = args[0]
    if type(sides) is not int or sides < 1:
        raise RuleError(f"roll() needs a whole number of faces, at least 1, got {describe(sides)}")
    state = ctx.game.state
    state["rng"], face = rng.below(state["rng"], sides)
    return face + 1


def keys(ctx, args):
    """keys(RECORD): its field names"""
    if type(args[0]) is not dict:
        raise RuleError("keys() needs a record")
    return list(args[0])


def effect(ctx, args):
    """effect(ID, "field"): the effect written in a content record's field"""
    key = f"{args[0]}.{args[1]}"
    if key not in ctx.game.rules.effects:
        raise RuleError(f"'{args[0]}' has no effect '{args[1]}'")
    return Effect(key)


def as_list(ctx, args):
    """list(x for x in LIST if COND): the collected items"""
    return list(_list(args[0], "list", ctx))


def flatten(ctx, args):
    """flatten(LISTS): one list of all their items"""
    parts = _list(args[0], "flatten", ctx)
    if len(parts) <= _FEW:                    # a few lists (the usual case): joined in a loop,
        out = []                              # cheaper than the three C passes below
        for part in parts:
            if type(part) is not list:
                break
            out += part
        else:                                 # (each part within its limit: a few, so no exhaustion)
            return out if len(out) <= limits.MAX_ITEMS else limits.sized(out)
    if {*map(type, parts)} <= _LISTS:         # lists only: at C speed
        limits.length(sum(map(len, parts)))   # refused before it is built
        return list(chain.from_iterable(parts))
    out = []
    for part in parts:
        out.extend(part if type(part) is list else _list(part, "flatten", ctx))
        if len(out) > limits.MAX_ITEMS:
            limits.sized(out)
    return out


_LISTS = {list}
_FEW = 16


def text(ctx, args):
    """text(A, B, ...): the values written out, separated by spaces (empty ones left out)"""
    if len(args) == 1 and type(args[0]) is int:     # a number as a string
        return str(args[0])
    for value in args:                         # (a loop over a few words beats a set of their types)
        if type(value) is not str:
            break
    else:                                      # strings only (the most written): joined as they are
        said = " ".join(args) if "" not in args else " ".join(filter(None, args))
        return said if len(said) <= limits.MAX_CHARS else limits.sized(said)
    for value in args:
        kind = type(value)
        if kind is not str and kind is not int:     # as ``Game.describe`` writes them, a layer less
            names = ctx.game.seat_names
            said = " ".join(filter(None, [value if type(value) is str else describe(value, names)
                                          for value in args]))
            break
    else:                                      # strings and numbers (str() writes them as describe()
        said = " ".join(filter(None, map(str, args)))       # does): at C speed, empty words left out
    return said if len(said) <= limits.MAX_CHARS else limits.sized(said)


def get(ctx, args):
    """get(RECORD, KEY, DEFAULT): a field, or DEFAULT when it is missing"""
    record, key, default = args
    if record is None:
        return default
    if type(record) is str and record in ctx.game.rules.entities:
        return ctx.attribute(record, key) if key in ctx.game.rules.entities[record] else default
    if type(record) in (Player, Grid, Room, Side):
        try:
            return ctx.attribute(record, key)
        except RuleError:
            return default
    if type(record) is not dict:
        raise RuleError(f"get() needs a record, got {describe(record)}")
    return record.get(key, default)


def sort_by(ctx, args):
    """sort_by(ITEMS, KEYS): the items ordered by their keys, smallest first; equal keys
    keep their order. Keys are all numbers, all strings, or all lists of numbers
    (compared element by element, a shorter list first when it is a prefix)."""
    items, keys = _list(args[0], "sort_by", ctx), _list(args[1], "sort_by", ctx)
    if len(items) != len(keys):
        raise RuleError(f"sort_by() needs as many keys as items, got {len(keys)} for {len(items)}")
    sorts = {_key_sort(key) for key in keys}
    if len(sorts) > 1:
        raise RuleError(f"sort_by() cannot compare {' with '.join(sorted(sorts))}")
    order = sorted(range(len(items)), key=lambda i: keys[i])     # sorted() is stable
    return [items[i] for i in order]


def _key_sort(key, what: str = "sort_by() keys") -> str:
    """What sort of key this is ("numbers", "strings", "lists of numbers"); else a RuleError."""
    if type(key) is int:
        return "numbers"
    if type(key) is str:
        return "strings"
    if type(key) is list and all(type(part) is int for part in key):
        return "lists of numbers"
    raise RuleError(f"{what} must be numbers, strings or lists of numbers, "
                    f"not {describe(key)}")


def sort(ctx, args):
    """sort(LIST): the items smallest first (numbers, strings, or lists of numbers compared
    element by element); equal items keep their order"""
    items = _list(args[0], "sort", ctx)
    sorts = {_key_sort(item, "sort() items") for item in items}
    if len(sorts) > 1:
        raise RuleError(f"sort() cannot compare {' with '.join(sorted(sorts))}")
    return sorted(items)


def join(ctx, args):
    """join(LIST, SEP): the items written out (as text() writes them), SEP between each"""
    items, sep = _list(args[0], "join", ctx), args[1]
    if type(sep) is not str:
        raise RuleError(f"join() needs a string to put between the items, got {describe(sep)}")
    return limits.sized(sep.join(ctx.game.describe(item) for item in items))
