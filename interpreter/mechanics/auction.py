"""Auctions: a row of lots, bids of cards and stacked coins, resolved one lot at a time.

Declared in a ruleset's components (``auctions: {market: {lots: ..., cards: ...}}``),
one row for the table. All of it is plain data in ``state["auctions"][name]``:

- ``lots``: the row, ``{"id", "blind" (laid face down), "down" (still face
  down), "status" (open, bought, unsold), "buyer", "price", "tokens",
  "ranking"}``;
- ``bids``: ``{"n", "lot", "owner" (the bidder's seat), "by" (who placed it),
  "card" (an id, or None for a bidder with no card), "value" (None: the
  card's printed value), "down", "coins", "tokens"}``;
- ``offer``: the price and fees of the offer being decided;
- ``seen``: ``[seat, "bid" or "lot", number]``, what ``show`` let one seat see.

A token is ``{"kind", "owner", "side"}`` and sits on a lot or a bid (a bid's
tokens travel with it). Bidders are seats: people, or scripted seats (a
bidder that is not a person: it never decides, always buys when offered and
pays nothing).

Verbs raise the ruleset's hook points, in order, with the ``signal``
protocol (a point the ruleset does not declare is skipped): ``lay`` raises
``lot_revealed`` for each face-up lot, then ``before_bidding``; ``bid``
raises ``bid_placed``; ``resolve`` runs one lot through ``lot_revealed``
(a face-down lot), ``before_reveal``, ``bids_revealed``, ``ranked``, then
for each bidder in ranking order ``price_computed`` and the buy-or-decline
decision (``declined``), ``price_paid``, ``coins_returned``, the win effect of
each of the buyer's bids (``bid_won``) and the lose effect of every other
bid (``bid_lost``), ``lot_unsold``, ``after_lot``; then the lot's cards go
where the declared ``won_to``/``lost_to`` functions say.
"""
from __future__ import annotations

from itertools import compress, repeat
from operator import eq, itemgetter

from ..dsl.kinds import STRING
from ..model.values import PLAYERS, RuleError, Zone, describe, seat, zone_list
from . import programs
from .zones import _forget
from .component import HIDDEN, ComponentKind

# Each hook point the mechanic raises, and the names its handlers see.
HOOKS = {
    "lot_revealed": ["lot"],
    "before_bidding": ["auction"],
    "bid_placed": ["lot", "bid"],
    "before_reveal": ["lot"],
    "bids_revealed": ["lot"],
    "ranked": ["lot"],
    "price_computed": ["lot", "bidder", "price"],
    "declined": ["lot", "bidder"],
    "price_paid": ["lot", "buyer", "price"],
    "coins_returned": ["lot"],
    "bid_won": ["lot", "bid"],
    "bid_lost": ["lot", "bid"],
    "lot_unsold": ["lot"],
    "after_lot": ["lot"],
}

FIELDS = {"value": "value", "limit_up": "limit_up", "limit_down": "limit_down",
          "win": "win", "lose": "lose"}
FIELD_WORDS = {"value": "printed value", "limit_up": "stack limit face up",
               "limit_down": "stack limit face down", "win": "win effect", "lose": "lose effect"}


# ---------------------------------------------------------------- reading the data

def _data(game, name) -> dict:
    try:                                      # the state holds the declared auctions alone
        return game.state["auctions"][name]
    except (KeyError, TypeError):
        raise RuleError(f"{describe(name)} is not a declared auction") from None


def _spec(game, name) -> dict:
    return game.rules.declared["auctions"][name]


def _field(game, name, key) -> str:
    """The record field auction ``name`` reads for ``key`` (its ``fields``, found once per ruleset)."""
    try:
        return game.rules._auction_fields[name][key]
    except AttributeError:
        found = game.rules._auction_fields = {
            auction: {**FIELDS, **spec.get("fields", {})} for auction, spec in game.rules.declared["auctions"].items()}
        return found[name][key]


def _ref(game, value, what: str) -> tuple:
    """(auction name, its data, lot number or None, bid or None) from a lot or bid record."""
    if type(value) is not dict or "auction" not in value or ("lot" not in value and "bid" not in value):
        raise RuleError(f"{what} must be a lot or a bid of an auction, got {describe(value)}")
    name = value["auction"]
    data = _data(game, name)
    if "bid" in value:
        bid = _bid(data, value["bid"])
        return name, data, bid["lot"], bid
    k = value["lot"]
    if type(k) is not int or not 1 <= k <= len(data["lots"]):
        raise RuleError(f"the row has no lot {describe(k)}")
    return name, data, k, None


def _bid(data, n) -> dict:
    for bid in data["bids"]:
        if bid["n"] == n:
            return bid
    raise RuleError(f"bid {describe(n)} is no longer on the table")


def _bid_only(game, value, what: str) -> tuple:
    name, data, k, bid = _ref(game, value, what)
    if bid is None:
        raise RuleError(f"{what} must be a bid, got a lot")
    return name, data, bid


def _lot_only(game, value, what: str) -> tuple:
    name, data, k, bid = _ref(game, value, what)
    if bid is not None:
        raise RuleError(f"{what} must be a lot, got a bid")
    return name, data, k


def _printed(game, name, bid) -> int:
    """A bid's value: set by ``revalue`` or at placement, else its card's printed value."""
    if bid["value"] is not None:
        return bid["value"]
    value = game.rules.entities[bid["card"]].get(_field(game, name, "value"))
    if type(value) is not int:
        raise RuleError(f"bid card {bid['card']} has no whole-number value")
    return value


def _limit(game, name, owner: int, card, down: bool):
    """How many coins a card may hold on that face (None: it has no such face)."""
    if card is None:
        return None if down else 10 ** 6
    record = game.rules.entities[card]
    limit = record.get(_field(game, name, "limit_down" if down else "limit_up"))
    if limit is None:
        return None
    key = _spec(game, name).get("stack_modifier")
    if key is not None:
        limit += programs.modifier(_Ctx(game), [PLAYERS[owner], key])
    return max(0, limit)


