"""Seats: who sits at the table, in what order, and what every text may ask of them.

Seats 0..n-1 are people, who are asked decisions; a ruleset may declare
scripted seats after them (an automaton, a dummy bidder): they hold
counters, zones and variables, act in ``as`` and ``for each``, score and
rank, but are never asked a decision. ``players`` lists the people,
``seats`` every seat. A seat's name is worked out in one place,
``Game.seat_name``.
"""
from __future__ import annotations

from ..model.values import PLAYERS, RuleError, describe, seat

# ---------------------------------------------------------------- built-in names

def _people(ctx) -> list:
    return _first_seats(ctx.game.people)


def _all_seats(ctx) -> list:
    return _first_seats(len(ctx.game.state["players"]))


def _first_seats(n: int) -> list:
    """A new list of ``Player(0)`` .. ``Player(n - 1)``: the values are shared (they never
    change), the list is new each time (a list of the language is never shared)."""
    return [*map(PLAYERS.__getitem__, range(n))]           # (at C speed; a missing seat is made)


BUILTINS = {
    "players": _people,                                       # the people, in seat order
    "seats": _all_seats,                                      # people, then scripted seats
    "player_count": lambda ctx: ctx.game.people,
    "options": lambda ctx: ctx.game.state["options"],
    "game_over": lambda ctx: ctx.game.state["result"] is not None,
    "winners": lambda ctx: [PLAYERS[i] for i in (ctx.game.state["result"] or {}).get("winners", [])],
}


# What each built-in name holds (options: from the manifest's options).
BUILTIN_KINDS = {"players": "list of player", "seats": "list of player", "player_count": "number",
                 "game_over": "bool", "winners": "list of player"}


# ---------------------------------------------------------------- player attributes

def _neighbour(i: int, step: int, ctx):
    """The next person clockwise (step 1) or anticlockwise; scripted seats have none."""
    n = ctx.game.people
    return PLAYERS[(i + step) % n] if i < n else None


def _neighbours(i: int, ctx) -> list:
    out = []
    for p in (_neighbour(i, 1, ctx), _neighbour(i, -1, ctx)):
        if p is not None and p.seat != i and p not in out:
            out.append(p)
    return out


def _place(i: int, ctx):
    result = ctx.game.state["result"]
    return None if result is None else result["ranks"][i]


PLAYER_ATTRIBUTES = {
    "seat": lambda i, ctx: i + 1,                             # 1-based, as rules count
    "name": lambda i, ctx: ctx.game.seat_name(i),
    "left": lambda i, ctx: _neighbour(i, 1, ctx),             # clockwise: the next seat
    "right": lambda i, ctx: _neighbour(i, -1, ctx),
    "neighbours": _neighbours,
    "place": _place,                                          # once the game is over
    "scripted": lambda i, ctx: i >= ctx.game.people,
}


PLAYER_ATTRIBUTE_KINDS = {"seat": "number", "name": "string", "left": "player or none",
                          "right": "player or none", "neighbours": "list of player",
                          "place": "number or none", "scripted": "bool"}


# ---------------------------------------------------------------- functions

def turn_order(ctx, args):
    """turn_order(PLAYER): every person, clockwise, starting with PLAYER"""
    start = seat(args[0])
    n = ctx.game.people
    if start >= n:
        raise RuleError(f"{describe(args[0])} is a scripted seat, not in the turn order")
    return [PLAYERS[(start + k) % n] for k in range(n)]


def next_player(ctx, args):
    """next_player(PLAYER): the person after PLAYER, clockwise"""
    start = seat(args[0])
    n = ctx.game.people
    if start >= n:
        raise RuleError(f"{describe(args[0])} is a scripted seat, not in the turn order")
    return PLAYERS[(start + 1) % n]


def players_after(ctx, args):
    """players_after(PLAYER): every other person clockwise from the one after PLAYER, then
    PLAYER last: ``first(q for q in players_after(p) if q.active)`` is the next one still in"""
    start = seat(args[0])
    n = ctx.game.people
    if start >= n:
        raise RuleError(f"{describe(args[0])} is a scripted seat, not in the turn order")
    return [PLAYERS[(start + k) % n] for k in range(1, n + 1)]
