"""How a ruleset's state is shown to a person: its presentation file, checked and defaulted.

The presentation (``presentation:`` in the manifest, schema
``schemas/presentation.schema.json``) only changes how things look at the
terminal: display names, components that are bookkeeping, which components
form the panels, how a record is summarised and what the final score
breakdown lists. It never changes what a player may see; views decide that.
Without the file every component is shown under its own name.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..diagnostics import did_you_mean
from ..dsl.explain import explain

PANELS = ("sheet", "table", "opponents", "scripted_opponents", "scripted")
FIELD = re.compile(r"\{([a-z][a-z0-9_]*)(?:\?([^{}]*))?\}")   # {field}, or {field?words}: the words if set
OPTIONAL = re.compile(r"\[([^\[\]]*)\]")   # a part of a template left out when a field in it is empty
DEFAULT_TEXT = "{text}"          # a record with a text field says it, unless the file says otherwise


@dataclass(frozen=True)
class Presentation:
    """A checked presentation; ``Presentation()`` is the default one."""
    names: dict = field(default_factory=dict)
    hidden: frozenset = frozenset()
    panels: dict = field(default_factory=dict)          # panel -> [component names], when given
    records: dict = field(default_factory=dict)         # table -> template
    score_parts: tuple = ()
    score_rest: str | None = None
    score_keys: tuple = ()                              # names of a list score's parts, per length
    titles: dict = field(default_factory=dict)          # table -> template: a record's name on screen
    details: frozenset = frozenset()                    # zones whose cards are listed with their text
    members: dict = field(default_factory=dict)         # numbered zone -> a label per member
    opponent_lines: int = 1                             # lines each rival may take on the screen

    cards: tuple = ()                                   # components listed a record a line, with texts
    words: dict = field(default_factory=dict)           # phrase of an effect's words -> reader's words
    layouts: dict = field(default_factory=dict)         # name -> how a list variable lies over a table
    tallies: dict = field(default_factory=dict)         # list variable -> the values it is counted by
    quiet: tuple = ()                                   # log line patterns the screen leaves out

    def shown(self, line: str) -> bool:
        """Whether the screen shows log line ``line`` (it matches no ``quiet`` pattern)."""
        return not any(_matches(pattern, line) for pattern in self.quiet)

    def key_names(self, score) -> list | None:
        """The names of a list score's parts (the list of its length), or None."""
        if not isinstance(score, list):
            return None
        return next((list(k) for k in self.score_keys if len(k) == len(score)), None)

    def title(self, rules, rid) -> str | None:
        """What record ``rid`` is called on the screen (its table's title, else its name), or None."""
        record = rules.entities.get(rid) if isinstance(rid, str) else None
        if not isinstance(record, dict):
            return None
        template = self.titles.get(record.get("table"))
        if template is not None:
            return self.fill(rules, template, record)
        return str(record["name"]) if record.get("name") else None

    def label(self, name: str) -> str:
        """The name a person reads for component ``name``."""
        return self.names.get(name, name.replace("_", " "))

    def order(self, panel: str, available) -> list:
        """The components of ``panel`` to show, in order, among those a view holds."""
        available = [name for name in available if name not in self.hidden]
        wanted = self.panels.get(panel)
        if wanted is None:
            return available
        return [name for name in wanted if name in available]

    def text_of(self, rules, rid) -> str | None:
        """The summary text of record ``rid`` (its template filled in), or None."""
        record = rules.entities.get(rid) if isinstance(rid, str) else None
        if not isinstance(record, dict):
            return None
        template = self.records.get(record.get("table"), DEFAULT_TEXT)
        if template == DEFAULT_TEXT and "text" not in record:
            return None
        return self.fill(rules, template, record)

    def fill(self, rules, template: str, record: dict) -> str:
        """``template`` filled from ``record``: ``{field}`` in words ("-" when empty), ``{field?words}``
        the words when the field is set, ``[a part]`` left out unless every field in it is set."""
        said = {m.group(1): self._field(rules, record.get(m.group(1))) for m in FIELD.finditer(template)}

        def one(match, empty="-"):
            name, words = match.group(1), match.group(2)
            if words is not None:
                return words if record.get(name) else ""
            return said[name] if said[name] is not None else empty

        def part(match):                             # kept only when every field in it has a value
            inner = match.group(1)
            if all(said[m.group(1)] is not None for m in FIELD.finditer(inner)):
                return FIELD.sub(lambda m: one(m, ""), inner)
            return ""
        return FIELD.sub(one, OPTIONAL.sub(part, template)).strip()

    def _field(self, rules, value) -> str | None:
        """A record field in words, or None when it is empty (a true flag says nothing: ``""``)."""
        if value is None or value is False or value == [] or value == {}:
            return None
        if value is True:
            return ""
        if isinstance(value, dict):                  # a map of amounts: "1 art, 2 lighting"
            return ", ".join(f"{n} {self.label(k)}" for k, n in value.items())
        if isinstance(value, list):
            return ", ".join(self._field(rules, v) or "" for v in value)
        if isinstance(value, str):
            entry = rules.entities.get(value)
            return str(entry.get("name", value)) if isinstance(entry, dict) else value
        key = getattr(value, "key", None)
        if key in rules.effects:                     # an effect, said in words
            return self.say(explain(rules.effects[key]))
        return str(value)

    def say(self, words: str) -> str:
        """An effect's plain words with the file's ``words`` put in, longest phrase first."""
        for phrase in sorted(self.words, key=len, reverse=True):
            words = words.replace(phrase, self.words[phrase])
        return words


