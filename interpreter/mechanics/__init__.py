"""The mechanics tables: every component kind, verb and function the effect language knows.

Mechanics are generic (zones of cards, counters, grids with walls, tracks,
graphs); a ruleset composes them by name. These tables are the contents
page: ``COMPONENTS`` the sections of a components file (each one module,
see ``component.ComponentKind``), ``VERBS`` the statement verbs and
``FUNCTIONS`` the functions, each with its signature written once (see
``dsl/kinds.py`` for how): the checker reads arity and kinds from it, the
explainer and the docs read the same text. Each entry also says in one
line what it means (``doc``) and shows one use (``example``): the vocabulary
reference (``rulebook vocab``, ``docs/reference.md``) is made from them.
"""
from __future__ import annotations

from ..dsl.kinds import PROGRAM, Signature, VerbSignature, parse_signature, parse_verb
from ..model.values import Grid, Room, Side, Track
from . import auction, core, counters, graphs, grids, programs, seats, telling, tracks, variables, zones


class Verb:
    """A statement verb, ``run(ctx, arg, keywords)``, and its signature
    (``"move number or id from zone to zone [at string]"``: the value, then each keyword
    and the kind it takes; keywords in brackets may be left out), with its meaning
    (``doc``) and one use (``example``) for the reference.

    A verb that runs other programs asks ``ctx.game.call``/``schedule``; if it
    scheduled a frame of its own, ``resume(game, thread, frame, node)``
    carries that frame on, and if that frame can wait on a decision,
    ``labels(game, thread, frame, node, indices)`` names its options. A verb whose value is a ``program`` is given it
    as ``(root, locals)``: a procedure call or a record's effect.

    ``writes``: the component sections (``COMPONENTS``) whose table part the verb may
    write, ``()`` for none (players' sheets aside); None (the default) when it may write
    anything or run other programs. ``simultaneously`` copies only the parts its threads
    may write (``engine/machine.py`` ``table_writes``).
    """

    __slots__ = ("run", "signature", "resume", "labels", "doc", "example", "writes")

    def __init__(self, run, signature: str, doc: str = "", example: str = "", resume=None,
                 labels=None, writes: tuple | None = None):
        self.run = run
        self.signature: VerbSignature = parse_verb(signature)
        self.resume = resume
        self.labels = labels
        self.writes = writes
        self.doc, self.example = doc, example

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
        """The signature as written in a text: ``saying KIND`` is the text after the value."""
        return self.signature.text.replace(" saying any", ' "TEXT"')


_BY_PURITY = object()     # Function's ``reads`` left out: () when pure, None when not


class Function:
    """A function, called as ``fn(ctx, args)``, its signature (``"count(list) -> number"``),
    meaning (``doc``) and one use (``example``).

    ``pure``: it changes nothing, draws nothing and runs no ruleset program, so the code
    generator may inline a ruleset function that calls it or work it out once in a loop.
    ``walks``: what one call walks, charged to the step budget where calls are made
    (``engine/budget.py`` ``WALKS``): ``"lists"`` the lists it is given and gives,
    ``"parts"`` every part of the values it writes out; none for a call whose work does
    not grow with its values (``count`` and ``first`` read a length or one item).
    ``writes_table``: an impure function may write the table or run programs (the
    default); False for one that writes no table part (a roll only draws), so
    ``simultaneously`` need not copy the table for it (``machine.table_writes``).
    ``reads``: the component sections (``COMPONENTS``) whose table part a call reads beyond
    the values it is given (a zone, grid or track given is read through its name), ``()``
    for none, the default for a pure function; None for one that may read anything (runs a
    ruleset program or a condition field: the default for an impure one). What a ruleset
    function reads is worked out from them (``programs`` keeps the seats' sources by it).
    """

    __slots__ = ("fn", "signature", "doc", "example", "pure", "walks", "writes_table", "reads")

    def __init__(self, fn, signature: str, doc: str = "", example: str = "", pure: bool = True,
                 walks: str | None = None, writes_table: bool = True, reads=_BY_PURITY):
        self.fn = fn
        self.signature: Signature = parse_signature(signature)
        self.doc, self.example, self.pure, self.walks = doc, example, pure, walks
        self.writes_table = not pure and writes_table
        self.reads = (() if pure else None) if reads is _BY_PURITY else reads

    def __call__(self, ctx, args):
        return self.fn(ctx, args)


