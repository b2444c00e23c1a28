"""The mechanics tables: every component kind, verb and function the effect language knows.

Mechanics are generic (zones of cards, counters, grids with walls, tracks,
graphs); a ruleset composes them by name. These tables are the contents
page: ``COMPONENTS`` the sections of a components file (each one module,
see ``component.ComponentKind``), ``VERBS`` the statement verbs and
``FUNCTIONS`` the functions, each with its signature written once (see
``dsl/kinds.py`` for how): the checker reads arity and kinds from it, the
explainer and the docs read the same text.
"""
from __future__ import annotations

from ..dsl.kinds import PROGRAM, Signature, VerbSignature, parse_signature, parse_verb
from ..model.values import Grid, Room, Side, Track
from . import auction, core, counters, graphs, grids, programs, seats, tracks, variables, zones


class Verb:
    """A statement verb, ``run(ctx, arg, keywords)``, and its signature
    (``"move number or id from zone to zone [at string]"``: the value, then each keyword
    and the kind it takes; keywords in brackets may be left out).

    A verb that runs other programs asks ``ctx.game.call``/``schedule``; if it
    scheduled a frame of its own, ``resume(game, thread, frame, node)``
    carries that frame on, and if that frame can wait on a decision,
    ``labels(game, thread, frame, node, indices)`` names its options. A verb whose value is a ``program`` is given it
    as ``(root, locals)``: a procedure call or a record's effect.
    """

    __slots__ = ("run", "signature", "resume", "labels")

    def __init__(self, run, signature: str, resume=None, labels=None):
        self.run = run
        self.signature: VerbSignature = parse_verb(signature)
        self.resume = resume
        self.labels = labels

    @property
    def arg(self) -> bool:
        return self.signature.arg is not None

    @property
    def takes_program(self) -> bool:
        return self.signature.arg == PROGRAM

    @property
    def keywords(self) -> tuple:
        return tuple(word for word, _, _ in self.signature.keywords)

    @property
    def required(self) -> tuple:
        return tuple(word for word, _, needed in self.signature.keywords if needed)

    @property
    def summary(self) -> str:
        return self.signature.text


class Function:
    """A function, called as ``fn(ctx, args)``, and its signature (``"count(list) -> number"``)."""

    __slots__ = ("fn", "signature")

    def __init__(self, fn, signature: str):
        self.fn = fn
        self.signature: Signature = parse_signature(signature)

    def __call__(self, ctx, args):
        return self.fn(ctx, args)


