"""A fair match between two bots: every seed played with each bot in each seat.

Seat rotation cancels the first player's edge; the figure is bot A's mean
return (engine.returns: 1 a win, 1/2 a shared win, 0 a loss) over all games,
with its 95% interval (mean +- 1.96 standard errors). A margin is outside
the interval when 0.5 is not in it. A benchmark, not a test: it takes
minutes.

    python tools/match.py lairs ismcts:iterations=50 greedy --games 20
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


def match(rules, a: str, b: str, games: int, players: int, seed: int) -> dict:
    """Play ``games`` seeds, each once per seat of ``a`` (the others ``b``); A's returns."""
    returns, wins, seconds = [], 0.0, 0.0
    for n in range(games):
        for seat_a in range(players):
            game = Game.new(rules, players=players, seed=seed + n)
            bots = {i: make_bot(a if i == seat_a else b, (seed + n) * 1000 + i) for i in range(players)}
            start = time.process_time()
            play_out(game, bots)
            seconds += time.process_time() - start
            value = game.result["returns"][seat_a]
            returns.append(value)
            wins += 1 / len(game.result["winners"]) if seat_a in game.result["winners"] else 0
    mean = statistics.fmean(returns)
    half = 1.96 * statistics.stdev(returns) / math.sqrt(len(returns)) if len(returns) > 1 else math.inf
    fair = 1 / players
    return {"game": rules.id, "a": a, "b": b, "players": players, "games": len(returns),
            "seeds": [seed, seed + games - 1], "a_wins": round(wins, 3),
            "a_losses": sum(1 for r in returns if r == 0), "a_mean_return": round(mean, 4),
            "interval_95": [round(mean - half, 4), round(mean + half, 4)],
            "even_share": round(fair, 4), "margin_outside_interval": not mean - half <= fair <= mean + half,
            "cpu_seconds": round(seconds, 1)}


@click.command()
@click.argument("game")
@click.argument("a")
@click.argument("b")
@click.option("--games", "-n", type=int, default=10, show_default=True, help="Seeds (each played once per seat).")
@click.option("--players", "-p", type=int, default=2, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def main(game, a, b, games, players, seed, fmt):
    """Bot A against bot B on GAME, seat-rotated."""
    report = match(load_ruleset(game), a, b, games, players, seed)
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
               f"{report['cpu_seconds']} s of CPU")


if __name__ == "__main__":
    main()