class _Ctx:
    """The little a mechanics function needs of a context, for calls made from here."""
    def __init__(self, game, env=None):
        self.game = game
        self.env = env or {}


def _tokens(tokens) -> list:
    return [{"kind": t["kind"], "owner": None if t["owner"] is None else PLAYERS[t["owner"]],
             "side": t["side"]} for t in tokens]


def lot_record(game, name, k: int) -> dict:
    """What content sees of lot ``k`` (1-based): a record (a snapshot, not live)."""
    return _lot_record(name, k, _data(game, name)["lots"][k - 1])


def _lot_record(name, k: int, lot: dict) -> dict:
    """Lot ``k``'s record, made again only when its data changed since the last one made
    (``_RECORDS``: a record depends on nothing else, and content never changes a value in place)."""
    made = _RECORDS.get((name, k))
    if made is not None and made[0] == lot:
        return made[1]
    buyer, tokens = lot["buyer"], lot["tokens"]
    record = {"auction": name, "lot": k, "id": lot["id"], "blind": lot["blind"], "down": lot["down"],
              "status": lot["status"], "buyer": None if buyer is None else PLAYERS[buyer],
              "price": lot["price"], "tokens": _tokens(tokens) if tokens else []}
    _RECORDS[name, k] = (_copy(lot), record)
    return record


# The records last made, each with a copy of the data it was made from: ``(auction, lot) ->
# (lot data, record)`` and ``auction -> (row data, records)``. A record is read far more often
# than its lot changes (the memo, cleared at every statement, kept it for one); comparing the
# data is one C-level ``==``. Shared by all games: the same data makes the same record.
_RECORDS: dict = {}
_ROWS: dict = {}


def _copy(data: dict) -> dict:
    """A copy of a lot's or bid's data deep enough to compare with later: the auction changes
    their fields, and adds and takes away tokens, but never changes a token (nor a ranking) in
    place. (Half the cost of making its record, a third of a ``marshal`` copy's.)"""
    return {**data, "tokens": [*data["tokens"]]}


def bid_record(game, name, bid) -> dict:
    """What content sees of a bid: a record (a snapshot, not live)."""
    return {"auction": name, "bid": bid["n"], "lot": bid["lot"], "owner": PLAYERS[bid["owner"]],
            "by": PLAYERS[bid["by"]], "card": bid["card"], "value": _printed(game, name, bid),
            "down": bid["down"], "coins": bid["coins"], "tokens": _tokens(bid["tokens"]) if bid["tokens"] else []}


def _bids_at(data, k: int) -> list:
    bids = data["bids"]                       # (at C speed: every lot number is a number)
    return list(compress(bids, map(eq, map(_LOT, bids), repeat(k))))


_LOT = itemgetter("lot")


def _totals(game, name, k: int) -> dict:
    """Each bidder's total at lot ``k``: their bids' values plus the coins on them."""
    totals: dict = {}
    for bid in _bids_at(_data(game, name), k):
        totals[bid["owner"]] = totals.get(bid["owner"], 0) + _printed(game, name, bid) + bid["coins"]
    return totals


def _ranking(game, name, k: int) -> list:
    """The bidders at lot ``k``, best first: highest total, ties by the declared ``tie`` function."""
    totals = _totals(game, name, k)
    tie = _spec(game, name).get("tie")
    keys = {}
    for who in totals:
        if tie is None:
            keys[who] = who
        else:
            key = _function(game, tie, [PLAYERS[who], lot_record(game, name, k)], who)
            if type(key) is not int and not (type(key) is list and all(type(x) is int for x in key)):
                raise RuleError(f"the tie function '{tie}' must give a number or a list of numbers, "
                                f"got {describe(key)}")
            keys[who] = key
    return sorted(totals, key=lambda who: (-totals[who], keys[who] if type(keys[who]) is list
                                           else [keys[who]]))


def _function(game, fname: str, args: list, i: int | None):
    """Flow function ``fname`` (its arity checked at load) called as a ruleset function is
    inside a statement: its generated code, the memo and the running step budget."""
    env = {"self": None if i is None else PLAYERS[i]}
    return game.functions[fname](programs.context(game, env), args)


# ---------------------------------------------------------------- functions

# What content reads of the row is kept in the game's memo, as a ruleset function's result is:
# for as long as nothing is written (the machine clears it around every statement and answer,
# ``resume`` between steps, ``_place`` before each flow function a step runs after a write).
# Several readings within one statement (a choice's filters, a sum over the lots) share one.
_LOTS, _BIDS, _RESOLVING = ("$lots",), ("$bids",), ("$resolving",)


def lots(ctx, args):
    """lots(AUCTION): the row, in order, as lot records"""
    name = args[0]
    memo = ctx.game.memo
    key = (_LOTS, name) if type(name) is str else None
    row = memo.get(key)
    if row is None:
        data = _data(ctx.game, name)["lots"]
        made = _ROWS.get(name)
        if made is not None and made[0] == data:
            row = made[1]
        else:
            row = [_lot_record(name, k, lot) for k, lot in enumerate(data, 1)]
            _ROWS[name] = ([*map(_copy, data)], row)
        if key is not None:
            memo[key] = row
    return row


def bids(ctx, args):
    """bids(LOT): the bids on a lot, in the order they were placed, as bid records"""
    name, data, k = _lot_only(ctx.game, args[0], "bids()")
    memo = ctx.game.memo
    key = (_BIDS, name, k)
    placed = memo.get(key)
    if placed is None:
        at = _bids_at(data, k)
        made = _bid_rows(ctx.game).get((name, k))
        if made is not None and made[0] == at:
            placed = made[1]
        else:                                 # (a bid's record reads its card's printed value)
            placed = [bid_record(ctx.game, name, bid) for bid in at]
            _bid_rows(ctx.game)[name, k] = ([*map(_copy, at)], placed)
        memo[key] = placed
    return placed


