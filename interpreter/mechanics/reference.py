"""The vocabulary reference, written from the tables: the language, and one game's own names.

``language()`` is the effect language as Markdown: the statements the
grammar knows, then every verb, function, built-in name and player
attribute with its signature (or kind), meaning and one example, read from
``VERBS``, ``FUNCTIONS``, ``NAMES`` and ``PLAYER_FIELDS``. ``game(rules)``
adds what one ruleset declares. ``rulebook vocab [GAME]`` prints them;
``tools/export_reference.py`` writes ``docs/reference.md``, which a test
keeps current.
"""
from __future__ import annotations

from . import COMPONENTS, FUNCTIONS, NAMES, PLAYER_FIELDS, VERBS
from .seats import BUILTIN_KINDS, PLAYER_ATTRIBUTE_KINDS

# The statements the grammar itself knows (dsl/effects.lark): form, meaning, example.
STATEMENTS = (
    ("gain AMOUNT COUNTER, ... [for P]", "add to counters (floors, ceilings and earning caps apply)",
     "gain 2 coin, 1 points"),
    ("spend AMOUNT COUNTER, ... [for P]", "pay from counters; refused if it would go below the floor",
     "spend 3 coin"),
    ("lose AMOUNT COUNTER, ... [for P]", "take from counters, stopping at the floor",
     "lose 2 points for p"),
    ("gain AMOUNT of NAME", "a counter named by a value (a string, checked when run)",
     "gain r.amount of r.resource"),
    ("NAME = VALUE / NAME += VALUE", "set a local, a game variable or a player's field",
     "self.agent = a"),
    ("set TARGET to VALUE", "set any player's field, reached through any expression",
     "set players[2].coin to 5"),
    ("if COND: ... elif COND: ... else: ...", "run the first block whose condition holds",
     'if c.kind == "wall": gain 1 coin'),
    ("for each NAME in LIST: ...", "run the block once per item", "for each p in players: gain 1 coin for p"),
    ("while COND: ... / break", "repeat while the condition holds; break leaves the loop",
     "while count(deck) > 0: move 1 from deck to discard"),
    ("simultaneously for each P in PLAYERS: ...",
     "every player runs the block at once; what each does is hidden until all are done",
     "simultaneously for each p in players: do plan()"),
    ("as P: ...", "run the block acting for another player (self is P)", "as p: gain 10 coin"),
    ("choose [TOLD] [PROMPT] one: A | B", "the acting player picks one of the alternatives",
     "choose one: gain 2 coin | gain 2 points"),
    ("choose [TOLD] [PROMPT] NAME in LIST [if COND] [label TEXT]: ... [otherwise [LABEL]: ...]",
     "the acting player picks an item; otherwise adds a last option",
     'choose "a card" c in self.hand label c.name: move c from self.hand to discard'),
    ("TOLD: openly | secretly | sealed",
     "who learns the answer: everyone now, the chooser only, or everyone once the simultaneous "
     "block ends (or at announce); unsaid: sealed inside simultaneously, else secretly",
     'choose openly "a card to play" c in self.hand: move c from self.hand to discard'),
    ("pass", "do nothing", "pass"),
)


def _row(*cells) -> str:
    return "| " + " | ".join(str(c).replace("|", "\\|").replace("\n", " ") for c in cells) + " |"


def _code(text: str) -> str:
    return f"`{text}`" if text else ""


def _table(header: tuple, rows) -> list[str]:
    return [_row(*header), _row(*("---" for _ in header)), *(_row(*r) for r in rows), ""]


def language() -> str:
    """The effect language's reference, as Markdown."""
    lines = ["# The effect language: reference", "",
             "Generated from the tables in `interpreter/mechanics/__init__.py` by "
             "`python tools/export_reference.py` (`rulebook vocab` prints it; "
             "`rulebook vocab GAME` adds a game's own names). Seats count from 1; "
             "`left` and `next_player` are clockwise, `right` anticlockwise.", "",
             "## Statements", ""]
    lines += _table(("form", "meaning", "example"),
                    ((_code(f), d, _code(e)) for f, d, e in STATEMENTS))
    lines += ["## Verbs", ""]
    lines += _table(("verb", "meaning", "example"),
                    ((_code(v.summary), v.doc, _code(v.example)) for v in VERBS.values()))
    lines += ["## Functions", ""]
    lines += _table(("function", "meaning", "example"),
                    ((_code(f.signature.text), f.doc, _code(f.example)) for f in FUNCTIONS.values()))
    lines += ["## Built-in names", ""]
    kinds = dict(BUILTIN_KINDS, options="record")
    lines += _table(("name", "kind", "meaning", "example"),
                    ((_code(n), kinds[n], d.doc, _code(d.example)) for n, d in NAMES.items()))
    lines += ["## Player attributes", "",
              "Besides its counters, variables, zones, grids and tracks, a player has:", ""]
    lines += _table(("attribute", "kind", "meaning", "example"),
                    ((_code(f"p.{n}"), PLAYER_ATTRIBUTE_KINDS[n], d.doc, _code(d.example))
                     for n, d in PLAYER_FIELDS.items()))
    lines += ["## Attributes of other values", ""]
    lines += _table(("value", "attribute", "kind"),
                    ((kind, _code(f"{kind}.{name}"), what)
                     for component in COMPONENTS.values()
                     for kind, names in component.attributes.items()
                     for name, what in names.items()))
    return "\n".join(lines).rstrip() + "\n"


def game(rules) -> str:
    """What one ruleset adds to the language: its declared names, tables and fields, as Markdown."""
    lines = [f"# {rules.title}: its own names", ""]
    declared = [(section, name) for section in COMPONENTS for name in rules.declared[section]]
    if declared:
        lines += ["## Components", ""]
        lines += _table(("section", "name", "kind"),
                        ((section, _code(name), _kind(rules, name)) for section, name in declared))
    if rules.constants:
        lines += ["## Constants", ""]
        lines += _table(("name", "kind"), ((_code(n), _kind(rules, n)) for n in rules.constants))
    for table, spec in rules.table_specs.items():
        ids = rules.tables.get(table, [])
        shown = ", ".join(ids[:8]) + (f", ... ({len(ids)} in all)" if len(ids) > 8 else "")
        lines += [f"## Table `{table}`", "", f"Records: {shown or 'none'}", ""]
        fields = rules.vocabulary().tables.get(table, {})
        lines += _table(("field", "kind"), ((_code(n), k) for n, k in fields.items()))
    for title, programs in (("Functions", rules.functions), ("Procedures", rules.procedures)):
        if programs:
            lines += [f"## {title}", ""]
            lines += [f"- `{name}({', '.join(params)})`" for name, (params, _) in programs.items()]
            lines.append("")
    if rules.hooks:
        lines += ["## Hook points", ""]
        lines += [f"- `{name}` with {spec.get('names') or 'no names'}" for name, spec in rules.hooks.items()]
        lines.append("")
    if rules.modifier_keys:
        lines += ["## Modifiers", ""]
        lines += [f"- `{name}`: {spec.get('description', '')}".rstrip(": ")
                  for name, spec in rules.modifier_keys.items()]
        lines.append("")
    if rules.options:
        lines += ["## Options (`options.NAME`)", ""]
        lines += [f"- `{name}`: {spec.get('description', '')} (default {spec.get('default')!r})"
                  for name, spec in rules.options.items()]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _kind(rules, name: str) -> str:
    vocab = rules.vocabulary()
    return str(vocab.kinds.get(name) or vocab.player_fields.get(name) or "anything")
