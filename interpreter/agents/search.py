"""Search bots: Monte Carlo tree search on worlds rebuilt from the bot's own view.

Neither bot ever reads the true state. Each is given ``world(seed)``, a
game rebuilt from its own view with everything hidden sampled afresh
(engine.determinise), and searches on such worlds:

- ``mcts``: plain UCT on one world per decision (exact when nothing is
  hidden, as in a game of perfect information); children keyed by index;
- ``ismcts``: single-observer information-set MCTS, a fresh world per
  iteration, so the tree's statistics average over what the bot cannot know.
  Children are keyed by option label (the same option may have another index
  in another world), and one another player has in one world but not in
  another is counted only where it exists (availability counts).

With a finite ``margin`` the root is first looked at as the greedy bot
looks (each option's ``heuristic`` right after it, on one world) and only
the options within ``margin`` of the best are searched; with one left it is
taken at once. ``margin=0`` plays greedy wherever greedy is sure and
searches only its ties, which it would break at random; it costs little
where the one-step look decides.

Each iteration descends by UCB1, adds one node, plays at most ``depth``
decisions (the bot's own first when several wait; random ones, or the
greedy bot's with ``playout=greedy``) and scores the position: each seat's lead over the best
other seat, on its score once the game is over (the returns break ties),
else on the ruleset's ``heuristic`` function (or its score), so a finished
and an unfinished line are on one scale. A child's worth blends its mean
reward with the best line found below it (implicit minimax backups, weight
``minimax``), since a mean over a few random follow-ups undervalues an
option with many bad ones. The exploration term is scaled by the spread
of rewards seen. Whatever the budget, the bot takes an option that wins at
once (without a margin: a world may call an end a win on results the bot
cannot see yet, such as another's moves made at the same time, and with a
margin the one-step look and the search weigh ends like any option), and never one after which the next other player can win at once
while another option is left (checked on one world: sure when nothing is
hidden). Budgets: ``iterations`` and, optionally, ``seconds`` (whichever
ends first). A seat spec sets them: ``--seats ismcts:iterations=500:depth=20:margin=0``.
"""
from __future__ import annotations

import math
import random
import time

from ..engine.game import IllegalAction
from ..model.values import RuleError
from . import Bot

DEFAULTS = {"iterations": 100, "seconds": 0.0, "depth": 0, "c": 0.7, "minimax": 0.5,
            "playout": "random", "margin": math.inf}
PLAYOUTS = ("random", "greedy")


class Node:
    """One decision point of the tree: whose it was, and the statistics of its children."""
    __slots__ = ("mover", "children", "visits", "total", "avail", "best")

    def __init__(self, mover):
        self.mover = mover             # who chose the move that led here
        self.children: dict = {}       # option key -> Node
        self.visits = 0
        self.total = 0.0               # the sum of the mover's rewards
        self.avail = 0                 # how often this node's option was available (ISMCTS)
        self.best = None               # every seat's reward down the best line found (minimax)