def _bid_rows(game) -> dict:
    """``(auction, lot) -> (bids data, records)``: the bid records last made, with the data they
    were made from, kept as ``_RECORDS`` keeps the lots' but per ruleset (its cards' values)."""
    try:
        return game.rules._auction_bids
    except AttributeError:
        found = game.rules._auction_bids = {}
        return found


def bid_total(ctx, args):
    """bid_total(LOT, PLAYER): the bidder's values plus coins on that lot (0 with no bid there)"""
    name, data, k = _lot_only(ctx.game, args[0], "bid_total()")
    return _totals(ctx.game, name, k).get(seat(args[1]), 0)


def ranking(ctx, args):
    """ranking(LOT): the bidders on a lot, best first (ties by the declared tie function);
    once fixed at its resolution (``ranked``), that order, also after the lot is settled"""
    name, data, k = _lot_only(ctx.game, args[0], "ranking()")
    fixed = data["lots"][k - 1]["ranking"]
    return [PLAYERS[who] for who in (_ranking(ctx.game, name, k) if fixed is None else fixed)]


def resolving(ctx, args):
    """resolving(AUCTION): the lot being resolved now, or none"""
    name = args[0]
    memo = ctx.game.memo
    key = (_RESOLVING, name) if type(name) is str else None
    lot = memo.get(key, memo)
    if lot is memo:                           # (none is a result too)
        data = _data(ctx.game, name)
        k = data["current"]
        lot = None if k is None else _lot_record(name, k, data["lots"][k - 1])
        if key is not None:
            memo[key] = lot
    return lot


def stack_limit(ctx, args):
    """stack_limit(AUCTION, PLAYER, CARD, DOWN): coins the card may hold on that face, or none"""
    name, who, card, down = args
    _data(ctx.game, name)
    if card not in ctx.game.rules.entities:
        raise RuleError(f"{describe(card)} is not a card")
    return _limit(ctx.game, name, seat(who), card, bool(down))


# ---------------------------------------------------------------- verbs

def lay(ctx, arg, kw) -> None:
    """lay LIST on AUCTION: a new row of lots, the last ``face_down`` of them face down"""
    game = ctx.game
    name = kw.get("on")
    data = _data(game, name)
    if type(arg) is not list or not all(type(x) is str and x in game.rules.entities for x in arg):
        raise RuleError(f"'lay' needs a list of record ids, got {describe(arg)}")
    if data["bids"] or any(lot["status"] == "open" for lot in data["lots"]):
        raise RuleError("the row still has open lots: resolve them first")
    if len(set(arg)) != len(arg):
        raise RuleError("'lay' names a lot twice")
    for rid in arg:                                     # the row holds its lots: out of their zones
        _take_card(game, rid, None, None)
    down = _spec(game, name).get("face_down", 1)
    data["lots"] = [{"id": rid, "blind": k >= len(arg) - down, "down": k >= len(arg) - down,
                     "status": "open", "buyer": None, "price": None, "tokens": [],
                     "ranking": None}
                    for k, rid in enumerate(arg)]
    data["seen"] = []
    data["current"] = None
    shown = [game.describe(_name(game, lot["id"])) if not lot["down"] else "a face-down lot"
             for lot in data["lots"]]
    game.log(f"{name}: {', '.join(shown)}")
    todo = [["signal", "lot_revealed", {"lot": k}] for k, lot in enumerate(data["lots"], 1)
            if not lot["down"]]
    todo.append(["signal", "before_bidding", {"auction": name}])
    _start(ctx, name, todo)


def bid(ctx, arg, kw) -> None:
    """bid CARD at LOT [with {down, coins, owner, value}]: place a bid, the card from its zone

    ``owner`` (default: the acting player) is the bidder, a person or a
    scripted seat; the coins are paid by the acting player. A bid with no
    card (none) needs a ``value``.
    """
    game = ctx.game
    name, data, k = _lot_only(game, kw.get("at"), "'bid ... at'")
    options = kw.get("with") or {}
    if type(options) is not dict or set(options) - {"down", "coins", "owner", "value"}:
        raise RuleError(f"'bid ... with' takes a record of down, coins, owner, value; "
                        f"got {describe(options)}")
    me = ctx.env.get("self")
    by = seat(me)
    owner = seat(options.get("owner", me))
    down = options.get("down", False)
    coins = options.get("coins", 0)
    value = options.get("value")
    if type(down) is not bool or type(coins) is not int or coins < 0:
        raise RuleError("'down' must be true or false and 'coins' a whole number, not negative")
    if data["lots"][k - 1]["status"] != "open" or data["current"] is not None:
        raise RuleError(f"lot {k} takes no more bids")
    if arg is None:
        if type(value) is not int:
            raise RuleError("a bid with no card needs a whole-number 'value'")
    else:
        if value is not None:
            raise RuleError("a bid card's value is its own: 'value' is for a bid with no card")
        table = game.rules.entities.get(arg, {}).get("table") if type(arg) is str else None
        if table != _spec(game, name)["cards"]:
            raise RuleError(f"{describe(arg)} is not a card of table '{_spec(game, name)['cards']}'")
    limit = _limit(game, name, owner, arg, down)
    if limit is None:
        raise RuleError(f"{describe(arg)} has no face-down side" if arg else "a bid with no card is face up")
    if coins > limit:
        raise RuleError(f"{describe(arg)} holds at most {limit} coins face {'down' if down else 'up'}")
    currency = _spec(game, name)["currency"]
    game.counters.check_spend(by, currency, coins)
    if arg is not None:
        _take_card(game, arg, owner, by)
    game.counters.spend(by, currency, coins)
    data["next"] += 1
    new = {"n": data["next"], "lot": k, "owner": owner, "by": by, "card": arg, "value": value,
           "down": down, "coins": coins, "tokens": []}
    data["bids"].append(new)
    what = "a face-down card" if down else game.describe(_name(game, arg) if arg else value)
    game.log(f"{game.seat_name(owner)} bids {what} with {coins} {currency} on lot {k}")
    _start(ctx, name, [["signal", "bid_placed", {"lot": k, "bid": new["n"]}]])


