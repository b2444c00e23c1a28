"""Tables of content records (cards, boards, characters ...), declared as data.

A ruleset declares each table's fields in its components file; this module
turns those declarations into JSON Schema (so records get the same
``file:line:col`` errors as every other file), loads the records, checks ids,
references and declared counts, and compiles the fields that hold
effect-language text.

Field types: ``{type: int|string|bool|effect|condition|expr}``, ``{enum: [...]}``,
``{ref: TABLE}``, ``{list: FIELD}``, ``{record: {NAME: FIELD}}``,
``{map: FIELD, keys: FIELD}``; any field may add ``optional: true`` and
``description``. Every record has an ``id`` and may have ``name``, ``text``
(the printed text), ``rule`` (rule ids it encodes), ``assumed`` (true or a
note: the value is authored, not printed in the rulebook) and ``copies: N``
(N identical records ``ID#1`` .. ``ID#N``, one record in the file; the id
itself then names the list of them, and every diagnostic points at the one
record, once).
"""
from __future__ import annotations

import dataclasses
import re

from ..diagnostics import did_you_mean
from ..model.values import TAG, Condition, Effect
from ..dsl import kinds

ID_PATTERN = r"^[a-z][a-z0-9_]*$"
COMMON_FIELDS = {
    "id": {"type": "string", "pattern": ID_PATTERN},
    "name": {"type": "string"},
    "text": {"type": "string"},
    "rule": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
    "assumed": {"anyOf": [{"type": "boolean"}, {"type": "string"}]},
    # N identical records ID#1..ID#N from one; a bound so one line cannot make a million cards
    "copies": {"type": "integer", "minimum": 1, "maximum": 1000},
}
_SCALARS = {"int": "integer", "string": "string", "bool": "boolean",
            "effect": "string", "condition": "string", "expr": "string"}


def field_schema(spec: dict) -> dict:
    """JSON Schema for one declared field."""
    if "record" in spec:
        return record_schema(spec["record"], common=False)
    if "list" in spec:
        return {"type": "array", "items": field_schema(spec["list"])}
    if "map" in spec:
        schema = {"type": "object", "additionalProperties": field_schema(spec["map"])}
        keys = spec.get("keys", {})
        if "enum" in keys:
            schema["propertyNames"] = {"enum": keys["enum"]}
        return schema
    if "enum" in spec:
        return {"enum": spec["enum"]}
    if "ref" in spec:
        return {"type": "string", "pattern": ID_PATTERN}
    if spec["type"] == "handlers":                    # hook point -> effect text
        return {"type": "object", "additionalProperties": {"type": "string"}}
    if spec["type"] == "modifiers":                   # modifier key -> number or expression
        return {"type": "object", "additionalProperties": {"type": ["integer", "string"]}}
    schema = {"type": _SCALARS[spec["type"]]}
    if spec["type"] == "int":
        for key, word in (("min", "minimum"), ("max", "maximum")):
            if key in spec:
                schema[word] = spec[key]
    return schema


def record_schema(fields: dict, common: bool = True) -> dict:
    properties = dict(COMMON_FIELDS) if common else {}
    required = ["id"] if common else []
    for name, spec in fields.items():
        properties[name] = field_schema(spec)
        if not spec.get("optional"):
            required.append(name)
    return {"type": "object", "properties": properties, "required": required,
            "additionalProperties": False}


