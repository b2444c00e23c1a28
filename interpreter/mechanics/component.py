"""What a component kind is: one entry of the registry in ``mechanics/__init__.py``.

A ruleset declares components in sections of its components file
(``counters:``, ``zones:``, ``tracks:`` ...); each section is one kind. A
kind says, in one place, everything the rest of Rulebook needs to know:
the schema of one declaration, the plain data it starts with, what its name
means in effect texts, what a player may see of it, how a terminal draws
it and what its values' attributes are. Adding a kind is adding a module
with one of these and one line in the registry.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..dsl.kinds import ANY
from ..model.values import to_plain

HIDDEN = object()        # a view function's answer for "this viewer sees nothing of it"


@dataclass(frozen=True)
class ComponentKind:
    """One section of components.yaml and how the engine treats its declarations.

    ``new(spec, rules)`` the initial data of one declaration;
    ``value(ctx, name, owner)`` what the name means in effect texts (owner: a
    seat, or None for the table's); ``view(game, name, spec, data, viewer,
    owner, can_see)`` what ``viewer`` sees of it (``HIDDEN`` for nothing;
    ``can_see(name, owner)`` reads the declared ``visible_to``);
    ``draw(rules, name, spec, shown)`` one line for a terminal (kinds without it
    are drawn by the terminal itself: counters, variables, zones, grids);
    ``check(rules, name, spec, problems, source)`` load-time checks;
    ``language_kind(spec, of_value)`` the kind (dsl.kinds) the checker gives its
    name, ``of_value`` giving the kind of a plain value;
    ``prepare(rules, name, spec)`` what is built once at load, kept in
    ``rules.prepared[name]`` (a graph); ``deal(game, name, spec, data, seen,
    table_of, slots, pools)`` for look-ahead, the data rebuilt from what the
    view shows, each hidden card a slot dealt from the pools of hidden cards
    (``table_of.get(card)`` names a card's pool: its table and kind, see
    ``engine/determinise``; kinds without it are copied or reset).
    A kind with no ``state_key`` holds no state.
    """
    section: str                     # its key in components.yaml
    state_key: str | None            # its data's key in a player's data and the table's
    schema: dict                     # the JSON Schema of one declaration
    where: str                       # "player", "table" or "declared" (per_player: true/false)
    new: Callable
    value: Callable
    view: Callable
    draw: Callable | None = None
    attributes: dict = field(default_factory=dict)   # value kind -> {attribute: its kind}
    check: Callable | None = None
    prepare: Callable | None = None
    deal: Callable | None = None
    sparse: bool = False             # in a state only when declared: older games' states unchanged
    language_kind: Callable = lambda spec, value_kind: ANY   # (spec, of_value) -> its name's Kind
    summary: str = ""
    # How generated code (engine/codegen.py) reads a value without calling ``value``: a Python
    # expression over ``{state}``, ``{name}`` and ``{owner}`` (names the generator fills in), or
    # ``pure``: ``value`` reads no state (a reference such as a zone's), so it is made once.
    read: str | None = None
    pure: bool = False

    def held(self, rules) -> bool:
        """Whether states of this ruleset hold the kind's section (a sparse kind: only if declared)."""
        return not self.sparse or bool(rules.declared[self.section])

    def per_player(self, spec) -> bool:
        """Whether each seat holds its own copy of this declaration."""
        if self.where == "declared":
            return isinstance(spec, dict) and bool(spec.get("per_player", self.default_per_player))
        return self.where == "player"

    @property
    def default_per_player(self) -> bool:
        return bool(self.schema.get("properties", {}).get("per_player", {}).get("default", False))


def visible_plain(game, name, spec, data, viewer, owner, can_see):
    """The view rule of plain values: shown whole when ``visible_to`` allows, else hidden."""
    return to_plain(data) if can_see(name, owner) else HIDDEN
