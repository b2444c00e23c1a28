"""Which rule ids of a game's reference are cited by its data and its scenarios.

Every rule in shared/rules/<game>.md has an id (LR-WALL-02, AMB-05, ...);
rulesets cite the ids they encode and scenario files the ids they check. This
lists the ids nobody cites, so a reviewer sees what is untested or missing:

    python tools/rule_coverage.py lairs [--reference ../shared/rules/lairs.md]
"""
from __future__ import annotations

import re
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from interpreter.workbench.coverage import rule_ids

ROOT = Path(__file__).resolve().parents[1]


def reference_ids(text: str) -> list[str]:
    """The ids a reference defines: those that start a rule bullet (``- ID`` or ``* **ID**``) or heading."""
    ids = []
    for line in text.splitlines():
        m = re.match(r"\s*(?:-|#+|\*(?=\s+\*\*))?\s*\**([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d{2})\b", line)
        if m and m.group(1) not in ids:
            ids.append(m.group(1))
    return ids


def expand(cited: str) -> set[str]:
    """'AMB-03/04' and 'LR-BONUS-01..05' name several ids; a part may hold digits ('SS-2P-01')."""
    return rule_ids(cited)


def cited_in(folder: Path) -> set[str]:
    found = set()
    for path in folder.rglob("*.yaml"):
        found |= expand(path.read_text(encoding="utf-8"))
    return found


@click.command()
@click.argument("game")
@click.option("--reference", type=click.Path(exists=True, path_type=Path), default=None,
              help="The rules reference (default: ../shared/rules/GAME.md).")
@click.option("--all", "show_all", is_flag=True, help="List every id, not only the uncited ones.")
def main(game, reference, show_all):
    """Print which rule ids the ruleset and the scenarios cite."""
    reference = reference or ROOT.parent / "shared" / "rules" / f"{game}.md"
    if not reference.is_file():                  # a plain clone: the references live beside it
        raise click.UsageError(f"no rules reference at {reference}: the references are kept "
                               "beside the project (../shared/rules/GAME.md); give one with --reference")
    ids = reference_ids(reference.read_text(encoding="utf-8"))
    in_data = cited_in(ROOT / "rulesets" / game)
    in_tests = cited_in(ROOT / "tests" / "scenarios" / game)
    table = Table(title=f"{game}: {len(ids)} rule ids")
    for column in ("id", "data", "scenarios"):
        table.add_column(column)
    for rule in ids:
        row = (rule, "yes" if rule in in_data else "", "yes" if rule in in_tests else "")
        if show_all or not (row[1] or row[2]):
            table.add_row(*row)
    console = Console()
    console.print(table)
    cited = sum(1 for r in ids if r in in_data or r in in_tests)
    console.print(f"cited: {cited}/{len(ids)}; in data {sum(r in in_data for r in ids)}, "
                  f"in scenarios {sum(r in in_tests for r in ids)}")


if __name__ == "__main__":
    main()