def data_schema(table_specs: dict) -> dict:
    """The schema of a data file: any of the declared tables, as lists of records."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {name: {"type": "array", "items": record_schema(spec.get("fields", {}))}
                       for name, spec in table_specs.items()},
        "additionalProperties": False,
    }


_KINDS = {"int": kinds.NUMBER, "string": kinds.STRING, "bool": kinds.BOOL,
          "effect": kinds.EFFECT, "condition": kinds.ANY, "expr": kinds.ANY,   # read: evaluated
          "handlers": kinds.Plain(None, kinds.EFFECT), "modifiers": kinds.Plain(None, kinds.ANY)}


def field_kind(spec: dict) -> kinds.Kind:
    """What the effect language reads from a field declared as ``spec``."""
    if "record" in spec:
        return kinds.Plain(tuple(sorted((n, field_kind(s)) for n, s in spec["record"].items())))
    if "list" in spec:
        return kinds.ListOf(field_kind(spec["list"]))
    if "map" in spec:
        return kinds.Plain(None, field_kind(spec["map"]))
    if "enum" in spec:
        return kinds.union(*map(kinds.of_value, spec["enum"]))
    if "ref" in spec:
        return kinds.Record(spec["ref"])
    return _KINDS[spec["type"]]


def field_names(fields: dict) -> set:
    names = set(fields) | set(COMMON_FIELDS)
    for spec in fields.values():
        while "list" in spec or "map" in spec:
            spec = spec.get("list") or spec.get("map")
        if "record" in spec:
            names |= field_names(spec["record"])
    return names


# ---------------------------------------------------------------- loading

def load_records(rules, components, sources, problems, base_specs=None, base_sources=()) -> None:
    """Check data files against their tables, then ids, references and counts.

    A record with schema errors is left out (the others of its file are
    checked on); the tables it fills are then incomplete, and nothing is
    checked against their ids, so one mistake is not reported again at every
    reference to a missing record (its id joins ``problems.lost``); so is a
    record whose id is taken. An entry of ``sources`` may instead be a
    callable, an overlay's record changes, run there (see overlays.py); the
    ``base_sources`` are checked against ``base_specs``, the tables as the
    base game declares them, and their records again, one by one, where an
    overlay changed their table.
    """
    from .schema_check import check_file, error_paths
    schema = data_schema(rules.table_specs)
    base_schema = data_schema(base_specs) if base_specs is not None else schema
    base_ids = {id(src) for src in base_sources}
    rules.record_origin = {}
    rules.record_origin_before = {}        # a record removed or changed -> where it was
    rules.record_overlay = {}              # a record added or changed by an overlay -> its name
    rules.patched = {}                     # a patched record -> (its patched fields, the old origin)
    rules.removed = {}                     # a removed id -> (source, path) of its removal
    rules.overlay_changes = {}
    rules.copies = set()                   # the 2nd.. copies: checked as the first one is
    rules.copy_sets = {}                   # an id with copies -> its table
    rules.refused_tables = set()           # tables with a record refused (a repeated id): incomplete
    for name in rules.table_specs:
        rules.tables[name] = []
    incomplete: set = set()
    rules.incomplete_tables = incomplete
    for src in sources:
        if callable(src):
            src(rules, problems, _add_changed)
            continue
        if src is None or src.data is None:
            incomplete |= set(rules.table_specs) if src is None else set()
            continue
        popped = [t for t in src.data if t in problems.lost and t not in rules.table_specs] \
            if isinstance(src.data, dict) else ()
        for table in popped:
            problems.lost |= _names(src.data.pop(table))     # its declaration was set aside
        checked = base_schema if id(src) in base_ids else schema
        diags = check_file(src.data, checked, src.locator, whole=not popped)
        problems.extend(_once_per_table(diags))
        broken = {path[:2] for path in error_paths(src.data, checked)} if diags else set()
        if () in broken or not isinstance(src.data, dict):
            incomplete |= set(src.data) if isinstance(src.data, dict) else set(rules.table_specs)
            problems.blind = True
            continue
        incomplete |= {path[0] for path in broken}
        for table, records in src.data.items():
            if (table,) in broken:
                problems.lost |= _names(records)
                continue
            for i, record in enumerate(records):
                if (table, i) in broken:
                    problems.lost |= _names([record])
                else:
                    _add_record(rules, table, record, src, (table, i), problems)
                    if getattr(src, "overlay", None):
                        rules.record_overlay[record["id"]] = src.overlay
    if base_specs is not None:
        _recheck_base(rules, base_specs, base_ids, problems)
    incomplete |= rules.refused_tables    # a refused record is reported once, not at each use
    _check_ref_tables(rules, components, problems)
    _check_references(rules, problems)
    if not incomplete:
        _check_counts(rules, components, problems)


class _Within:
    """A locator for a value inside a file: paths are relative to ``prefix``."""

    def __init__(self, locator, prefix: tuple):
        self.locator, self.prefix, self.file = locator, tuple(prefix), locator.file

    def at(self, path):
        return self.locator.at(self.prefix + tuple(path))

    def key_at(self, path):
        return self.locator.key_at(self.prefix + tuple(path))


def _add_changed(rules, table, record, src, path, problems, *, base_origin, check) -> None:
    """A record an overlay patched or replaced, checked (``check``) against its table where it
    was changed; a patched one keeps ``base_origin`` for the fields the patch does not name."""
    from .schema_check import check_schema
    if check:
        whole = dict(record, id=record["id"].split("#", 1)[0])      # a copy is checked as its record
        found = check_schema(whole, record_schema(rules.table_specs[table].get("fields", {})),
                             _Within(src.locator, path))
        if found:
            problems.extend(found)
            rules.incomplete_tables.add(table)
            return
    _add_one(rules, table, record, src, path, problems)
    rules.record_overlay[record["id"]] = getattr(src, "overlay", None)
    if base_origin is not None:
        patch = src.data["patch"][path[1]]
        rules.patched[record["id"]] = (set(patch), base_origin)


def _recheck_base(rules, base_specs, base_ids, problems) -> None:
    """Base records left in a table an overlay changed must fit the table as it now is."""
    from .schema_check import check_schema
    changed = {t for t, spec in rules.table_specs.items() if base_specs.get(t) != spec}
    for rid, (src, path) in list(rules.record_origin.items()):
        record = rules.entities[rid]
        if id(src) not in base_ids or record["table"] not in changed or rid in rules.copies:
            continue
        plain = {k: v for k, v in record.items() if k != "table"}
        if "#" in rid:
            plain = dict(plain, id=rid.split("#", 1)[0], copies=1)
        found = check_schema(plain, record_schema(rules.table_specs[record["table"]].get("fields", {})),
                             _Within(src.locator, path))
        problems.extend(dataclasses.replace(diag, message=f"{diag.message} (an expansion changed "
                                            f"table '{record['table']}'; remove or patch this record there)")
                        for diag in found)


def _names(records) -> set:
    """The ids and keys written in records left out: names the texts may miss now."""
    found = records if isinstance(records, list) else []
    names = {str(r["id"]) for r in found if isinstance(r, dict) and isinstance(r.get("id"), str)}
    return names | {str(key) for r in found if isinstance(r, dict) for key in r}


def check_reserved_keys(src, problems) -> None:
    """No content key may begin with the tag that marks engine values in saved states."""
    if src is None:
        return
    stack = [(src.data, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and key.startswith(TAG):
                    problems.add("reserved-key", f"a key cannot begin with '{TAG}' ('{key}'): "
                                 "it marks engine values in saved games", src, path + (key,), key=True)
                stack.append((item, path + (key,)))
        elif isinstance(value, list):
            stack.extend((item, path + (i,)) for i, item in enumerate(value))


def _once_per_table(diags) -> list:
    """The same problem in many records of a table, reported once with a count."""
    groups: dict = {}
    for diag in diags:
        key = (diag.code, re.sub(r"\[\d+\]", "[]", diag.message), diag.hint)
        groups.setdefault(key, []).append(diag)
    out = []
    for same in groups.values():
        first = same[0]
        if len(same) > 1:
            first = dataclasses.replace(
                first, message=f"{first.message} (and in {len(same) - 1} more records)")
        out.append(first)
    return out


def _check_ref_tables(rules, components, problems) -> None:
    """Every ``ref`` in a table's declaration names a declared table (said once, there)."""
    for table, spec in rules.table_specs.items():
        stack = [(("tables", table, "fields", name), field)
                 for name, field in spec.get("fields", {}).items()]
        while stack:
            path, field = stack.pop()
            for key in ("ref",) if "ref" in field else ():
                if field["ref"] not in rules.table_specs:
                    problems.add("unknown-name", f"'{field['ref']}' is not a table",
                                 components, path + (key,),
                                 hint=did_you_mean(field["ref"], list(rules.table_specs)))
            for key in ("list", "map", "keys"):
                if isinstance(field.get(key), dict):
                    stack.append((path + (key,), field[key]))
            for name, sub in field.get("record", {}).items():
                stack.append((path + ("record", name), sub))


