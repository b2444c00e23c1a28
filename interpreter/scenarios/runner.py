"""Scenario files: a game set up, a script of decisions and checks, what must hold at the end.

    passed, failed, lines = check_paths(["tests/scenarios"])
    result = run_scenario("tests/scenarios/mygame/walls.yaml")

A scenario (see schemas/scenario.schema.json) names a game, its players,
seed and options, effect-language ``setup`` statements (state overrides),
a ``script`` of steps and a final ``expect`` list. Every message names the
``file:line`` it is about:

    path:line:col: expected EXPR, got VALUE       (VALUE: a comparison's left side)
    path:line:col: P1 cannot choose 'X': <reason>; offered: a | b
    path:line:col: error: <content, rule or expression error>

An error in the file itself (its shape, an expression that does not parse
or names nothing, a bad path) is ``path:line:col: error: ...`` followed by
the source line and a caret under the column.

Each expectation (an expression, an offered or missing label, an expected
refusal, a log line, what a view shows, a forced decision) counts as one
check. A step that fails stops its scenario. A file
with ``xfail: "reason"`` is expected to fail: failing, it counts as one
passed check printed as XFAIL; passing anyway, it is printed as XPASS.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..agents import make_bot
from ..agents.driver import GameDidNotEnd, bot_mover, drive
from ..content.bundled import is_path, ruleset_path
from ..content.ruleset import load_ruleset, path_problem
from ..content.schema_check import check_schema, load_schema
from ..content.yaml_source import load_yaml
from ..diagnostics import LINE_BREAK, ContentError, _caret
from ..dsl import ast
from ..dsl.check import check
from ..dsl.parser import DslError, parse_expression, parse_program
from ..engine.game import Game, IllegalAction
from ..model.values import RuleError, Zone, describe, items_of

__all__ = ["Result", "check_paths", "run_scenario", "scenario_files"]

# The key that tells each kind of step (the schema says what else a step may hold).
STEP_KINDS = ("choose", "expect_options", "expect_no_option", "expect", "expect_error",
              "play", "until_decision", "run", "fill", "deal", "let", "expect_view",
              "expect_log", "expect_no_log", "expect_taken")
NEEDS_DECISIONS = ("choose", "expect_options", "expect_no_option", "play", "until_decision")
VIEW_PATH = re.compile(r"(?:players\[(\d+)\]\.)?([a-z][a-z0-9_]*)(?:\[(\d+)\])?")
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
        where = f"{path}:{first.line or 1}:{first.col or 1}"
        result.lines.append(f"{where}: error: cannot load the scenario: {first.message}")
        result.lines += _quoted(exc.sources.get(first.file, ""), first.line or 1, first.col or 1)
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
def _rules(folder: str, expansions: tuple, fixtures: str | None = None):
    return load_ruleset(folder, expansions, fixtures)


class _Scenario:
    """One scenario being played: the game, and where to report in the file."""

    def __init__(self, result: Result, data, locator):
        self.result = result
        self.data = data
        self.locator = locator
        self.game: Game | None = None
        self.refusal: str | None = None        # a standalone expect_error for the next choice
        self.names: dict = {}                  # bound by `let` steps, read by later expressions

    # ------------------------------------------------------------- reporting
    def at(self, path=()) -> str:
        line, col = self.locator.at(path)
        return f"{self.result.path}:{line}:{col}"

    def at_text(self, path, line: int, col: int) -> str:
        """Where a (line, col) inside the string at ``path`` is in the file."""
        file_line, file_col = self.locator.text_position(path, line, col)
        return f"{self.result.path}:{file_line}:{file_col}"

    def ok(self) -> None:
        self.result.passed += 1

    def fail(self, where: str, message: str, stop: bool = False) -> None:
        self.result.failed += 1
        self.result.lines.append(f"{where}: {message}")
        if stop:
            raise _Stop

    def error(self, where: str, message: str) -> None:
        self.result.lines.append(f"{where}: error: {message}")
        self.result.lines.extend(self.caret(where))
        self.result.failed += 1
        raise _Stop

    def caret(self, where: str) -> list[str]:
        """The source line ``where`` (``path:line:col``) points at, and a caret under its column."""
        line, col = (int(n) for n in where.rsplit(":", 2)[1:])
        return _quoted(self.locator.text, line, col)

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
                where = f"{self.result.path}:{p.line}:{p.col or 1}"
                self.result.lines.append(f"{where}: error: {p.message}{hint}")
                self.result.lines.extend(self.caret(where))
            self.result.failed += 1
            raise _Stop

    @staticmethod
    def step_kind(step: dict) -> str:
        return next(kind for kind in STEP_KINDS if kind in step)

    def start(self) -> None:
        """Load the ruleset and set up the game (it runs to its first decisions)."""
        data = self.data
        fixtures = self.fixtures_folder()
        try:
            folder = self.ruleset_folder(data["game"])
            rules = _rules(str(folder), tuple(data.get("expansions") or ()), fixtures)
        except (FileNotFoundError, ContentError) as exc:
            self.error(self.at(("game",)), f"cannot load game '{data['game']}': {_first_line(exc)}")
        try:
            self.game = Game.new(rules, data.get("players"), data.get("seed", 0), data.get("options") or {})
            self.game.forced = []
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

    def fixtures_folder(self) -> str | None:
        """The ``fixtures`` folder, checked to lie inside the scenario's own folder tree."""
        name = self.data.get("fixtures")
        if name is None:
            return None
        folder = Path(self.result.path).parent
        problem = path_problem(folder, name, "folder")
        if problem is not None:
            _, message, hint = problem
            message = message.replace("the ruleset's folder", "the scenario's folder")
            self.error(self.at(("fixtures",)), message + (f" ({hint})" if hint else ""))
        return str((folder / name).absolute())

    def setup(self) -> None:
        items = self.data.get("setup") or []
        if items:
            self.execute(items, ("setup",))

    # ------------------------------------------------------------- steps
    def step(self, step: dict, path: tuple) -> None:
        kind = self.step_kind(step)
        if kind in NEEDS_DECISIONS:
            self.resume(path)
        if kind in STEP_ACTIONS:
            return STEP_ACTIONS[kind](self, step, path)
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

    def resume(self, path: tuple) -> None:
        """A game stopped between statements runs on to its decisions."""
        try:
            self.game.resume()
        except (RuleError, DslError) as exc:
            self.error(self.at(path), _first_line(exc))

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
            offered = f"; offered: {' | '.join(decision.options)}" if decision else self.taken_note(seat)
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

    def taken_note(self, seat: int) -> str:
        """What was last taken for ``seat`` without asking (only one option), if anything."""
        taken = [label for who, _, label in self.game.forced if who == seat]
        return f"; its last decision had one option, taken without asking: {taken[-1]!r}" if taken else ""

    def play(self, spec: dict, path: tuple) -> None:
        """Bots decide for everyone until ``until`` holds, ``player`` must decide, or the end.

        With ``at: statement``, ``until`` is also asked after every statement
        the game runs, so play may stop between two decisions; the next step
        that needs decisions runs the game on from there.
        """
        name, until, player = spec.get("bot", "first"), spec.get("until"), spec.get("player")
        where = self.at(path)
        players = len(self.game.state["players"])
        try:
            bots = {i: make_bot(name, self.data.get("seed", 0) + i) for i in range(players)}
        except ValueError as exc:
            self.error(self.at(path + ("bot",)), str(exc))
        tree = None if until is None else self.parse(until, path + ("until",))
        seat = None if player is None else self.seat(spec, path + ("player",))

        problem = []

        def holds(game) -> bool:
            """``until``, asked mid-run: it may not use up the run's budget nor raise there."""
            steps, depth = game.steps, game.depth
            try:
                return bool(game.evaluate(tree, None, self.names))
            except RuleError as exc:
                problem.append(exc)
                return True
            finally:
                game.steps, game.depth = steps, depth

        def reached(game):
            return (game.paused or (tree is not None and self.value(tree, self.at(path + ("until",)), None))
                    or (seat is not None and game.decision_for(seat) is not None))
        self.game.pause = holds if tree is not None and spec.get("at") == "statement" else None
        try:
            drive(self.game, bot_mover(bots), until=reached, max_steps=MAX_BOT_DECISIONS)
        except GameDidNotEnd:
            self.fail(where, f"the bots made {MAX_BOT_DECISIONS} decisions without reaching the goal", stop=True)
        except (RuleError, DslError) as exc:
            self.error(where, _first_line(exc))
        finally:
            self.game.pause = None
        if problem:
            self.error(self.at(path + ("until",)), _first_line(problem[0]))

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
        problems = check(tree, self.game.rules.vocabulary(), tuple(self.names))
        if problems:
            p = problems[0]
            hint = f" ({p.hint})" if p.hint else ""
            self.error(self.at_text(path, p.node.line, p.node.col), f"in {text!r}: {p.message}{hint}")
        return tree

    def value(self, tree, where: str, player: int | None):
        try:
            return self.game.evaluate(tree, player, self.names)
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


    # ------------------------------------------------------------- setting zones, binding names
    def fill(self, step: dict, path: tuple) -> None:
        """``{fill: {ZONE: [ids]}}``: each zone (an expression) holds exactly these cards, top first."""
        for zone, cards in step["fill"].items():
            self.parse(zone, path + ("fill", zone))
            self.run_at(f"fill {zone} with {_id_list(cards)}", path + ("fill", zone))

    def deal(self, step: dict, path: tuple) -> None:
        """``{deal: {ZONE: [[ids], ...]}}``: each player's ZONE holds exactly these, in seat order."""
        count = self.game.people
        for zone, hands in step["deal"].items():
            where = path + ("deal", zone)
            if self.game.rules.zones.get(zone, {}).get("per_player") is not True:
                self.error(self.at(where), f"'{zone}' is not a zone each player has")
            if len(hands) > count:
                self.error(self.at(where), f"{len(hands)} hands for {count} players")
            program = "\n".join(f"fill players[{i}].{zone} with {_id_list(cards)}"
                                 for i, cards in enumerate(hands, 1))
            self.run_at(program, where)

    def run_at(self, program: str, path: tuple) -> None:
        """Statements this file's step stands for: any problem is reported at the step."""
        try:
            self.game.execute(program)
        except (RuleError, DslError) as exc:
            message = _first_line(exc)
            self.error(self.at(path), re.sub(r"^\d+:\d+: ", "", message))

    def let(self, step: dict, path: tuple) -> None:
        """``{let: {NAME: EXPR}}``: bind values now, for every later expression of the file
        (a zone is bound as the list of the cards it holds now)."""
        me = self.seat({"player": step["as"]}, path + ("as",)) if "as" in step else None
        values = {}
        for name, text in step["let"].items():
            where = path + ("let", name)
            if name in self.game.rules.vocabulary().names:
                self.error(self.at(where), f"'{name}' is a name of the game: let binds new names")
            value = self.value(self.parse(text, where), self.at(where), me)
            # a zone is a reference to live cards: keep what it holds now, for a later comparison
            values[name] = items_of(value, self.game.state) if type(value) is Zone else value
        self.names.update(values)
        self.ok()

    # ------------------------------------------------------------- what a player has seen
    def expect_log(self, step: dict, path: tuple) -> None:
        """Text each line must (``expect_log``) or must not (``expect_no_log``) be in, among
        the log lines the player has seen so far (case and runs of spaces aside)."""
        seat = self.seat(step, path + ("player",))
        log = self.game.view(seat)["log"]
        for key, wanted in (("expect_log", True), ("expect_no_log", False)):
            for text, at in _items(step.get(key, []), path + (key,)):
                lines = [line for line in log if _fold(text) in _fold(line)]
                if bool(lines) == wanted:
                    self.ok()
                    continue
                shown = f"its last lines: {log[-3:]}" if wanted else f"it has {lines[0]!r}"
                self.fail(self.at(at), f"expected P{seat + 1}'s log {'' if wanted else 'not '}to have "
                                       f"a line with {text!r}; {shown}")

    def expect_taken(self, step: dict, path: tuple) -> None:
        """The player's latest decision with a single option took this label (it was not asked)."""
        seat = self.seat(step, path + ("player",))
        wanted = str(step["expect_taken"])
        taken = [label for who, _, label in self.game.forced if who == seat]
        if taken and _fold(taken[-1]) == _fold(wanted):
            return self.ok()
        got = f"the last was {taken[-1]!r}" if taken else "none was"
        self.fail(self.at(path + ("expect_taken",)),
                  f"expected P{seat + 1}'s last one-option decision to take {wanted!r}; {got}")

    def expect_view(self, step: dict, path: tuple) -> None:
        """What a player's view holds: ids it ``sees`` (anywhere but the log), ids it ``hides``
        (nowhere, the log included), and components it ``shows`` as given."""
        spec, path = step["expect_view"], path + ("expect_view",)
        seat = self.seat(spec, path + ("player",))
        view = self.game.view(seat)
        found = set(_strings({k: v for k, v in view.items() if k != "log"}))
        words = set(re.findall(r"[\w#-]+", " ".join(view["log"])))
        for card, at in _items(spec.get("sees", []), path + ("sees",)):
            self.check(card in found, at, f"expected P{seat + 1}'s view to show {card!r}")
        for card, at in _items(spec.get("hides", []), path + ("hides",)):
            leak = "" if card not in found else " (in its components)"
            leak = leak or (" (in its log)" if card in words else "")
            self.check(not leak, at, f"expected P{seat + 1}'s view not to show {card!r}{leak}")
        for name, wanted in (spec.get("shows") or {}).items():
            at = path + ("shows", name)
            seen = self.view_part(view, name, at)
            self.check(_shows(seen, wanted), at, f"expected P{seat + 1}'s view of {name} to be "
                                                 f"{json.dumps(wanted)}, got {json.dumps(seen)}")

    def view_part(self, view: dict, name: str, path: tuple):
        """``players[N].NAME``, ``NAME`` or ``NAME[K]`` (a pile) of a view; "hidden" when left out."""
        match = VIEW_PATH.fullmatch(name)
        if match is None:
            self.error(self.at(path), f"'{name}' is not a component: write NAME, NAME[K] or players[N].NAME")
        who, part, pile = match.groups()
        if who is not None and not 1 <= int(who) <= len(view["players"]):
            self.error(self.at(path), f"there is no players[{who}] in this game")
        holder = view if who is None else view["players"][int(who) - 1]
        if part not in self.game.rules.names or self.game.rules.names[part][0] not in ("mine", "table"):
            self.error(self.at(path), f"'{part}' is not a declared component")
        sections = [section for section in holder.values() if isinstance(section, dict) and part in section]
        if not sections:
            return "hidden"
        seen = sections[0][part]
        if pile is not None:
            if not isinstance(seen, list) or not 1 <= int(pile) <= len(seen):
                self.error(self.at(path), f"'{part}' has no pile {pile}")
            seen = seen[int(pile) - 1]
        return seen

    def check(self, passed: bool, path: tuple, message: str) -> None:
        if passed:
            self.ok()
        else:
            self.fail(self.at(path), message)


