"""Zones: ordered lists of content ids (decks, piles, displays, hands).

The first item of a zone is its top. Zones are declared in the ruleset's
components, globally or per player, single or as a numbered group
(``pile: {count: 3}`` gives ``pile[1]`` .. ``pile[3]``).
"""
from __future__ import annotations

from ..engine import rng
from ..engine.values import RuleError, describe


def _zone(value, what: str) -> list:
    if type(value) is not list:
        raise RuleError(f"{what} must be a zone, got {describe(value)}")
    return value


def shuffle(ctx, arg, kw) -> None:
    """shuffle ZONE"""
    zone = _zone(arg, "'shuffle'")
    state = ctx.game.state
    state["rng"] = rng.shuffle(state["rng"], zone)
    ctx.game.log(f"shuffled {len(zone)} cards")


def move(ctx, arg, kw) -> None:
    """move N from ZONE to ZONE (from the top) / move ID from ZONE to ZONE"""
    source = _zone(kw.get("from"), "'from'")
    target = _zone(kw.get("to"), "'to'")
    if type(arg) is int:
        if arg > len(source):
            raise RuleError(f"cannot move {arg} from a zone of {len(source)}")
        taken = source[:arg]
        del source[:arg]
    else:
        if arg not in source:
            raise RuleError(f"{describe(arg)} is not in that zone")
        source.remove(arg)
        taken = [arg]
    target[0:0] = taken


def split(ctx, arg, kw) -> None:
    """split ZONE into GROUP: deal every card round-robin into the numbered zones"""
    source = _zone(arg, "'split'")
    group = kw.get("into")
    if type(group) is not list or not all(type(z) is list for z in group) or not group:
        raise RuleError("'split ... into' needs a numbered group of zones")
    for i, card in enumerate(source):
        group[i % len(group)].append(card)
    source.clear()


def top(ctx, args):
    """top(ZONE): the top item, or none when empty"""
    zone = _zone(args[0], "top()")
    return zone[0] if zone else None