class SearchBot(Bot):
    """Shared by both search bots: the tree search over worlds the bot may believe in."""
    needs_world = True
    fresh_world_each_iteration = True
    by_label = True                    # children keyed by option label: worlds may order them apart

    def __init__(self, seed: int = 0, **params):
        super().__init__(seed)
        unknown = set(params) - set(DEFAULTS)
        if unknown:
            raise ValueError(f"{self.name}: unknown setting {', '.join(sorted(unknown))} "
                             f"(settings: {', '.join(DEFAULTS)})")
        self.params = {**DEFAULTS, **{k: v if isinstance(DEFAULTS[k], str) else float(v)
                                      for k, v in params.items()}}
        if self.params["playout"] not in PLAYOUTS:
            raise ValueError(f"{self.name}: playout is one of {', '.join(PLAYOUTS)}, "
                             f"not '{self.params['playout']}'")

    def choose(self, view, preview):
        """Without worlds (an old caller), the best immediate option."""
        scores = [preview(i) for i in range(len(view["decision"]["options"]))]
        return scores.index(max(scores))

    def choose_in(self, view: dict, world) -> int:
        """The most visited option after the search (ties: the better value)."""
        me = view["you"]
        count = len(view["decision"]["options"])
        if count == 1:
            return 0
        keys = self._keys(view["decision"]["options"])
        base = world(self.rng.randrange(1 << 30))
        allowed, prior = self._shortlist(base, me, keys)
        # With a margin the one-step look ranks the ends too: a world may call an end a win on
        # what the bot cannot see (another's results still hidden), so none is taken for that.
        wins = [] if math.isfinite(self.params["margin"]) else list(range(count))
        if len(allowed) == 1:
            return self._sure(base, me, sorted(range(count), key=lambda i: prior[i], reverse=True), wins)
        root = Node(me)
        self.spread = (math.inf, -math.inf)
        iterations = int(self.params["iterations"])
        deadline = time.perf_counter() + self.params["seconds"] if self.params["seconds"] else None
        for n in range(iterations):
            if deadline and time.perf_counter() > deadline:
                break
            if n and self.fresh_world_each_iteration:
                base = world(self.rng.randrange(1 << 30))
            self._iterate(root, base.clone(), me, allowed)
        rank = {i: (root.children[key].visits, self._value(root.children[key]))
                if key in root.children and root.children[key].visits else (-1, prior[i])
                for i, key in enumerate(keys)}
        order = sorted(range(count), key=lambda i: rank[i], reverse=True)
        return self._sure(base, me, order, wins)

    def _shortlist(self, game, me: int, keys: list) -> tuple[set, list]:
        """The root options worth searching: with a finite ``margin``, those whose one-step value
        (the greedy bot's, on this world) is within ``margin`` of the best, so the search only
        settles what the greedy look cannot; and every option's one-step value (0 without)."""
        if math.isinf(self.params["margin"]):
            return set(keys), [0.0] * len(keys)
        prior = []
        for i in range(len(keys)):
            after = _after(game, me, i)
            prior.append(-math.inf if after is None else _worth(after, me))
        best = max(prior)
        return {key for key, v in zip(keys, prior) if v >= best - self.params["margin"]}, prior

    def _sure(self, game, me: int, order: list, wins: list) -> int:
        """An option of ``wins`` that wins at once, else the first of ``order`` after which no other
        seat can win at once (the search's choice unless it walks into a loss it could have seen).
"""
        for i in wins:
            after = _after(game, me, i)
            if after is not None and after.over and after.result["winners"] == [me]:
                return i
        for i in order:
            if not _loses_at_once(game, me, i):
                return i
        return order[0]

    def _keys(self, options) -> list:
        """Each option's key in the tree: its label (with its rank among equal ones), or its index."""
        if not self.by_label:
            return list(range(len(options)))
        seen: dict = {}
        keys = []
        for label in options:
            seen[label] = seen.get(label, -1) + 1
            keys.append((label, seen[label]))
        return keys

    # ------------------------------------------------------------- one iteration
    def _iterate(self, root: Node, game, me: int, allowed: set) -> None:
        path = [root]
        node = root
        try:
            decision = next(d for d in game.pending() if d.player == me)   # the bot's own
            while True:
                mover, keys = decision.player, self._keys(decision.options)
                untried, choices = [], []
                for i, key in enumerate(keys):
                    if node is root and key not in allowed:
                        continue
                    choices.append(i)
                    if key in node.children:
                        node.children[key].avail += 1
                    else:
                        untried.append(i)
                if not choices:                       # none of the shortlist exists in this world
                    return
                if untried:
                    action = self.rng.choice(untried)
                    child = node.children[keys[action]] = Node(mover)
                    child.avail, node = 1, child
                    game.apply(mover, action)
                    path.append(node)
                    break
                action = self._select(node, keys, choices)
                game.apply(mover, action)
                node = node.children[keys[action]]
                path.append(node)
                if game.over:
                    break
                decision = _next(game, me)
            rewards = self._rollout(game, me)
            self.spread = (min(self.spread[0], min(rewards)), max(self.spread[1], max(rewards)))
        except (IllegalAction, RuleError):            # a sampled world the rules reject: skip it
            return
        path[-1].best = rewards
        for child in path[1:]:
            child.visits += 1
            child.total += rewards[child.mover]
        root.visits += 1
        for parent in reversed(path[:-1]):            # each mover takes its best child (implicit minimax)
            scored = [c for c in parent.children.values() if c.best is not None]
            parent.best = max(scored, key=lambda c: c.best[c.mover]).best

    def _value(self, child: Node) -> float:
        """A child's worth to its mover: the mean reward, blended with the best line's."""
        mean = child.total / child.visits
        alpha = self.params["minimax"]
        return (1 - alpha) * mean + alpha * child.best[child.mover] if alpha else mean

    def _select(self, node: Node, keys: list, choices: list) -> int:
        # Rewards are raw leads, so the exploration term is scaled by the spread seen so far.
        c = self.params["c"] * max(self.spread[1] - self.spread[0], 1e-9)
        best, best_value = choices[0], -math.inf
        for action in choices:
            child = node.children[keys[action]]
            value = self._value(child) + c * math.sqrt(math.log(max(child.avail, 1)) / child.visits) \
                if child.visits else math.inf
            if value > best_value:
                best, best_value = action, value
        return best

    def _rollout(self, game, me: int) -> list[float]:
        rnd = random.Random(self.rng.randrange(1 << 30))
        greedy = self.params["playout"] == "greedy"
        for _ in range(int(self.params["depth"])):
            if game.over:
                break
            decision = _next(game, me)                # the bot's own follow-ups first
            if greedy and decision.count > 1:
                game.apply(decision.player, _greedy(game, decision, rnd))
            else:
                game.apply(decision.player, rnd.randrange(decision.count))
        return rewards(game)


