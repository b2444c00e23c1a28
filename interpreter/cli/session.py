"""Playing and replaying games: the work behind `play` and `replay` (simulations: workbench/)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..model.values import seat_label
from .common import HUMAN, CliError, state_hash

LOG_FORMAT = 1
LOG_KEYS = ("game", "players", "seed", "options", "actions", "final")


@dataclass
class Setup:
    """Everything needed to start (or restart) the same game."""
    rules: object
    source: str                        # the ruleset id or path as given
    players: int
    seed: int
    options: dict
    seats: list = field(default_factory=list)
    trace: bool = False                # each log line's file:line (workbench/trace.py)

    def new_game(self):
        from ..engine.game import Game
        return Game.new(self.rules, players=self.players, seed=self.seed, options=self.options,
                        tracer=log_places() if self.trace else None)

    def bots(self, seed: int | None = None) -> dict:
        """``{seat: Bot}`` for every seat that is not human, seeded from seed and seat."""
        from ..agents import make_bot
        seed = self.seed if seed is None else seed
        return {i: make_bot(name, seed * 1000 + i) for i, name in enumerate(self.seats)
                if name != HUMAN}


def play(game, bots: dict, human=None) -> None:
    """Play to the end: bots answer for their seats, ``human`` for the rest."""
    from ..agents.driver import GameDidNotEnd, bot_mover, drive

    def person(game, pending):
        if human is None:
            raise CliError("a waiting player has neither a bot nor a person")
        human.decide(pending[0].player)
    try:
        drive(game, bot_mover(bots, person))
    except GameDidNotEnd as exc:
        raise CliError(str(exc)) from None


def outcome_line(game) -> str:
    """``winner: P2`` or ``tie: P1, P3``."""
    result = game.result
    names = ", ".join(game.seat_name(i) for i in result["winners"])
    return f"{'tie' if len(result['winners']) > 1 else 'winner'}: {names}"


# ---------------------------------------------------------------- logs

def game_log(setup: Setup, game) -> dict:
    """The JSON log of a finished game: enough to replay it."""
    return {
        "format": LOG_FORMAT,
        "game": setup.rules.id,
        "ruleset": setup.source,
        "expansions": list(setup.rules.expansions),
        "players": setup.players,
        "seed": setup.seed,
        "options": game.state["options"],
        "seats": setup.seats,
        "actions": game.state["history"],
        "final": state_hash(game),
        "result": game.result,
        **({"trace": True} if setup.trace else {}),     # `replay` shows each line's file:line
    }


def write_log(path: str, log: dict) -> None:
    """One key per line, so a log reads (and diffs) well."""
    lines = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in log.items()]
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("{\n" + ",\n".join(lines) + "\n}\n")


def read_log(path: str) -> dict:
    """A game log from a file; anything unusable is an I/O-style error."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    try:
        log = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"{path} is not JSON: {exc}") from None
    missing = [key for key in LOG_KEYS if not isinstance(log, dict) or key not in log]
    if missing:
        raise CliError(f"{path} is not a game log (missing {', '.join(missing)})")
    if log.get("format", LOG_FORMAT) != LOG_FORMAT:
        raise CliError(f"{path} has log format {log['format']}; this version reads {LOG_FORMAT}")
    from ..engine.saved import StateError, check_schema
    try:
        check_schema(log, "log.schema.json", "game log")       # schemas/log.schema.json
    except StateError as exc:
        raise CliError(f"{path}: {exc}", code=1) from None      # a tampered log: a problem found
    return log


def log_places():
    """A tracer that places each log line at its statement's ``file:line`` (``--trace``)."""
    from ..workbench.trace import LogPlaces
    return LogPlaces()


def replay(rules, log: dict, trace: bool = False):
    """Re-run a log's actions; returns ``(game, None)`` or ``(game, failure message)``."""
    from ..engine.game import Game, IllegalAction
    from ..model.values import RuleError
    game = Game.new(rules, players=log["players"], seed=log["seed"], options=log["options"],
                    tracer=log_places() if trace else None)
    for number, action in enumerate(log["actions"], start=1):
        try:
            player, index = action
            game.apply(player, index)
        except (IllegalAction, RuleError, TypeError, ValueError) as exc:
            return game, f"replay failed at step {number} ({_action(action)}): {exc}"
    if state_hash(game) != log["final"]:
        return game, (f"replay differs: the final state hashes to {state_hash(game)}, "
                      f"the log says {log['final']}")
    return game, None


def _action(action) -> str:
    try:
        player, index = action
        return f"{seat_label(player)} option {index}"
    except (TypeError, ValueError):
        return repr(action)