def _take_card(game, card, owner, by) -> None:
    """Take a card from its zone: the placer's, the owner's, the table's, then anyone's."""
    state = game.state
    holders = [state["players"][i] for i in (by, owner) if i is not None] + [state] + state["players"]
    for holder in holders:
        for zone in holder["zones"].values():
            for pile in (zone if zone and type(zone[0]) is list else [zone]):
                if card in pile:
                    pile.remove(card)
                    _forget(state, pile, [card])
                    return
    raise RuleError(f"{describe(card)} is in no zone")


def resolve(ctx, arg, kw) -> None:
    """resolve LOT: run the lot through its hook points, offer it down the ranking, settle it"""
    game = ctx.game
    name, data, k = _lot_only(game, arg, "'resolve'")
    if data["lots"][k - 1]["status"] != "open" or data["current"] is not None:
        raise RuleError(f"lot {k} is already resolved or being resolved")
    data["current"] = k
    todo = []
    if data["lots"][k - 1]["down"]:
        todo += [["step", "turn_lot", k], ["signal", "lot_revealed", {"lot": k}]]
    todo += [["signal", "before_reveal", {"lot": k}], ["step", "reveal", k],
             ["signal", "bids_revealed", {"lot": k}], ["step", "rank", k],
             ["signal", "ranked", {"lot": k}], ["step", "offer", k, 0]]
    _start(ctx, name, todo)


def stack(ctx, arg, kw) -> None:
    """stack N on BID: the acting player adds coins to a bid, within its stack limit"""
    game = ctx.game
    name, data, bid = _bid_only(game, kw.get("on"), "'stack ... on'")
    if type(arg) is not int or arg < 0:
        raise RuleError(f"'stack' needs a whole number, got {describe(arg)}")
    limit = _limit(game, name, bid["owner"], bid["card"], bid["down"])
    if bid["coins"] + arg > limit:
        raise RuleError(f"that bid holds at most {limit} coins")
    game.counters.spend(seat(ctx.env.get("self")), _spec(game, name)["currency"], arg)
    bid["coins"] += arg


def take(ctx, arg, kw) -> None:
    """take N from BID [to PLAYER]: coins stacked on a bid go to a player (default: the acting one)"""
    game = ctx.game
    name, data, bid = _bid_only(game, kw.get("from"), "'take ... from'")
    if type(arg) is not int or not 0 <= arg <= bid["coins"]:
        raise RuleError(f"that bid holds {bid['coins']} coins, cannot take {describe(arg)}")
    who = seat(kw.get("to", ctx.env.get("self")))
    bid["coins"] -= arg
    game.counters.gain(who, _spec(game, name)["currency"], arg)


def revalue(ctx, arg, kw) -> None:
    """revalue BID to N: the bid's value from now on (a value worked out in play, a bonus)"""
    name, data, bid = _bid_only(ctx.game, arg, "'revalue'")
    if type(kw.get("to")) is not int:
        raise RuleError(f"'revalue ... to' needs a whole number, got {describe(kw.get('to'))}")
    bid["value"] = kw["to"]


def transfer(ctx, arg, kw) -> None:
    """transfer BID to PLAYER: the bid counts as that bidder's from now on (it joins their bids)"""
    name, data, bid = _bid_only(ctx.game, arg, "'transfer'")
    bid["owner"] = seat(kw.get("to"))


def shift(ctx, arg, kw) -> None:
    """shift BID to LOT: move a bid, with its coins and tokens, to another open lot (not a new bid)"""
    game = ctx.game
    name, data, bid = _bid_only(game, arg, "'shift'")
    other, _, k = _lot_only(game, kw.get("to"), "'shift ... to'")
    if other != name or data["lots"][k - 1]["status"] != "open" or k == data["current"]:
        raise RuleError(f"lot {k} takes no bids")
    bid["lot"] = k                                      # who was shown it still knows it


def uncover(ctx, arg, kw) -> None:
    """uncover BID: turn a face-down bid face up now"""
    game = ctx.game
    name, data, bid = _bid_only(game, arg, "'uncover'")
    _turn_up(game, name, bid)


def show(ctx, arg, kw) -> None:
    """show BID or LOT to PLAYER: that seat may see it while it stays face down"""
    game = ctx.game
    name, data, k, bid = _ref(game, arg, "'show'")
    who = seat(kw.get("to"))
    entry = [who, "bid", bid["n"]] if bid is not None else [who, "lot", k]
    if entry not in data["seen"]:
        data["seen"].append(entry)
    what = _name(game, bid["card"]) if bid is not None and bid["card"] else (
        _name(game, data["lots"][k - 1]["id"]) if bid is None else str(bid["value"]))
    game.log(f"{game.seat_name(who)} sees {what}", to=[who])


def token(ctx, arg, kw) -> None:
    """token KIND on LOT or BID [with {owner, side}]: put a token there (default owner: the acting player)"""
    game = ctx.game
    name, data, k, bid = _ref(game, kw.get("on"), "'token ... on'")
    options = kw.get("with") or {}
    if type(arg) is not str or type(options) is not dict or set(options) - {"owner", "side"}:
        raise RuleError("'token' needs a kind (a string) and may take {owner, side}")
    owner = options.get("owner", ctx.env.get("self"))
    side = options.get("side")
    if side is not None and type(side) is not str:
        raise RuleError(f"a token's side is a string, got {describe(side)}")
    holder = bid if bid is not None else data["lots"][k - 1]
    holder["tokens"].append({"kind": arg, "owner": None if owner is None else seat(owner), "side": side})


