"""Benchmark: load time, decisions per second and games per second.

Random playouts of each bundled game (or the ones named) at each player
count, on one core, timed with perf_counter; and how fast the YAML reader
refuses hostile input (an alias bomb, a file over the size limit).
Performance is measured here, never asserted in tests.

    python tools/bench.py                      # every game, a spread of player counts
    python tools/bench.py lairs --players 2,4,8 --games 10
"""
from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from interpreter.agents.driver import drive, random_mover
from interpreter.content.ruleset import available, load_ruleset
from interpreter.content.yaml_source import load_yaml
from interpreter.diagnostics import ContentError
from interpreter.engine.game import Game

# Nine lists of nine aliases, nine levels deep: 9**9 strings once expanded.
ALIAS_BOMB = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}'] * 9)}]\n" for prev, name in zip("abcdefgh", "bcdefghi"))


def time_load(game_id: str, repeats: int) -> float:
    """Median seconds to read, validate and compile a ruleset from disk."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        load_ruleset(game_id)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def time_refusal(path: Path, repeats: int) -> float:
    """Median seconds for `load_yaml` to refuse the file at `path`."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        try:
            load_yaml(path)
        except ContentError:
            times.append(time.perf_counter() - start)
        else:
            raise AssertionError(f"{path} was not refused")
    return statistics.median(times)


def time_refusals(repeats: int) -> dict:
    """Refusal times of an alias bomb and of a sparse 20 GB file (over the size limit)."""
    with tempfile.TemporaryDirectory() as folder:
        bomb, huge = Path(folder) / "bomb.yaml", Path(folder) / "huge.yaml"
        bomb.write_text(ALIAS_BOMB, encoding="utf-8")
        with open(huge, "wb") as stream:
            stream.truncate(20 * 10**9)
        return {"alias_bomb_refusal_seconds": round(time_refusal(bomb, repeats), 4),
                "oversize_refusal_seconds": round(time_refusal(huge, repeats), 6)}


def playout(rules, players: int, seed: int) -> int:
    """One random game; returns the number of decisions taken."""
    game = Game.new(rules, players=players, seed=seed)
    return drive(game, random_mover(seed))


def bench_counts(rules, counts, games: int) -> list[dict]:
    rows = []
    for n in counts:
        start = time.perf_counter()
        decisions = sum(playout(rules, n, seed) for seed in range(games))
        elapsed = time.perf_counter() - start
        rows.append({"players": n, "games": games, "decisions": decisions, "seconds": round(elapsed, 3),
                     "decisions_per_s": round(decisions / elapsed), "games_per_s": round(games / elapsed, 2)})
    return rows


@click.command()
@click.argument("games_ids", nargs=-1)
@click.option("--players", default="", help="Comma-separated player counts (default: min, 4, max).")
@click.option("--games", default=5, show_default=True, help="Games per player count.")
@click.option("--load-repeats", default=3, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def main(games_ids, players, games, load_repeats, fmt):
    """Print load time, decisions/s and games/s for random playouts."""
    report = {}
    for game_id in games_ids or available():
        rules = load_ruleset(game_id)
        lo, hi = rules.players["min"], rules.players["max"]
        counts = [int(c) for c in players.split(",") if c] or sorted({lo, min(4, hi), hi})
        report[game_id] = {"load_seconds": round(time_load(game_id, load_repeats), 3),
                           "playouts": bench_counts(rules, counts, games)}
    refusals = time_refusals(load_repeats)
    if fmt == "json":
        click.echo(json.dumps({**report, "yaml_refusals": refusals}, indent=2))
        return
    console = Console()
    console.print(f"alias bomb refusal: {refusals['alias_bomb_refusal_seconds']:.4f} s")
    console.print(f"oversize refusal: {refusals['oversize_refusal_seconds']:.6f} s")
    for game_id, data in report.items():
        table = Table(title=f"{game_id}: load + validate {data['load_seconds']:.3f} s")
        for column in ("players", "games", "decisions", "seconds", "decisions/s", "games/s"):
            table.add_column(column, justify="right")
        for row in data["playouts"]:
            table.add_row(*(str(row[k]) for k in ("players", "games", "decisions", "seconds",
                                                  "decisions_per_s", "games_per_s")))
        console.print(table)


if __name__ == "__main__":
    main()
