"""Zones: ordered lists of content ids (decks, piles, displays, hands).

The first item of a zone is its top. Zones are declared in the ruleset's
components, globally or per player, single or as a numbered group
(``pile: {count: 3}`` gives ``pile[1]`` .. ``pile[3]``).

Per-viewer knowledge: ``reveal CARD to P`` lets P see that card where it
lies, in a zone P could not otherwise see. It is plain data in
``state["known"]`` (made by the first reveal): a list of ``{"seat": i,
"zone": [name, owner seat or None, pile number or None], "card": id}``. The
knowledge lasts while the card stays in that zone (cards moved on or off it
shift where it is, and the viewer still knows it); moving the card itself,
or shuffling the zone, ends it.
"""
from __future__ import annotations

from ..model import rng
from ..model.values import RuleError, Zone, describe, items_of, seat, to_plain, truth, zone_list
from ..dsl import kinds
from .component import ComponentKind


def _zone(ctx, value, what: str, write: bool = True) -> list:
    """The live list behind a zone reference (verbs are the only writers)."""
    if type(value) is not Zone:
        raise RuleError(f"{what} must be a zone, got {describe(value)}")
    game = ctx.game
    if write and value.of is not None and game.block_open:     # ``guard`` refuses only a seat's
        game.guard(value.of, value.name)                         # zone, inside a block
    live = zone_list(game.state, value)
    if value.n is None and live and type(live[0]) is list:
        raise RuleError(f"{what} is a numbered group: name one of it, like {value.name}[1]")
    return live


def shuffle(ctx, arg, kw) -> None:
    """shuffle ZONE"""
    zone = _zone(ctx, arg, "'shuffle'")
    state = ctx.game.state
    state["rng"] = rng.shuffle(state["rng"], zone)
    _forget(state, zone, zone)
    ctx.game.log(f"shuffled {len(zone)} cards")


def move(ctx, arg, kw) -> None:
    """move N from ZONE to ZONE (from the top) / move ID from ZONE to ZONE [at "bottom"]"""
    source = _zone(ctx, kw.get("from"), "'from'")
    target = _zone(ctx, kw.get("to"), "'to'")
    where = kw.get("at", "top")
    if where not in ("top", "bottom"):
        raise RuleError(f"'move ... at' takes \"top\" or \"bottom\", got {describe(where)}")
    if type(arg) is int:
        if not 0 <= arg <= len(source):
            raise RuleError(f"cannot move {arg} from a zone of {len(source)}")
        taken = source[:arg]
        del source[:arg]
    else:
        if arg not in source:
            raise RuleError(f"{describe(arg)} is not in that zone")
        source.remove(arg)
        taken = [arg]
    _forget(ctx.game.state, source, taken)
    at = 0 if where == "top" else len(target)      # the first item is the top
    target[at:at] = taken
    ctx.game.log_move(taken, kw["from"], kw["to"])


def split(ctx, arg, kw) -> None:
    """split ZONE into GROUP: deal every card round-robin into the numbered zones"""
    source = _zone(ctx, arg, "'split'")
    into = kw.get("into")
    group = zone_list(ctx.game.state, into) if type(into) is Zone and into.n is None else None
    if not group or not all(type(z) is list for z in group):
        raise RuleError("'split ... into' needs a numbered group of zones")
    ctx.game.guard(into.of, into.name)
    for i, card in enumerate(source):
        group[i % len(group)].append(card)
    _forget(ctx.game.state, source, source)
    source.clear()


def top(ctx, args):
    """top(ZONE): the top item, or none when empty"""
    zone = _zone(ctx, args[0], "top()", write=False)
    return zone[0] if zone else None


def arrange(ctx, arg, kw) -> None:
    """arrange ZONE to LIST: put these ids on top of ZONE, in order, from wherever they are

    Where several zones hold a copy, the card is taken from ZONE itself, else
    from its owner's zones, else from the table's, else from the other seats'
    in seat order (each in declaration order).
    """
    target = _zone(ctx, arg, "'arrange'")
    wanted = items_of(kw.get("to"), ctx.game.state)
    if type(wanted) is not list:
        raise RuleError("'arrange ... to' needs a list of ids")
    if not wanted:                  # never a silent no-op: the author meant something else
        raise RuleError("'arrange ... to []' puts no card on top: to empty a zone, or make it "
                        "hold exactly some cards, write 'fill ZONE with [...]'")
    _take(ctx, arg, wanted, "'arrange'")
    target[0:0] = wanted


