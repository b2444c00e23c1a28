"""Checking a saved state (or a game log) before it is trusted.

``schemas/state.schema.json`` says what a saved state looks like;
``check_state`` holds a parsed state to it, then to the ruleset it claims to
be a game of (node ids, seats, component names), so a tampered or foreign
state is refused with the JSON path of what is wrong, never played. Only
``Game.from_json`` pays for this: ``clone`` copies a state already trusted.
"""
from __future__ import annotations

import functools
import json

from ..content.bundled import SCHEMAS
from ..content.schema_check import strict_validator


class StateError(ValueError):
    """A saved state or log that cannot be read back: says where (a JSON path) and what."""


@functools.cache
def _validator(name: str):
    """Integers strict, as in content files: a counter of ``3.0`` or a ``1.0``-th option is
    refused here, not met in play (JSON Schema's own ``integer`` admits them)."""
    schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    return strict_validator(schema)


def json_path(parts) -> str:
    """``["players", 0, "counters"]`` -> ``$.players[0].counters``."""
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)


def check_schema(data, schema: str, what: str) -> None:
    """Refuse ``data`` unless it matches ``schemas/<schema>``; the first (deepest) error is named."""
    from jsonschema.exceptions import best_match
    error = best_match(_validator(schema).iter_errors(data))
    if error is not None:
        raise StateError(f"not a valid {what}: at {json_path(error.absolute_path)}: {error.message}")


def check_state(rules, data) -> None:
    """Refuse a parsed (plain JSON) state that is not a game of ``rules`` this version can continue."""
    check_schema(data, "state.schema.json", "saved state")
    if data["game"] != rules.id:
        raise StateError(f"this state is a game of '{data['game']}', not '{rules.id}'")
    if data["fingerprint"] != rules.fingerprint:
        raise StateError("this state was saved with a different version of the ruleset")
    seats = data["people"] + len(data["scripted"])
    _expect(len(data["players"]) == seats, ["players"],
            f"{len(data['players'])} seats, but the state has {seats} (people and scripted seats)")
    _check_sections(rules, data, seats)
    _check_flow(rules, data["flow"], data["people"], seats)
    for i, (player, index) in enumerate(data["history"]):
        _expect(player < data["people"], ["history", i, 0], f"seat {player} is not a person's seat")
    for i, line in enumerate(data["log"]):
        _expect(all(s < seats for s in line["to"] or ()), ["log", i, "to"], "no such seat")


def _check_sections(rules, data, seats: int) -> None:
    """Every seat and the table hold exactly the components the ruleset declares."""
    from .game import _new_components
    expected = {True: _new_components(rules, True), False: _new_components(rules, False)}
    places = [(["players", i], data["players"][i], True) for i in range(seats)]
    places.append(([], data, False))
    for path, holder, per_player in places:
        for section, names in expected[per_player].items():
            if section == "earned":                    # filled as counters are gained
                names = rules.counters
            got = holder.get(section)
            _expect(isinstance(got, dict), path + [section], "missing")
            unknown = sorted(set(got) - set(names))
            missing = sorted(set(names) - set(got)) if section != "earned" else []
            _expect(not unknown, path + [section], f"the ruleset declares no {', '.join(unknown)}")
            _expect(not missing, path + [section], f"missing {', '.join(missing)}")


def _check_flow(rules, flow: dict, people: int, seats: int) -> None:
    threads = [(["flow", "main"], flow["main"])]
    threads += [(["flow", "threads", i], th) for i, th in enumerate(flow["threads"])]
    for path, th in threads:
        for j, frame in enumerate(th["frames"]):
            _expect(frame["n"] < len(rules.nodes), path + ["frames", j, "n"],
                    f"node {frame['n']} does not exist in this ruleset")
        pending = th["pending"]
        if pending is not None:
            _expect(th["frames"], path + ["pending"], "a decision with no statement waiting on it")
            _expect(pending["player"] < people, path + ["pending", "player"],
                    f"seat {pending['player']} is not a person's seat")
    _check_seats(flow, ["flow"], seats)


def _check_seats(value, path: list, seats: int) -> None:
    """Every seat an engine value names exists (a player, or the owner of a zone, grid, ...)."""
    if isinstance(value, dict):
        if value.get("$") is not None:
            seat = value.get("seat", value.get("of"))
            _expect(seat is None or seat < seats, path, f"seat {seat} is not in this game")
            return
        for key, item in value.items():
            _check_seats(item, path + [key], seats)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_seats(item, path + [i], seats)


def _expect(condition, path: list, message: str) -> None:
    if not condition:
        raise StateError(f"not a valid saved state: at {json_path(path)}: {message}")
