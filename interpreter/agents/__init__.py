"""Players that are not people: bots, and the loop that seats them.

Every bot answers through the same door as a human: it is given its own
player's view and returns an option index. A user's class (seat spec
``module:Class``) implements ``decide(view, decision)``, ``decision`` being
``view["decision"]`` (``player``, ``prompt``, ``options``: the labels). The
package's bots implement ``choose(view, preview)`` instead, ``preview``
scoring one of their own options on a game rebuilt from that view alone
(engine.determinise, so it cannot peek at anything hidden); a user's class
with only ``choose`` still plays (the older door, deprecated). A bot that
never looks (``needs_view = False``) is asked ``choose_blind(decision)``
instead and given no view, which costs nothing.
"""
from __future__ import annotations

import random


class Bot:
    """Base class: ``choose`` returns the index of one option of ``view["decision"]``.

    A bot that decides without looking sets ``needs_view = False`` and
    implements ``choose_blind(decision)`` (it may read ``decision.count``).
    """
    name = "bot"
    needs_view = True

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        if "choose" in vars(cls) and "needs_view" not in vars(cls):
            cls.needs_view = True              # a bot that chooses its own way looks, unless it says not

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: dict, preview) -> int:
        raise NotImplementedError


class RandomBot(Bot):
    """Any legal option, uniformly at random."""
    name = "random"
    needs_view = False

    def choose(self, view, preview):
        return self.rng.randrange(len(view["decision"]["options"]))

    def choose_blind(self, decision):
        return self.rng.randrange(decision.count)


class FirstBot(Bot):
    """Always the first option (handy for scenarios and tests)."""
    name = "first"
    needs_view = False

    def choose(self, view, preview):
        return 0

    def choose_blind(self, decision):
        return 0


class GreedyBot(Bot):
    """The option whose immediate result scores best for itself.

    The score is the ruleset's ``heuristic`` function (or its final-score
    counter) for the bot's own player, right after taking the option; ties
    are broken at random.
    """
    name = "greedy"

    def choose(self, view, preview):
        options = view["decision"]["options"]
        scores = [preview(i) for i in range(len(options))]
        best = max(scores)
        return self.rng.choice([i for i, s in enumerate(scores) if s == best])


BOTS = {cls.name: cls for cls in (RandomBot, GreedyBot, FirstBot)}
SEARCH_BOTS = ("mcts", "ismcts")                 # in agents/search.py, imported when seated


def bot_class(name: str):
    """The class a seat name stands for: a bot of the package, or ``module:Class`` (user code)."""
    if name in BOTS:
        return BOTS[name]
    if name in SEARCH_BOTS:
        from .search import ISMCTSBot, MCTSBot
        return {"mcts": MCTSBot, "ismcts": ISMCTSBot}[name]
    module, sep, attr = name.partition(":")
    if sep and module and attr:
        import importlib
        try:
            cls = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as exc:
            raise ValueError(f"cannot load the bot '{name}': {exc}") from None
        if not callable(getattr(cls, "decide", None)) and not callable(getattr(cls, "choose", None)):
            raise ValueError(f"'{name}' has no decide(view, decision) method")
        return cls
    raise ValueError(f"no bot '{name}' (bots: {', '.join([*BOTS, *SEARCH_BOTS])}, or module:Class)")


def split_spec(spec: str) -> tuple[str, dict]:
    """``"ismcts:iterations=500:depth=8"`` -> ``("ismcts", {"iterations": "500", "depth": "8"})``.

    A name that is not a bot of the package keeps its first ``:`` (``module:Class``).
    """
    parts = spec.split(":")
    head = 1 if parts[0] in BOTS or parts[0] in SEARCH_BOTS else 2
    name, settings = ":".join(parts[:head]), {}
    for part in parts[head:]:
        key, eq, value = part.partition("=")
        if not eq or not key:
            raise ValueError(f"a bot setting is KEY=VALUE, not '{part}' in '{spec}'")
        settings[key] = value
    return name, settings


def make_bot(spec: str, seed: int) -> Bot:
    """A bot for one seat from its spec (a name, settings after ``:``), seeded."""
    name, settings = split_spec(spec)
    cls = bot_class(name)
    bot = cls(seed, **settings) if settings else cls(seed)
    if not hasattr(bot, "rng"):                  # a user's class need not derive from Bot
        bot.seed, bot.rng = seed, random.Random(seed)
    return bot


def step(game, bots: dict) -> bool:
    """Let the first waiting player that is a bot decide; False if none is a bot."""
    for decision in game.pending():
        bot = bots.get(decision.player)
        if bot is not None:
            seat = decision.player
            if not getattr(bot, "needs_view", True):
                game.apply(seat, bot.choose_blind(decision))
                return True
            from ..engine.determinise import determinise, previewer
            from ..engine.views import view
            seen = view(game, seat)
            if getattr(bot, "needs_world", False):      # a search bot: worlds from its view alone
                index = bot.choose_in(seen, lambda s: determinise(game, seat, s, seen))
            elif callable(getattr(bot, "decide", None)):     # a user's bot: the documented door
                index = bot.decide(seen, seen["decision"])
            else:
                index = bot.choose(seen, previewer(game, seat, getattr(bot, "seed", 0), seen))
            game.apply(seat, index)
            return True
    return False


def play_out(game, bots: dict, max_steps: int = 1_000_000, *, on_step=None, until=None) -> int:
    """Play until the game is over, every seat a bot (``{seat: Bot}``); returns the decisions taken.

    ``on_step`` and ``until`` are those of ``driver.drive``.
    """
    from .driver import bot_mover, drive
    return drive(game, bot_mover(bots), on_step=on_step, until=until, max_steps=max_steps)
