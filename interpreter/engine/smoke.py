"""Smoke games: a few random decisions at every player count, for ``rulebook validate``.

Loading checks what the content says; a smoke game checks what it does at
the start of play. One short seeded game per allowed player count, random
choices, stopped after ``DECISIONS`` decisions: a flow that crashes, loops
or runs out of a budget (``model.budget``) as soon as it is played is a
diagnostic at the ``file:line:col`` that went wrong, not a surprise in the
first real game.
"""
from __future__ import annotations

import random
import re

from ..diagnostics import Diagnostic
from .game import Game
from ..model.values import RuleError

DECISIONS = 100
"""Decisions per smoke game: past set-up into play, yet fast.

The bundled game takes about 400 decisions a game; 100 at each of its
eleven player counts add about 0.4 s to ``validate`` (300 would add 1.2 s).
"""

HINT = "validate plays a short random game per player count; --no-smoke skips it"

SEED = 1                # the seed `rulebook play` uses by default

_PLACED = re.compile(r"(.+?):(\d+):(\d+): (.*)", re.S)     # how machine.located writes a place


def smoke_problems(rules, decisions: int = DECISIONS) -> list[Diagnostic]:
    """The problems the smoke games hit (none when all play), each said once.

    The same error at several player counts is one diagnostic naming them all.
    """
    failures: dict = {}            # (code, file, line, col, message) -> player counts
    for players in range(rules.players["min"], rules.players["max"] + 1):
        failure = _smoke(rules, players, decisions)
        if failure is not None:
            failures.setdefault(failure, []).append(players)
    return [Diagnostic(code, f"smoke game with {_counts(counts)} (seed {SEED}): {message}", file, line, col,
                       hint=HINT)
            for (code, file, line, col, message), counts in failures.items()]


def _smoke(rules, players: int, decisions: int):
    """``(code, file, line, col, message)`` of what went wrong, or None."""
    rnd = random.Random(SEED)
    try:
        gates = dict.fromkeys(rules.option_gates, True)    # validating is playing it on purpose
        game = Game.new(rules, players=players, seed=SEED, options=gates)
        for _ in range(decisions):
            if game.over:
                break
            pending = game.pending()
            if not pending:
                return ("smoke-stuck", None, None, None,
                        "the game is not over but nobody has a decision to make")
            game.apply(pending[0].player, rnd.randrange(pending[0].count))
    except (RuleError, ValueError) as exc:
        placed = _PLACED.match(str(exc))
        if placed is None:
            return ("smoke-game", None, None, None, str(exc))
        file, line, col, message = placed.groups()
        return ("smoke-game", file, int(line), int(col), message)
    return None


def _counts(counts: list) -> str:
    return f"{', '.join(map(str, counts))} player{'s' if counts != [1] else ''}"
