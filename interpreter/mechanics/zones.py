"""Zones: ordered lists of content ids (decks, piles, displays, hands).

The first item of a zone is its top. Zones are declared in the ruleset's
components, globally or per player, single or as a numbered group
(``pile: {count: 3}`` gives ``pile[1]`` .. ``pile[3]``).
"""
from __future__ import annotations

from ..model import rng
from ..model.values import RuleError, Zone, describe, items_of, to_plain, zone_list
from ..dsl import kinds
from .component import ComponentKind


def _zone(ctx, value, what: str) -> list:
    """The live list behind a zone reference (verbs are the only writers)."""
    if type(value) is not Zone:
        raise RuleError(f"{what} must be a zone, got {describe(value)}")
    live = zone_list(ctx.game.state, value)
    if live and type(live[0]) is list:
        raise RuleError(f"{what} is a numbered group: name one of it, like {value.name}[1]")
    return live


def shuffle(ctx, arg, kw) -> None:
    """shuffle ZONE"""
    zone = _zone(ctx, arg, "'shuffle'")
    state = ctx.game.state
    state["rng"] = rng.shuffle(state["rng"], zone)
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
    at = 0 if where == "top" else len(target)      # the first item is the top
    target[at:at] = taken


def split(ctx, arg, kw) -> None:
    """split ZONE into GROUP: deal every card round-robin into the numbered zones"""
    source = _zone(ctx, arg, "'split'")
    into = kw.get("into")
    group = zone_list(ctx.game.state, into) if type(into) is Zone and into.n is None else None
    if not group or not all(type(z) is list for z in group):
        raise RuleError("'split ... into' needs a numbered group of zones")
    for i, card in enumerate(source):
        group[i % len(group)].append(card)
    source.clear()


def top(ctx, args):
    """top(ZONE): the top item, or none when empty"""
    zone = _zone(ctx, args[0], "top()")
    return zone[0] if zone else None


def arrange(ctx, arg, kw) -> None:
    """arrange ZONE to LIST: put these ids on top of ZONE, in order, from wherever they are"""
    target = _zone(ctx, arg, "'arrange'")
    wanted = items_of(kw.get("to"), ctx.game.state)
    if type(wanted) is not list:
        raise RuleError("'arrange ... to' needs a list of ids")
    holders = [_find(ctx.game.state, card) for card in wanted]   # check all before moving any
    for card, holder in zip(wanted, holders):
        if holder is None:
            raise RuleError(f"{describe(card)} is in no zone")
    if len(set(wanted)) != len(wanted):
        raise RuleError("'arrange' names a card twice")
    for card, holder in zip(wanted, holders):
        holder.remove(card)
    target[0:0] = wanted


def _find(state, card):
    """The zone list holding ``card``, searching the table and every player."""
    places = list(state["zones"].values())
    for player in state["players"]:
        places += list(player["zones"].values())
    for zone in places:
        groups = zone if zone and type(zone[0]) is list else [zone]
        for z in groups:
            if card in z:
                return z
    return None


# ---------------------------------------------------------------- the component kind

def new_zone(spec: dict, rules):
    """An empty zone, a numbered group of them, or one holding a whole table (``from``)."""
    count = spec.get("count")
    if count:
        return [[] for _ in range(count)]
    return list(rules.tables[spec["from"]]) if "from" in spec else []


def language_kind(spec: dict):
    """A zone of its table's records (anything without ``from``), or a numbered group of them."""
    zone = kinds.Zone(kinds.Record(spec["from"]) if "from" in spec else kinds.ANY)
    return kinds.Group(zone) if "count" in spec else zone


def view(game, name, spec, cards, viewer, owner, can_see):
    """Cards, a count, the top card, or the top card's shown fields, as declared."""
    if cards and type(cards[0]) is list:                     # a numbered group
        return [view(game, name, spec, zone, viewer, owner, can_see) for zone in cards]
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
                                         '1); left out: one.',
                          'type': 'integer',
                          'minimum': 1},
                'from': {'description': 'A table whose records, in table order, the zone holds '
                                        'when the game starts.',
                         '$ref': '#/definitions/name'},
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
    summary="Piles, hands, rows and decks, by name.")
