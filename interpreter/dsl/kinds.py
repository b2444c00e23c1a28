"""Kinds: what sort of value an effect-language expression has, known before play.

The checker gives every expression a kind (a number, a list of rooms, a
record of agents, ...) from the ruleset's declarations and the signatures in
the mechanics table. ``ANY`` is the kind of what cannot be known; a value of
kind ``ANY`` is accepted everywhere, so only certain misuse is reported.

Signatures are written as text, once, in the mechanics table:
``"rooms(grid or room) -> list of room"``, ``"move number or id from zone to
zone"``. ``K`` stands for "the same kind here and there"
(``first(list of K) -> K or none``).
"""
from __future__ import annotations

from dataclasses import dataclass


class Kind:
    """A kind; ``str()`` says it with an article ("a list of rooms")."""

    plural = "values"


@dataclass(frozen=True)
class Basic(Kind):
    """A kind with no parts: number, bool, string, player, room, ..."""
    name: str
    article: str = "a"

    def __str__(self):
        return f"{self.article} {self.name}".strip()

    @property
    def plural(self):
        return {"anything": "values", "none": "nones"}.get(self.name, self.name + "s")


ANY = Basic("anything", "")
NONE = Basic("none", "")
NUMBER = Basic("number")
BOOL = Basic("bool")
STRING = Basic("string")
PLAYER = Basic("player")
SEAT = PLAYER                  # a player or a scripted seat: the same kind until seats exist
GRID = Basic("grid")
ROOM = Basic("room")
SIDE = Basic("side")
EFFECT = Basic("effect", "an")
TRACK = Basic("track")
GRAPH = Basic("graph")
PROGRAM = Basic("program")      # a verb's value: a procedure call, or an effect
HOOK = Basic("hook point")      # a verb's value: a declared hook point's name, as a string


@dataclass(frozen=True)
class Record(Kind):
    """A content record (its id), of table ``table`` (None: of some table)."""
    table: str | None = None

    def __str__(self):
        return f"a record of {self.table}" if self.table else "a content record"

    @property
    def plural(self):
        return self.table or "content records"


@dataclass(frozen=True)
class Plain(Kind):
    """A record literal or map: known ``fields`` ((name, kind), ...), or any keys of kind ``value``."""
    fields: tuple | None = None
    value: Kind = ANY

    def __str__(self):
        if self.fields is None:
            return "a record"
        return "a record {" + ", ".join(name for name, _ in self.fields) + "}"

    plural = "records"

    def field(self, name: str) -> Kind | None:
        if self.fields is None:
            return self.value
        return dict(self.fields).get(name)


@dataclass(frozen=True)
class ListOf(Kind):
    item: Kind = ANY

    def __str__(self):
        return "a list" if self.item == ANY else f"a list of {self.item.plural}"

    @property
    def plural(self):
        return "lists" if self.item == ANY else f"lists of {self.item.plural}"


@dataclass(frozen=True)
class Zone(Kind):
    """A zone of cards; ``item`` is what it holds (a record of its table, or anything)."""
    item: Kind = ANY

    def __str__(self):
        return "a zone" if self.item == ANY else f"a zone of {self.item.plural}"

    plural = "zones"


@dataclass(frozen=True)
class Group(Kind):
    """A numbered group of zones (``pile`` of ``pile[1]`` .. ``pile[3]``)."""
    zone: Zone = Zone()

    def __str__(self):
        return "a group of zones"

    plural = "groups of zones"


@dataclass(frozen=True)
class Union(Kind):
    """One of several kinds (``none or a room``); build with ``union``."""
    options: frozenset

    def __str__(self):
        return " or ".join(sorted(map(str, self.options), key=lambda s: (s != "none", s)))

    @property
    def plural(self):
        return " or ".join(sorted(k.plural for k in self.options))


@dataclass(frozen=True)
class Var(Kind):
    """``K`` in a signature: bound to the kind it meets first."""
    name: str = "K"

    def __str__(self):
        return "anything"


NEVER = Union(frozenset())     # no value at all (a local before anything is assigned)


def union(*kinds: Kind) -> Kind:
    """The kind of a value that is one of ``kinds`` (flattened; anything absorbs all)."""
    options = set()
    for kind in kinds:
        if kind == ANY:
            return ANY
        options |= kind.options if isinstance(kind, Union) else {kind}
    if len(options) == 1:
        return options.pop()
    return Union(frozenset(options))


def options_of(kind: Kind) -> frozenset:
    return kind.options if isinstance(kind, Union) else frozenset({kind})


# ---------------------------------------------------------------- compatibility

def fits(actual: Kind, expected: Kind, binds: dict | None = None) -> bool:
    """Could a value of kind ``actual`` be used where ``expected`` is wanted?

    True unless it certainly cannot: anything fits, a union fits if one of
    its options does. ``binds`` collects what each ``K`` met.
    """
    if isinstance(expected, Var):
        if binds is not None:
            binds[expected.name] = union(binds.get(expected.name, NEVER), actual)
        return True
    if actual == ANY or expected == ANY:
        if binds is not None:
            _bind_any(expected, binds)
        return True
    if isinstance(actual, Union):
        found = [option for option in actual.options if fits(option, expected, binds)]
        return bool(found) or not actual.options
    if isinstance(expected, Union):
        return any([fits(actual, option, binds) for option in expected.options])
    return _fits_one(actual, expected, binds)


def _fits_one(actual, expected, binds) -> bool:
    if isinstance(expected, ListOf):
        item = iterated(actual)
        return item is not None and fits(item, expected.item, binds)
    if isinstance(expected, Zone):
        return isinstance(actual, Zone) and fits(actual.item, expected.item, binds)
    if isinstance(expected, Record):
        if isinstance(actual, Record):
            return None in (actual.table, expected.table) or actual.table == expected.table
        return actual == STRING                  # an id may be written as text
    if expected == STRING:
        return actual == STRING or isinstance(actual, Record)
    if isinstance(expected, Plain):
        return isinstance(actual, Plain)
    if isinstance(expected, Group):
        return isinstance(actual, Group)
    return actual == expected


