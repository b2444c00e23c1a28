"""Run-time budgets: content can never hang or exhaust the machine.

Every limit on what effect text may do at run time is here, with the reason
for its number. The engine calls the helpers below from a few places (the
machine's ``push``, the operators that build values, ruleset function
calls); each raises the language's own ``RuleError``, placed at the
statement or expression that ran out, so the author reads
``flow.yaml:12:5: no decision after 1,000,000 steps: does a loop never end?``
instead of a hang, a ``MemoryError`` or a ``RecursionError``.

The limits are module constants read when they are used, so a test may
lower them (``monkeypatch.setattr(budget, "MAX_STEPS", 1000)``); only
``NODES_PER_STEP`` is written into generated code as its number (a ruleset's
code is generated once), so lowering it reaches the closures alone.
"""
from __future__ import annotations

from ..dsl import ast
from ..model.limits import number, sized, span, weighed  # noqa: F401  (the size limits, for the engine)
from ..model.values import RuleError

MAX_STEPS = 1_000_000
"""Steps a game may take between two decisions before it is stopped.

A step is a frame pushed (a block, loop body, branch or procedure run), a
ruleset function called from inside another (only those can multiply), an
item a generator walks through, ``NODES_PER_STEP`` items that one call or
operator walks (``walked``, ``operands``) or a kept value holds (``kept``), or
one item written out (``written``). The bundled game takes at most about
1,600 steps between two decisions, so a million is far beyond real content,
yet an endless loop stops within a few seconds.
"""

MAX_FRAMES = 1_000
"""How deep one thread's stack of frames may grow.

Each nested block, loop or ``do`` adds a frame; the bundled game nests at
most 10 deep. Only a procedure that calls itself without end grows the stack past
a thousand, and a saved game holds every frame.
"""

MAX_CALL_DEPTH = 100
"""How deeply ruleset functions may call one another.

A function call runs on Python's own stack (several Python frames per
call), whose limit of about a thousand frames is shared with the
interpreter itself; a hundred nested calls stay well inside it, and the
bundled game nests at most 5. Python running out of stack first (deep
expressions inside each call) is turned into the same error. A function the
generator proves pure, on no cycle of calls and at most 8 calls deep keeps no
depth (``codegen``'s *bounded* functions): below the deepest counted call at
most 8 more stand, each still charging its step.
"""



def reset(game) -> None:
    """A full budget, at the start of each run up to the next decision."""
    game.steps = MAX_STEPS
    game.depth = 0


def exceeded(game, th: dict, node) -> RuleError:
    """The error for a ``push`` over budget (too many steps, or a stack too deep), placed.

    A block is placed at the loop that runs it (``while``, ``for each``,
    ``as``) when that loop is the frame below, else at its first statement.
    """
    if game.steps < 0:
        exc = RuleError(f"no decision after {MAX_STEPS:,} steps: does a loop never end?")
    else:
        exc = RuleError(f"more than {MAX_FRAMES:,} blocks running inside one another: "
                        "does a procedure call itself forever?")
    if node.__class__ is ast.Block:
        below = game.rules.nodes[th["frames"][-1]["n"]] if th["frames"] else None
        node = below if below is not None and below.__class__ is not ast.Block else (node.body or [node])[0]
    return _placed(game, exc, node)


def charge(game, steps: int) -> None:
    """Count ``steps`` of work done inside one expression (a generator's items)."""
    game.steps -= steps
    if game.steps < 0:
        raise RuleError(f"no decision after {MAX_STEPS:,} steps: does a loop never end?")


NODES_PER_STEP = 1_000
"""Items walked at C speed for one step of the budget: a kept value weighed (``kept``), the
lists a registered function is given and gives (``walked``), both sides of ``+``, ``==`` or
``in`` (``operands``).

A loop that walks a large value at every turn pays for those walks, so it stops within the
budget like any other loop. Walking costs 2 to 20 ns an item (weighing the most), so a step
of a thousand items is 2 to 20 microseconds, a plain step about one: such a loop stops
within 20 s, not hours.
"""

_SIZED = (list, dict, str)


def walked(game, values, result=None) -> None:
    """Charge one call of a registered function that walks its values (``Function.walks``):
    the lists, records and strings it was given and the one it gives, ``NODES_PER_STEP`` items
    a step (a call with small values costs nothing)."""
    n = len(result) if type(result) in _SIZED else 0
    for value in values:
        if type(value) in _SIZED:
            n += len(value)
    if n >= NODES_PER_STEP:
        charge(game, n // NODES_PER_STEP)


def operands(game, a, b) -> None:
    """Charge ``a + b``, ``a == b`` or ``a in b`` for the lists, records and strings they walk."""
    n = (len(a) if type(a) in _SIZED else 0) + (len(b) if type(b) in _SIZED else 0)
    if n >= NODES_PER_STEP:
        charge(game, n // NODES_PER_STEP)


def written(game, values, result=None) -> None:
    """Charge a call that writes its values out for people (``text``, ``join``): one step
    per item of each list or record, its parts counted each time they appear (``weighed``);
    writing an item is a Python call or more (``describe``), a hundred times weighing's."""
    n = 0
    for value in values:
        if type(value) is list or type(value) is dict:
            n += weighed(value)
    if n:
        charge(game, n)


WALKS = {"lists": walked, "parts": written}
"""How a call of a registered function is charged, by its ``Function.walks``."""


def kept(game, value, copy: bool = True):
    """``value``, about to be kept in a local, a variable or a procedure's values, checked
    (``limits.weighed``) and its walk charged to the budget; with ``copy`` a list is copied
    (a stored value never aliases the state's own lists: replays must not depend on it)."""
    kind = type(value)
    if kind is list:
        if not value:                                 # the usual case: nothing to weigh
            return [] if copy else value
        if copy:
            value = list(value)
    elif kind is not dict:
        return value
    steps = weighed(value) // NODES_PER_STEP
    if steps:
        charge(game, steps)
    return value


def call_exceeded(game, node) -> RuleError:
    """The error for a ruleset function call over budget, placed at the function's body."""
    return _placed(game, call_error(game), node)


def call_error(game) -> RuleError:
    if game.steps < 0:
        return RuleError(f"no decision after {MAX_STEPS:,} steps: does a loop never end?")
    return RuleError(f"functions called inside one another more than {MAX_CALL_DEPTH} deep: "
                     "does a function call itself forever?")


def _placed(game, exc: RuleError, node) -> RuleError:
    from .machine import located          # machine imports this module
    return located(game, exc, node)
