"""The data schema of a ruleset as written to disk, for editors to check its data files.

    text = data_schema_text(load_ruleset("mygame"))

One JSON Schema per ruleset, generated from the table declarations of its
components file (``tables.data_schema``). ``rulebook schema GAME`` writes it
for any ruleset; ``tools/export_data_schemas.py`` writes the bundled games'
into ``schemas/data/``.
"""
from __future__ import annotations

import json

from .tables import data_schema

__all__ = ["data_schema_text"]


def data_schema_text(rules) -> str:
    """The data schema of ``rules`` (a loaded ruleset), as JSON text ending with a newline."""
    schema = data_schema(rules.table_specs)
    name = "+".join([rules.id, *rules.expansions])          # with an expansion: GAME+EXPANSION
    with_ = f" with {', '.join(rules.expansions)}" if rules.expansions else ""
    schema["$id"] = f"https://rulebook.invalid/schemas/data/{name}.schema.json"
    schema["description"] = f"Data files of {rules.title}{with_}: records of its declared tables."
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"