def untoken(ctx, arg, kw) -> None:
    """untoken KIND from LOT or BID: take the first token of that kind off it"""
    game = ctx.game
    name, data, k, bid = _ref(game, kw.get("from"), "'untoken ... from'")
    holder = bid if bid is not None else data["lots"][k - 1]
    for t in holder["tokens"]:
        if t["kind"] == arg:
            holder["tokens"].remove(t)
            return
    raise RuleError(f"there is no {describe(arg)} token there")


def award(ctx, arg, kw) -> None:
    """award LOT to PLAYER: an unsold lot goes to a seat without a purchase (a claim, a free take)

    Only while an unsold lot is being settled (at ``lot_unsold``, ``after_lot``); its ``lot_to``
    then reads status "awarded" and that buyer.
    """
    game = ctx.game
    name, data, k = _lot_only(game, arg, "'award'")
    lot = data["lots"][k - 1]
    if lot["status"] != "unsold" or data["current"] != k:
        raise RuleError(f"lot {k} is not being settled unsold: only then can it be awarded")
    lot.update(status="awarded", buyer=seat(kw.get("to")))
    game.log(f"{game.seat_name(lot['buyer'])} takes lot {k} ({_name(game, lot['id'])})")


def charge(ctx, arg, kw) -> None:
    """charge N on LOT [to PLAYER]: a fee the bidder now offered pays first, only if they buy"""
    game = ctx.game
    name, data, k = _lot_only(game, kw.get("on"), "'charge ... on'")
    offer = data["offer"]
    if offer is None or data["current"] != k:
        raise RuleError("'charge' is for the offer being decided (at price_computed)")
    if type(arg) is not int or arg < 0:
        raise RuleError(f"'charge' needs a whole number, got {describe(arg)}")
    to = kw.get("to")
    offer["fees"].append([None if to is None else seat(to), arg])


# ---------------------------------------------------------------- the sequence

def _start(ctx, name, todo: list) -> None:
    """Schedule the statement's own frame: it runs ``todo`` in order (see ``resume``).

    Listeners take their turn from the acting player on (``as starter: resolve ...``), as
    ``signal`` does.
    """
    game = ctx.game
    todo = [item for item in todo if item[0] != "signal" or item[1] in game.rules.hooks]
    me = ctx.env.get("self")
    if todo:
        game.schedule(auction=name, todo=todo, first=None if me is None else seat(me))


def resume(game, th, frame, node):
    """Carry on the auction's sequence: the next hook point, step or decision of ``todo``.

    Items run one after another here while nothing but the auction itself changes: a hook
    point nobody hears, or a step that writes only the row (``_ROW_ONLY``); the seats'
    sources, when the sources function reads no auction, are kept for the next point.
    """
    if "chain" in frame:
        return programs.resume_chain(game, th, frame, node)
    todo = frame["todo"]
    if not todo:
        th["frames"].pop()
        return None
    game.memo.clear()
    name = frame["auction"]
    while todo:
        item = todo[0]
        if item[0] == "signal":
            todo.pop(0)
            chain = programs.listeners(game, item[1], frame.get("first"))
            if chain:                                   # the names' records only for listeners
                _machine().push(game, th, node, hook=item[1], chain=chain,
                                names=_names(game, name, item[2]))
                return None
            continue                # nobody heard it, so nothing changed: the memo still holds
        waiting = STEPS[item[1]](game, th, frame, name, *item[2:])
        if waiting is not None:
            return waiting
        if todo and todo[0] is item:
            todo.pop(0)
        if item[1] not in _ROW_ONLY or game.queued or not _sources_apart(game.rules):
            game.memo.clear()
            if game.queued:                             # a gain's on_gain hook: run it now
                _machine()._push_queued(game, th, node)
            return None
        programs.keep_in_play(game)                     # only the row changed
    return None


# The steps that change nothing but the auction's own data (and the log): no counter, zone,
# variable or frame. What a function reads elsewhere stays as it was.
_ROW_ONLY = {"turn_lot", "reveal", "rank", "offer", "decide", "clear_coins", "effects"}


def _sources_apart(rules) -> bool:
    """Whether the ruleset's sources function (and every function, condition field and
    built-in it reaches) reads no auction: its results outlast a step that changes only the
    row. A built-in that may read anything (``Function.reads`` None: ``modifier``, ``get``)
    or an unknown one counts as reading one (``programs.table_reads``)."""
    apart = rules.__dict__.get("_sources_apart")
    if apart is None:
        reads = None if rules.sources is None else programs.table_reads(rules, rules.sources)
        apart = rules._sources_apart = rules.sources is None or (
            reads is not None and KIND.state_key not in reads[2])
    return apart


def _machine():
    """The engine's machine (imported late: the engine imports the mechanics)."""
    global _MACHINE
    if _MACHINE is None:
        from ..engine import machine as _MACHINE
    return _MACHINE


_MACHINE = None


def _names(game, name, raw: dict) -> dict:
    out = {}
    for key, value in raw.items():
        if key == "lot":
            out[key] = lot_record(game, name, value)
        elif key == "bid":
            out[key] = bid_record(game, name, _bid(_data(game, name), value))
        elif key in ("bidder", "buyer"):
            out[key] = PLAYERS[value]
        else:
            out[key] = value
    return out


def _step_turn_lot(game, th, frame, name, k):
    lot = _data(game, name)["lots"][k - 1]
    lot["down"] = False
    game.log(f"{name}: lot {k} is {_name(game, lot['id'])}")


def _step_reveal(game, th, frame, name, k):
    for bid in _bids_at(_data(game, name), k):
        if bid["down"]:
            _turn_up(game, name, bid)