class Name:
    """A built-in name or a player attribute, for the reference: its meaning and one use
    (its kind is in ``seats.BUILTIN_KINDS`` / ``seats.PLAYER_ATTRIBUTE_KINDS``)."""

    __slots__ = ("doc", "example")

    def __init__(self, doc: str, example: str):
        self.doc, self.example = doc, example


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
    "shuffle": Verb(zones.shuffle, "shuffle zone", doc="put a zone's cards in random order", example="shuffle deck", writes=("zones",)),
    "move": Verb(zones.move, "move number or id from zone to zone [at string]", doc="move N cards from the top, or one named card, onto another zone (at \"top\" or \"bottom\")", example="move 2 from deck to self.hand", writes=("zones",)),
    "arrange": Verb(zones.arrange, "arrange zone to list", doc="put these cards on top of a zone, in this order, taken from where they lie", example="arrange deck to [c1, c2]", writes=("zones",)),
    "fill": Verb(zones.fill, "fill zone with list", doc="make a zone hold exactly these cards, top first; cards it held that are not named leave play", example="fill deck with [c1, c2]", writes=("zones",)),
    "split": Verb(zones.split, "split zone into group", doc="deal a zone's cards out over a numbered group of zones, in turn", example="split plan into pile", writes=("zones",)),
    "reveal": Verb(zones.reveal, "reveal id or list of id to player or list of player", doc="let players see these cards where they lie", example="reveal top(deck) to self", writes=()),
    # grids
    "put": Verb(grids.put, "put any at room", doc="put something in an empty room of a grid", example="put token at room(self.board, 2, 3)", writes=("grids",)),
    "wall": Verb(grids.wall, "wall side", doc="draw a wall on one side of a room", example='wall side(room(self.board, 2, 3), "e")', writes=("grids",)),
    # tracks
    "advance": Verb(tracks.advance, "advance track by number", doc="move a track's marker on, running each space entered or passed", example="advance self.fame by 2"),
    # running other programs: a procedure call or a record's effect; hook points
    "do": Verb(programs.do, "do program [with record]", doc="run a procedure, or the effect written on a record", example="do take(1)"),
    "signal": Verb(programs.signal, "signal hook [with record]", doc="raise a declared hook point: every record in play with a handler for it runs it", example='signal "scored" with {who: self, amount: 2}', resume=programs.resume_chain, labels=programs.chain_labels),
    # telling players (engine/telling.py: who reads what, and when)
    "log": Verb(telling.log, "log any", doc="write a line every player reads (as text() writes it)", example='log text(self.name, "played", c)', writes=()),
    "tell": Verb(telling.tell, "tell player or list of player saying any", doc="write a line only these players read", example='tell self text("you saw", top(deck))', writes=()),
    "announce": Verb(telling.announce, "announce", doc="every sealed choice made so far is told to everyone", example="announce", writes=()),
    # auctions (a lot or a bid is a record from lots()/bids(); see mechanics/auction.py)
    "lay": Verb(auction.lay, "lay list of id on string", doc='a new row of lots for an auction, the last ones face down as declared', example='lay [a, b, c] on "sale"', resume=auction.resume, labels=auction.labels),
    "bid": Verb(auction.bid, "bid id or none at record [with record]", doc='place a bid card on a lot, from its zone (with {down, coins, owner, value})', example='bid c at l with {down: true, coins: 1}', resume=auction.resume,
                labels=auction.labels),
    "resolve": Verb(auction.resolve, "resolve record", doc='run a lot through its hook points, offer it down the ranking and settle it', example='resolve first(lots("sale"))', resume=auction.resume, labels=auction.labels),
    "stack": Verb(auction.stack, "stack number on record", doc='the acting player adds coins to a bid, within its stack limit', example='stack 1 on b'),
    "take": Verb(auction.take, "take number from record [to player]", doc='coins stacked on a bid go to a player (the acting one by default)', example='take 1 from b to self'),
    "revalue": Verb(auction.revalue, "revalue record to number", doc="a bid's value from now on", example='revalue b to 5'),
    "transfer": Verb(auction.transfer, "transfer record to player", doc="a bid counts as another bidder's from now on", example='transfer b to self'),
    "shift": Verb(auction.shift, "shift record to record", doc='move a bid, with its coins and tokens, to another open lot', example='shift b to l'),
    "uncover": Verb(auction.uncover, "uncover record", doc='turn a face-down bid face up now', example='uncover b'),
    "show": Verb(auction.show, "show record to player", doc='let a seat see a face-down bid or lot', example='show l to self'),
    "token": Verb(auction.token, "token string on record [with record]", doc='put a token on a lot or a bid (with {owner, side})', example='token "support" on l'),
    "untoken": Verb(auction.untoken, "untoken string from record", doc='take the first token of a kind off a lot or a bid', example='untoken "support" from l'),
    "award": Verb(auction.award, "award record to player", doc='an unsold lot goes to a seat without a purchase', example='award l to self'),
    "charge": Verb(auction.charge, "charge number on record [to player]", doc='a fee the bidder now offered pays first, only if they buy', example='charge 1 on l to self'),
}

