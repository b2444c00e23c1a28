"""Checking every file as far as it can go: broken entries are set aside, not fatal.

A schema error in one entry (a counter, a procedure, a record) must not hide
the problems of every other entry and file. The loader sets the broken entry
aside and goes on; the names it declared are then *lost*, and a later
diagnostic that only says such a name is unknown follows from the first
problem, so it is left out (``Problems.raise_if_any`` counts them).
"""
from __future__ import annotations

import re

from .schema_check import error_paths

# Codes that can follow from an entry set aside: a name it declared, a record it held.
CONSEQUENCES = frozenset({
    "unknown-name", "dsl-unknown-name", "dsl-unknown-attribute", "dsl-unknown-counter",
    "dsl-unknown-function", "dsl-unknown-verb", "dsl-procedure-call", "dsl-kind",
    "dangling-reference", "unknown-hook", "unknown-modifier", "option-default", "count-mismatch",
    "missing-sources", "bad-hook", "bad-sources"})

_QUOTED = re.compile(r"'([^']+)'")


def prune(data, schema: dict) -> tuple[bool, set]:
    """Delete from ``data`` each entry (``section.name``, or a top-level key) that breaks ``schema``.

    Returns ``(usable, lost names)``; not usable when the whole file is
    wrong or a broken entry is one the schema requires, since nothing after
    could read the file then.
    """
    required = set(schema.get("required", ()))
    lost: set = set()
    for path in sorted(error_paths(data, schema), key=len, reverse=True):
        if not path or path[0] in required or not isinstance(data, dict):
            return False, lost
        section = data.get(path[0])
        if len(path) >= 2 and isinstance(section, dict) and path[1] in section:
            del section[path[1]]
            lost.add(str(path[1]))
        elif path[0] in data:
            del data[path[0]]
            lost.add(str(path[0]))
            if isinstance(section, dict):
                lost |= {str(name) for name in section}
    return True, lost


def follows(diagnostic, lost: set, blind: bool) -> bool:
    """Whether ``diagnostic`` may only repeat an earlier problem (an entry set aside)."""
    if diagnostic.code not in CONSEQUENCES:
        return False
    return blind or bool(set(_QUOTED.findall(diagnostic.message)) & lost)