STEP_ACTIONS = {"fill": _Scenario.fill, "deal": _Scenario.deal, "let": _Scenario.let,
                "expect_view": _Scenario.expect_view, "expect_log": _Scenario.expect_log,
                "expect_no_log": _Scenario.expect_log, "expect_taken": _Scenario.expect_taken}


def _shows(seen, wanted) -> bool:
    """Whether a component's view is as ``wanted``: a zone matches a list by its cards, a
    number by its count; "hidden" matches what the view leaves out."""
    if isinstance(seen, dict) and "count" in seen and not isinstance(wanted, dict):
        if isinstance(wanted, list):
            return seen.get("cards") == wanted
        if type(wanted) is int:
            return seen["count"] == wanted
    return seen == wanted


def _strings(value):
    """Every string inside a view (keys aside)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _id_list(cards) -> str:
    """A list of card ids as effect-language text."""
    return "[" + ", ".join(json.dumps(str(card)) for card in cards) + "]"


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


def _quoted(text: str, line: int, col: int) -> list[str]:
    """Line ``line`` of ``text`` and a caret under column ``col``, indented (none if no such line)."""
    lines = LINE_BREAK.split(text)
    if not 1 <= line <= len(lines) or not text:
        return []
    return [f"  {lines[line - 1]}", f"  {_caret(lines[line - 1], col, None)}"]


def _fold(text) -> str:
    return " ".join(str(text).casefold().split())


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else exc.__class__.__name__