def _add_record(rules, table, record, src, path, problems) -> None:
    if "copies" not in record:
        _add_one(rules, table, record, src, path, problems)
        return
    rid = record["id"]
    if rid in rules.entities or rid in rules.names:
        problems.add("duplicate-id", f"id '{rid}' is already used", src, path + ("id",))
        rules.refused_tables.add(table)
        return
    same = {key: value for key, value in record.items() if key != "copies"}
    ids = [f"{rid}#{k}" for k in range(1, record["copies"] + 1)]
    for k, cid in enumerate(ids, 1):
        _add_one(rules, table, dict(same, id=cid), src, path, problems)
        if k > 1:
            rules.copies.add(cid)
    rules.names[rid] = ("const", ids)           # the id names its copies: ``c in card``
    rules.copy_sets[rid] = table


def _add_one(rules, table, record, src, path, problems) -> None:
    rid = record["id"]
    if rid in rules.entities:
        first = rules.record_origin[rid]
        problems.add("duplicate-id", f"id '{rid}' is used twice (first at {first[0].path}:"
                     f"{first[0].locator.at(first[1])[0]})", src, path + ("id",))
        rules.refused_tables.add(table)
        return
    if rid in rules.names:
        problems.add("duplicate-id", f"id '{rid}' is already a declared name", src, path + ("id",))
        rules.refused_tables.add(table)
        return
    rules.entities[rid] = dict(record, table=table)
    rules.record_origin[rid] = (src, path)
    rules.tables[table].append(rid)
    rules.names[rid] = ("const", rid)