FUNCTIONS = {
    # general
    "count": Function(core.count, "count(list) -> number", doc="how many items", example="count(c for c in self.hand if c.value > 2)"),
    "sum": Function(core.total, "sum(list of number) -> number", doc="the total of numbers (0 for none)", example="sum(list(c.value for c in self.hand))", walks="lists"),
    "max": Function(core.largest, "max(list of number or number, number...) -> number or none", doc="the largest of a list or of the values given (none for an empty list)", example="max(list(p.coin for p in players))", walks="lists"),
    "min": Function(core.smallest, "min(list of number or number, number...) -> number or none", doc="the smallest of a list or of the values given (none for an empty list)", example="min(self.coin, 3)", walks="lists"),
    "range": Function(core.inclusive_range, "range(number, number) -> list of number", doc="the whole numbers from A to B, both included", example="range(1, 3)"),
    "abs": Function(core.absolute, "abs(number) -> number", doc="a number without its sign", example="abs(self.coin - 5)"),
    "first": Function(core.first, "first(list of K) -> K or none", doc="the first item, or none", example="first(q for q in players_after(self) if q.coin > 0)"),
    "any": Function(core.any_of, "any(list) -> bool", doc="true if some item is true", example="any(list(p.coin > 9 for p in players))", walks="lists"),
    "all": Function(core.all_of, "all(list) -> bool", doc="true if every item is true", example="all(list(count(z) == 1 for z in pile))", walks="lists"),
    "unique": Function(core.unique, "unique(list of K) -> list of K", doc="the items without repeats, in first-seen order", example="unique(closed + self.closing)", walks="lists"),
    "roll": Function(core.roll, "roll(number) -> number", doc="a seeded die roll from 1 to N (it draws from the game's random stream, so roll in a statement)", example="roll(6)", pure=False, writes_table=False, reads=()),
    "keys": Function(core.keys, "keys(record) -> list of string", doc="a record's field names", example='keys({"a": 1, "b": 2})', walks="lists"),
    "with_most": Function(core.with_most, "with_most(list of K, list of number) -> list of K", doc="the items whose value is the largest (all of them on a tie)", example="with_most(players, list(p.coin for p in players))", walks="lists"),
    "with_least": Function(core.with_least, "with_least(list of K, list of number) -> list of K", doc="the items whose value is the smallest (all of them on a tie)", example="with_least(players, list(p.coin for p in players))", walks="lists"),
    "sort": Function(core.sort, "sort(list of K) -> list of K", doc="the items smallest first (numbers, strings, or lists compared element by element)", example="sort(list(c.value for c in self.hand))", walks="lists"),
    "sort_by": Function(core.sort_by, "sort_by(list of K, list) -> list of K", doc="the items in the order of their keys, smallest first; a key may be a list, compared element by element", example="sort_by(players, list([-p.coin, p.seat] for p in players))", walks="lists"),
    "join": Function(core.join, "join(list, string) -> string", doc="the items written out (as text() writes them) with a separator between", example='join(list(c.name for c in self.hand), ", ")', walks="parts"),
    "headroom": Function(core.headroom, "headroom(player, string) -> number", doc="how much more of a counter may still be gained (ceiling and earning cap)", example='headroom(self, "coin")', reads=None),
    "effect": Function(core.effect, "effect(id, string) -> effect", doc="the effect written in a field of a record, to run with do", example='effect(c, "bonus")'),
    "list": Function(core.as_list, "list(list of K) -> list of K", doc="the items a generator collects, as a list", example="list(p.coin for p in players)", walks="lists"),
    "flatten": Function(core.flatten, "flatten(list of list of K) -> list of K", doc="one list of the items of several lists", example="flatten(list(p.hand for p in players))", walks="lists"),
    "text": Function(core.text, "text(any...) -> string", doc="the values written out for people, separated by spaces", example='text(self.name, "has", self.coin, "coin")', walks="parts"),
    "get": Function(core.get, "get(any, string, any) -> any", doc="a field of a record, or the default when it has none", example='get(c, "bonus", 0)', reads=None),
    # seats and programs
    "turn_order": Function(seats.turn_order, "turn_order(player) -> list of player", doc="every person clockwise (to the left), starting with this one", example="turn_order(self)"),
    "next_player": Function(seats.next_player, "next_player(player) -> player", doc="the person after this one, clockwise (their left)", example="next_player(self)"),
    "players_after": Function(seats.players_after, "players_after(player) -> list of player", doc="every other person clockwise from the next one, this one last: first(...) of it is the next who satisfies a condition", example="first(q for q in players_after(self) if q.coin > 0)"),
    "modifier": Function(programs.modifier, "modifier(player, string) -> number", doc="what a seat's active sources add to a declared modifier", example='modifier(self, "bonus")', pure=False),
    # zones
    "top": Function(zones.top, "top(zone of K) -> K or none", doc="the top card of a zone, or none", example="top(deck)"),
    # grids (a room stands for its grid where a grid is asked for)
    "rooms": Function(grids.rooms, "rooms(grid or room) -> list of room", doc="every room of a grid, row by row", example="rooms(self.board)"),
    "row": Function(grids.row, "row(grid or room, number) -> list of room", doc="the rooms of one row (none if off the grid)", example="row(self.board, 5)"),
    "column": Function(grids.column, "column(grid or room, number) -> list of room", doc="the rooms of one column (none if off the grid)", example="column(self.board, 3)"),
    "room": Function(grids.room, "room(grid or room, number, number) -> room", doc="the room at a row and a column", example="room(self.board, 2, 3)"),
    "tagged": Function(grids.tagged, "tagged(grid or room, string) -> list of room", doc="the rooms that carry a tag of the grid's declaration", example='tagged(self.board, "start")'),
    "sides": Function(grids.sides, "sides(room) -> list of side", doc="the four sides of a room (north, east, south, west)", example="sides(room(self.board, 2, 3))"),
    "adjacent": Function(grids.adjacent, "adjacent(room) -> list of room", doc="the rooms next to a room, walls or not", example="adjacent(room(self.board, 2, 3))"),
    "side": Function(grids.side, "side(room, string) -> side", doc='one side of a room: "n", "e", "s" or "w"', example='side(room(self.board, 2, 3), "n")'),
    "neighbours": Function(grids.neighbours, "neighbours(room) -> list of room", doc="the rooms one step away with no wall between", example="neighbours(room(self.board, 2, 3))"),
    "reachable": Function(grids.reachable, "reachable(room) -> list of room", doc="every room connected to a room without crossing a wall", example="reachable(room(self.board, 5, 3))"),
    "walls": Function(grids.walls, "walls(grid or room) -> list of side", doc="the walled sides of a grid, each named once", example="walls(self.board)"),
    # tracks and graphs
    "reading": Function(tracks.reading, "reading(track, string) -> any", doc="a field of the marker's space, or of the nearest space before it that has it", example='reading(self.fame, "income")'),
    "linked": Function(graphs.linked, "linked(graph, id) -> list of id", doc="the nodes one edge away", example="linked(borders, home)"),
    "degree": Function(graphs.degree, "degree(graph, id) -> number", doc="how many edges touch a node", example="degree(borders, home)"),
    "components": Function(graphs.components, "components(graph, list of id) -> list of list of id", doc="the connected groups among some nodes", example="components(borders, self.lands)", walks="lists"),
    "reach": Function(graphs.reach, "reach(graph, id, list of id) -> list of id", doc="every node of a list reachable from a node through that list", example="reach(borders, home, self.lands)", walks="lists"),
    # auctions
    "lots": Function(auction.lots, "lots(string) -> list of record", doc='the row of an auction, in order, as lot records', example='lots("sale")', reads=("auctions",)),
    "bids": Function(auction.bids, "bids(record) -> list of record", doc='the bids on a lot, in the order they were placed', example='bids(l)', reads=("auctions",)),
    "bid_total": Function(auction.bid_total, "bid_total(record, player) -> number", doc="a bidder's values plus coins on a lot (0 with no bid there)", example='bid_total(l, self)', reads=("auctions",)),
    "ranking": Function(auction.ranking, "ranking(record) -> list of player", doc='the bidders on a lot, best first, ties by the declared tie order', example='first(ranking(l))', pure=False),
    "resolving": Function(auction.resolving, "resolving(string) -> record or none", doc='the lot being resolved now, or none', example='resolving("sale")', reads=("auctions",)),
    "stack_limit": Function(auction.stack_limit, "stack_limit(string, player, id, bool) -> number or none", doc='the coins a card may hold on that face, or none', example='stack_limit("sale", self, c, true)', pure=False),
}

# The built-in names (seats.BUILTINS reads them) and a player's own attributes
# (seats.PLAYER_ATTRIBUTES), for the reference.
NAMES = {
    "players": Name("the people, in seat order", "count(players)"),
    "seats": Name("the people, then the scripted seats", "count(seats)"),
    "player_count": Name("how many people play", "player_count + 1"),
    "options": Name("the game's options as chosen (options.NAME)", "options.rounds"),
    "game_over": Name("true once the game has ended and been scored", "game_over"),
    "winners": Name("the seats that won, once the game is over", "self in winners"),
}

PLAYER_FIELDS = {
    "seat": Name("the seat number, from 1", "self.seat == 1"),
    "name": Name("the seat's name (P1, or a scripted seat's name)", 'text(self.name, "passes")'),
    "left": Name("the next person clockwise: the one next_player gives (none for a scripted seat)", "self.left.coin"),
    "right": Name("the previous person, anticlockwise (none for a scripted seat)", "self.right.coin"),
    "neighbours": Name("the people on either side (people only)", "count(self.neighbours)"),
    "scripted": Name("true for a scripted seat (an automaton, a dummy bidder)", "not self.scripted"),
    "place": Name("the final place, 1 for the winner, once the game is over", "self.place == 1"),
}