def _turn_up(game, name, bid) -> None:
    bid["down"] = False
    _forget_seen(_data(game, name), "bid", bid["n"])
    what = _name(game, bid["card"]) if bid["card"] else str(bid["value"])
    game.log(f"{game.seat_name(bid['owner'])}'s face-down bid on lot {bid['lot']}: {what} "
             f"({_printed(game, name, bid)})")


def _step_rank(game, th, frame, name, k):
    data = _data(game, name)
    order = _ranking(game, name, k)
    data["lots"][k - 1]["ranking"] = order
    totals = _totals(game, name, k)
    shown = ", ".join(f"{game.seat_name(who)} {totals[who]}" for who in order) or "no bids"
    game.log(f"{name}: lot {k}: {shown}")


def _step_offer(game, th, frame, name, k, i):
    """Offer the lot to the i-th bidder of the ranking, or settle it unsold."""
    data = _data(game, name)
    lot = data["lots"][k - 1]
    order = lot["ranking"]
    if i >= len(order):
        lot["status"] = "unsold"
        game.log(f"{name}: nobody buys lot {k}")
        _then(frame, [["signal", "coins_returned", {"lot": k}], ["step", "clear_coins", k],
                      ["step", "effects", k], ["signal", "lot_unsold", {"lot": k}],
                      ["signal", "after_lot", {"lot": k}], ["step", "settle", k]], game)
        return None
    who = order[i]
    price = 0
    if who < game.people:
        price = sum(_printed(game, name, b) for b in _bids_at(data, k) if b["owner"] == who)
        key = _spec(game, name).get("price_modifier")
        if key is not None:
            price += programs.modifier(_Ctx(game), [PLAYERS[who], key])
        price = max(0, price)
    data["offer"] = {"to": who, "price": price, "fees": []}
    _then(frame, [["signal", "price_computed", {"lot": k, "bidder": who, "price": price}],
                  ["step", "decide", k, i]], game)
    return None


def _then(frame, items, game) -> None:
    """Put ``items`` next in the sequence, right after the running step (dropped at its end)."""
    items = [item for item in items if item[0] != "signal" or item[1] in game.rules.hooks]
    frame["todo"][1:1] = items


def _due(offer) -> int:
    return offer["price"] + sum(n for _, n in offer["fees"])


def _step_decide(game, th, frame, name, k, i):
    """The bidder offered the lot buys or declines; one who cannot pay declines."""
    data = _data(game, name)
    offer = data["offer"]
    who = offer["to"]
    currency = _spec(game, name)["currency"]
    buys = True
    if who < game.people:
        if game.state["players"][who]["counters"][currency] < _due(offer):
            game.log(f"{game.seat_name(who)} cannot pay {_due(offer)} {currency} for lot {k}")
            buys = False
        else:
            if "answer" not in frame:
                waiting = game.decide(th, frame, 2, f"buy lot {k}?", PLAYERS[who])
                if waiting is not None:
                    return waiting
            buys = frame.pop("answer") == 0
    if not buys:
        data["offer"] = None
        _then(frame, [["signal", "declined", {"lot": k, "bidder": who}], ["step", "offer", k, i + 1]],
              game)
        return None
    lot = data["lots"][k - 1]
    lot.update(status="bought", buyer=who, price=offer["price"])
    _then(frame, [["step", "pay", k], ["signal", "price_paid", {"lot": k, "buyer": who,
                                                                "price": offer["price"]}],
                  ["signal", "coins_returned", {"lot": k}], ["step", "clear_coins", k],
                  ["step", "effects", k], ["signal", "after_lot", {"lot": k}],
                  ["step", "settle", k]], game)
    return None


def _step_pay(game, th, frame, name, k):
    """The buyer pays each fee to whom it is due, then the price (a scripted buyer pays nothing)."""
    data = _data(game, name)
    offer, data["offer"] = data["offer"], None
    who = offer["to"]
    currency = _spec(game, name)["currency"]
    if who >= game.people:
        game.log(f"{game.seat_name(who)} takes lot {k}")
        return
    for to, n in offer["fees"]:
        game.counters.spend(who, currency, n)
        if to is not None:
            game.counters.gain(to, currency, n)
    game.counters.spend(who, currency, offer["price"])
    game.log(f"{game.seat_name(who)} buys lot {k} for {offer['price']} {currency}")


def _step_clear_coins(game, th, frame, name, k):
    for bid in _bids_at(_data(game, name), k):
        bid["coins"] = 0


def _step_effects(game, th, frame, name, k):
    """Queue the win effect of each of the buyer's bids, then the lose effect of every other."""
    data = _data(game, name)
    lot = data["lots"][k - 1]
    order = [who for who in lot["ranking"] if who == lot["buyer"]]
    order += [who for who in lot["ranking"] if who != lot["buyer"]]
    items = []
    for who in order:
        won = who == lot["buyer"]
        for bid in _bids_at(data, k):
            if bid["owner"] == who:
                items.append(["step", "effect", bid["n"], "win" if won else "lose"])
                items.append(["signal", "bid_won" if won else "bid_lost", {"lot": k, "bid": bid["n"]}])
    _then(frame, items, game)


def _step_effect(game, th, frame, name, n, which):
    """Run one bid card's win or lose effect (``self`` the bidder, ``this`` the card)."""
    data = _data(game, name)
    bid = _bid(data, n)
    if bid["card"] is None:
        return None
    effect = game.rules.entities[bid["card"]].get(_field(game, name, which))
    if effect is None:
        return None
    env = {"self": PLAYERS[bid["owner"]], "this": bid["card"],
           "lot": lot_record(game, name, bid["lot"]), "bid": bid_record(game, name, bid)}
    frame["todo"].pop(0)                                # done once pushed: the call runs next
    th["envs"].append(env)
    game.push_call(th, game.rules.effects[effect.key])
    return None