def _matches(pattern: str, line: str) -> bool:
    """Whether ``line`` is ``pattern`` with each ``*`` standing for any text (no regular
    expression: a leftmost search per part, so no pattern can take long)."""
    first, *parts = pattern.split("*")
    if not parts:
        return line == first
    *middle, last = parts
    if not line.startswith(first) or len(line) < len(first) + len(last) or not line.endswith(last):
        return False
    at, end = len(first), len(line) - len(last)
    for part in middle:
        found = line.find(part, at, end)
        if found < 0:
            return False
        at = found + len(part)
    return True


def build(data: dict) -> Presentation:
    """A Presentation from the file's (schema-checked) data."""
    score = data.get("score", {})
    return Presentation(names=dict(data.get("names", {})), hidden=frozenset(data.get("hidden", ())),
                        panels={k: list(v) for k, v in data.get("panels", {}).items()},
                        records=dict(data.get("records", {})),
                        score_parts=tuple(score.get("parts", ())), score_rest=score.get("rest"),
                        score_keys=tuple(tuple(k) for k in score.get("keys", ())),
                        titles=dict(data.get("titles", {})), details=frozenset(data.get("details", ())),
                        members={k: list(v) for k, v in data.get("members", {}).items()},
                        opponent_lines=data.get("opponent_lines", 1),
                        cards=tuple(data.get("cards", ())), words=dict(data.get("words", {})),
                        layouts={k: dict(v) for k, v in data.get("layouts", {}).items()},
                        tallies={k: dict(v) for k, v in data.get("tallies", {}).items()},
                        quiet=tuple(data.get("quiet", ())))


def check(rules, source, problems, overlay: bool = False) -> None:
    """Every name the file uses must be declared: components of the right place, tables, fields.

    An expansion's file (``overlay``) may add a panel's names after one of the base's
    (``{after: NAME, add: [...]}``, content/overlays.py lays them on); a game's may not."""
    data = source.data
    every = {name for names in rules.declared.values() for name in names}
    mine = set(rules.player_components)

    def need(name, allowed, path, what):
        if name not in allowed:
            problems.add("unknown-name", f"'{name}' {what}", source, path,
                         hint=did_you_mean(name, sorted(allowed)))

    for name in data.get("names", {}):
        need(name, every, ("names", name), "is not a declared component")
    for k, name in enumerate(data.get("hidden", [])):
        need(name, every, ("hidden", k), "is not a declared component")
    for panel, names in data.get("panels", {}).items():
        table = panel in ("table", "scripted")
        allowed = every - mine if table else mine
        where = "the table's" if table else "a player's"
        at = ("panels", panel)
        if isinstance(names, dict):
            if not overlay:
                problems.add("bad-presentation", "only an expansion's presentation adds names "
                             "after another's; a game lists its panel whole", source, at,
                             hint="write the panel as a list of names")
                continue
            names, at = names["add"], at + ("add",)
        for k, name in enumerate(names):
            need(name, allowed, at + (k,), f"is not one of {where} components")
    for k, name in enumerate(data.get("score", {}).get("parts", [])):
        need(name, set(rules.counters) | set(rules.player_vars) & mine, ("score", "parts", k),
             "is not a player's counter or variable")
    zones = set(rules.declared.get("zones", {}))
    for k, name in enumerate(data.get("details", [])):
        need(name, zones, ("details", k), "is not a zone")
    for name, labels in data.get("members", {}).items():
        need(name, zones, ("members", name), "is not a zone")
        count = rules.declared.get("zones", {}).get(name, {}).get("count")
        if name in zones and count != len(labels):
            problems.add("bad-presentation", f"zone '{name}' has {count or 'no'} numbered members, "
                         f"not {len(labels)}", source, ("members", name))
    for k, name in enumerate(data.get("cards", [])):
        need(name, every, ("cards", k), "is not a declared component")
    for name, layout in data.get("layouts", {}).items():
        need(layout["table"], set(rules.table_specs), ("layouts", name, "table"), "is not a table")
        need(layout["list"], mine, ("layouts", name, "list"), "is not one of a player's components")
        fields = set(rules.table_specs.get(layout["table"], {}).get("fields", {})) | {"id", "name"}
        for key in ("row", "size"):
            if key in layout:
                need(layout[key], fields, ("layouts", name, key), f"is not a field of table '{layout['table']}'")
    for name, tally in data.get("tallies", {}).items():
        need(name, every, ("tallies", name), "is not a declared component")
        need(tally["table"], set(rules.table_specs), ("tallies", name, "table"), "is not a table")
        fields = rules.table_specs.get(tally["table"], {}).get("fields", {})
        if tally["table"] in rules.table_specs and "enum" not in fields.get(tally["field"], {}):
            problems.add("unknown-name", f"'{tally['field']}' is not a field of table '{tally['table']}' "
                         "with an enum", source, ("tallies", name, "field"),
                         hint=did_you_mean(tally["field"], sorted(f for f in fields if "enum" in fields[f])))
    for section in ("records", "titles"):
        for table, template in data.get(section, {}).items():
            _check_template(rules, source, problems, need, section, table, template)


def _check_template(rules, source, problems, need, section, table, template) -> None:
    """A template's table must exist and every {field} it names must be one of the table's."""
    need(table, set(rules.table_specs), (section, table), "is not a table")
    fields = set(rules.table_specs.get(table, {}).get("fields", {})) | {"id", "name", "text"}
    for name, _ in FIELD.findall(template):
        if table in rules.table_specs and name not in fields:
            problems.add("unknown-name", f"'{{{name}}}' is not a field of table '{table}'",
                         source, (section, table), hint=did_you_mean(name, sorted(fields)))
