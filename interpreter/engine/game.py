"""The public face of a game in progress: decisions in, views and scores out.

    game = Game.new(load_ruleset("mygame"), players=3, seed=7)
    while not game.over:
        d = game.pending()[0]                 # who decides, and the options
        game.apply(d.player, 0)               # by index, or by label
    game.result                               # scores, winners

The whole state is ``game.state``: plain JSON-able data. ``Game.load``
rebuilds a game from it; ``replay`` re-runs a recorded history.
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass

from .. import mechanics
from ..mechanics.counters import Counters
from ..mechanics import grids
from . import machine, statements  # noqa: F401  (statements fills the machine's table)
from .compile import compiled
from .options import resolve_options
from .evaluate import Ctx, evaluate
from .rng import seed_state
from .values import RuleError

FORMAT = 1


class IllegalAction(Exception):
    """An action the rules do not allow now; the state is unchanged."""


@dataclass(frozen=True)
class Decision:
    """A choice one player must make: options have stable indices and labels."""
    player: int
    prompt: str
    options: tuple

    def to_dict(self) -> dict:
        return {"player": self.player, "prompt": self.prompt, "options": list(self.options)}

    def find(self, label: str) -> int | None:
        """The index of the option with this label (case and spacing aside), or None."""
        folded = [_fold(option) for option in self.options]
        return folded.index(_fold(label)) if _fold(label) in folded else None


class Game:
    """A game of a loaded ruleset; all of its state is ``self.state``."""

    def __init__(self, rules, state: dict):
        self.rules = rules
        self.state = state
        self.thread = None
        self.counters = Counters(self)
        self.verbs = mechanics.VERBS
        self.functions = {name: f.fn for name, f in mechanics.FUNCTIONS.items()}
        for name, (params, tree) in rules.functions.items():
            self.functions[name] = _user_function(name, params, tree)
        self.memo: dict = {}       # results of the ruleset's functions while the state stands still

    # ------------------------------------------------------------- creating
    @classmethod
    def new(cls, rules, players: int | None = None, seed: int = 0, options: dict | None = None) -> "Game":
        """Set up a new game and run it to its first decision."""
        count = players if players is not None else rules.players.get("default", rules.players["min"])
        if not rules.players["min"] <= count <= rules.players["max"]:
            raise ValueError(f"{rules.title} is for {rules.players['min']} to "
                             f"{rules.players['max']} players, not {count}")
        state = {
            "format": FORMAT, "game": rules.id, "expansions": list(rules.expansions),
            "fingerprint": rules.fingerprint, "seed": seed,
            "options": resolve_options(rules, options or {}, count),
            "rng": seed_state(seed),
            "players": [_new_player(rules) for _ in range(count)],
            "vars": copy.deepcopy(rules.vars),
            "zones": {name: _new_zone(spec, rules) for name, spec in rules.zones.items()
                      if not spec.get("per_player")},
            "grids": {name: grids.new_data() for name, spec in rules.grids.items()
                      if not spec.get("per_player")},
            "flow": {"main": machine.new_thread([], {"self": None}), "threads": [], "snapshot": None},
            "log": [], "history": [], "result": None,
        }
        game = cls(rules, state)
        machine.push(game, state["flow"]["main"], rules.start)
        machine.run(game)
        return game

    @classmethod
    def load(cls, rules, state: dict) -> "Game":
        """A game from a saved state (checked against the ruleset it was made with)."""
        if state.get("format") != FORMAT:
            raise ValueError(f"this state has format {state.get('format')!r}; this version reads {FORMAT}")
        if state.get("game") != rules.id:
            raise ValueError(f"this state is a game of '{state.get('game')}', not '{rules.id}'")
        if state.get("fingerprint") != rules.fingerprint:
            raise ValueError("this state was saved with a different version of the ruleset")
        return cls(rules, state)

    def to_json(self) -> str:
        # Key order is kept (not sorted), so records read back exactly as they were.
        return json.dumps(self.state, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, rules, text: str) -> "Game":
        return cls.load(rules, json.loads(text))

    def clone(self) -> "Game":
        return Game(self.rules, json.loads(json.dumps(self.state)))

    # ------------------------------------------------------------- deciding
    @property
    def over(self) -> bool:
        return self.state["result"] is not None

    @property
    def result(self) -> dict | None:
        """``{"scores": [...], "winners": [seats], "ranks": [...]}`` once the game is over."""
        return self.state["result"]

    def _threads(self):
        flow = self.state["flow"]
        return flow["threads"] or [flow["main"]]

    def pending(self) -> list[Decision]:
        """Every decision waiting for an answer (several during simultaneous play)."""
        out = []
        for th in self._threads():
            p = th["pending"]
            if p is not None:
                out.append(Decision(p["player"], p["prompt"], tuple(p["labels"])))
        return out

    def decision_for(self, player: int) -> Decision | None:
        for d in self.pending():
            if d.player == player:
                return d
        return None

    def legal_actions(self, player: int) -> list[int]:
        d = self.decision_for(player)
        return list(range(len(d.options))) if d else []

    def apply(self, player: int, choice) -> None:
        """Answer ``player``'s pending decision with an option index or label.

        Raises IllegalAction (with the reason) and leaves the state untouched
        if the player has nothing to decide or the option does not exist.
        """
        th = self._waiting_thread(player)
        self.memo.clear()
        labels = th["pending"]["labels"]
        index = self._index(choice, labels)
        self.state["history"].append([player, index])
        self.thread = th
        self.log(f"P{player + 1} chose: {labels[index]}", to=[player])   # choices stay private
        machine.answer(self, th, index)
        machine.run(self)

    def _waiting_thread(self, player: int) -> dict:
        if self.over:
            raise IllegalAction("the game is over")
        for th in self._threads():
            if th["pending"] is not None and th["pending"]["player"] == player:
                return th
        waiting = sorted({d.player + 1 for d in self.pending()})
        raise IllegalAction(f"P{player + 1} has no decision to make now "
                            f"(waiting for {', '.join(f'P{p}' for p in waiting) or 'nobody'})")

    @staticmethod
    def _index(choice, labels) -> int:
        if isinstance(choice, bool):
            raise IllegalAction("an option is chosen by its number or its label")
        if isinstance(choice, int):
            if 0 <= choice < len(labels):
                return choice
            raise IllegalAction(f"option {choice} does not exist (there are {len(labels)}: 0..{len(labels) - 1})")
        if isinstance(choice, str):
            if choice in labels:
                return labels.index(choice)
            folded = [_fold(label) for label in labels]          # case and spacing aside
            if _fold(choice) in folded:
                return folded.index(_fold(choice))
            raise IllegalAction(f"no option is labelled {choice!r}")
        raise IllegalAction(f"cannot choose {choice!r}")

    def view(self, player: int) -> dict:
        """What ``player`` may know (see engine.views)."""
        from .views import view
        return view(self, player)

    def preview_score(self, player: int, index: int) -> float:
        """Score ``player``'s option ``index`` on a copy whose random stream is reseeded.

        Used by look-ahead bots: the copy's future draws are not the real
        ones, so a preview reveals nothing the player could not know.
        """
        trial = self.clone()
        trial.state["rng"] = seed_state(hash((self.state["rng"], player, index)) & 0xFFFFFFFF)
        trial.state["log"] = []
        trial._shuffle_unseen()
        trial.apply(player, index)
        if "heuristic" in self.rules.functions:
            return trial.evaluate(self.rules.functions["heuristic"][1], player)
        return trial.state["players"][player]["counters"][self.rules.score]

    def _shuffle_unseen(self) -> None:
        """Shuffle what no player can see the order of (face-down decks), for look-ahead."""
        from .rng import shuffle
        for name, spec in self.rules.zones.items():
            mode = spec.get("visible", "all")
            if spec.get("per_player") or mode not in ("count", "top"):
                continue
            zone = self.state["zones"][name]
            for cards in (zone if zone and type(zone[0]) is list else [zone]):
                hidden = cards[1:] if mode == "top" or spec.get("top_fields") else cards
                self.state["rng"] = shuffle(self.state["rng"], hidden)
                cards[len(cards) - len(hidden):] = hidden

    # ------------------------------------------------------------- used by the machine
    def log(self, text: str, private: bool = False, to: list | None = None) -> None:
        """Add a log line for everyone, or only for ``to``.

        Lines written during simultaneous play go only to that thread's
        player; ``private`` lines go only to whoever is acting (``self``).
        """
        th = self.thread
        if to is None and th is not None:
            if any(t is th for t in self.state["flow"]["threads"]):
                to = [th["envs"][0]["self"]["player"]]
            elif private:
                me = th["envs"][-1].get("self")
                to = None if me is None else [me["player"]]
        self.state["log"].append({"text": text, "to": to})

    def set_player_value(self, i: int, name: str, value) -> None:
        data = self.state["players"][i]
        if name in data["counters"]:
            if type(value) is not int:
                raise RuleError(f"counter '{name}' must hold a whole number")
            data["counters"][name] = value
        elif name in data["vars"]:
            data["vars"][name] = value
        else:
            raise RuleError(f"players have no variable '{name}'")

    def finish(self) -> None:
        """The start program has ended: score the game."""
        scores = [p["counters"][self.rules.score] for p in self.state["players"]]
        best = max(scores)
        winners = [i for i, s in enumerate(scores) if s == best]
        ranks = [1 + sum(1 for other in scores if other > s) for s in scores]
        self.state["result"] = {"scores": scores, "winners": winners, "ranks": ranks}
        self.thread = None
        names = ", ".join(f"P{i + 1}" for i in winners)
        self.log(f"game over: {'tie between ' if len(winners) > 1 else 'winner '}{names}")

    def execute(self, text: str, player: int | None = None) -> None:
        """Run effect-language statements now (scenario set-ups, the `dsl` command).

        They may not ask for decisions. Pending decisions are then worked
        out again, so their options reflect the changed state.
        """
        from ..dsl.check import check
        from ..dsl.parser import parse_program
        tree = parse_program(text)
        problems = check(tree, self.rules.vocabulary())
        if problems:
            p = problems[0]
            raise RuleError(f"{p.node.line}:{p.node.col}: {p.message}" + (f" ({p.hint})" if p.hint else ""))
        self.rules.add_nodes(tree)
        self.memo.clear()
        th = machine.new_thread([], {"self": None if player is None else {"player": player}})
        machine.push(self, th, tree)
        machine.run_alone(self, th)
        machine.refresh(self)

    def evaluate(self, text_or_tree, player: int | None = None, env: dict | None = None):
        """Evaluate an expression (text or tree) against the current state."""
        from ..dsl.parser import parse_expression
        tree = parse_expression(text_or_tree) if isinstance(text_or_tree, str) else text_or_tree
        scope = dict(env or {})
        scope.setdefault("self", None if player is None else {"player": player})
        return evaluate(tree, Ctx(self, scope))


def _fold(label: str) -> str:
    return " ".join(label.casefold().split())


def _user_function(name, params, tree):
    """A ruleset function: pure, so a result is remembered until the state changes.

    Only calls with plain arguments (numbers, strings, none) are remembered:
    they repeat (``card(1)``); calls on records (rooms) rarely do, and a key
    for them would cost more than the call.
    """
    body = compiled(tree)
    arity = len(params)

    def call(ctx, args):
        if len(args) != arity:
            raise RuleError(f"'{name}' takes {arity} values, got {len(args)}")
        me = ctx.env.get("self")
        env = dict(zip(params, args))
        env["self"] = me
        for arg in args:
            if type(arg) not in _PLAIN:
                return body(Ctx(ctx.game, env))
        key = (name, None if me is None else me["player"], *args)
        memo = ctx.game.memo
        if key in memo:
            return memo[key]
        value = memo[key] = body(Ctx(ctx.game, env))
        return value
    return call


_PLAIN = (int, str, type(None))          # not bool: true == 1 as a key


def _new_player(rules) -> dict:
    return {
        "counters": {name: spec.get("start", 0) for name, spec in rules.counters.items()},
        "earned": {},
        "vars": {name: copy.deepcopy(spec.get("default") if isinstance(spec, dict) else spec)
                 for name, spec in rules.player_vars.items()},
        "zones": {name: _new_zone(spec, rules) for name, spec in rules.zones.items()
                  if spec.get("per_player")},
        "grids": {name: grids.new_data() for name, spec in rules.grids.items() if spec.get("per_player")},
    }


def _new_zone(spec: dict, rules):
    """An empty zone, a numbered group of them, or one holding a whole table (``from``)."""
    count = spec.get("count")
    if count:
        return [[] for _ in range(count)]
    return list(rules.tables[spec["from"]]) if "from" in spec else []
