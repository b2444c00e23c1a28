"""A generated block runs the ``while`` it reaches (its frame pushed, the machine's runner for it
called) instead of returning to the machine: the state at every decision is the interpreter's."""
from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.engine import codegen
from interpreter.engine.game import Game

from support import edit, errors_both_ways

TOY = Path(__file__).resolve().parent / "rulesets" / "toy"

LOOPS = [   # a loop whose body decides: in the middle of a block, last in a block, in a procedure
    "while step < 3:\n"
    "  step += 1\n"
    "  choose x in [1, 2, 3] label text(\"pick\", x):\n"
    "    if x == 2:\n"
    "      break\n"
    "step += 10\n",
    "if step < 5:\n"
    "  while step < 5:\n"
    "    choose x in [1, 2] label text(\"pick\", x):\n"
    "      step += x\n",
    "do loop()\n"
    "do loop()\n",
]

PROCEDURE = ("  loop:\n    params: []\n    do: |\n"
             "      while step < 8:\n"
             "        choose x in [1, 2] label text(\"pick\", x):\n"
             "          step += x\n")


def _toy(tmp_path, text: str) -> Path:
    """The toy ruleset, each player running ``text`` (as p) at the start."""
    folder = tmp_path / "toy"
    shutil.copytree(TOY, folder)
    body = "".join("      " + line + "\n" for line in text.splitlines())
    edit(folder / "flow.yaml", "start: |\n", f"start: |\n  for each p in players:\n    as p:\n{body}")
    edit(folder / "flow.yaml", "procedures:\n", f"procedures:\n{PROCEDURE}")
    return folder


@pytest.mark.parametrize("text", LOOPS)
def test_a_loop_run_from_its_block_leaves_the_interpreters_state_at_every_decision(text, tmp_path, monkeypatch):
    folder = _toy(tmp_path, text)
    runs = []
    for enabled in (True, False):
        monkeypatch.setattr(codegen, "ENABLED", enabled)
        rules = load_ruleset(str(folder))
        if enabled:
            assert "went = game.runners[" in codegen.program_of(rules).source
        for seed in range(4):
            game, rnd, seen = Game.new(rules, players=3, seed=seed), random.Random(seed), []
            while not game.over and len(seen) < 60:
                seen.append(game.to_json())
                if len(seen) % 2:                       # half the decisions from a loaded game
                    game = Game.from_json(rules, game.to_json())
                d = game.pending()[0]
                seen.append((d.player, d.prompt, list(d.options)))
                game.apply(d.player, rnd.randrange(len(d.options)))
            runs.append(seen + [game.to_json()])
    assert runs[:4] == runs[4:]


def test_an_error_in_the_loops_condition_is_placed_as_the_frames_place_it(tmp_path, monkeypatch):
    folder = _toy(tmp_path, "while step < get({}, \"k\", \"a\"):\n"
                            "  choose x in [1, 2]:\n"
                            "    pass\n")
    messages = errors_both_ways(folder, monkeypatch)
    assert messages[0] == messages[1] and "flow.yaml:5:" in messages[0]
