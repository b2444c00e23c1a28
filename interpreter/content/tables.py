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
(the printed text), ``rule`` (rule ids it encodes) and ``assumed`` (true or a
note: the value is authored, not printed in the rulebook).
"""
from __future__ import annotations

from ..diagnostics import did_you_mean
from ..dsl import kinds

ID_PATTERN = r"^[a-z][a-z0-9_]*$"
COMMON_FIELDS = {
    "id": {"type": "string", "pattern": ID_PATTERN},
    "name": {"type": "string"},
    "text": {"type": "string"},
    "rule": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
    "assumed": {"anyOf": [{"type": "boolean"}, {"type": "string"}]},
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
          "effect": kinds.EFFECT, "condition": kinds.ANY, "expr": kinds.ANY}   # read: evaluated


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

def load_records(rules, components, sources, problems) -> None:
    """Check data files against their tables, then ids, references and counts."""
    from .schema_check import check_schema
    schema = data_schema(rules.table_specs)
    rules.record_origin = {}
    for name in rules.table_specs:
        rules.tables[name] = []
    complete = True
    for src in sources:
        if src is None or src.data is None:
            complete = complete and src is not None
            continue
        diags = check_schema(src.data, schema, src.locator)
        problems.extend(diags)
        if diags:
            complete = False                 # its records are missing: no cascade of errors
            continue
        for table, records in src.data.items():
            for i, record in enumerate(records):
                _add_record(rules, table, record, src, (table, i), problems)
    _check_references(rules, problems)
    if complete:
        _check_counts(rules, components, problems)


def _add_record(rules, table, record, src, path, problems) -> None:
    rid = record["id"]
    if rid in rules.entities:
        first = rules.record_origin[rid]
        problems.add("duplicate-id", f"id '{rid}' is used twice (first at {first[0].path}:"
                     f"{first[0].locator.at(first[1])[0]})", src, path + ("id",))
        return
    if rid in rules.names:
        problems.add("duplicate-id", f"id '{rid}' is already a declared name", src, path + ("id",))
        return
    rules.entities[rid] = dict(record, table=table)
    rules.record_origin[rid] = (src, path)
    rules.tables[table].append(rid)
    rules.names[rid] = ("const", rid)


def _check_references(rules, problems) -> None:
    for rid, (src, path) in rules.record_origin.items():
        table = rules.entities[rid]["table"]
        fields = rules.table_specs[table].get("fields", {})
        _check_value(rules, rules.entities[rid], {"record": fields}, src, path, problems)
    for table in rules.table_specs:
        rules.names[table] = ("const", rules.tables[table])


def _check_value(rules, value, spec, src, path, problems) -> None:
    if "ref" in spec:
        ids = rules.tables.get(spec["ref"], [])
        if value not in ids:
            problems.add("dangling-reference", f"'{value}' is not an id in table '{spec['ref']}'",
                         src, path, hint=did_you_mean(value, ids))
    elif "record" in spec and isinstance(value, dict):
        for name, sub in spec["record"].items():
            if name in value:
                _check_value(rules, value[name], sub, src, path + (name,), problems)
    elif "list" in spec and isinstance(value, list):
        for i, item in enumerate(value):
            _check_value(rules, item, spec["list"], src, path + (i,), problems)
    elif "map" in spec and isinstance(value, dict):
        keys = spec.get("keys", {})
        for key, item in value.items():
            if "ref" in keys and key not in rules.tables.get(keys["ref"], []):
                problems.add("dangling-reference",
                             f"'{key}' is not an id in table '{keys['ref']}'", src, path + (key,),
                             key=True, hint=did_you_mean(key, rules.tables.get(keys["ref"], [])))
            _check_value(rules, item, spec["map"], src, path + (key,), problems)


def _check_counts(rules, components, problems) -> None:
    for table, spec in rules.table_specs.items():
        want = spec.get("count")
        have = len(rules.tables[table])
        if want is not None and want != have:
            problems.add("count-mismatch", f"table '{table}' should have {want} records, has {have}",
                         components, ("tables", table, "count"))


# ---------------------------------------------------------------- compiling

def compile_fields(rules, sources, compiler) -> None:
    """Compile effect and condition fields; records then hold references to them."""
    for rid, (src, path) in rules.record_origin.items():
        record = rules.entities[rid]
        fields = rules.table_specs[record["table"]].get("fields", {})
        _compile_value(rules, record, fields, rid, src, path, compiler)


def _compile_value(rules, container, fields, key_prefix, src, path, compiler) -> None:
    for name, spec in fields.items():
        present = 0 <= name < len(container) if isinstance(container, list) else name in container
        if not present:
            continue
        value = container[name]
        key = f"{key_prefix}.{name}"
        kind = spec.get("type")
        this = {"this": kinds.Record(rules.entities[key_prefix.split(".", 1)[0]]["table"])}
        if kind == "effect":
            tree = compiler.parse(value, src, path + (name,), params=this)
            rules.effects[key] = tree
            container[name] = {"effect": key}
        elif kind in ("condition", "expr"):
            tree = compiler.parse(value, src, path + (name,), expression=True, params=this)
            rules.expressions[key] = tree
            container[name] = {"expr": key}
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
