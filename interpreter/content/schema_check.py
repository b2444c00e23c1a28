"""JSON Schema validation whose errors point into the YAML source.

Every error jsonschema finds becomes a `Diagnostic` at the line and column of
the offending key or value, with a "did you mean" hint where a near-miss
spelling is likely.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from interpreter.content import checked
from interpreter.content.bundled import SCHEMAS
from interpreter.content.yaml_source import Locator
from interpreter.diagnostics import Diagnostic, did_you_mean

SCHEMA_DIR = SCHEMAS

_JSON_TYPES = [  # bool before int: True is an int in Python
    (bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"),
    (list, "array"), (dict, "object"), (type(None), "null"),
]


def _is_integer(checker, instance) -> bool:
    # JSON Schema counts 1.0 as an integer; content means a whole number
    # written as one, since range(3.0) or a 1.0-th seat fails in play.
    return isinstance(instance, int) and not isinstance(instance, bool)


def _validator(schema: dict):
    """The validator of ``schema``: built once for a loaded schema, else each time."""
    return _validator_of(schema) if isinstance(schema, _Cached) else _validator_of.__wrapped__(schema)


@functools.cache
def _validator_of(schema: dict):
    return strict_validator(schema)


def strict_validator(schema: dict):
    """A validator of ``schema`` with strict integers (jsonschema is imported only when a file
    must be checked: most loads find their files checked already, see ``checked.py``)."""
    from jsonschema import Draft202012Validator, validators
    kind = validators.extend(
        Draft202012Validator,
        type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer))
    return kind(schema)


class _Cached(dict):
    """A loaded schema; ``digest`` names its text, for remembering which files passed it.

    Hashable by identity, so the validator built for it is built once."""
    __hash__ = object.__hash__
    digest: str = ""


@functools.cache
def load_schema(name: str) -> dict:
    """The schema `schemas/<name>.schema.json`, checked against its meta-schema (cached)."""
    text = (SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8")
    schema = _Cached(json.loads(text))
    schema.digest = checked.digest("meta-schema", text)
    if not checked.passed(schema.digest):
        from jsonschema import Draft202012Validator
        Draft202012Validator.check_schema(schema)
        checked.remember(schema.digest)
    return schema


def check_file(data: Any, schema: dict, locator: Locator, whole: bool = True) -> list[Diagnostic]:
    """``check_schema`` of a file's ``data``, skipped when this very text passed this very
    schema before (``whole``: ``data`` is all the file's text says, nothing left out)."""
    try:
        name = schema.digest if isinstance(schema, _Cached) else json.dumps(schema, sort_keys=True)
    except (TypeError, ValueError):          # not JSON (a schema built in a test): not remembered
        whole = False
    if not whole:
        return check_schema(data, schema, locator)
    key = checked.digest("schema", name, locator.text)
    if checked.passed(key):
        return []
    found = check_schema(data, schema, locator)
    if not found:
        checked.remember(key)
    return found


def check_schema(data: Any, schema: dict, locator: Locator) -> list[Diagnostic]:
    """Every way `data` breaks `schema`, as diagnostics sorted by position.

    Integers are strict (`1.5` and `1.0` are not integers) and every mapping
    key must be a string, as in JSON (`1: x`, `true: y` and `null: z` are not).
    """
    validator = _validator(schema)  # no format_checker: formats are not asserted
    found = {diag for error in validator.iter_errors(data) for diag in _diagnose(error, locator)}
    keys = _non_string_keys(data, locator)
    at_keys = {(d.line, d.col) for d in keys}      # one diagnostic for one bad key
    found = {d for d in found if (d.line, d.col) not in at_keys} | set(keys)
    return sorted(found, key=lambda d: (d.line or 0, d.col or 0, d.code, d.message))


def _non_text_keys(data: Any):
    """The path of every mapping key in ``data`` that is not a text (YAML allows numbers, ...)."""
    stack = [((), data)]
    while stack:
        path, value = stack.pop()
        items = value.items() if isinstance(value, dict) else enumerate(value) \
            if isinstance(value, list) else ()
        for key, item in items:
            if isinstance(value, dict) and not isinstance(key, str):
                yield path + (key,)
            stack.append((path + (key,), item))


def _non_string_keys(data: Any, locator: Locator) -> list[Diagnostic]:
    diags = []
    for path in _non_text_keys(data):
        key = path[-1]
        line, col = locator.key_at(path)
        diags.append(Diagnostic("schema-key-type", f"a key must be a text, not {_describe(key)}",
                                locator.file, line, col, hint=f"quote it: '{_show(key)}'"))
    return diags


def _diagnose(error: ValidationError, locator: Locator) -> list[Diagnostic]:
    """Diagnostics for one jsonschema error (several for several unknown keys)."""
    path = tuple(error.absolute_path)
    if error.validator in ("oneOf", "anyOf") and error.context:
        if _all_type_errors_here(error):
            return [_type_error(error, locator, _alternative_types(error.context))]
        strangers = _keys_no_alternative_knows(error, locator)
        if strangers:
            return strangers
        # best_match descends from the failed alternative into the sub-error
        # that fits best; it stops at `error` itself when alternatives tie.
        from jsonschema.exceptions import best_match, relevance
        best = best_match([error])
        return _diagnose(best if best is not error else min(error.context, key=relevance), locator)
    if error.validator == "additionalProperties":
        return _unknown_keys(error, locator)
    if error.validator == "required":
        return _missing_keys(error, locator)
    if error.validator == "type":
        return [_type_error(error, locator, _as_list(error.validator_value))]
    if error.validator in ("enum", "const"):
        return [_enum_error(error, locator)]
    return [_at_value(locator, path, "schema-invalid", error.message)]


def _keys_no_alternative_knows(error: ValidationError, locator: Locator) -> list[Diagnostic]:
    """For a mapping that fits no alternative: the keys none of them allows (likely typos)."""
    if not isinstance(error.instance, dict):
        return []
    branches = [b for b in error.validator_value if isinstance(b, dict) and "properties" in b]
    if len(branches) != len(error.validator_value) or \
            not all(b.get("additionalProperties") is False for b in branches):
        return []
    known = {key for b in branches for key in b["properties"]}
    path = tuple(error.absolute_path)
    diags = []
    for key in error.instance:
        if key not in known:
            line, col = locator.key_at(path + (key,))
            diags.append(Diagnostic("schema-unknown-key", f"unknown key {key!r} in {_where(path)}",
                                    locator.file, line, col, hint=did_you_mean(key, sorted(known))))
    return diags


def _unknown_keys(error: ValidationError, locator: Locator) -> list[Diagnostic]:
    # jsonschema reports all unknown keys of a mapping in one error; give
    # each its own diagnostic, pointing at the key itself.
    path = tuple(error.absolute_path)
    allowed = error.schema.get("properties", {})
    patterns = error.schema.get("patternProperties", {})
    unknown = [
        key for key in error.instance
        if key not in allowed
        and not (isinstance(key, str) and any(re.search(pattern, key) for pattern in patterns))
    ]
    diags = []
    for key in unknown:
        line, col = locator.key_at(path + (key,))
        message = f"unknown key {key!r} in {_where(path)}"
        diags.append(Diagnostic("schema-unknown-key", message, locator.file, line, col,
                                hint=did_you_mean(key, allowed)))
    return diags


def _missing_keys(error: ValidationError, locator: Locator) -> list[Diagnostic]:
    # jsonschema yields one error per missing key but does not say which key;
    # reporting every missing key for each is made unique by the caller's set.
    # A missing key that a present unknown key misspells is one mistake: the
    # unknown key's diagnostic says "did you mean" and this one is left out.
    path = tuple(error.absolute_path)
    unknown = _unknown_in(error) if isinstance(error.instance, dict) else []
    missing = [key for key in error.validator_value if key not in error.instance
               and not did_you_mean(key, unknown)]
    return [
        _at_value(locator, path, "schema-missing-key", f"missing required key {key!r} in {_where(path)}")
        for key in missing
    ]


def _unknown_in(error: ValidationError) -> list[str]:
    """Keys of the mapping the schema of `error` does not allow."""
    schema = error.schema
    if schema.get("additionalProperties") is not False:
        return []
    allowed, patterns = schema.get("properties", {}), schema.get("patternProperties", {})
    return [key for key in error.instance if isinstance(key, str) and key not in allowed
            and not any(re.search(pattern, key) for pattern in patterns)]


def _type_error(error: ValidationError, locator: Locator, expected: list[str]) -> Diagnostic:
    message = f"expected {' or '.join(expected)}, got {_describe(error.instance)}"
    hint = yaml_read_it(error.instance) if "string" in expected else None
    return _at_value(locator, tuple(error.absolute_path), "schema-type", message, hint)


_READ_AS = [(bool, "a boolean"), ((int, float), "a number"), (dict, "a mapping (because of ': ')"),
            (list, "a list (because of '[' or '- ')"), (type(None), "nothing (null)")]


def yaml_read_it(value: Any) -> str | None:
    """Where a text was wanted, what YAML made of it instead, and how to keep it text."""
    what = next((name for cls, name in _READ_AS if isinstance(value, cls)), None)
    if what is None:
        return None
    return f"YAML read this as {what}: if it is an expression or a text, put it in quotes"


def _enum_error(error: ValidationError, locator: Locator) -> Diagnostic:
    allowed = [error.validator_value] if error.validator == "const" else list(error.validator_value)
    choices = ", ".join(_show(value) for value in allowed)
    expected = choices if len(allowed) == 1 else f"one of {choices}"
    message = f"expected {expected}, got {_show(error.instance)}"
    hint = did_you_mean(error.instance, allowed) if isinstance(error.instance, str) else None
    return _at_value(locator, tuple(error.absolute_path), "schema-enum", message, hint)


def _at_value(locator: Locator, path: tuple, code: str, message: str, hint: str | None = None) -> Diagnostic:
    line, col = locator.at(path)
    return Diagnostic(code, message, locator.file, line, col, hint=hint)


def _all_type_errors_here(error: ValidationError) -> bool:
    """Whether every alternative failed only on the type of the value itself."""
    return all(sub.validator == "type" and not sub.relative_path for sub in error.context)


def _alternative_types(errors: list[ValidationError]) -> list[str]:
    names: list[str] = []
    for sub in errors:
        names += [name for name in _as_list(sub.validator_value) if name not in names]
    return names


def _as_list(value: Any) -> list:
    return value if isinstance(value, list) else [value]


def _describe(value: Any) -> str:
    """A value's JSON type, followed by the value itself when it is short and scalar."""
    kind = next((name for cls, name in _JSON_TYPES if isinstance(value, cls)), type(value).__name__)
    return kind if isinstance(value, (list, dict, type(None))) else f"{kind} {_show(value)}"


def _show(value: Any) -> str:
    """A short rendering of a value, spelling true/false/null as YAML and JSON do."""
    text = json.dumps(value) if isinstance(value, bool) or value is None else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _where(path: tuple) -> str:
    """A readable JSON-path-like name for a location, e.g. `items[3].effect`."""
    if not path:
        return "the top-level mapping"
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else str(part)
    return text


def error_paths(data: Any, schema: dict) -> set[tuple]:
    """The data path of every place where `data` breaks `schema` (non-text keys too).

    The loader uses them to set a broken entry aside and check the rest.
    """
    paths = {tuple(error.absolute_path) for error in _validator(schema).iter_errors(data)}
    return paths | set(_non_text_keys(data))