def origins(rules, rid, fields: dict):
    """``[(fields, source, path)]``: where each field of record ``rid`` was written (a
    patched record's own fields in the patch, the others where the record was)."""
    src, path = rules.record_origin[rid]
    if rid not in rules.patched:
        return [(fields, src, path)]
    mine, (old_src, old_path) = rules.patched[rid]
    return [({n: f for n, f in fields.items() if n in mine}, src, path),
            ({n: f for n, f in fields.items() if n not in mine}, old_src, old_path)]


def _check_references(rules, problems) -> None:
    for rid in rules.record_origin:
        if rid in rules.copies:
            continue                             # the same record as its first copy: said once
        table = rules.entities[rid]["table"]
        for fields, src, path in origins(rules, rid, rules.table_specs[table].get("fields", {})):
            _check_value(rules, rules.entities[rid], {"record": fields}, src, path, problems)
    for table in rules.table_specs:
        rules.names[table] = ("const", rules.tables[table])


def _check_value(rules, value, spec, src, path, problems) -> None:
    if "ref" in spec:
        if spec["ref"] in rules.incomplete_tables or spec["ref"] not in rules.table_specs:
            return                               # reported where the table went wrong
        ids = rules.tables[spec["ref"]]
        if value not in ids:
            gone = rules.removed.get(value)
            hint = (f"an expansion removes it at {gone[0].path}:"
                    f"{':'.join(map(str, gone[0].locator.at(gone[1])))}"
                    if gone else did_you_mean(value, ids))
            problems.add("dangling-reference", f"'{value}' is not an id in table '{spec['ref']}'",
                         src, path, hint=hint)
    elif "record" in spec and isinstance(value, dict):
        for name, sub in spec["record"].items():
            if name in value:
                _check_value(rules, value[name], sub, src, path + (name,), problems)
    elif "list" in spec and isinstance(value, list):
        for i, item in enumerate(value):
            _check_value(rules, item, spec["list"], src, path + (i,), problems)
    elif "map" in spec and isinstance(value, dict):
        keys = spec.get("keys", {})
        known = "ref" in keys and keys["ref"] in rules.table_specs \
            and keys["ref"] not in rules.incomplete_tables
        for key, item in value.items():
            if known and key not in rules.tables[keys["ref"]]:
                problems.add("dangling-reference",
                             f"'{key}' is not an id in table '{keys['ref']}'", src, path + (key,),
                             key=True, hint=did_you_mean(key, rules.tables.get(keys["ref"], [])))
            _check_value(rules, item, spec["map"], src, path + (key,), problems)


def _check_counts(rules, components, problems) -> None:
    for table, spec in rules.table_specs.items():
        want = spec.get("count")
        have = len(rules.tables[table])
        at = rules.count_at.get(table, (components, ("tables", table, "count")))
        if want is not None and want != have and at is not None:   # None: two expansions' counts, in conflict
            src, path = at                         # said where the count was last changed
            problems.add("count-mismatch", f"table '{table}' should have {want} records, has {have}",
                         src, path)


