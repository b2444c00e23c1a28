"""Golden playthroughs: a seeded game written out decision by decision.

A playthrough lists, for every decision of a seeded random game, who decided,
the prompt, every option on offer and the one taken, then the final result.
The test suite replays the same game and diffs it line by line against the
file in tests/golden/, so any change in how the rules play shows up. After a
deliberate rules change, write the files again:

    python tools/playthrough.py --write
"""
from __future__ import annotations

import random
from pathlib import Path

import click

from interpreter.content.ruleset import load_ruleset
from interpreter.engine.game import Game

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"
# (game, players, seed, options): small games that still reach every phase
CASES = [("lairs", 2, 7, {}), ("lairs", 3, 11, {"board": "superyacht"})]


def file_name(game_id: str, players: int, seed: int) -> str:
    return f"{game_id}-{players}p-seed{seed}.txt"


def playthrough(game_id: str, players: int, seed: int, options: dict) -> str:
    """The transcript of one seeded random game."""
    game = Game.new(load_ruleset(game_id), players=players, seed=seed, options=options)
    rnd = random.Random(seed)
    lines = [f"# {game_id}, {players} players, seed {seed}, options {options}"]
    while not game.over:
        decision = game.pending()[0]
        choice = rnd.randrange(len(decision.options))
        lines.append(f"P{decision.player + 1} {decision.prompt}: " + " | ".join(decision.options))
        lines.append(f"  -> {decision.options[choice]}")
        game.apply(decision.player, choice)
    lines.append(f"result: {game.result}")
    return "\n".join(lines) + "\n"


@click.command()
@click.option("--write", is_flag=True, help="Write the golden files (otherwise print them).")
def main(write):
    """Print (or write) the golden playthroughs."""
    for game_id, players, seed, options in CASES:
        text = playthrough(game_id, players, seed, options)
        if write:
            GOLDEN.mkdir(parents=True, exist_ok=True)
            (GOLDEN / file_name(game_id, players, seed)).write_text(text, encoding="utf-8")
            click.echo(f"wrote tests/golden/{file_name(game_id, players, seed)}")
        else:
            click.echo(text)


if __name__ == "__main__":
    main()
