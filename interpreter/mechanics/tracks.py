"""Tracks: a row of spaces a marker moves along, each space a record of a table.

Declared in a ruleset's components (``tracks: {fame: {spaces: fame_spaces}}``),
per player (the default) or one for the table. The spaces are the records of
the named table, in table order, numbered from 1; a marker starts at
``start`` (0: before the first space). ``advance TRACK by N`` moves the
marker and runs the ``enter`` effect of every space it enters or passes, in
order, as programs of their own (``self`` the owner, ``this`` the space), so
a space may advance another track and the chain runs depth first. Going
past the last space follows ``past_end``: the steps that do not fit are lost,
or a procedure runs once with their number. A negative N moves back and
runs nothing. ``reading(TRACK, "field")`` reads a field of the current space,
or of the nearest space to its left that has it (an income track).
"""
from __future__ import annotations

from ..model.values import PLAYERS, RuleError, Track, describe
from ..dsl.kinds import TRACK
from .component import ComponentKind, visible_plain


def _position(game, track: Track) -> int:
    state = game.state
    holder = state if track.of is None else state["players"][track.of]
    return holder["tracks"][track.name]


def _set(game, track: Track, value: int) -> None:
    game.guard(track.of, track.name)
    state = game.state
    holder = state if track.of is None else state["players"][track.of]
    holder["tracks"][track.name] = value


def _spaces(game, track: Track) -> list:
    return game.rules.tables[game.rules.declared["tracks"][track.name]["spaces"]]


def _check(value) -> Track:
    if type(value) is not Track:
        raise RuleError(f"expected a track, got {describe(value)}")
    return value


# ---------------------------------------------------------------- the language

def attribute(track: Track, name: str, ctx):
    """``t.position`` (0 before the first space), ``t.space`` (its record, or none), ``t.last``."""
    game = ctx.game
    if name == "position":
        return _position(game, track)
    if name == "space":
        at = _position(game, track)
        return _spaces(game, track)[at - 1] if at > 0 else None
    if name == "last":
        return len(_spaces(game, track))
    if name == "owner":
        return None if track.of is None else PLAYERS[track.of]
    raise RuleError(f"a track has no '{name}' (it has position, space, last)")


def reading(ctx, args):
    """reading(TRACK, "field"): the field on the current space or the nearest one left of it"""
    track, field = _check(args[0]), args[1]
    spaces = _spaces(ctx.game, track)
    for rid in reversed(spaces[:_position(ctx.game, track)]):
        value = ctx.game.rules.entities[rid].get(field)
        if value is not None:
            return value
    return None


def advance(ctx, arg, kw) -> None:
    """advance TRACK by N: move the marker, running every space entered or passed"""
    game = ctx.game
    track = _check(arg)
    steps = kw.get("by")
    if type(steps) is not int:
        raise RuleError(f"'advance' moves by a whole number, got {describe(steps)}")
    spec = game.rules.declared["tracks"][track.name]
    spaces = _spaces(game, track)
    at = _position(game, track)
    target = max(0, at + steps)
    end = min(target, len(spaces))
    _set(game, track, end)
    who = "" if track.of is None else f"{game.seat_name(track.of)}: "
    game.log_to_viewers(f"{who}{track.name} {'up' if steps >= 0 else 'down'} to {end}", "tracks",
                        track.name, track.of)
    owner = ctx.env.get("self") if track.of is None else PLAYERS[track.of]
    field = spec.get("enter", "enter")
    for rid in spaces[at:end]:                      # entered or passed, in order
        effect = game.rules.entities[rid].get(field)
        if effect is not None:
            game.call(game.rules.effects[effect.key], {"self": owner, "this": rid})
    extra = target - end
    if extra > 0 and spec.get("past_end"):
        params, root = game.rules.procedures[spec["past_end"]]
        env = {"self": owner}
        if params:
            env[params[0]] = extra
        game.call(root, env)


# ---------------------------------------------------------------- the component kind

SCHEMA = {
    "description": "A row of spaces a marker moves along; entering or passing a space runs its effect.",
    "type": "object",
    "required": ["spaces"],
    "additionalProperties": False,
    "properties": {
        "per_player": {"description": "Each player has a marker of their own (default); false: "
                                      "one marker for the table.",
                       "type": "boolean", "default": True},
        "spaces": {"description": "The table whose records, in table order, are the spaces 1, 2, "
                                  "... of the track.",
                   "$ref": "#/definitions/name"},
        "start": {"description": "Where markers start: 0 is before the first space.",
                  "type": "integer", "minimum": 0, "default": 0},
        "enter": {"description": "The effect field of a space run when a marker enters or passes "
                                 "it (default: enter).",
                  "$ref": "#/definitions/name"},
        "past_end": {"description": "A procedure run once when a marker would go past the last "
                                    "space, given how many steps did not fit; left out, they "
                                    "are lost.",
                     "$ref": "#/definitions/name"},
        "visible_to": {"description": "Who may see the marker (default: everyone).",
                       "$ref": "#/definitions/visible_to"},
        "description": {"description": "What the track measures.", "type": "string"},
    },
}


def check(rules, name, spec, problems, source) -> None:
    """The spaces table, its enter field and the past-end procedure exist; start fits."""
    from ..diagnostics import did_you_mean
    where = ("tracks", name)
    table = spec["spaces"]
    if table not in rules.table_specs:
        problems.add("unknown-name", f"track '{name}' has spaces from an unknown table '{table}'",
                     source, where + ("spaces",), hint=did_you_mean(table, list(rules.table_specs)))
        return
    field = spec.get("enter", "enter")
    declared = rules.table_specs[table].get("fields", {}).get(field)
    if declared is not None and declared.get("type") != "effect":
        problems.add("bad-track", f"'{field}' of table '{table}' must be an effect to be run when "
                     "a space is entered", source, where + ("enter",))
    elif declared is None and "enter" in spec:
        problems.add("unknown-name", f"table '{table}' has no field '{field}'", source,
                     where + ("enter",))
    if spec.get("start", 0) > len(rules.tables.get(table, [])):
        problems.add("bad-track", f"track '{name}' starts past its last space", source,
                     where + ("start",))
    proc = spec.get("past_end")
    if proc is not None and proc not in rules.procedures:
        problems.add("unknown-name", f"track '{name}' runs an unknown procedure '{proc}'", source,
                     where + ("past_end",), hint=did_you_mean(proc, list(rules.procedures)))


def draw(rules, name, spec, position) -> str:
    """``fame 3/5``: the marker's space and the track's length."""
    return f"{name} {position}/{len(rules.tables[spec['spaces']])}"


KIND = ComponentKind(
    section="tracks", state_key="tracks", schema=SCHEMA, where="declared",
    new=lambda spec, rules: spec.get("start", 0),
    value=lambda ctx, name, owner: Track(name, owner),
    view=visible_plain,
    draw=draw,
    attributes={"track": {"position": "number", "space": "id or none", "last": "number",
                          "owner": "player or none"}},
    check=check,
    language_kind=lambda spec, of_value: TRACK,
    summary="Rows of spaces a marker moves along, by name (per player unless per_player: false).")
