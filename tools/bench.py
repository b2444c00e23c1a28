"""Benchmark: load time, decisions per second and games per second.

Per game (every bundled one, or those named) and player count: random
playouts on one core (decisions/s and games/s from CPU time); loading and
validating the ruleset in a fresh process (imports included, a subprocess)
and again in a warm one; and, for Lairs when the hand-written reference is
beside the project (``../shared/bench/``, or ``--reference DIR``), the
side-by-side ratio measured as ``compare.py`` does (same seeds, same
chooser, rounds alternating the two; interpreter time / reference time).
Also how fast the YAML reader refuses hostile input. Performance is
measured here, never asserted in tests.

    python tools/bench.py                      # every game, a spread of player counts
    python tools/bench.py lairs --players 2,4,8 --games 10
    python tools/bench.py lairs --format json  # for history
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
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
from interpreter.engine.codegen import program_of
from interpreter.engine.game import Game

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT.parent / "shared" / "bench"        # the hand-written Lairs, when it is there

# Nine lists of nine aliases, nine levels deep: 9**9 strings once expanded.
ALIAS_BOMB = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}'] * 9)}]\n" for prev, name in zip("abcdefgh", "bcdefghi"))


def time_load(game_id: str, repeats: int) -> float:
    """Median seconds to read, validate and compile a ruleset from disk, in this (warm) process
    (its Python code generated and compiled included, as the first game pays it)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        program_of(load_ruleset(game_id))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


_FRESH = """import sys, time
start, cpu = time.perf_counter(), time.process_time()
from interpreter.content.ruleset import load_ruleset
from interpreter.engine.codegen import program_of
program_of(load_ruleset(sys.argv[1]))
print(time.perf_counter() - start, time.process_time() - cpu)
"""


def time_fresh_load(game_id: str, repeats: int) -> tuple[float, float]:
    """Median seconds (wall, CPU) to import the interpreter and load and validate a ruleset in
    a new process (the checks it passed before remembered, as after any first load: see
    ``content/checked.py``; ``RULEBOOK_CACHE_DIR=`` empty measures without them)."""
    walls, cpus = [], []
    for _ in range(repeats):
        done = subprocess.run([sys.executable, "-c", _FRESH, game_id], capture_output=True, text=True,
                              check=True, cwd=ROOT)
        wall, cpu = map(float, done.stdout.strip().splitlines()[-1].split())
        walls.append(wall)
        cpus.append(cpu)
    return statistics.median(walls), statistics.median(cpus)


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
        start, wall = time.process_time(), time.perf_counter()
        decisions = sum(playout(rules, n, seed) for seed in range(games))
        cpu, wall = time.process_time() - start, time.perf_counter() - wall
        rows.append({"players": n, "games": games, "decisions": decisions, "cpu_seconds": round(cpu, 3),
                     "wall_seconds": round(wall, 3), "decisions_per_s": round(decisions / cpu),
                     "games_per_s": round(games / cpu, 2)})
    return rows


def reference_ratio(rules, reference: Path, counts, rounds: int) -> list[dict] | None:
    """Lairs beside its hand-written reference, as ``compare.py`` measures it (None if absent)."""
    if not (reference / "compare.py").exists() or rules.id != "lairs":
        return None
    os.environ.setdefault("LAIRS_RULESET", str(ROOT / "rulesets" / "lairs"))
    sys.path.insert(0, str(reference))
    import compare                                  # the reference's own harness: its games, its timing
    rows = []
    for n in counts:
        games = max(3, round(2500 / (67 * n)))      # about 2,500 decisions a block, as compare.py
        ratios, mine, theirs = [], [], []
        for r in range(rounds):
            seeds = range(1000 * r, 1000 * r + games)
            decisions, ci, _ = compare.timed(compare.interp_games, rules, n, seeds)
            _, cr, _ = compare.timed(lambda: [compare.ref_games(n, seeds) for _ in range(5)])
            ratios.append(ci / (cr / 5))
            mine.append(decisions / ci)
            theirs.append(decisions / (cr / 5))
        rows.append({"players": n, "ratio": round(statistics.median(ratios), 1),
                     "decisions_per_s": round(statistics.median(mine)),
                     "reference_decisions_per_s": round(statistics.median(theirs))})
    return rows


@click.command()
@click.argument("games_ids", nargs=-1)
@click.option("--players", default="", help="Comma-separated player counts (default: min, 4, max).")
@click.option("--games", default=5, show_default=True, help="Games per player count.")
@click.option("--load-repeats", default=3, show_default=True)
@click.option("--rounds", default=3, show_default=True, help="Rounds of the side-by-side reference ratio.")
@click.option("--reference", type=click.Path(path_type=Path), default=REFERENCE, show_default=True,
              help="Folder of the hand-written reference (compare.py); skipped when absent.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def main(games_ids, players, games, load_repeats, rounds, reference, fmt):
    """Print load times, decisions/s and games/s for random playouts, and the reference ratio."""
    report = {}
    for game_id in games_ids or available():
        rules = load_ruleset(game_id)
        lo, hi = rules.players["min"], rules.players["max"]
        counts = [int(c) for c in players.split(",") if c] or sorted({lo, min(4, hi), hi})
        fresh_wall, fresh_cpu = time_fresh_load(game_id, load_repeats)
        report[game_id] = {"load_seconds_fresh": round(fresh_wall, 3),
                           "load_cpu_seconds_fresh": round(fresh_cpu, 3),
                           "load_seconds_warm": round(time_load(game_id, load_repeats), 3),
                           "playouts": bench_counts(rules, counts, games),
                           "reference": reference_ratio(rules, reference, counts, rounds)}
    refusals = time_refusals(load_repeats)
    if fmt == "json":
        click.echo(json.dumps({**report, "yaml_refusals": refusals}, indent=2))
        return
    console = Console()
    console.print(f"alias bomb refusal: {refusals['alias_bomb_refusal_seconds']:.4f} s")
    console.print(f"oversize refusal: {refusals['oversize_refusal_seconds']:.6f} s")
    for game_id, data in report.items():
        ratios = {row["players"]: row for row in data["reference"] or []}
        table = Table(title=f"{game_id}: load + validate {data['load_seconds_fresh']:.3f} s fresh "
                            f"({data['load_cpu_seconds_fresh']:.3f} s CPU; imports included), "
                            f"{data['load_seconds_warm']:.3f} s warm")
        columns = ["players", "games", "decisions", "cpu s", "dec/s", "games/s"]
        if ratios:
            columns += ["ref dec/s", "ratio"]
        for column in columns:
            table.add_column(column, justify="right")
        for row in data["playouts"]:
            cells = [str(row[k]) for k in ("players", "games", "decisions", "cpu_seconds",
                                           "decisions_per_s", "games_per_s")]
            if ratios:
                ref = ratios[row["players"]]
                cells += [str(ref["reference_decisions_per_s"]), f"{ref['ratio']:.1f}x"]
            table.add_row(*cells)
        console.print(table)
        if not ratios and game_id == "lairs":
            console.print(f"(no reference at {reference}: side-by-side ratio skipped)")


if __name__ == "__main__":
    main()
