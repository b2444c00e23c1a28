"""Regenerate the text captures of the bundled games' screens in README.md and docs/table.md.

A capture is the ```text block right after a marker line

    <!-- screen: GAME players=N seed=S decisions=K size=WxH -->

and is the screen (cli/table.py) of the seat to decide in a game of GAME with N
players and seed S after K decisions by random bots (``random_mover(S)``), with
what happened since that seat's previous screen (its own answer and what it set
off included, as ``cli/human.py`` shows it), drawn W columns wide and H
lines high, as a person at the table would see it. ``python tools/screens.py``
writes every capture again; ``--check`` only says which are out of date (exit 1).
tests/test_screens.py runs the check, so a change to a ruleset, its presentation
or the screen cannot leave a capture behind.
"""
from __future__ import annotations

import argparse
import functools
import io
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FILES = ("README.md", "docs/table.md")
MARKER = re.compile(r"^(<!-- screen: (\S+)((?: [a-z]+=\S+)*) -->\n```text\n)(.*?)^```", re.M | re.S)


@functools.cache
def _rules(game: str):
    from interpreter.content.ruleset import load_ruleset
    return load_ruleset(game)


def capture(game: str, players: int, seed: int, decisions: int, size: str) -> str:
    """The screen of the seat to decide after ``decisions`` random decisions, as text."""
    from rich.console import Console

    from interpreter.agents.driver import drive, random_mover
    from interpreter.cli import table
    from interpreter.engine.game import Game
    rules = _rules(game)
    played = Game.new(rules, players=players, seed=seed)
    drive(played, random_mover(seed), until=lambda g: len(g.state["history"]) >= decisions)
    if played.over:
        raise ValueError(f"{game} seed {seed} is over before {decisions} decisions")
    seat = played.pending()[0].player
    history = played.state["history"]
    mine = [k for k, (player, _) in enumerate(history) if player == seat]
    seen = 0
    if mine:                                  # the log their last screen showed (cli/human.py)
        before = Game.new(rules, players=players, seed=seed)
        for player, index in history[:mine[-1]]:
            before.apply(player, index)
        seen = len(before.view(seat)["log"])
    width, height = map(int, size.split("x"))
    console = Console(record=True, width=width, height=height, file=io.StringIO(),
                      highlight=False, markup=False, emoji=False)
    table.show(console, played, seat, played.view(seat)["log"][seen:])
    lines = console.export_text().rstrip("\n").splitlines()
    return "".join(line.rstrip() + "\n" for line in lines)


def _capture_of(args: str) -> dict:
    settings = dict(pair.split("=", 1) for pair in args.split())
    return {"players": int(settings["players"]), "seed": int(settings["seed"]),
            "decisions": int(settings["decisions"]), "size": settings["size"]}


def regenerated(text: str) -> str:
    """``text`` with every capture drawn again."""
    def one(match):
        return match.group(1) + capture(match.group(2), **_capture_of(match.group(3))) + "```"
    return MARKER.sub(one, text)


def captures(text: str) -> list[tuple[str, str]]:
    """``(game, marker arguments)`` of every capture in ``text``."""
    return [(m.group(2), m.group(3).strip()) for m in MARKER.finditer(text)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say which files are out of date")
    args = parser.parse_args(argv)
    stale = []
    for name in FILES:
        path = ROOT / name
        text = path.read_text(encoding="utf-8")
        new = regenerated(text)
        if new != text:
            stale.append(name)
            if not args.check:
                path.write_text(new, encoding="utf-8")
    verb = "out of date" if args.check else "rewritten"
    for name in stale:
        print(f"{name}: captures {verb}")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
