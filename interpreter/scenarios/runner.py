"""Scenario files: a game set up, a script of decisions and checks, what must hold at the end.

    passed, failed, lines = check_paths(["tests/scenarios"])
    result = run_scenario("tests/scenarios/mygame/walls.yaml")

A scenario (see schemas/scenario.schema.json) names a game, its players,
seed and options, effect-language ``setup`` statements (state overrides),
a ``script`` of steps and a final ``expect`` list. Every message names the
``file:line`` it is about:

    path:line: expected EXPR, got VALUE       (VALUE: a comparison's left side)
    path:line: P1 cannot choose 'X': <reason>; offered: a | b
    path:line: error: <content, rule or expression error>

Each expectation (an expression, an offered or missing label, an expected
refusal) counts as one check. A step that fails stops its scenario. A file
with ``xfail: "reason"`` is expected to fail: failing, it counts as one
passed check printed as XFAIL; passing anyway, it is printed as XPASS.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..agents import make_bot
from ..agents.driver import GameDidNotEnd, bot_mover, drive
from ..content.bundled import is_path, ruleset_path
from ..content.ruleset import load_ruleset
from ..content.schema_check import check_schema, load_schema
from ..content.yaml_source import load_yaml
from ..diagnostics import ContentError
from ..dsl import ast
from ..dsl.check import check
from ..dsl.parser import DslError, parse_expression, parse_program
from ..engine.game import Game, IllegalAction
from ..model.values import RuleError, describe

__all__ = ["Result", "check_paths", "run_scenario", "scenario_files"]

# The key that tells each kind of step (the schema says what else a step may hold).
STEP_KINDS = ("choose", "expect_options", "expect_no_option", "expect", "expect_error",
              "play", "until_decision", "run")
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
MAX_BOT_DECISIONS = 100_000


@dataclass
class Result:
    """The outcome of one scenario file: checks passed and failed, and the messages."""
    path: str
    passed: int = 0
    failed: int = 0
    lines: list = field(default_factory=list)
    xfail: str | None = None          # the reason the file is expected to fail

    @property
    def ok(self) -> bool:
        return self.failed == 0


class _Stop(Exception):
    """A step failed (already reported): the rest of the scenario is skipped."""


def scenario_files(paths) -> list[Path]:
    """The files named, with every ``*.yaml`` under a named folder (sorted)."""
    out = []
    for path in map(Path, paths):
        out.extend(sorted(path.rglob("*.yaml")) if path.is_dir() else [path])
    return out


def check_paths(paths) -> tuple[int, int, list[str]]:
    """Run every scenario in ``paths``: (checks passed, checks failed, message lines)."""
    passed = failed = 0
    lines: list[str] = []
    for path in scenario_files(paths):
        result = run_scenario(path)
        if result.xfail is not None and not result.ok:
            passed += 1
            lines.append(f"{result.path}: XFAIL: {result.xfail}")
            continue
        passed += result.passed
        failed += result.failed
        lines.extend(result.lines)
        if result.xfail is not None:
            lines.append(f"{result.path}: XPASS (marked xfail: {result.xfail})")
    return passed, failed, lines


def run_scenario(path) -> Result:
    """Load and play one scenario file; never raises for problems in the file."""
    result = Result(str(path))
    try:
        data, locator = load_yaml(path)
    except ContentError as exc:
        first = exc.diagnostics[0]
        result.failed = 1
        result.lines.append(f"{path}:{first.line or 1}: error: cannot load the scenario: {first.message}")
        return result
    except OSError as exc:
        result.failed = 1
        result.lines.append(f"{path}: error: cannot read the scenario: {exc.strerror or exc}")
        return result
    if isinstance(data, dict) and isinstance(data.get("xfail"), str):
        result.xfail = data["xfail"]
    try:
        _Scenario(result, data, locator).run()
    except _Stop:
        pass
    return result


@lru_cache(maxsize=None)
def _rules(folder: str, expansions: tuple):
    return load_ruleset(folder, expansions)


class _Scenario:
    """One scenario being played: the game, and where to report in the file."""

    def __init__(self, result: Result, data, locator):
        self.result = result
        self.data = data
        self.locator = locator
        self.game: Game | None = None
        self.refusal: str | None = None        # a standalone expect_error for the next choice

    # ------------------------------------------------------------- reporting
    def at(self, path=()) -> str:
        line, _ = self.locator.at(path)
        return f"{self.result.path}:{line}"

    def at_text(self, path, line: int, col: int) -> str:
        """Where a (line, col) inside the string at ``path`` is in the file."""
        file_line, _ = self.locator.text_position(path, line, col)
        return f"{self.result.path}:{file_line}"

    def ok(self) -> None:
        self.result.passed += 1

    def fail(self, where: str, message: str, stop: bool = False) -> None:
        self.result.failed += 1
        self.result.lines.append(f"{where}: {message}")
        if stop:
            raise _Stop

    def error(self, where: str, message: str) -> None:
        self.fail(where, f"error: {message}", stop=True)

    # ------------------------------------------------------------- running
    def run(self) -> None:
        self.validate()
        self.start()
        self.setup()
        for i, step in enumerate(self.data.get("script") or []):
            self.step(step, ("script", i))
        for i, text in enumerate(self.data.get("expect") or []):
            self.expect(text, ("expect", i), None)

    def validate(self) -> None:
        """The file's shape, against schemas/scenario.schema.json (every problem, one failure)."""
        problems = check_schema(self.data, load_schema("scenario"), self.locator)
        if problems:
            for p in problems:
                hint = f" ({p.hint})" if p.hint else ""
                self.result.lines.append(f"{self.result.path}:{p.line}: error: {p.message}{hint}")
            self.result.failed += 1
            raise _Stop

    @staticmethod
    def step_kind(step: dict) -> str:
        return next(kind for kind in STEP_KINDS if kind in step)

    def start(self) -> None:
        """Load the ruleset and set up the game (it runs to its first decisions)."""
        data = self.data
        try:
            folder = self.ruleset_folder(data["game"])
            rules = _rules(str(folder), tuple(data.get("expansions") or ()))
        except (FileNotFoundError, ContentError) as exc:
            self.error(self.at(("game",)), f"cannot load game '{data['game']}': {_first_line(exc)}")
        try:
            self.game = Game.new(rules, data.get("players"), data.get("seed", 0), data.get("options") or {})
        except ValueError as exc:
            self.error(self.at(("options",) if "option" in str(exc) else ("players",)), str(exc))
        except (RuleError, DslError) as exc:
            self.error(self.at(("game",)), f"setting up the game: {_first_line(exc)}")

    def ruleset_folder(self, game: str) -> Path:
        """A bundled id, or a path (relative to the scenario file, or as given)."""
        if not is_path(game):
            return ruleset_path(game)
        beside = Path(self.result.path).parent / game
        is_ruleset = beside.name == "game.yaml" and beside.is_file() or (beside / "game.yaml").is_file()
        return ruleset_path(str(beside.absolute()) if is_ruleset else game)

    def setup(self) -> None:
        items = self.data.get("setup") or []
        if items:
            self.execute(items, ("setup",))

    # ------------------------------------------------------------- steps
    def step(self, step: dict, path: tuple) -> None:
        kind = self.step_kind(step)
        if kind == "choose":
            self.choose(step, path)
        elif kind in ("expect_options", "expect_no_option"):
            self.offered(step, path)
        elif kind == "expect":
            seat = self.seat({"player": step["as"]}, path + ("as",)) if "as" in step else None
            for text, key in _items(step["expect"], path + ("expect",)):
                self.expect(text, key, seat)
        elif kind == "expect_error":
            self.refusal = step["expect_error"]
        elif kind in ("play", "until_decision"):
            self.play(step[kind], path + (kind,))
        else:
            self.execute([text for text, _ in _items(step["run"], ())], path + ("run",))

    def seat(self, step: dict, path: tuple) -> int:
        """The 0-based seat of a step's 1-based ``player``."""
        player = step.get("player")
        count = len(self.game.state["players"])
        if type(player) is not int or not 1 <= player <= count:
            self.error(self.at(path), f"a player is a seat from 1 to {count}, not {player!r}")
        return player - 1

    def choose(self, step: dict, path: tuple) -> None:
        """Answer a decision; with ``expect_error`` the choice must be refused."""
        seat, choice = self.seat(step, path + ("player",)), step["choose"]
        refusal = step.get("expect_error", self.refusal)
        self.refusal = None
        where = self.at(path)
        decision = self.game.decision_for(seat)
        try:
            self.game.apply(seat, _option_index(choice, decision))
        except IllegalAction as exc:
            if refusal is not None and str(refusal).casefold() in str(exc).casefold():
                return self.ok()
            offered = f"; offered: {' | '.join(decision.options)}" if decision else ""
            expected = f" (expected a refusal saying {refusal!r})" if refusal is not None else ""
            self.fail(where, f"{self.game.seat_name(seat)} cannot choose {choice!r}: {exc}{expected}{offered}", stop=True)
        except (RuleError, DslError) as exc:
            self.error(where, _first_line(exc))
        if refusal is not None:
            self.fail(where, f"{self.game.seat_name(seat)} could choose {choice!r}, but a refusal saying "
                             f"{refusal!r} was expected", stop=True)

    def offered(self, step: dict, path: tuple) -> None:
        """Labels that must (or must not) be among the player's options now."""
        seat = self.seat(step, path + ("player",))
        decision = self.game.decision_for(seat)
        shown = " | ".join(decision.options) if decision else "no decision to make"
        for key, wanted in (("expect_options", True), ("expect_no_option", False)):
            labels = step.get(key, [])
            for label in labels if isinstance(labels, list) else [labels]:
                if (type(_option_index(str(label), decision)) is int) == wanted:
                    self.ok()
                else:
                    verb = "to be offered" if wanted else "not to be offered"
                    self.fail(self.at(path + (key,)),
                              f"expected P{seat + 1} {verb} {label!r}; offered: {shown}")

    def play(self, spec: dict, path: tuple) -> None:
        """Bots decide for everyone until ``until`` holds, ``player`` must decide, or the end."""
        name, until, player = spec.get("bot", "first"), spec.get("until"), spec.get("player")
        where = self.at(path)
        players = len(self.game.state["players"])
        try:
            bots = {i: make_bot(name, self.data.get("seed", 0) + i) for i in range(players)}
        except ValueError as exc:
            self.error(self.at(path + ("bot",)), str(exc))
        tree = None if until is None else self.parse(until, path + ("until",))
        seat = None if player is None else self.seat(spec, path + ("player",))

        def reached(game):
            return ((tree is not None and self.value(tree, where, None))
                    or (seat is not None and game.decision_for(seat) is not None))
        try:
            drive(self.game, bot_mover(bots), until=reached, max_steps=MAX_BOT_DECISIONS)
        except GameDidNotEnd:
            self.fail(where, f"the bots made {MAX_BOT_DECISIONS} decisions without reaching the goal", stop=True)
        except (RuleError, DslError) as exc:
            self.error(where, _first_line(exc))

    def execute(self, texts: list, path: tuple) -> None:
        """Run statements now (state overrides); the items form one program, sharing locals."""
        starts, lines = [], []
        for text in texts:
            starts.append(len(lines) + 1)
            lines.extend(str(text).rstrip("\n").split("\n"))
        program = "\n".join(lines) + "\n"

        def where(line: int, col: int) -> str:
            i = max(k for k, first in enumerate(starts) if first <= line)
            key = path + (i,) if isinstance(self.value_at(path), list) else path
            return self.at_text(key, line - starts[i] + 1, col)
        try:
            tree = parse_program(program)
        except DslError as exc:
            self.error(where(exc.line, exc.col), exc.message)
        problems = check(tree, self.game.rules.vocabulary())
        if problems:
            p = problems[0]
            self.error(where(p.node.line, p.node.col), p.message + (f" ({p.hint})" if p.hint else ""))
        try:
            self.game.execute(program)
        except (RuleError, DslError) as exc:
            position = getattr(exc, "position", None)
            self.error(where(*position) if position else self.at(path), _first_line(exc))

    def value_at(self, path: tuple):
        value = self.data
        for key in path:
            value = value[key]
        return value

    # ------------------------------------------------------------- expressions
    def parse(self, text, path: tuple):
        """An expression's tree, checked against the game's vocabulary."""
        if not isinstance(text, str):
            self.error(self.at(path), f"an expression must be text, not {text!r}")
        try:
            tree = parse_expression(text)
        except DslError as exc:
            self.error(self.at_text(path, exc.line, exc.col), f"in {text!r}: {exc.message}")
        problems = check(tree, self.game.rules.vocabulary())
        if problems:
            p = problems[0]
            hint = f" ({p.hint})" if p.hint else ""
            self.error(self.at_text(path, p.node.line, p.node.col), f"in {text!r}: {p.message}{hint}")
        return tree

    def value(self, tree, where: str, player: int | None):
        try:
            return self.game.evaluate(tree, player)
        except RuleError as exc:
            self.error(where, _first_line(exc))

    def expect(self, text, path: tuple, seat: int | None) -> None:
        """One expectation: true passes; otherwise report its (left side's) value.

        An expression that cannot be evaluated is reported and counted as
        failed, and the other expectations are still checked.
        """
        where = self.at(path)
        try:
            tree = self.parse(text, path)
            if self.value(tree, where, seat):
                return self.ok()
            shown = tree.left if isinstance(tree, ast.BinOp) and tree.op in COMPARISONS else tree
            self.fail(where, f"expected {text}, got {describe(self.value(shown, where, seat))}")
        except _Stop:
            pass


def _option_index(choice, decision):
    """The index of the option a label names (case and spacing aside), else the choice as given."""
    if isinstance(choice, str) and decision is not None:
        found = decision.find(choice)
        if found is not None:
            return found
    return choice


def _items(value, path: tuple) -> list:
    """One value or a list of them, each with its path in the file."""
    if isinstance(value, list):
        return [(v, path + (i,)) for i, v in enumerate(value)]
    return [(value, path)]


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else exc.__class__.__name__
