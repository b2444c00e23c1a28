"""Golden playthroughs: a seeded game written out decision by decision.

A playthrough lists, for every decision of a seeded random game, who decided,
the prompt, every option on offer and the one taken, a short hash of every
player's view after it (so a leak, or any change in what a player sees,
shows up too), then the final result.
The test suite replays the same game and diffs it line by line against the
file in tests/golden/, so any change in how the rules play shows up. After a
deliberate rules change, write the files again:

    python tools/playthrough.py --write
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import click

from interpreter.agents.driver import drive, random_mover
from interpreter.content.ruleset import load_ruleset
from interpreter.engine.game import Game

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"
# (game, players, seed, options): small games that still reach every phase
CASES = [("lairs", 2, 7, {}), ("lairs", 3, 11, {"board": "superyacht"})]


def file_name(game_id: str, players: int, seed: int) -> str:
    return f"{game_id}-{players}p-seed{seed}.txt"


def view_digest(game, seat: int) -> str:
    """A short hash of one player's view: a leak or any change of what they see shows as a diff."""
    text = json.dumps(game.view(seat), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def playthrough(game_id: str, players: int, seed: int, options: dict) -> str:
    """The transcript of one seeded random game."""
    game = Game.new(load_ruleset(game_id), players=players, seed=seed, options=options)
    lines = [f"# {game_id}, {players} players, seed {seed}, options {options}"]

    def record(g, step):
        decision = step.decision
        lines.append(f"P{decision.player + 1} {decision.prompt}: " + " | ".join(decision.options))
        lines.append(f"  -> {decision.options[step.index]}")
        lines.append("  views: " + " ".join(view_digest(g, seat) for seat in range(players)))
    drive(game, random_mover(seed), on_step=record)
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
