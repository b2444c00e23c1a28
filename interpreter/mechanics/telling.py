"""Telling players what happened: ``log`` (everyone), ``tell`` (one player or a list), ``announce``.

The text is written as ``text(...)`` writes a value (a card by its name, a
player by theirs). Who reads a line while players choose at once is the
engine's rule (``engine/telling.py``): the others read it when the block ends.
"""
from __future__ import annotations

from ..model import limits
from ..model.values import RuleError, seat


def _words(ctx, value) -> str:
    return limits.sized(ctx.game.describe(value))


def log(ctx, arg, kw) -> None:
    """log TEXT: a line every player reads"""
    ctx.game.tell(_words(ctx, arg))


def tell(ctx, arg, kw) -> None:
    """tell P "TEXT": a line only P (or each player of a list) reads"""
    if "saying" not in kw:
        raise RuleError('\'tell\' needs the text after the player: tell p "..."')
    who = arg if type(arg) is list else [arg]
    ctx.game.tell(_words(ctx, kw["saying"]), sorted({seat(p) for p in who}))


def announce(ctx, arg, kw) -> None:
    """announce: every sealed choice (and sealed line) so far reaches every reader"""
    ctx.game.announce()
