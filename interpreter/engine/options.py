"""Game options: defaults filled in, and every value checked against its declaration.

Option kinds (``type`` in the manifest): ``choice`` (one of ``values`` or of a
table's ids), ``bool``, ``seats`` (1-based seat numbers) and ``subset`` (some
of ``values`` or of a table's ids). Text values, as typed on a command line,
are accepted too (``"true"``, ``"1,3"``).
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
        out[name] = _check_option(rules, name, spec, value, players)
    return out


def _check_option(rules, name, spec, value, players):
    kind = spec.get("type", "choice")
    if kind == "bool":
        if isinstance(value, str):
            value = {"true": True, "false": False, "yes": True, "no": False}.get(value.lower(), value)
        if not isinstance(value, bool):
            raise ValueError(f"option '{name}' is true or false, not {value!r}")
    elif kind == "choice":
        allowed = spec.get("values") or rules.tables.get(spec.get("table"), [])
        if value not in allowed:
            raise ValueError(f"option '{name}' must be one of {', '.join(map(str, allowed))}, not {value!r}")
    elif kind in ("seats", "subset"):
        if isinstance(value, str):
            value = [v for v in value.split(",") if v]
        allowed = (list(range(1, players + 1)) if kind == "seats"
                   else spec.get("values") or rules.tables.get(spec.get("table"), []))
        if kind == "seats":
            try:
                value = [int(v) for v in value]
            except (TypeError, ValueError):
                raise ValueError(f"option '{name}' lists seat numbers, not {value!r}") from None
        bad = [v for v in value if v not in allowed]
        if bad:
            raise ValueError(f"option '{name}': {', '.join(map(str, bad))} not among "
                             f"{', '.join(map(str, allowed))}")
        value = sorted(set(value), key=allowed.index)
    return value
