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
    it (a numbered group still gives its zones). Its callers take a list as it is, inline."""
    if type(value) is Zone:
        of, state = value.of, ctx.game.state      # (zone_list, without its call)
        live = (state["zones"] if of is None else state["players"][of]["zones"])[value.name]
        if value.n is not None:
            return live[value.n - 1]
        if not live or type(live[0]) is not list:
            return live
    return _list(value, fn, ctx)


def count(ctx, args):
    """count(LIST) / count(x for x in LIST if COND): how many"""
    value = args[0]
    return len(value if type(value) is list else _read(value, "count", ctx))


def total(ctx, args):
    """sum(LIST): the total of numbers (0 for an empty list)"""
    value = args[0]
    return sum(value if type(value) is list else _read(value, "sum", ctx))


def largest(ctx, args):
    """max(LIST) or max(A, B, ...): the largest (none for an empty list)"""
    values = _values(ctx, args, "max")
    return max(values) if values else None


def smallest(ctx, args):
    """min(LIST) or min(A, B, ...): the smallest (none for an empty list)"""
    values = _values(ctx, args, "min")
    return min(values) if values else None


def _values(ctx, args, fn: str):
    """The values ``max`` and ``min`` compare: one list's items (read, not copied), or the arguments."""
    if len(args) != 1:
        return args
    values = args[0]
    return values if type(values) is list else _read(values, fn, ctx)


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
    items = args[0]
    if type(items) is not list:
        items = _read(items, "first", ctx)
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
    value = args[0]
    return any(value if type(value) is list else _read(value, "any", ctx))


def all_of(ctx, args):
    """all(LIST): true if every item is true"""
    value = args[0]
    return all(value if type(value) is list else _read(value, "all", ctx))


def unique(ctx, args):
    """unique(LIST): the items without repeats, in first-seen order"""
    items = args[0]
    if type(items) is not list:
        items = _list(items, "unique", ctx)
    try:                                      # hashable items (the usual case): a dict's keys keep
        return [*dict.fromkeys(items)]        # the first of equal ones, as the loop does
    except TypeError:                         # a list or record among them
        return _unique_compared(items)


def _unique_compared(items: list) -> list:
    """``unique`` of any items: lists and records compared with one another, the rest hashed."""
    out, seen, unhashed = [], set(), []       # a set: 100,000 items compared pairwise took hours
    for item in items:
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
    parts = args[0]
    if type(parts) is not list:
        parts = _list(parts, "flatten", ctx)
    if len(parts) <= _FEW:                    # a few lists (the usual case): added up at C speed
        try:                                  # (``[] + x`` takes only a list; a few, each within
            out = sum(parts, [])              # its limit, so no exhaustion)
        except TypeError:                     # a zone or another value among them
            pass
        else:
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
    last = args[-1] if args else ""
    if type(last) is str:                      # (a number usually comes last, when there is one)
        try:
            said = " ".join(args)              # strings only (the most written): at C speed
        except TypeError:                      # another value among them
            said = _words(ctx, args)
        else:
            if "" in args:
                said = " ".join(filter(None, args))
    elif len(args) == 1 and type(last) is int:     # a number as a string
        return str(last)
    else:
        said = _words(ctx, args)
    return said if len(said) <= limits.MAX_CHARS else limits.sized(said)


def _words(ctx, args) -> str:
    """``text`` of values not all strings, empty words left out."""
    for value in args:
        kind = type(value)
        if kind is not str and kind is not int:     # as ``Game.describe`` writes them, a layer less
            names = ctx.game.seat_names
            return " ".join(filter(None, [value if type(value) is str else describe(value, names)
                                          for value in args]))
    return " ".join(filter(None, map(str, args)))   # strings and numbers (str() writes them as
                                                    # describe() does): at C speed


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
