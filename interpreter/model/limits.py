"""Size limits of values: content can never build a value that exhausts the machine.

Below every other layer, so mechanics functions and the expression compiler
check what they build in one place. The step, frame and call budgets of a
running game are in ``engine/budget.py``.
"""
from __future__ import annotations

from itertools import chain, compress, repeat

from .values import RuleError

MAX_ITEMS = 100_000
"""The longest list a value may be (``+``, ``+=``, ``range``, ``flatten``).

A game's whole content is a few hundred records; a list a thousand times
longer is a list that a loop keeps doubling, and is stopped before it
fills memory.
"""

MAX_CHARS = 1_000_000
"""The longest string a value may be (``+``, ``+=``, ``text``).

Labels and log lines are a line long; a million characters is a string
doubled in a loop.
"""

MAX_DIGITS = 100
"""The most decimal digits a whole number may have (``+``, ``-``, ``*``, ``+=``).

No game counts near a googol; repeated ``*`` reaches it in a few steps,
and Python refuses to print whole numbers above 4,300 digits. At least 19,
so that ordinary 64-bit numbers are accepted by one comparison.
"""

MAX_NODES = 1_000_000
"""The most items a kept value's lists and records may hold in all (locals, variables,
a procedure's values), a part counted each time it appears.

``xs = [xs, xs]`` doubles a value in one step while its memory stays small (both halves
are one list), so copying, saving or showing it after 40 steps would take 2**40. Ten
times the longest list: a list of lists that long is built by a loop, not written.
"""

MAX_CHARS_HELD = 10 * MAX_CHARS
"""The most characters a kept value's strings may have in all, a string counted each time
it appears (a list of 100,000 copies of one long string is small in memory, not saved)."""

MAX_NESTING = 100
"""How deeply a kept value's lists and records may nest: ``xs = [xs]`` in a loop nests a
level a step, and copying, saving and showing a value recurse (Python's own stack is about a
thousand frames). As deep as the parser lets a text nest."""

_SMALL = 2 ** 63       # every number below this has at most 19 digits


def number(value: int) -> int:
    """A whole number just computed, refused if it has more than MAX_DIGITS digits."""
    if -_SMALL < value < _SMALL or abs(value) < 10 ** MAX_DIGITS:
        return value
    raise RuleError(f"a number of more than {MAX_DIGITS} digits: does a loop keep multiplying it?")


def sized(value):
    """A list, string or number just built, refused if it is beyond its limit."""
    kind = type(value)
    if kind is int:
        return value if -_SMALL < value < _SMALL else number(value)
    if kind is list:
        length(len(value))
    elif kind is str:
        if len(value) > MAX_CHARS:
            raise RuleError(f"a string of more than {MAX_CHARS:,} characters: "
                            "does a loop keep growing it?")
    return value


def length(items: int) -> None:
    """Refuse a list of ``items`` items (built or about to be)."""
    if items > MAX_ITEMS:
        raise RuleError(f"a list of more than {MAX_ITEMS:,} items: does a loop keep growing it?")


def span(first: int, last: int) -> None:
    """Refuse ``range(first, last)`` before building it when it would be too long."""
    if last - first + 1 > MAX_ITEMS:
        raise RuleError(f"range({first}, {last}) would have more than {MAX_ITEMS:,} items")


def weighed(value) -> int:
    """How many items a list or record holds, those of the lists and records inside it with
    them, and a string's characters (0 for any other value); refused when that is over
    MAX_NODES, its characters over MAX_CHARS_HELD or its nesting over MAX_NESTING, found
    without walking further."""
    kind = type(value)
    if kind is list:
        if len(value) == 1 and MAX_NODES >= 1 and MAX_NESTING >= 1:     # one id or number (the
            item = value[0]                                      # most kept after an empty list:
            kind = type(item)                                    # no C pass for it)
            if kind is str:
                if len(item) > MAX_CHARS_HELD:
                    _too_big()
                return 1
            if kind is not list and kind is not dict:
                return 1
            kind = list
        elif not value:                                          # (most values kept are empty)
            return 0
    elif kind is not dict or not value:
        return 0
    items = value if kind is list else value.values()
    if MAX_NESTING >= 2:     # the usual rest: ids, rooms or numbers, or a record of them
        kinds = {*map(type, items)}           # (with empty lists and records: they hold nothing)
        if list not in kinds and dict not in kinds or not any(
                compress(items, map(isinstance, items, repeat(_NESTED)))):
            if len(items) > MAX_NODES or str in kinds and _chars(items, kinds) > MAX_CHARS_HELD:
                _too_big()
            return len(items)
        if kinds == _RECORDS and kind is list:   # a list of records of ids and numbers
            inner = [*chain.from_iterable(map(dict.values, items))]
            kinds = {*map(type, inner)}
            if list not in kinds and dict not in kinds:
                n = len(items) + len(inner)
                if n > MAX_NODES or str in kinds and _chars(inner, kinds) > MAX_CHARS_HELD:
                    _too_big()
                return n
    left, chars = MAX_NODES, MAX_CHARS_HELD
    stack = [(value, 1)]
    while stack:
        items, depth = stack.pop()
        if depth > MAX_NESTING:
            raise RuleError(f"a value of lists or records nested more than {MAX_NESTING} deep: "
                            "does a loop keep nesting it in itself?")
        if type(items) is dict:
            items = items.values()
        left -= len(items)
        kinds = {*map(type, items)}               # C speed: most lists hold no list
        if str in kinds:
            chars -= _chars(items, kinds)
        if left < 0 or chars < 0:
            _too_big()
        if list in kinds or dict in kinds:     # (an empty one within the nesting adds nothing)
            nested = compress(items, map(isinstance, items, repeat(_NESTED)))
            stack.extend(zip(filter(None, nested) if depth < MAX_NESTING else nested, repeat(depth + 1)))
    return MAX_NODES - left


_NESTED = (list, dict)
_RECORDS = {dict}


def _chars(items, kinds: set) -> int:
    """The characters of the strings among ``items`` (``kinds`` their types), at C speed."""
    if len(kinds) == 1:                           # all strings (ids)
        return sum(map(len, items))
    return sum(map(len, compress(items, map(isinstance, items, repeat(str)))))  # no str subclass


def _too_big():
    raise RuleError(f"a value holding more than {MAX_NODES:,} items or {MAX_CHARS_HELD:,} "
                    "characters in all: does a loop keep putting it inside itself?")
