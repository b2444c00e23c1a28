"""The one loop that plays a game on: a mover makes each decision, with a bound.

A *mover* is a function ``move(game, pending)`` that answers exactly one of
the pending decisions (it calls ``game.apply`` itself, so a person at a
terminal is a mover too). ``drive`` calls it until the game is over (or
``until(game)`` holds), calls ``on_step(game, step)`` after every decision,
and stops with ``GameDidNotEnd`` after ``max_steps`` decisions, so no
content can keep a caller playing for ever.
"""
from __future__ import annotations

import random
from typing import Callable, NamedTuple

MAX_STEPS = 1_000_000


class GameDidNotEnd(RuntimeError):
    """The game was still going after the bound on decisions."""


class Step(NamedTuple):
    """One decision taken: its number in this drive (1-based), the decision and the index chosen."""
    number: int
    decision: object
    index: int


def drive(game, move: Callable, *, on_step: Callable | None = None, until: Callable | None = None,
          max_steps: int = MAX_STEPS) -> int:
    """Let ``move`` decide until the game is over or ``until(game)``; returns the decisions taken."""
    steps = 0
    while not game.over and not (until and until(game)):
        if steps >= max_steps:
            raise GameDidNotEnd(f"the game did not end within {max_steps} decisions")
        pending = game.pending()
        if not pending:
            raise RuntimeError("nobody has a decision, yet the game is not over")
        if on_step:                        # its labels are read after the answer: build them now
            for decision in pending:
                decision.options.freeze()
        before = game.answered()[0]
        move(game, pending)
        count, last = game.answered()
        if count != before + 1:
            raise RuntimeError("the mover did not answer exactly one decision")
        player, index = last
        steps += 1
        if on_step:
            decision = next(d for d in pending if d.player == player)
            on_step(game, Step(steps, decision, index))
    return steps


def random_mover(seed: int, any_seat: bool = False) -> Callable:
    """Uniformly random options from one seeded stream (cheap: it needs no views).

    It answers the first pending decision, or with ``any_seat`` a random one
    of them (so simultaneous answers come in every order).
    """
    rnd = random.Random(seed)

    def move(game, pending):
        decision = pending[rnd.randrange(len(pending))] if any_seat else pending[0]
        game.apply(decision.player, rnd.randrange(decision.count))
    return move


def bot_mover(bots: dict, fallback: Callable | None = None) -> Callable:
    """Bots (``{seat: Bot}``) decide for their seats; ``fallback`` for the rest."""
    from . import step

    def move(game, pending):
        if step(game, bots):
            return
        if fallback is None:
            raise RuntimeError("a waiting player has no bot")
        fallback(game, pending)
    return move


def replay_mover(actions: list) -> Callable:
    """The recorded ``[player, index]`` pairs, in order, after those already in the history."""
    def move(game, pending):
        player, index = actions[game.answered()[0]]
        game.apply(player, index)
    return move
