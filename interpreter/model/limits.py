"""Size limits of values: content can never build a value that exhausts the machine.

Below every other layer, so mechanics functions and the expression compiler
check what they build in one place. The step, frame and call budgets of a
running game are in ``engine/budget.py``.
"""
from __future__ import annotations

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
        if len(value) > MAX_ITEMS:
            raise RuleError(f"a list of more than {MAX_ITEMS:,} items: does a loop keep growing it?")
    elif kind is str:
        if len(value) > MAX_CHARS:
            raise RuleError(f"a string of more than {MAX_CHARS:,} characters: "
                            "does a loop keep growing it?")
    return value


def span(first: int, last: int) -> None:
    """Refuse ``range(first, last)`` before building it when it would be too long."""
    if last - first + 1 > MAX_ITEMS:
        raise RuleError(f"range({first}, {last}) would have more than {MAX_ITEMS:,} items")