def _step_settle(game, th, frame, name, k):
    """The lot's cards go where ``won_to``/``lost_to`` say (none: out of play); its bids leave."""
    data = _data(game, name)
    spec = _spec(game, name)
    lot = data["lots"][k - 1]
    for bid in _bids_at(data, k):
        if bid["card"] is not None:
            fname = spec["won_to" if lot["status"] == "bought" and bid["owner"] == lot["buyer"]
                         else "lost_to"]
            _place(game, fname, [bid["card"], PLAYERS[bid["owner"]]], bid["card"], bid["owner"])
        _forget_seen(data, "bid", bid["n"])
    data["bids"] = [bid for bid in data["bids"] if bid["lot"] != k]
    data["current"] = None
    _place(game, spec["lot_to"], lot_record(game, name, k), lot["id"], None)


def _place(game, fname: str, arg, card: str, i) -> None:
    """Put ``card`` on top of the zone the flow function ``fname`` gives for ``arg`` (none: nowhere)."""
    game.memo.clear()           # the step wrote since (a card placed, the row cleared): no result from before
    zone = _function(game, fname, arg if type(arg) is list else [arg], i)
    if zone is None:
        return
    if type(zone) is not Zone:
        raise RuleError(f"'{fname}' must give a zone or none, got {describe(zone)}")
    target = zone_list(game.state, zone)
    if target and type(target[0]) is list:
        raise RuleError(f"'{fname}' gave a numbered group: name one of it")
    target.insert(0, card)


STEPS = {"turn_lot": _step_turn_lot, "reveal": _step_reveal, "rank": _step_rank,
         "offer": _step_offer, "decide": _step_decide, "pay": _step_pay,
         "clear_coins": _step_clear_coins, "effects": _step_effects, "effect": _step_effect,
         "settle": _step_settle}


def labels(game, th, frame, node, ks) -> list:
    """Labels of the auction's decisions: a hook's "which first", or buy / decline."""
    if "chain" in frame:
        return programs.chain_labels(game, th, frame, node, ks)
    name = frame["auction"]
    data = _data(game, name)
    offer = data["offer"]
    lot = data["lots"][data["current"] - 1]
    currency = _spec(game, name)["currency"]
    words = [f"buy {_name(game, lot['id'])} for {_due(offer)} {currency}", "decline"]
    return [words[k] for k in ks]


def _forget_seen(data, what: str, n: int) -> None:
    """Nobody needs to be shown it any more: it is face up, or gone."""
    data["seen"] = [e for e in data["seen"] if not (e[1] == what and e[2] == n)]


def _name(game, rid) -> str:
    record = game.rules.entities.get(rid, {})
    return record.get("name") or str(rid)


# ---------------------------------------------------------------- views

def view(game, name, spec, data, viewer, owner, can_see):
    """The row and its bids as ``viewer`` may see them: face-down cards and lots as backs."""
    seen = {(e[1], e[2]) for e in data["seen"] if e[0] == viewer}
    see_lots = "visible_to" in spec and can_see(name, None)      # default: nobody
    lots_out = []
    for k, lot in enumerate(data["lots"], 1):
        shown = dict(lot, tokens=[dict(t) for t in lot["tokens"]])
        shown["ranking"] = None if lot["ranking"] is None else list(lot["ranking"])
        if lot["down"] and not see_lots and ("lot", k) not in seen:
            shown["id"] = None
        lots_out.append(shown)
    bids_out = []
    for bid in data["bids"]:
        shown = dict(bid, tokens=[dict(t) for t in bid["tokens"]])
        if bid["down"] and viewer not in (bid["by"], bid["owner"]) and ("bid", bid["n"]) not in seen:
            shown["card"] = None
            shown["value"] = None
        bids_out.append(shown)
    offer = data["offer"]
    names = {str(i): game.seat_name(i) for i in range(len(game.state["players"]))}
    return {"lots": lots_out, "bids": bids_out, "next": data["next"], "current": data["current"],
            "names": names,
            "offer": None if offer is None else {"to": offer["to"], "price": offer["price"],
                                                 "fees": [list(f) for f in offer["fees"]]},
            "seen": [list(e) for e in data["seen"] if e[0] == viewer]}


def deal(game, name, spec, data, seen, table_of, slots, pools) -> dict:
    """For look-ahead: the data as the view shows it, each hidden card a slot dealt from the pool of
    its kind (``table_of.get``), so a hidden card of one set is never dealt as another set's."""
    out = {key: value for key, value in seen.items() if key != "names"}    # the view's, not data
    out["lots"] = [dict(lot) for lot in out["lots"]]
    out["bids"] = [dict(bid) for bid in out["bids"]]
    for real, lot in zip(data["lots"], out["lots"]):
        if lot["id"] is None:
            table = table_of.get(real["id"])
            pools.setdefault(table, []).append(real["id"])
            slots.append((lot, "id", table, None))
    for real, bid in zip(data["bids"], out["bids"]):
        if bid["card"] is None and real["card"] is not None:
            table = table_of.get(real["card"])
            pools.setdefault(table, []).append(real["card"])
            slots.append((bid, "card", table, None))
    return out


def draw(rules, name, spec, shown) -> str:
    """``market:`` then a line per lot: ``1 Ruby [support B P1]: P2 Red 2+1, P3 ?+2 face down [peek P1]``.

    Face-down cards and lots the viewer may not see are ``?``; a bid shows its coins after
    ``+``; records are called by the presentation's titles, else by name.
    """
    def called(rid):
        return "?" if rid is None else rules.presentation.title(rules, rid) or rid

    who = shown.get("names", {})

    def tokens_of(holder):                             # a token says whose it is
        return ", ".join(f"{t['kind']}{' ' + t['side'] if t.get('side') else ''} {who.get(str(t['owner']), '')}".strip()
                         for t in holder["tokens"])        # kind, side if any, whose

    parts = []
    for k, lot in enumerate(shown["lots"], 1):
        head = f"{k} {called(lot['id'])}" + (" (face down)" if lot["down"] else "")
        if lot["status"] != "open":
            head += f" ({lot['status']})"
        if lot["tokens"]:
            head += f" [{tokens_of(lot)}]"
        bids = [f"{who.get(str(b['owner']), b['owner'])} "
                f"{called(b['card']) if b['card'] or b['value'] is None else b['value']}+{b['coins']}"
                + (" face down" if b["down"] else "") + (f" [{tokens_of(b)}]" if b["tokens"] else "")
                for b in shown["bids"] if b["lot"] == k]
        parts.append(f"{head}: {', '.join(bids) or '-'}")
    return f"{name}:" + "".join("\n" + part for part in parts) if parts else f"{name}: none"


