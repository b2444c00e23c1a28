"""The effect language's syntax tree: one frozen dataclass per grammar alias.

Every node carries its source span (1-based ``line``/``col``, ``end_col``
exclusive) relative to the effect text, so later stages can point at it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Node:
    line: int = field(default=0, kw_only=True, compare=False, repr=False)
    col: int = field(default=0, kw_only=True, compare=False, repr=False)
    end_line: int = field(default=0, kw_only=True, compare=False, repr=False)
    end_col: int = field(default=0, kw_only=True, compare=False, repr=False)

    def children(self) -> list:
        """The child nodes, in source order (for walkers; a list: loading walks every tree
        several times, and a generator per node was a fifth of a load)."""
        found: list = []
        for value in self.__dict__.values():
            if isinstance(value, Node):
                found.append(value)
            elif isinstance(value, tuple):
                _nodes_in(value, found)
        return found


def _nodes_in(values: tuple, found: list) -> None:
    for value in values:
        if isinstance(value, Node):
            found.append(value)
        elif isinstance(value, tuple):
            _nodes_in(value, found)


# ---------------------------------------------------------------- statements

@dataclass(frozen=True)
class Block(Node):
    body: tuple


@dataclass(frozen=True)
class Amount(Node):          # 2 coin / c.amount of c.resource
    count: Node
    name: str | None        # the counter's name as written, or
    counter: Node | None = None   # an expression giving it (a string), found at run time


@dataclass(frozen=True)
class Gain(Node):           # gain 2 coin, 1 land [for p]
    amounts: tuple
    who: Node | None


@dataclass(frozen=True)
class Spend(Node):          # spend 3 coin [for p]   (refused if not affordable)
    amounts: tuple
    who: Node | None


@dataclass(frozen=True)
class Lose(Node):           # lose 3 coin [for p]    (stops at the minimum)
    amounts: tuple
    who: Node | None


@dataclass(frozen=True)
class Assign(Node):         # x = 3 / self.agent = a
    target: tuple
    value: Node


@dataclass(frozen=True)
class AugAssign(Node):      # round += 1
    target: tuple
    op: str
    value: Node


@dataclass(frozen=True)
class SetTo(Node):          # set players[2].coin to 5 (any player's field, or a game variable)
    target: Node            # an Attribute (or a Name of a game variable)
    value: Node


@dataclass(frozen=True)
class Call(Node):           # shuffle plan / move top(pile) to display
    verb: str
    arg: Node | None
    keywords: tuple         # ((keyword, expr), ...)


@dataclass(frozen=True)
class Break(Node):
    pass


@dataclass(frozen=True)
class Pass(Node):
    pass


@dataclass(frozen=True)
class If(Node):             # if c: ... elif c: ... else: ...
    branches: tuple         # ((cond, Block), ...)
    orelse: Block | None


@dataclass(frozen=True)
class ForEach(Node):        # for each x in xs: ...
    var: str
    iterable: Node
    body: Block


@dataclass(frozen=True)
class While(Node):          # while c: ...
    cond: Node
    body: Block


@dataclass(frozen=True)
class Simultaneously(Node):  # simultaneously for each p in players: ...
    var: str
    iterable: Node
    body: Block


@dataclass(frozen=True)
class As(Node):             # as p: ...   (the block acts for player p)
    who: Node
    body: Block


@dataclass(frozen=True)
class ChooseOne(Node):      # choose [openly|secretly|sealed] ["prompt"] one: gain 2 a | gain 2 b
    alternatives: tuple     # (Block, ...)
    prompt: str | None = None
    told: str | None = None  # who learns the answer; None: the default for where it is asked


@dataclass(frozen=True)
class ChooseIn(Node):       # choose ["prompt"] x in xs if c label l: ... otherwise "pass": ...
    var: str
    iterable: Node
    cond: Node | None
    label: Node | None
    body: Block
    otherwise_label: str | None
    otherwise: Block | None
    prompt: str | None = None
    told: str | None = None  # openly / secretly / sealed; None: the default (Game.log_choice)


# ---------------------------------------------------------------- expressions

@dataclass(frozen=True)
class Literal(Node):
    value: Any


@dataclass(frozen=True)
class Name(Node):
    id: str


@dataclass(frozen=True)
class ListExpr(Node):
    items: tuple


@dataclass(frozen=True)
class DictExpr(Node):
    pairs: tuple            # ((key, expr), ...)


@dataclass(frozen=True)
class Attribute(Node):
    obj: Node
    name: str


@dataclass(frozen=True)
class Index(Node):
    obj: Node
    key: Node


@dataclass(frozen=True)
class Function(Node):
    name: str
    args: tuple


@dataclass(frozen=True)
class Generator(Node):      # count(r for r in rooms(x) if r.empty)
    name: str
    element: Node
    var: str
    iterable: Node
    cond: Node | None


@dataclass(frozen=True)
class BinOp(Node):          # + - * / %  == != < <= > >=  in, not in
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class BoolOp(Node):         # and / or (short-circuit)
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class Conditional(Node):    # if c then a else b
    cond: Node
    then: Node
    orelse: Node


@dataclass(frozen=True)
class Not(Node):
    operand: Node


@dataclass(frozen=True)
class Negate(Node):
    operand: Node


STATEMENTS = (Gain, Spend, Lose, Assign, AugAssign, SetTo, Call, Break, Pass, If,
              ForEach, While, Simultaneously, As, ChooseOne, ChooseIn)
EXPRESSIONS = (Literal, Name, ListExpr, DictExpr, Attribute, Index, Function, Generator, BinOp,
               BoolOp, Conditional, Not, Negate)
