"""Write the generated schemas: components.schema.json's kinds, and each game's data schema.

The sections of a components file are the component kinds of the registry
(``interpreter.mechanics.COMPONENTS``): each kind declares the schema of one
declaration, written here into schemas/components.schema.json (the rest of
that file, constants and tables, is kept as it is). The schema of a
ruleset's data files is generated from the table declarations in its
components file (interpreter/content/export.py, the code `rulebook schema
GAME` runs for any ruleset) into schemas/data/<game>.schema.json, so editors
check data files too. The test
suite fails when a written schema is out of date. Run:
    python tools/export_data_schemas.py
"""
from __future__ import annotations

import json
from pathlib import Path

from interpreter.content.export import data_schema_text
from interpreter.content.ruleset import available, load_ruleset
from interpreter.mechanics import COMPONENTS

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"
OUT = SCHEMAS / "data"
NAME = {"pattern": "^[a-z][a-z0-9_]*$"}


def components_text() -> str:
    """schemas/components.schema.json with every registered kind's section written anew."""
    schema = json.loads((SCHEMAS / "components.schema.json").read_text(encoding="utf-8"))
    kept = {k: v for k, v in schema["properties"].items() if k not in COMPONENTS}
    properties = {}
    for section, kind in COMPONENTS.items():
        definition = section[:-1]                       # counters -> counter
        schema["definitions"][definition] = kind.schema
        properties[section] = {"description": kind.summary, "type": "object",
                               "propertyNames": NAME,
                               "additionalProperties": {"$ref": f"#/definitions/{definition}"}}
    schema["properties"] = {**properties, **kept}
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def schema_text(game_id: str, expansion: str | None = None) -> str:
    """The data schema of one bundled game (with one of its expansions), as written to disk."""
    return data_schema_text(load_ruleset(game_id, expansions=(expansion,) if expansion else ()))


def expansions() -> list[tuple[str, str]]:
    """``(game, expansion)`` for every expansion of a bundled game: its data files have a
    schema of their own, ``<game>+<expansion>.schema.json`` (the tables as it changes them)."""
    return [(game, name) for game in available()
            for name in sorted(load_ruleset(game).manifest.get("expansions") or {})]


def main() -> None:
    (SCHEMAS / "components.schema.json").write_text(components_text(), encoding="utf-8")
    print("wrote schemas/components.schema.json")
    OUT.mkdir(parents=True, exist_ok=True)
    for game_id in available():
        (OUT / f"{game_id}.schema.json").write_text(schema_text(game_id), encoding="utf-8")
        print(f"wrote schemas/data/{game_id}.schema.json")
    for game_id, name in expansions():
        (OUT / f"{game_id}+{name}.schema.json").write_text(schema_text(game_id, name), encoding="utf-8")
        print(f"wrote schemas/data/{game_id}+{name}.schema.json")


if __name__ == "__main__":
    main()
