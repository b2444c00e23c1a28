"""The mechanics tables: every component kind, verb and function the effect language knows.

Mechanics are generic (zones of cards, counters, grids with walls, tracks,
graphs); a ruleset composes them by name. These tables are the contents
page: ``COMPONENTS`` the sections of a components file (each one module,
see ``component.ComponentKind``), ``VERBS`` the statement verbs with the
words they take, ``FUNCTIONS`` the functions, so the checker can reject a
misspelled verb or keyword at load time.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import core, counters, graphs, grids, programs, seats, tracks, variables, zones
from ..model.values import Grid, GraphRef, Room, Side, Track


@dataclass(frozen=True)
class Verb:
    """A statement verb: ``NAME [arg] [keyword expr]...``.

    ``run(ctx, arg, keywords)`` runs inline; a verb that runs other programs
    asks ``ctx.game.call``/``schedule`` and, if it scheduled a frame of its
    own, ``resume(game, thread, frame, node)`` carries that frame on.
    """
    run: object
    arg: bool | str = True         # a first value; "program": a procedure call or an effect;
                                   # "hook": a declared hook point's name, as a string
    keywords: tuple = ()           # allowed keywords ("to", "from", ...)
    required: tuple = ()           # keywords that must be given
    summary: str = ""
    resume: object = None


# Each component kind: its section of components.yaml -> how the engine treats it.
COMPONENTS = {kind.section: kind for kind in (
    counters.KIND,
    variables.PLAYER_VARS,
    variables.TABLE_VARS,
    zones.KIND,
    grids.KIND,
    tracks.KIND,
    graphs.KIND,
)}

# What ``value.name`` reads, for each engine value that has attributes.
ATTRIBUTES = {
    Grid: grids.attribute,
    Room: grids.attribute,
    Side: grids.attribute,
    Track: tracks.attribute,
}

VERBS = {
    # zones of cards
    "shuffle": Verb(zones.shuffle, summary="shuffle ZONE"),
    "move": Verb(zones.move, keywords=("from", "to"), required=("from", "to"),
                 summary="move N|ID from ZONE to ZONE"),
    "arrange": Verb(zones.arrange, keywords=("to",), required=("to",),
                    summary="arrange ZONE to [IDS]"),
    "split": Verb(zones.split, keywords=("into",), required=("into",),
                  summary="split ZONE into GROUP"),
    # tracks
    "advance": Verb(tracks.advance, keywords=("by",), required=("by",),
                    summary="advance TRACK by N"),
    # grids
    "put": Verb(grids.put, keywords=("at",), required=("at",), summary="put ITEM at ROOM"),
    "wall": Verb(grids.wall, summary="wall SIDE"),
    # running other programs
    "do": Verb(programs.do, arg="program", keywords=("with",),
               summary="do PROCEDURE(ARGS) | do EFFECT [with RECORD]"),
    "signal": Verb(programs.signal, arg="hook", keywords=("with",), resume=programs.resume_chain,
                   summary='signal "HOOK POINT" [with RECORD]'),
}

FUNCTIONS = {
    # general
    "count": core.count,
    "sum": core.total,
    "max": core.largest,
    "min": core.smallest,
    "range": core.inclusive_range,
    "abs": core.absolute,
    "first": core.first,
    "any": core.any_of,
    "all": core.all_of,
    "unique": core.unique,
    "keys": core.keys,
    "with_most": core.with_most,
    "with_least": core.with_least,
    "headroom": core.headroom,
    "effect": core.effect,
    "list": core.as_list,
    "flatten": core.flatten,
    "text": core.text,
    "get": core.get,
    # seats and programs
    "turn_order": seats.turn_order,
    "next_player": seats.next_player,
    "modifier": programs.modifier,
    # zones
    "top": zones.top,
    # tracks and graphs
    "reading": tracks.reading,
    "linked": graphs.linked,
    "degree": graphs.degree,
    "components": graphs.components,
    "reach": graphs.reach,
    # grids
    "rooms": grids.rooms,
    "row": grids.row,
    "column": grids.column,
    "room": grids.room,
    "tagged": grids.tagged,
    "sides": grids.sides,
    "adjacent": grids.adjacent,
    "side": grids.side,
    "neighbours": grids.neighbours,
    "reachable": grids.reachable,
    "walls": grids.walls,
}


# How many values each function takes (absent: any number), checked at load.
ARITY = {
    "count": 1, "sum": 1, "range": 2, "abs": 1, "first": 1, "any": 1, "all": 1, "unique": 1,
    "keys": 1, "with_most": 2, "with_least": 2, "headroom": 2, "effect": 2, "list": 1,
    "flatten": 1, "get": 3, "top": 1, "rooms": 1, "row": 2, "column": 2, "room": 3,
    "tagged": 2, "sides": 1, "adjacent": 1, "side": 2, "neighbours": 1, "reachable": 1,
    "walls": 1, "turn_order": 1, "next_player": 1, "modifier": 2, "reading": 2, "linked": 2,
    "degree": 2, "components": 2, "reach": 3,
}