def fill(ctx, arg, kw) -> None:
    """fill ZONE with LIST: ZONE holds exactly these ids, top first, taken from wherever they are

    Cards are found as ``arrange`` finds them. The cards ZONE held that LIST
    does not name leave play (they are in no zone afterwards, as if back in
    the box); ``fill ZONE with []`` empties it.
    """
    target = _zone(ctx, arg, "'fill'")
    wanted = items_of(kw.get("with"), ctx.game.state)
    if type(wanted) is not list:
        raise RuleError("'fill ... with' needs a list of ids")
    if len(set(wanted)) != len(wanted):
        raise RuleError("'fill' names a card twice")
    _take(ctx, arg, [card for card in wanted if card not in target], "'fill'")
    _forget(ctx.game.state, target, list(target))
    target[:] = wanted


def _take(ctx, near: Zone, wanted: list, verb: str) -> None:
    """Take each of ``wanted`` out of the zone holding it (``near`` first), checking all first."""
    holders = [_find(ctx.game.state, card, near) for card in wanted]   # check all before moving any
    for card, holder in zip(wanted, holders):
        if holder is None:
            raise RuleError(f"{describe(card)} is in no zone")
    if len(set(wanted)) != len(wanted):
        raise RuleError(f"{verb} names a card twice")
    for card, holder in zip(wanted, holders):
        _forget(ctx.game.state, holder, [card])
        holder.remove(card)


def _find(state, card, near: Zone | None = None):
    """The zone list holding ``card``: ``near`` itself, then its owner's, then the table's, then the rest."""
    ref = _where(state, card, near)
    return None if ref is None else zone_list(state, ref)


def _where(state, card, near: Zone | None = None) -> Zone | None:
    """The zone holding ``card`` (the table's first, then each player's), or None.

    With ``near``: that zone first, then the zones of its owner, then as above.
    """
    places = [(name, None, zone) for name, zone in state["zones"].items()]
    for i, player in enumerate(state["players"]):
        places += [(name, i, zone) for name, zone in player["zones"].items()]
    if near is not None:
        if card in zone_list(state, near):
            return near
        if near.of is not None:                                  # the owner's zones come first
            places = [p for p in places if p[1] == near.of] + [p for p in places if p[1] != near.of]
    for name, of, zone in places:
        if zone and type(zone[0]) is list:
            for n, pile in enumerate(zone, 1):
                if card in pile:
                    return Zone(name, of, n)
        elif card in zone:
            return Zone(name, of)
    return None


# ---------------------------------------------------------------- knowledge

def reveal(ctx, arg, kw) -> None:
    """reveal CARD(S) to P (or a list of players): each may see those cards where they lie"""
    state = ctx.game.state
    cards = items_of(arg, state)
    cards = cards if type(cards) is list else [cards]
    to = kw.get("to")
    seats = [seat(p) for p in (to if type(to) is list else [to])]
    places = [_where(state, card) for card in cards]        # check all before recording any
    for card, place in zip(cards, places):
        if place is None:
            raise RuleError(f"{describe(card)} is in no zone: only a card in a zone can be revealed")
    known = state.setdefault("known", [])
    for card, place in zip(cards, places):
        for i in seats:
            entry = {"seat": i, "zone": [place.name, place.of, place.n], "card": card}
            if entry not in known:
                known.append(entry)
    if cards and seats:
        ctx.game.log(f"revealed {', '.join(map(describe, cards))} to you", to=seats)


def known_cards(state, viewer: int, name: str, owner: int | None, n: int | None) -> set:
    """The cards ``viewer`` has been shown in one zone (and that are still there)."""
    where = [name, owner, n]
    return {entry["card"] for entry in state.get("known", ())
            if entry["seat"] == viewer and entry["zone"] == where}


def _forget(state, live: list, cards) -> None:
    """Knowledge of ``cards`` in the zone whose live list is ``live`` ends."""
    known = state.get("known")
    if not known:
        return
    gone = set(cards)
    known[:] = [entry for entry in known if entry["card"] not in gone
                or zone_list(state, Zone(*entry["zone"])) is not live]


# ---------------------------------------------------------------- the component kind

def new_zone(spec: dict, rules):
    """An empty zone, a numbered group of them, or one holding a whole table (``from``)."""
    count = spec.get("count")
    if count:
        return [[] for _ in range(count)]
    return list(rules.tables[spec["from"]]) if "from" in spec else []


