"""What the engine's trace hook is told, put to use: coverage hits and the places of log lines.

The hook (``Game.tracer``; docs/architecture.md, "The trace hook") calls
``tracer.ran(game, node, arm)``: ``arm`` None just before a block runs a
statement, ``"end"`` when a block has run its last one, ``"else"`` when an
``if`` statement takes no branch and has no ``else``, ``"kept"`` and
``"dropped"`` when a ``choose`` filter kept or left out at least one value,
``"then"``/``"else"`` for the arm of an ``if c then a else b`` expression
that ran and ``"right"`` when the right side of an ``and``/``or`` is evaluated
(in programs compiled while ``codegen.TRACING`` is on).
"""
from __future__ import annotations

import contextlib
import os


class Hits:
    """Every ``(node number, arm)`` run by games of one ruleset (its fingerprint), for coverage.

    Node numbers are the same on every load of the same ruleset, so games of
    the scenarios (which load their own copy) count as well.
    """

    def __init__(self, fingerprint: str):
        self.fingerprint = fingerprint
        self.hits: set = set()

    def ran(self, game, node, arm=None) -> None:
        rules = game.rules
        if arm != "end" and rules.fingerprint == self.fingerprint:
            self.hits.add((rules.node_id.get(id(node)), arm))


@contextlib.contextmanager
def expression_arms():
    """Programs compiled inside tell their tracer which arm of each ``if c then a else b`` ran."""
    from ..engine import codegen
    before, codegen.TRACING = codegen.TRACING, True
    try:
        yield
    finally:
        codegen.TRACING = before


@contextlib.contextmanager
def every_game(tracer):
    """Trace every game this process makes inside (a scenario's too, and bots' look-ahead copies)."""
    from ..engine.game import Game
    before, Game.tracer = Game.__dict__.get("tracer"), tracer
    try:
        yield tracer
    finally:
        Game.tracer = before


class LogPlaces:
    """Where each line of one game's log was written: ``file:line`` of the statement running then.

    A line written while no statement runs (a block has ended: the end of a
    simultaneous round, the end of the game) has no place, except a line
    held back and told later (a sealed choice), which keeps the place of the
    same text written before. A choice's own line (``P2 chose: ...``) is
    placed at the statement that asked it: the last one its thread ran
    before it waited (threads differ while players choose at once).
    """

    def __init__(self):
        self.state = None          # the game's state (the same dict across an undo's rebuild)
        self.places: list = []     # parallel to state["log"]
        self.node = None           # the statement running now, or None
        self.rules = None
        self.by_text: dict = {}
        self.cited: dict = {}      # id(node) -> its place
        self.asked: dict = {}      # a thread's seat (None: the main thread) -> its last statement
        self.answers = 0           # decisions answered when last caught up

    def ran(self, game, node, arm=None) -> None:
        if self.state is None:
            self.state, self.rules = game.state, game.rules
        if game.state is not self.state or arm not in (None, "end"):
            return                                 # a bot's look-ahead copy; a branch's outcome
        self.catch_up(game)
        self.node = node if arm is None else None
        if arm is None:
            self.asked[_seat_of(game.thread)] = node

    def catch_up(self, game=None) -> None:
        """Place the lines written since the last call (``game``: now running a statement)."""
        if self.state is None:
            return
        log, history = self.state["log"], self.state["history"]
        del self.places[len(log):]                 # a failed call took its lines back
        choice, asked = None, None
        if game is not None and len(history) > self.answers:      # an answer since: its line
            choice = f"{game.seat_name(history[-1][0])} chose: "
            asked = self.asked.get(_seat_of(game.thread))
        self.answers = len(history)
        for line in log[len(self.places):]:
            node = asked if asked is not None and line["text"].startswith(choice) else self.node
            place = self.place(node) if node is not None else self.by_text.get(line["text"], "")
            if place:
                self.by_text[line["text"]] = place
            self.places.append(place)

    def place(self, node) -> str:
        """``file:line`` of a statement, and the rule ids cited on that line (``[X-01]``)."""
        key = id(node)
        if key not in self.cited:
            where = self.rules.where(node)
            self.cited[key] = _with_rules(where, self.rules.folder) if where else ""
        return self.cited[key]

    def lines(self, seat: int | None = None) -> list[tuple[str, str]]:
        """``(text, place)`` of every line (``seat``: only those that seat reads, as its view)."""
        self.catch_up()
        log = self.state["log"] if self.state is not None else []
        return [(line["text"], place) for line, place in zip(log, self.places)
                if seat is None or line["to"] is None or seat in line["to"]]


def _seat_of(thread) -> int | None:
    """The seat a thread of ``simultaneously`` plays for; None for the main thread."""
    me = thread["envs"][0].get("self") if thread else None
    return None if me is None else me.seat


def _with_rules(where: str, folder) -> str:
    """``path:line:col`` -> ``path:line``, with the rule ids the line cites; the path from here
    when the file is below the current folder, else from the ruleset folder's parent."""
    from .coverage import rule_ids
    path, line = where.rsplit(":", 2)[:2]
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read().splitlines()[int(line) - 1]
    except (OSError, IndexError, ValueError):
        text = ""
    ids = sorted(rule_ids(text))
    shown = path
    if os.path.isabs(path):
        shown = os.path.relpath(path, None if _below_here(path) else os.path.dirname(str(folder)))
    return f"{shown}:{line}" + (f" [{', '.join(ids)}]" if ids else "")


def _below_here(path: str) -> bool:
    try:
        return not os.path.relpath(path).startswith("..")
    except ValueError:                      # another drive
        return False


def annotated(lines: list[tuple[str, str]]) -> list[str]:
    """Log lines as text, each followed by its place (``text  · file:line``)."""
    return [f"{text}  · {place}" if place else text for text, place in lines]


def seat_log(game, seat: int) -> list[str]:
    """What ``seat``'s view shows of the log: with places when the game has ``LogPlaces``."""
    tracer = game.__dict__.get("tracer")
    if isinstance(tracer, LogPlaces):
        return annotated(tracer.lines(seat))
    return game.view(seat)["log"]


def whole_log(game) -> list[str]:
    """Every line of a traced game's log, each with its place and, if not everyone's, its readers."""
    out = []
    for (text, place), line in zip(game.tracer.lines(), game.state["log"]):
        everyone = line["to"] is None or len(line["to"]) == len(game.state["players"])
        readers = "" if everyone else f"[{', '.join(map(game.seat_name, line['to']))}] "
        out.append(f"{readers}{text}" + (f"  · {place}" if place else ""))
    return out
