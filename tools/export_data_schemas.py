"""Write schemas/data/<game>.schema.json for every bundled ruleset.

The schema of a ruleset's data files is generated from the table
declarations in its components file (interpreter/content/tables.py); this
writes it out so editors can check data files too (their modeline points
here). The test suite fails when a written schema is out of date. Run:
    python tools/export_data_schemas.py
"""
from __future__ import annotations

import json
from pathlib import Path

from interpreter.content.ruleset import available, load_ruleset
from interpreter.content.tables import data_schema

OUT = Path(__file__).resolve().parents[1] / "schemas" / "data"


def schema_text(game_id: str) -> str:
    """The data schema of one bundled game, as written to disk."""
    rules = load_ruleset(game_id)
    schema = data_schema(rules.table_specs)
    schema["$id"] = f"https://rulebook.invalid/schemas/data/{game_id}.schema.json"
    schema["description"] = f"Data files of {rules.title}: records of its declared tables."
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for game_id in available():
        (OUT / f"{game_id}.schema.json").write_text(schema_text(game_id), encoding="utf-8")
        print(f"wrote schemas/data/{game_id}.schema.json")


if __name__ == "__main__":
    main()
