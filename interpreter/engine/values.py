"""How effect-language values look inside the (JSON-able) game state.

Numbers, strings, booleans, none, lists and records are themselves. Things in
the game are small records, so they survive a JSON round trip unchanged:

  a player   {"player": 2}
  a grid     {"grid": "board", "of": 2}
  a room     {"grid": "board", "of": 2, "r": 3, "c": 4}
  a side     {"grid": "board", "of": 2, "r": 3, "c": 4, "side": "e"}
  an effect  {"effect": "<program key>"}
  a zone     {"zone": "hand", "of": 2}  (a numbered one adds "n": 1)

A zone is always referred to, never copied into a value: only the zone verbs
touch its list in the state, so no local, frame or option can alias it.

Content records (cards, boards, ...) are referred to by their id string.
"""
from __future__ import annotations


class RuleError(Exception):
    """Content asked for something impossible at run time (a content bug)."""


def player(i: int) -> dict:
    return {"player": i}


def seat(value) -> int:
    """The seat index of a player value."""
    if type(value) is dict and "player" in value:
        return value["player"]
    raise RuleError(f"expected a player, got {describe(value)}")


def plain_copy(value):
    """A deep copy of plain data (dicts, lists, scalars); much faster than copy.deepcopy."""
    kind = type(value)
    if kind is dict:
        return {k: plain_copy(v) for k, v in value.items()}
    if kind is list:
        return [plain_copy(v) for v in value]
    return value


def is_zone(value) -> bool:
    return type(value) is dict and "zone" in value


def zone_list(state: dict, ref: dict) -> list:
    """The live list of a zone reference (a numbered group gives its list of lists)."""
    of = ref.get("of")
    zones = state["zones"] if of is None else state["players"][of]["zones"]
    live = zones[ref["zone"]]
    n = ref.get("n")
    return live if n is None else live[n - 1]


def items_of(value, state: dict):
    """What iterating over a value gives: a zone's ids (copied), a group's zones, a list."""
    if type(value) is dict and "zone" in value:
        live = zone_list(state, value)
        if "n" not in value and live and type(live[0]) is list:
            return [dict(value, n=k) for k in range(1, len(live) + 1)]
        return list(live)
    return value


def truth(value, state: dict) -> bool:
    """Whether a value counts as true; a zone counts by its cards (empty is false)."""
    if type(value) is dict and "zone" in value:
        return bool(zone_list(state, value))
    return bool(value)


def describe(value) -> str:
    """A short readable label for any value (option labels, log lines)."""
    if type(value) is dict:
        if "player" in value:
            return f"P{value['player'] + 1}"
        if "side" in value:
            return f"{room_name(value)} {SIDE_WORDS[value['side']]} side"
        if "r" in value:
            return room_name(value)
        if "effect" in value:
            return value["effect"]
        if "zone" in value:
            owner = "" if value.get("of") is None else f"P{value['of'] + 1}'s "
            return f"{owner}{value['zone']}" + (f" #{value['n']}" if "n" in value else "")
        return "{" + ", ".join(f"{k}: {describe(v)}" for k, v in value.items()) + "}"
    if type(value) is list:
        return "[" + ", ".join(describe(v) for v in value) + "]"
    if value is None:
        return "none"
    if value is True or value is False:
        return "true" if value else "false"
    return str(value)


SIDE_WORDS = {"n": "north", "e": "east", "s": "south", "w": "west"}


def room_name(room: dict) -> str:
    """Rooms read like a chess board: column letter, row number (C5 = row 5, column 3)."""
    return f"{'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[room['c'] - 1]}{room['r']}"
