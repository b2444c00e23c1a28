"""A fair match between two bots: every seed played with each bot in each seat.

Seat rotation cancels the first player's edge; the figure is bot A's mean
return (engine.returns: 1 a win, 1/2 a shared win, 0 a loss) over all games,
with its 95% interval (mean +- 1.96 standard errors). A margin is outside
the interval when 0.5 is not in it. A benchmark, not a test: it takes
minutes.

    python tools/match.py lairs ismcts:iterations=50 greedy --games 20 --jobs 2
    python tools/match.py lairs mcts greedy --players 2 --games 10 --format json
"""
from __future__ import annotations

import json
import math
import statistics
import time

import click

from interpreter.agents import make_bot, play_out
from interpreter.content.ruleset import load_ruleset
from interpreter.engine.game import Game


def one_game(rules, a: str, b: str, players: int, game_seed: int, seat_a: int) -> tuple:
    """One game with ``a`` in ``seat_a`` and ``b`` elsewhere: (A's return, A's win share, CPU s)."""
    game = Game.new(rules, players=players, seed=game_seed)
    bots = {i: make_bot(a if i == seat_a else b, game_seed * 1000 + i) for i in range(players)}
    start = time.process_time()
    play_out(game, bots)
    seconds = time.process_time() - start
    winners = game.result["winners"]
    return game.result["returns"][seat_a], (1 / len(winners) if seat_a in winners else 0.0), seconds


def _worker(job):
    rules_ref, *rest = job
    return one_game(_RULES.setdefault(rules_ref, load_ruleset(rules_ref)), *rest)


_RULES: dict = {}


def match(rules, a: str, b: str, games: int, players: int, seed: int, jobs: int = 1,
          rules_ref: str | None = None) -> dict:
    """Play ``games`` seeds, each once per seat of ``a`` (the others ``b``); A's returns.

    With ``jobs`` > 1 the games run in that many processes (each loads ``rules_ref``, the
    name or folder ``rules`` came from); the figures are the same as with one.
    """
    plan = [(a, b, players, seed + n, seat_a) for n in range(games) for seat_a in range(players)]
    if jobs > 1 and rules_ref:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = pool.map(_worker, [(rules_ref, *job) for job in plan], chunksize=1)
    else:
        results = [one_game(rules, *job) for job in plan]
    returns = [r for r, _, _ in results]
    wins = sum(w for _, w, _ in results)
    seconds = sum(s for _, _, s in results)
    mean = statistics.fmean(returns)
    half = 1.96 * statistics.stdev(returns) / math.sqrt(len(returns)) if len(returns) > 1 else math.inf
    fair = 1 / players
    return {"game": rules.id, "a": a, "b": b, "players": players, "games": len(returns),
            "seeds": [seed, seed + games - 1], "a_wins": round(wins, 3),
            "a_losses": sum(1 for r in returns if r == 0), "a_mean_return": round(mean, 4),
            "interval_95": [round(mean - half, 4), round(mean + half, 4)],
            "even_share": round(fair, 4), "margin_outside_interval": not mean - half <= fair <= mean + half,
            "cpu_seconds": round(seconds, 1), "cpu_seconds_per_game": round(seconds / len(returns), 2)}


@click.command()
@click.argument("game")
@click.argument("a")
@click.argument("b")
@click.option("--games", "-n", type=int, default=10, show_default=True, help="Seeds (each played once per seat).")
@click.option("--players", "-p", type=int, default=2, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--jobs", "-j", type=int, default=1, show_default=True, help="Games played at once, in processes.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def main(game, a, b, games, players, seed, jobs, fmt):
    """Bot A against bot B on GAME, seat-rotated."""
    report = match(load_ruleset(game), a, b, games, players, seed, jobs=jobs, rules_ref=game)
    if fmt == "json":
        click.echo(json.dumps(report, indent=2))
        return
    low, high = report["interval_95"]
    click.echo(f"{report['a']} vs {report['b']} on {report['game']}, {report['players']} players, "
               f"{report['games']} games (seeds {report['seeds'][0]}..{report['seeds'][1]}, every seat)")
    click.echo(f"  {report['a']} won {report['a_wins']:g} (a shared win counts its share), "
               f"lost {report['a_losses']}; mean return {report['a_mean_return']:.3f}, "
               f"95% interval {low:.3f}..{high:.3f} (even: {report['even_share']:.3f}); "
               f"{'outside' if report['margin_outside_interval'] else 'inside'} the interval; "
               f"{report['cpu_seconds']} s of CPU ({report['cpu_seconds_per_game']} s a game)")


if __name__ == "__main__":
    main()