# Each component kind: its section of components.yaml -> how the engine treats it.
COMPONENTS = {kind.section: kind for kind in (
    counters.KIND,
    variables.PLAYER_VARS,
    variables.TABLE_VARS,
    zones.KIND,
    grids.KIND,
    tracks.KIND,
    graphs.KIND,
    auction.KIND,
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
    "shuffle": Verb(zones.shuffle, "shuffle zone"),
    "move": Verb(zones.move, "move number or id from zone to zone [at string]"),
    "arrange": Verb(zones.arrange, "arrange zone to list"),
    "split": Verb(zones.split, "split zone into group"),
    "reveal": Verb(zones.reveal, "reveal id or list of id to player or list of player"),
    # grids
    "put": Verb(grids.put, "put any at room"),
    "wall": Verb(grids.wall, "wall side"),
    # tracks
    "advance": Verb(tracks.advance, "advance track by number"),
    # running other programs: a procedure call or a record's effect; hook points
    "do": Verb(programs.do, "do program [with record]"),
    "signal": Verb(programs.signal, "signal hook [with record]", resume=programs.resume_chain,
                   labels=programs.chain_labels),
    # auctions (a lot or a bid is a record from lots()/bids(); see mechanics/auction.py)
    "lay": Verb(auction.lay, "lay list of id on string", resume=auction.resume, labels=auction.labels),
    "bid": Verb(auction.bid, "bid id or none at record [with record]", resume=auction.resume,
                labels=auction.labels),
    "resolve": Verb(auction.resolve, "resolve record", resume=auction.resume, labels=auction.labels),
    "stack": Verb(auction.stack, "stack number on record"),
    "take": Verb(auction.take, "take number from record [to player]"),
    "revalue": Verb(auction.revalue, "revalue record to number"),
    "transfer": Verb(auction.transfer, "transfer record to player"),
    "shift": Verb(auction.shift, "shift record to record"),
    "uncover": Verb(auction.uncover, "uncover record"),
    "show": Verb(auction.show, "show record to player"),
    "token": Verb(auction.token, "token string on record [with record]"),
    "untoken": Verb(auction.untoken, "untoken string from record"),
    "award": Verb(auction.award, "award record to player"),
    "charge": Verb(auction.charge, "charge number on record [to player]"),
}

FUNCTIONS = {
    # general
    "count": Function(core.count, "count(list) -> number"),
    "sum": Function(core.total, "sum(list of number) -> number"),
    "max": Function(core.largest, "max(list of number or number, number...) -> number or none"),
    "min": Function(core.smallest, "min(list of number or number, number...) -> number or none"),
    "range": Function(core.inclusive_range, "range(number, number) -> list of number"),
    "abs": Function(core.absolute, "abs(number) -> number"),
    "first": Function(core.first, "first(list of K) -> K or none"),
    "any": Function(core.any_of, "any(list) -> bool"),
    "all": Function(core.all_of, "all(list) -> bool"),
    "unique": Function(core.unique, "unique(list of K) -> list of K"),
    "keys": Function(core.keys, "keys(record) -> list of string"),
    "with_most": Function(core.with_most, "with_most(list of K, list of number) -> list of K"),
    "with_least": Function(core.with_least, "with_least(list of K, list of number) -> list of K"),
    "sort_by": Function(core.sort_by, "sort_by(list of K, list) -> list of K"),
    "headroom": Function(core.headroom, "headroom(player, string) -> number"),
    "effect": Function(core.effect, "effect(id, string) -> effect"),
    "list": Function(core.as_list, "list(list of K) -> list of K"),
    "flatten": Function(core.flatten, "flatten(list of list of K) -> list of K"),
    "text": Function(core.text, "text(any...) -> string"),
    "get": Function(core.get, "get(any, string, any) -> any"),
    # seats and programs
    "turn_order": Function(seats.turn_order, "turn_order(player) -> list of player"),
    "next_player": Function(seats.next_player, "next_player(player) -> player"),
    "modifier": Function(programs.modifier, "modifier(player, string) -> number"),
    # zones
    "top": Function(zones.top, "top(zone of K) -> K or none"),
    # grids (a room stands for its grid where a grid is asked for)
    "rooms": Function(grids.rooms, "rooms(grid or room) -> list of room"),
    "row": Function(grids.row, "row(grid or room, number) -> list of room"),
    "column": Function(grids.column, "column(grid or room, number) -> list of room"),
    "room": Function(grids.room, "room(grid or room, number, number) -> room"),
    "tagged": Function(grids.tagged, "tagged(grid or room, string) -> list of room"),
    "sides": Function(grids.sides, "sides(room) -> list of side"),
    "adjacent": Function(grids.adjacent, "adjacent(room) -> list of room"),
    "side": Function(grids.side, "side(room, string) -> side"),
    "neighbours": Function(grids.neighbours, "neighbours(room) -> list of room"),
    "reachable": Function(grids.reachable, "reachable(room) -> list of room"),
    "walls": Function(grids.walls, "walls(grid or room) -> list of side"),
    # tracks and graphs
    "reading": Function(tracks.reading, "reading(track, string) -> any"),
    "linked": Function(graphs.linked, "linked(graph, id) -> list of id"),
    "degree": Function(graphs.degree, "degree(graph, id) -> number"),
    "components": Function(graphs.components, "components(graph, list of id) -> list of list of id"),
    "reach": Function(graphs.reach, "reach(graph, id, list of id) -> list of id"),
    # auctions
    "lots": Function(auction.lots, "lots(string) -> list of record"),
    "bids": Function(auction.bids, "bids(record) -> list of record"),
    "bid_total": Function(auction.bid_total, "bid_total(record, player) -> number"),
    "ranking": Function(auction.ranking, "ranking(record) -> list of player"),
    "resolving": Function(auction.resolving, "resolving(string) -> record or none"),
    "stack_limit": Function(auction.stack_limit, "stack_limit(string, player, id, bool) -> number or none"),
}