def _bind_any(expected, binds) -> None:
    """Anything met where a signature has ``K`` inside: ``K`` is anything."""
    if isinstance(expected, Var):
        binds[expected.name] = ANY
    for part in getattr(expected, "__dict__", {}).values():
        if isinstance(part, Kind):
            _bind_any(part, binds)
    for option in getattr(expected, "options", ()):
        _bind_any(option, binds)


def iterated(kind: Kind) -> Kind | None:
    """What iterating over ``kind`` gives (a list's items, a zone's cards), or None if it cannot."""
    if kind == ANY:
        return ANY
    if isinstance(kind, ListOf):
        return kind.item
    if isinstance(kind, Zone):
        return kind.item
    if isinstance(kind, Group):
        return kind.zone
    if isinstance(kind, Union):
        items = [i for i in map(iterated, kind.options) if i is not None]
        return union(*items) if items or not kind.options else None
    return None


def substitute(kind: Kind, binds: dict) -> Kind:
    """``kind`` with each ``K`` replaced by what it met (anything if nothing)."""
    if isinstance(kind, Var):
        return binds.get(kind.name, ANY)
    if isinstance(kind, ListOf):
        return ListOf(substitute(kind.item, binds))
    if isinstance(kind, Zone):
        return Zone(substitute(kind.item, binds))
    if isinstance(kind, Union):
        return union(*(substitute(k, binds) for k in kind.options))
    return kind


def of_value(value, record_table=None) -> Kind:
    """The kind of a plain value from the content (a default, a constant).

    ``record_table(text)`` names the table of a content id, or None.
    """
    if value is None:
        return ANY                              # "nothing yet": it may become anything
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return NUMBER
    if isinstance(value, str):
        table = record_table(value) if record_table else None
        return Record(table) if table else STRING
    if isinstance(value, list):
        return ListOf(union(*(of_value(v, record_table) for v in value)) if value else ANY)
    if isinstance(value, dict):
        return Plain(tuple(sorted((str(k), of_value(v, record_table)) for k, v in value.items())))
    return ANY


# ---------------------------------------------------------------- signatures

_WORDS = {"number": NUMBER, "bool": BOOL, "string": STRING, "none": NONE, "any": ANY,
          "player": PLAYER, "seat": SEAT, "grid": GRID, "room": ROOM, "side": SIDE,
          "effect": EFFECT, "track": TRACK, "graph": GRAPH, "program": PROGRAM, "hook": HOOK,
          "id": Record(), "record": Plain(), "group": Group(),
          "zone": Zone(), "list": ListOf(), "K": Var()}
KEYWORDS = ("to", "from", "into", "at", "on", "by", "with",
            "saying")   # "saying": the text written after the value (tell p "..."), no word of its own


def parse_kind(text: str) -> Kind:
    """``"list of room or none"`` -> the kind (``or`` binds loosest)."""
    return union(*(_one(part.split()) for part in text.split(" or ")))


def _one(words: list) -> Kind:
    if len(words) >= 3 and words[1] == "of" and words[0] in ("list", "zone"):
        inner = _one(words[2:])
        return ListOf(inner) if words[0] == "list" else Zone(inner)
    if len(words) != 1 or words[0] not in _WORDS:
        raise ValueError(f"not a kind: {' '.join(words)!r}")
    return _WORDS[words[0]]


@dataclass(frozen=True)
class Signature:
    """A function's signature: ``name(params, rest...) -> result``."""
    text: str
    name: str
    params: tuple
    rest: Kind | None
    result: Kind

    @property
    def arity(self) -> str:
        n = len(self.params)
        return f"{n} or more" if self.rest is not None else str(n)

    def takes(self, n: int) -> bool:
        return n == len(self.params) or (self.rest is not None and n > len(self.params))

    def param(self, i: int) -> Kind:
        return self.params[i] if i < len(self.params) else self.rest


def parse_signature(text: str) -> Signature:
    """``"count(list) -> number"``; a last parameter ending in ``...`` repeats (0 or more times)."""
    head, result = (part.strip() for part in text.split("->"))
    name, _, inside = head.partition("(")
    params, rest = [], None
    for part in filter(None, (p.strip() for p in inside.rstrip(")").split(","))):
        if part.endswith("..."):
            rest = parse_kind(part[:-3])
        else:
            params.append(parse_kind(part))
    return Signature(text, name.strip(), tuple(params), rest, parse_kind(result))


@dataclass(frozen=True)
class VerbSignature:
    """A verb's signature: ``verb [ARG] keyword KIND ... [keyword KIND]``."""
    text: str
    name: str
    arg: Kind | None
    keywords: tuple          # ((word, kind, required), ...)


def parse_verb(text: str) -> VerbSignature:
    """``"move number or id from zone to zone"``, ``"do any [with record]"``."""
    words = text.replace("[", " [ ").replace("]", " ] ").split()
    name, words = words[0], words[1:]
    parts, current, optional = [], ["", []], False
    for word in words:
        if word in KEYWORDS:
            parts.append(current)
            current = [word, [], optional]
        elif word in "[]":
            optional = word == "["
        else:
            current[1].append(word)
    parts.append(current)
    arg = parse_kind(" ".join(parts[0][1])) if parts[0][1] else None
    keywords = tuple((word, parse_kind(" ".join(kind)), not opt) for word, kind, opt in parts[1:])
    return VerbSignature(text, name, arg, keywords)