def start_filled(game) -> None:
    """Trim the zones filled ``from`` a table to their ``where`` and ``limit`` (at set-up)."""
    rules = game.rules
    for name, (where, limit) in rules.zone_fill.items():
        holders = ([p["zones"] for p in game.state["players"]]
                   if rules.zones[name].get("per_player") else [game.state["zones"]])
        for zones in holders:
            cards = zones[name]
            if where is not None:
                cards = [c for c in cards if truth(game.evaluate(where, env={"this": c}), game.state)]
            if limit is not None:
                count = game.evaluate(limit)
                if type(count) is not int or count < 0:
                    raise RuleError(f"zone '{name}': its limit must be a whole number, got "
                                    f"{describe(count)}")
                cards = cards[:count]
            zones[name] = cards


def language_kind(spec: dict):
    """A zone of its table's records (anything without ``from``), or a numbered group of them."""
    zone = kinds.Zone(kinds.Record(spec["from"]) if "from" in spec else kinds.ANY)
    return kinds.Group(zone) if "count" in spec else zone


def view(game, name, spec, cards, viewer, owner, can_see, n=None):
    """Cards, a count, the top card, or the top card's shown fields, as declared; and
    ``known``: {position from the top (1 is the top): card} of the cards revealed
    to the viewer that it would not otherwise see there."""
    if cards and type(cards[0]) is list:                     # a numbered group
        return [view(game, name, spec, zone, viewer, owner, can_see, k)
                for k, zone in enumerate(cards, 1)]
    mode = spec.get("visible", "all")
    if mode == "owner" and owner is not None and viewer != owner:
        mode = "count"
    if not can_see(name, viewer if owner is None else owner):
        mode = "count"
    out = {"count": len(cards)}
    if mode in ("all", "owner"):
        out["cards"] = list(cards)
    elif mode == "top" and cards:
        out["top"] = cards[0]
    if "cards" not in out:
        known = known_cards(game.state, viewer, name, owner, n)
        shown = {str(k): card for k, card in enumerate(cards, 1)
                 if card in known and not (k == 1 and "top" in out)}
        if shown:
            out["known"] = shown
    if cards and spec.get("top_fields"):
        record = game.rules.entities.get(cards[0], {})
        out["top_fields"] = {f: to_plain(record.get(f)) for f in spec["top_fields"]}
    return out


SCHEMA = {'description': 'A place cards or pieces sit in order: a pile, hand, row or deck.',
 'type': 'object',
 'additionalProperties': False,
 'properties': {'per_player': {'description': 'Each player has one of their own.',
                               'type': 'boolean',
                               'default': False},
                'count': {'description': 'How many separate piles the zone has (indexed from '
                                         '1; at most 1,000: each is built at the start of a game); left out: one.',
                          'type': 'integer',
                          'minimum': 1,
                          'maximum': 1000},
                'from': {'description': 'A table whose records, in table order, the zone holds '
                                        'when the game starts.',
                         '$ref': '#/definitions/name'},
                'where': {'description': 'With from: only the records for which this condition '
                                         'holds (this: the record; options and player_count may '
                                         'be read).',
                          'type': 'string'},
                'limit': {'description': 'With from: at most this many of them, the first in '
                                         'table order (an expression: a number, which may read '
                                         'options and player_count).',
                          'type': 'string'},
                'visible': {'description': 'What players see: all items, only how many, the '
                                           'top item too, or (owner) all for the owner and the '
                                           'count for others.',
                            'enum': ['all', 'count', 'top', 'owner'],
                            'default': 'all'},
                'top_fields': {'description': 'Fields of the top item shown even when the zone '
                                              'shows only its count.',
                               'type': 'array',
                               'items': {'description': 'A field name.',
                                         'type': 'string',
                                         'pattern': '^[a-z][a-z0-9_]*$'}},
                'visible_to': {'description': 'Who may see this zone at all.',
                               '$ref': '#/definitions/visible_to'},
                'description': {'description': 'What the zone holds.', 'type': 'string'}},
 'not': {'description': 'A zone of several piles starts empty: count and from exclude each '
                        'other.',
         'required': ['count', 'from']}}

KIND = ComponentKind(
    section="zones", state_key="zones", schema=SCHEMA, where="declared",
    new=new_zone,
    value=lambda ctx, name, owner: Zone(name, owner),
    view=view,
    language_kind=lambda spec, of_value: language_kind(spec),
    summary="Piles, hands, rows and decks, by name.",
    pure=True)
