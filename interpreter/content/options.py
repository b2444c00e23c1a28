"""Game options: defaults filled in, and every value checked against its declaration.

Option kinds (``type`` in the manifest): ``choice`` (one of ``values`` or of a
table's ids), ``bool``, ``seats`` (1-based seat numbers) and ``subset`` (some
of ``values`` or of a table's ids, in table order, or as given when ``ordered``)
and ``per_seat`` (values in seat order,
one per seat from seat 1, each at most once, at most one per seat: seats
left out are the game's to fill). Text values, as typed on a command line,
are accepted too (``"true"``, ``"1,3"``, ``"2"`` for the number 2), so the
command line, scenario files and the API set every kind alike.
"""
from __future__ import annotations

from ..diagnostics import did_you_mean


def resolve_options(rules, given: dict, players: int) -> dict:
    """Fill defaults and check every option against its declaration (ValueError if wrong)."""
    out = {}
    for name in given:
        if name not in rules.options:
            hint = did_you_mean(name, list(rules.options))
            raise ValueError(f"'{rules.id}' has no option '{name}'" + (f" ({hint})" if hint else ""))
    for name, spec in rules.options.items():
        value = given.get(name, spec.get("default"))
        out[name] = _check_option(rules, name, spec, value, players, typed=name in given)
    for name, (expansion, why) in getattr(rules, "option_gates", {}).items():
        if out.get(name) is not True:                # an experimental expansion: said, not guessed
            raise ValueError(f"expansion '{expansion}' is experimental: {why.strip()} "
                             f"To play it anyway, set the option {name}=true "
                             f"(--option {name}=true)")
    return out


def default_problems(rules) -> dict:
    """Options whose default would be refused at some player count: name -> message.

    An option left out of a new game takes its default, so a default that
    ``resolve_options`` refuses (not among the values, the wrong type, a seat
    past the player count, or no default at all) would stop the first game.
    """
    found = {}
    low, high = rules.players["min"], rules.players["max"]
    for name, spec in rules.options.items():
        seats = spec.get("type") == "seats"
        for players in range(low, max(low, high) + 1) if seats else [low]:
            try:
                _check_option(rules, name, spec, spec.get("default"), players)
            except ValueError as exc:
                found[name] = f"{exc} (with {players} players)" if seats else str(exc)
                break
    return found


def _check_option(rules, name, spec, value, players, typed=False):
    """The value checked; ``typed`` (given, not the manifest's default): a text may name a number."""
    kind = spec.get("type", "choice")
    if kind == "bool":
        if isinstance(value, str):
            value = {"true": True, "false": False, "yes": True, "no": False}.get(value.lower(), value)
        if not isinstance(value, bool):
            raise ValueError(f"option '{name}' is true or false, not {value!r}")
    elif kind == "choice":
        allowed = spec.get("values") or rules.tables.get(spec.get("table"), [])
        value = _from_text(value, allowed) if typed else value
        if value not in allowed:
            raise ValueError(f"option '{name}' must be one of {', '.join(map(str, allowed))}, not {value!r}")
    elif kind == "per_seat":
        value = _per_seat(rules, name, spec, value, players, typed)
    elif kind in ("seats", "subset"):
        if isinstance(value, str):
            value = [v for v in value.split(",") if v]
        if not isinstance(value, list):
            raise ValueError(f"option '{name}' takes a list, not {value!r}")
        allowed = (list(range(1, players + 1)) if kind == "seats"
                   else spec.get("values") or rules.tables.get(spec.get("table"), []))
        if kind == "subset" and typed:
            value = [_from_text(v, allowed) for v in value]
        if kind == "seats":
            try:
                value = [int(v) for v in value]
            except (TypeError, ValueError):
                raise ValueError(f"option '{name}' lists seat numbers, not {value!r}") from None
        bad = [v for v in value if v not in allowed]
        if bad:
            raise ValueError(f"option '{name}': {', '.join(map(str, bad))} not among "
                             f"{', '.join(map(str, allowed))}")
        if spec.get("ordered") and kind == "subset":
            value = list(dict.fromkeys(value))        # as given, each value once
        else:
            value = sorted(set(value), key=allowed.index)
    return value


def _per_seat(rules, name, spec, value, players, typed) -> list:
    """A list in seat order: allowed values, none twice, no more than there are seats."""
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, list):
        raise ValueError(f"option '{name}' takes a list in seat order, not {value!r}")
    allowed = spec.get("values") or rules.tables.get(spec.get("table"), [])
    if typed:
        value = [_from_text(v, allowed) for v in value]
    bad = [v for v in value if v not in allowed]
    if bad:
        raise ValueError(f"option '{name}': {', '.join(map(str, bad))} not among "
                         f"{', '.join(map(str, allowed))}")
    if len(set(map(str, value))) < len(value):
        raise ValueError(f"option '{name}' names a value twice: {', '.join(map(str, value))}")
    if len(value) > players:
        raise ValueError(f"option '{name}' gives {len(value)} values for {players} seats")
    return value


def _from_text(value, allowed: list):
    """The allowed value a text names (``"2"`` for 2), as typed on a command line; else unchanged."""
    if isinstance(value, str) and value not in allowed:
        for candidate in allowed:
            if not isinstance(candidate, bool) and str(candidate) == value:
                return candidate
    return value