# ---------------------------------------------------------------- compiling

def compile_fields(rules, sources, compiler) -> None:
    """Compile effect and condition fields; records then hold references to them."""
    for rid in rules.record_origin:
        record = rules.entities[rid]
        for fields, src, path in origins(rules, rid, rules.table_specs[record["table"]].get("fields", {})):
            _compile_record(rules, rid, record, fields, src, path, compiler)


def _compile_record(rules, rid, record, fields, src, path, compiler) -> None:
    for name, spec in fields.items():
        kind = spec.get("type")
        if kind == "handlers" and name in record:
            record[name] = _compile_handlers(rules, rid, record[name], src, path + (name,),
                                             compiler)
        elif kind == "modifiers":
            rules.modifier_fields.setdefault(record["table"], set()).add(name)
            if name in record:
                record[name] = _compile_modifiers(rules, rid, name, record[name], src,
                                                  path + (name,), compiler)
    _compile_value(rules, record, fields, rid, src, path, compiler)


def _compile_handlers(rules, rid, handlers, src, path, compiler) -> dict:
    """``{point: effect text}``: each text checked with that hook point's names bound."""
    out = {}
    for point, text in handlers.items():
        if point not in rules.hooks:
            compiler.problems.add("unknown-hook", f"'{point}' is not a declared hook point", src,
                                  path + (point,), key=True, hint=did_you_mean(point, list(rules.hooks)))
            continue
        names = {name: kinds.ANY for name in rules.hooks[point].get("names", [])}
        this = kinds.Record(rules.entities[rid]["table"])
        tree = compiler.parse(text, src, path + (point,), params={"this": this, **names})
        key = f"{rid}.{path[-1]}.{point}"
        rules.effects[key] = tree
        rules.handlers.setdefault(rid, {})[point] = key
        out[point] = Effect(key)
    return out


def _compile_modifiers(rules, rid, field, mods, src, path, compiler) -> dict:
    """``{key: number | expression}``: declared keys; expressions are read when summed."""
    out = {}
    for key, value in mods.items():
        if key not in rules.modifier_keys:
            compiler.problems.add("unknown-modifier", f"'{key}' is not a declared modifier", src,
                                  path + (key,), key=True,
                                  hint=did_you_mean(key, list(rules.modifier_keys)))
            continue
        if isinstance(value, str):
            this = kinds.Record(rules.entities[rid]["table"])
            tree = compiler.parse(value, src, path + (key,), expression=True, params={"this": this})
            name = f"{rid}.{field}.{key}"
            rules.expressions[name] = tree
            value = Condition(name)
        out[key] = value
    return out


def _compile_value(rules, container, fields, key_prefix, src, path, compiler) -> None:
    for name, spec in fields.items():
        present = 0 <= name < len(container) if isinstance(container, list) else name in container
        if not present:
            continue
        value = container[name]
        key = f"{key_prefix}.{name}"
        kind = spec.get("type")
        if kind in ("handlers", "modifiers"):          # compiled by compile_fields
            continue
        this = {"this": kinds.Record(rules.entities[key_prefix.split(".", 1)[0]]["table"])}
        if kind == "effect":
            tree = compiler.parse(value, src, path + (name,), params=this)
            rules.effects[key] = tree
            container[name] = Effect(key)
        elif kind in ("condition", "expr"):
            tree = compiler.parse(value, src, path + (name,), expression=True, params=this)
            rules.expressions[key] = tree
            container[name] = Condition(key)
        elif "record" in spec and isinstance(value, dict):
            value = container[name] = dict(value)
            _compile_value(rules, value, spec["record"], key, src, path + (name,), compiler)
        elif "list" in spec and isinstance(value, list):
            value = container[name] = list(value)
            _compile_items(rules, value, range(len(value)), spec["list"], key, src, path + (name,),
                           compiler)
        elif "map" in spec and isinstance(value, dict):
            value = container[name] = dict(value)
            _compile_items(rules, value, list(value), spec["map"], key, src, path + (name,), compiler)


def _compile_items(rules, container, keys, spec, key, src, path, compiler) -> None:
    """The items of a list or map field: each compiled as if it were a field of its own."""
    for k in keys:
        _compile_value(rules, container, {k: spec}, key, src, path, compiler)