def _greedy(game, decision, rnd) -> int:
    """What the greedy bot would take here (the best ``heuristic`` right after; ties at random),
    played on this world: the playout policy ``playout=greedy``."""
    seat, best, value = decision.player, [], -math.inf
    for i in range(decision.count):
        trial = _after(game, seat, i)
        if trial is None:
            continue
        v = _worth(trial, seat)
        if v > value:
            best, value = [i], v
        elif v == value:
            best.append(i)
    return rnd.choice(best) if best else rnd.randrange(decision.count)


def _worth(game, seat: int) -> float:
    """One seat's value on its own: its score once over, else the ``heuristic`` (or score)."""
    rules = game.rules
    if not game.over and "heuristic" in rules.functions:
        value = game.evaluate(rules.functions["heuristic"][1], seat)
    else:
        value = game.score_of(seat)
    return float(value[0] if isinstance(value, list) else value)


def _next(game, me: int):
    """The decision the tree takes next: the bot's own when it has one waiting (players who
    decide at the same time may answer in any order), so its own follow-ups come first."""
    pending = game.pending()
    return next((d for d in pending if d.player == me), pending[0])


def _after(game, seat: int, index: int):
    """A copy of ``game`` after ``seat`` takes option ``index``, or None if the world refuses it."""
    trial = game.clone()
    try:
        trial.apply(seat, index)
    except (IllegalAction, RuleError):
        return None
    return trial


def _loses_at_once(game, me: int, index: int) -> bool:
    """Whether, after option ``index``, the game is lost for ``me`` or the next other seat to
    decide has an option that ends it with ``me`` not among the winners."""
    after = _after(game, me, index)
    if after is None or after.over:
        return after is not None and me not in after.result["winners"]
    decision = after.pending()[0]
    if decision.player == me:
        return False
    for reply in range(decision.count):
        end = _after(after, decision.player, reply)
        if end is not None and end.over and me not in end.result["winners"]:
            return True
    return False


def rewards(game) -> list[float]:
    """Each seat's reward: its return once over (scaled up, a win outweighs any lead), else
    how far it leads the best other seat on the ruleset's ``heuristic`` (or its score)."""
    values = [_worth(game, seat) for seat in range(len(game.state["players"]))]
    out = []
    for i, v in enumerate(values):
        best_other = max((w for j, w in enumerate(values) if j != i), default=0.0)
        out.append(v - best_other)
    if game.over:                 # the returns only break ties: a lead is on one scale, over or not
        out = [o + r for o, r in zip(out, game.result["returns"])]
    return out


class MCTSBot(SearchBot):
    """UCT on one world per decision, rebuilt from the bot's own view."""
    name = "mcts"
    fresh_world_each_iteration = False
    by_label = False                   # one world: an index means the same option throughout


class ISMCTSBot(SearchBot):
    """Information-set MCTS: a fresh world from the bot's own view every iteration."""
    name = "ismcts"