# ---------------------------------------------------------------- the component kind

SCHEMA = {
    "description": "A row of lots bid on with cards and stacked coins, resolved lot by lot.",
    "type": "object",
    "required": ["lots", "cards", "currency", "lot_to", "won_to", "lost_to"],
    "additionalProperties": False,
    "properties": {
        "lots": {"description": "The table whose records are laid as lots.",
                 "$ref": "#/definitions/name"},
        "cards": {"description": "The table of the bid cards.", "$ref": "#/definitions/name"},
        "currency": {"description": "The counter that prices and stacked coins are paid in.",
                     "$ref": "#/definitions/name"},
        "fields": {"description": "Which fields of the cards table hold the value, the stack "
                                  "limits face up and face down (a card without the latter has "
                                  "no face-down side) and the win and lose effects.",
                   "type": "object", "additionalProperties": False,
                   "properties": {key: {"description": f"The field holding the {what} (default: "
                                                       f"{key}).", "$ref": "#/definitions/name"}
                                  for key, what in FIELD_WORDS.items()}},
        "face_down": {"description": "How many lots at the end of the row are laid face down.",
                      "type": "integer", "minimum": 0, "default": 1},
        "tie": {"description": "A flow function of (bidder, lot) giving a number or a list of "
                               "numbers: among equal totals the smallest ranks first (default: "
                               "seat order).",
                "$ref": "#/definitions/name"},
        "price_modifier": {"description": "A modifier key added to every person's price (a "
                                          "discount is negative; a price is never below 0).",
                           "$ref": "#/definitions/name"},
        "stack_modifier": {"description": "A modifier key added to the bidder's stack limits.",
                           "$ref": "#/definitions/name"},
        "lot_to": {"description": "A flow function of (lot) giving the zone a settled lot goes "
                                  "to: it reads the lot's status (bought, unsold, awarded) and "
                                  "buyer (none: out of play).",
                   "$ref": "#/definitions/name"},
        "won_to": {"description": "A flow function of (card, owner) giving the zone a buyer's "
                                  "bid card goes to after the lot (none: out of play).",
                   "$ref": "#/definitions/name"},
        "lost_to": {"description": "The same for every other bid card.",
                    "$ref": "#/definitions/name"},
        "visible_to": {"description": "Who sees face-down lots (default: nobody; `show` "
                                      "lets one seat see one).",
                       "$ref": "#/definitions/visible_to"},
        "description": {"description": "What is auctioned.", "type": "string"},
    },
}


def check(rules, name, spec, problems, source) -> None:
    """The tables, counter, functions and modifier keys it names exist; its hook points fit."""
    from ..diagnostics import did_you_mean
    where = ("auctions", name)
    for key, known in (("lots", rules.table_specs), ("cards", rules.table_specs),
                       ("currency", rules.counters)):
        if spec[key] not in known:
            problems.add("unknown-name", f"auction '{name}': unknown {key} '{spec[key]}'", source,
                         where + (key,), hint=did_you_mean(spec[key], list(known)))
    for key, arity in (("tie", 2), ("lot_to", 1), ("won_to", 2), ("lost_to", 2)):
        fname = spec.get(key)
        if fname is None:
            continue
        if fname not in rules.functions:
            problems.add("unknown-name", f"auction '{name}': '{fname}' is not a flow function",
                         source, where + (key,), hint=did_you_mean(fname, list(rules.functions)))
        elif len(rules.functions[fname][0]) != arity:
            problems.add("bad-auction", f"'{fname}' must take {arity} values", source, where + (key,))
    for key in ("price_modifier", "stack_modifier"):
        if spec.get(key) is not None and spec[key] not in rules.modifier_keys:
            problems.add("unknown-name", f"auction '{name}': '{spec[key]}' is not a declared "
                         "modifier", source, where + (key,),
                         hint=did_you_mean(spec[key], list(rules.modifier_keys)))
    for hook, names in HOOKS.items():
        declared = rules.hooks.get(hook)
        if declared is not None and sorted(declared.get("names", [])) != sorted(names):
            problems.add("bad-auction", f"hook point '{hook}' is raised by the auction with the "
                         f"names {names}; flow.yaml declares {declared.get('names', [])}", source,
                         where)


def _new(spec, rules) -> dict:
    return {"lots": [], "bids": [], "next": 0, "current": None, "offer": None, "seen": []}


KIND = ComponentKind(
    section="auctions", state_key="auctions", schema=SCHEMA, where="table", sparse=True,
    new=_new,
    value=lambda ctx, name, owner: name,
    view=view,
    draw=draw,
    attributes={"auction lot": {"auction": "string", "lot": "number", "id": "id or none",
                                "blind": "bool", "down": "bool", "status": "string",
                                "buyer": "player or none", "price": "number or none",
                                "tokens": "list of record"},
                "auction bid": {"auction": "string", "bid": "number", "lot": "number",
                                "owner": "player", "by": "player", "card": "id or none",
                                "value": "number", "down": "bool", "coins": "number",
                                "tokens": "list of record"},
                "auction token": {"kind": "string", "owner": "player or none",
                                  "side": "string or none"}},
    check=check,
    deal=deal,
    language_kind=lambda spec, of_value: STRING,
    summary="Rows of lots bid on with cards and stacked coins (see mechanics/auction.py).")
