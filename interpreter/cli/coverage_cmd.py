"""`rulebook coverage`: which branches, records and rule ids scenarios and simulations ran."""
from __future__ import annotations

import json
from pathlib import Path

import click

from ..workbench import balance, coverage, parallel
from .common import err, load, out, parse_seats, player_count
from .simulate_cmd import progress

KINDS = (("branches", "effect-text branches", "text"), ("records", "records with effects", "record"),
         ("rules", "rule ids cited in effect texts and records", "rule"))


@click.command("coverage")
@click.argument("game")
@click.option("--scenarios", "-s", "scenarios", multiple=True, type=click.Path(exists=True),
              help="Scenario files or folders to run (default: the ruleset's scenarios/ folder).")
@click.option("--games", "-n", type=click.IntRange(min=0), default=20, show_default=True,
              help="Simulated games (seeds SEED..SEED+N-1).")
@click.option("--players", "-p", type=int, help="Players in the simulated games.")
@click.option("--seed", type=int, default=1, show_default=True, help="The first seed.")
@click.option("--seats", metavar="NAME,...", help="Bots of the simulated games (rotated).")
@click.option("--expansion", "-x", "expansions", multiple=True, help="Apply an expansion (repeatable).")
@click.option("--jobs", "-j", type=click.IntRange(min=1),
              help="Processes to play the games in (default: this machine's cores); "
                   "the output is the same for any number.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--all", "show_all", is_flag=True, help="List everything, not only what never ran.")
def coverage_command(game, scenarios, games, players, seed, seats, expansions, jobs, fmt, show_all):
    """Run a game's scenarios and N simulated games; list what never ran, at file:line.

    The designer's answer to "is this rule ever used, and is it tested?":
    each branch of each effect text, each record with effects and each rule
    id cited in them, executed by the scenarios and by the simulations.
    """
    from ..agents import BOTS
    from ..content.options import resolve_options
    runs = {}
    console = err()
    with coverage.tracing(lambda: load(game, expansions)) as (rules, hits):
        paths = list(scenarios) or [p for p in [Path(rules.folder) / "scenarios"] if p.is_dir()]
        if paths:
            from ..scenarios import check_paths
            with console.status("running scenarios", spinner="line") if console.is_terminal \
                    else _nothing():
                check_paths([str(p) for p in paths])
        runs["scenarios"] = set(hits.hits)
        hits.hits.clear()
        count = player_count(rules, players)
        plan = balance.Plan(game, tuple(expansions), count, seed, games,
                            parse_seats(seats, count, list(BOTS)), resolve_options(rules, {}, count))
        with progress() as bar:
            coverage.play(rules, plan, range(games), hits, bar.task("playing", games),
                          jobs or parallel.default_jobs())
        runs["simulations"] = set(hits.hits)
    figures = coverage.report(rules, runs)
    figures["scenario_paths"] = [str(p) for p in paths]
    figures["games"] = games
    if fmt == "json":
        click.echo(json.dumps(figures, indent=2, ensure_ascii=False))
        return
    _print(figures, show_all)
    if not paths:
        err().print("note: no scenarios given (--scenarios) and no scenarios/ folder in the ruleset")


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _print(figures: dict, show_all: bool) -> None:
    console = out()
    console.print(f"{figures['game']}: {len(figures['scenario_paths'])} scenario path(s), "
                  f"{figures['games']} simulated games")
    for kind, title, _ in KINDS:
        parts = ", ".join(f"{label} {ran}/{total}" for label, (ran, total)
                          in figures["summary"][kind].items())
        console.print(f"{title}: {parts}")
    for kind, title, key in KINDS:
        shown = [e for e in figures[kind] if show_all or not any(e[label] for label in figures["runs"])]
        if not shown:
            continue
        console.print(f"\n{title}{'' if show_all else ' never executed'}:")
        for entry in shown:
            marks = " ".join(label for label in figures["runs"] if entry[label]) or "never"
            what = entry[key] if entry.get("branch", "block") == "block" else f"{entry[key]}, {entry['branch']}"
            console.print(f"  {entry['at']}: {what} ({marks})", soft_wrap=True)
