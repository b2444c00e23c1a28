"""`rulebook compare A B`: the same seeds under two rulesets (or two option sets), paired."""
from __future__ import annotations

import json

import click
from rich import box
from rich.table import Table

from ..workbench import balance, compare, parallel
from .common import CliError, load, out, parse_options, parse_seats, player_count
from .simulate_cmd import progress


@click.command("compare")
@click.argument("first", metavar="A")
@click.argument("second", metavar="B")
@click.option("--games", "-n", type=click.IntRange(min=2), default=50, show_default=True,
              help="Games per side (seeds SEED..SEED+N-1, the same on both sides).")
@click.option("--players", "-p", type=int, help="Number of players (default: A's).")
@click.option("--seed", type=int, default=1, show_default=True, help="The first seed.")
@click.option("--seats", metavar="NAME,...", help="Bots per seat, rotated (default: random).")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="An option for both sides (repeatable).")
@click.option("--a-option", "a_options", multiple=True, metavar="KEY=VALUE", help="An option for A only.")
@click.option("--b-option", "b_options", multiple=True, metavar="KEY=VALUE", help="An option for B only.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), help="Processes (default: the cores).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def compare_command(first, second, games, players, seed, seats, options, a_options, b_options,
                    jobs, fmt):
    """Play the same seeded games under A and B and say which figures changed beyond noise.

    A and B are two ruleset folders (a ruleset and an edited copy), or the
    same one with --a-option / --b-option. Each figure is compared game by
    game (a paired test): 'changed' means its 95% interval leaves out 0.
    """
    from ..agents import BOTS
    from ..content.options import resolve_options
    sides = []
    for source, extra in ((first, a_options), (second, b_options)):
        rules = load(source)
        count = player_count(rules, players)
        given = {**parse_options(options), **parse_options(extra)}
        plan = balance.Plan(source, (), count, seed, games, parse_seats(seats, count, list(BOTS)),
                            resolve_options(rules, given, count))
        sides.append((rules, plan))
    if sides[0][1].players != sides[1][1].players:
        raise CliError("A and B default to different player counts: give --players")
    rows = []
    with progress() as bar:
        for name, (rules, plan) in zip("AB", sides):
            rows.append(parallel.run(rules, plan, list(range(games)), jobs or parallel.default_jobs(),
                                     bar.task(f"playing {name}", games)))
    figures = compare.compare(*rows)
    result = {"a": first, "b": second, "games": games, "players": sides[0][1].players, "seed": seed,
              "figures": figures, "changed": [f["figure"] for f in figures if f["changed"]]}
    if fmt == "json":
        click.echo(json.dumps(result, indent=2, ensure_ascii=False))
        return
    _print(result)


def _print(result: dict) -> None:
    console = out()
    console.print(f"A = {result['a']}, B = {result['b']}: {result['games']} paired games, "
                  f"{result['players']} players, seeds {result['seed']}.."
                  f"{result['seed'] + result['games'] - 1}")
    table = Table(box=box.SIMPLE_HEAD, show_edge=False)
    for column in ("figure", "A", "B", "B - A", "95% interval", ""):
        table.add_column(column, no_wrap=True)
    for f in result["figures"]:
        low, high = f["interval"]
        table.add_row(f["figure"], f"{f['a']:g}", f"{f['b']:g}", f"{f['change']:+g}",
                      f"{low:+.3g} .. {high:+.3g}", "changed" if f["changed"] else "")
    console.print(table)
    changed = result["changed"]
    console.print(f"changed beyond noise: {', '.join(changed)}" if changed
                  else "no figure changed beyond noise")
