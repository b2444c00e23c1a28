"""Search bots: Monte Carlo tree search on worlds rebuilt from the bot's own view.

Neither bot ever reads the true state. Each is given ``world(seed)``, a
game rebuilt from its own view with everything hidden sampled afresh
(engine.determinise), and searches on such worlds:

- ``mcts``: plain UCT on one world per decision (exact when nothing is
  hidden, as in a game of perfect information);
- ``ismcts``: single-observer information-set MCTS, a fresh world per
  iteration, so the tree's statistics average over what the bot cannot know.
  An option another player has in one world but not in another is counted
  only where it exists (availability counts).

Each iteration descends by UCB1, adds one node, plays at most ``depth``
random decisions and scores the position: the game's returns when it is
over (engine.returns), else how far each seat leads the best other on the
ruleset's ``heuristic`` function (or its score), the exploration term
scaled by the spread of leads seen. Budgets: ``iterations``
and, optionally, ``seconds`` (whichever ends first). A seat spec sets them:
``--seats ismcts:iterations=500:depth=20``.
"""
from __future__ import annotations

import math
import random
import time

from ..engine.game import IllegalAction
from ..model.values import RuleError
from . import Bot

DEFAULTS = {"iterations": 100, "seconds": 0.0, "depth": 0, "c": 0.7}


class Node:
    """One decision point of the tree: whose it was, and the statistics of its children."""
    __slots__ = ("mover", "children", "visits", "total", "avail")

    def __init__(self, mover):
        self.mover = mover
        self.children: dict = {}       # option index -> Node
        self.visits = 0
        self.total = 0.0               # the sum of the mover-of-the-parent's rewards
        self.avail = 0                 # how often this node's option was available (ISMCTS)


class SearchBot(Bot):
    """Shared by both search bots: the tree search over worlds the bot may believe in."""
    needs_world = True
    fresh_world_each_iteration = True

    def __init__(self, seed: int = 0, **params):
        super().__init__(seed)
        unknown = set(params) - set(DEFAULTS)
        if unknown:
            raise ValueError(f"{self.name}: unknown setting {', '.join(sorted(unknown))} "
                             f"(settings: {', '.join(DEFAULTS)})")
        self.params = {**DEFAULTS, **{k: float(v) for k, v in params.items()}}

    def choose(self, view, preview):
        """Without worlds (an old caller), the best immediate option."""
        scores = [preview(i) for i in range(len(view["decision"]["options"]))]
        return scores.index(max(scores))

    def choose_in(self, view: dict, world) -> int:
        """The most visited option after the search (ties: the better average)."""
        me = view["you"]
        count = len(view["decision"]["options"])
        if count == 1:
            return 0
        root = Node(me)
        self.spread = (math.inf, -math.inf)
        iterations = int(self.params["iterations"])
        deadline = time.perf_counter() + self.params["seconds"] if self.params["seconds"] else None
        base = None
        for n in range(iterations):
            if deadline and time.perf_counter() > deadline:
                break
            if base is None or self.fresh_world_each_iteration:
                base = world(self.rng.randrange(1 << 30))
            self._iterate(root, base.clone(), me, count)
        if not root.children:
            return self.rng.randrange(count)
        best = max(root.children.items(),
                   key=lambda item: (item[1].visits, item[1].total / max(item[1].visits, 1)))
        return best[0]

    # ------------------------------------------------------------- one iteration
    def _iterate(self, root: Node, game, me: int, count: int) -> None:
        path = [root]
        node = root
        try:
            mover, options = me, count                # the root is the bot's own decision
            while True:
                untried = [a for a in range(options) if a not in node.children]
                for a in range(options):
                    if a in node.children:
                        node.children[a].avail += 1
                if untried:
                    action = self.rng.choice(untried)
                    child = node.children[action] = Node(mover)
                    child.avail = 1
                    game.apply(mover, action)
                    path.append(child)
                    break
                action = self._select(node, options)
                game.apply(mover, action)
                node = node.children[action]
                path.append(node)
                if game.over:
                    break
                pending = game.pending()
                mover, options = pending[0].player, pending[0].count
            rewards = self._rollout(game)
            self.spread = (min(self.spread[0], min(rewards)), max(self.spread[1], max(rewards)))
        except (IllegalAction, RuleError):            # a sampled world the rules reject: skip it
            return
        for child in path[1:]:
            child.visits += 1
            child.total += rewards[child.mover]
        root.visits += 1

    def _select(self, node: Node, options: int) -> int:
        # Rewards are raw leads, so the exploration term is scaled by the spread seen so far.
        c = self.params["c"] * max(self.spread[1] - self.spread[0], 1e-9)
        best, best_value = 0, -math.inf
        for action in range(options):
            child = node.children[action]
            value = child.total / child.visits + c * math.sqrt(math.log(max(child.avail, 1)) / child.visits) \
                if child.visits else math.inf
            if value > best_value:
                best, best_value = action, value
        return best

    def _rollout(self, game) -> list[float]:
        rnd = random.Random(self.rng.randrange(1 << 30))
        for _ in range(int(self.params["depth"])):
            if game.over:
                break
            decision = game.pending()[0]
            game.apply(decision.player, rnd.randrange(decision.count))
        return rewards(game)


def rewards(game) -> list[float]:
    """Each seat's reward: its return once over (scaled up, a win outweighs any lead), else
    how far it leads the best other seat on the ruleset's ``heuristic`` (or its score)."""
    rules = game.rules
    values = []
    for seat in range(len(game.state["players"])):
        if game.over:
            value = game.score_of(seat)
        elif "heuristic" in rules.functions:
            value = game.evaluate(rules.functions["heuristic"][1], seat)
        else:
            value = game.score_of(seat)
        values.append(float(value[0] if isinstance(value, list) else value))
    out = []
    for i, v in enumerate(values):
        best_other = max((w for j, w in enumerate(values) if j != i), default=0.0)
        out.append(v - best_other)
    if game.over:
        out = [o + 1000.0 * r for o, r in zip(out, game.result["returns"])]
    return out


class MCTSBot(SearchBot):
    """UCT on one world per decision, rebuilt from the bot's own view."""
    name = "mcts"
    fresh_world_each_iteration = False


class ISMCTSBot(SearchBot):
    """Information-set MCTS: a fresh world from the bot's own view every iteration."""
    name = "ismcts"
