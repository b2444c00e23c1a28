"""A person at the keyboard: show their view, read their answer from stdin."""
from __future__ import annotations

import sys

from ..mechanics import COMPONENTS
from . import render
from .common import CliError

LOG_LINES = 12                 # at most this many new log lines before each decision


class Human:
    """Answers decisions for the human seats of one game."""

    def __init__(self, game, console, stdin=None):
        self.game = game
        self.console = console
        self.stdin = stdin or sys.stdin
        self.seen: dict = {}       # seat -> log lines already shown

    def decide(self, seat: int) -> None:
        """Show the view, then read lines until one is a legal answer."""
        from ..engine.game import IllegalAction
        self.show(seat)
        while True:
            answer = self.ask(seat)
            if answer == "?":
                self.show(seat, recent_only=False)
                continue
            choice = int(answer) if answer.isdigit() else answer
            try:
                self.game.apply(seat, choice)
                return
            except IllegalAction as exc:
                self.console.print(f"not allowed: {exc}")

    def ask(self, seat: int) -> str:
        """One non-empty answer line; end of input stops the program."""
        while True:
            self.console.print(f"{self.game.seat_name(seat)}> ", end="")
            self.console.file.flush()
            line = self.stdin.readline()
            if not line:
                self.console.print()
                raise CliError(f"end of input while {self.game.seat_name(seat)} had a decision to make")
            if line.strip():
                return line.strip()

    def show(self, seat: int, recent_only: bool = True) -> None:
        """Print what ``seat`` may know and the numbered options."""
        for line in view_lines(self.game, seat, self._new_log(seat, recent_only)):
            for part in render.wrap(line, self.console.width):
                self.console.print(part, soft_wrap=True)

    def _new_log(self, seat: int, recent_only: bool) -> list[str]:
        log = self.game.view(seat)["log"]
        start = self.seen.get(seat, 0) if recent_only else 0
        self.seen[seat] = len(log)
        return log[max(start, len(log) - LOG_LINES):]


def view_lines(game, seat: int, log: list[str]) -> list[str]:
    """The text shown to a human seat before a decision."""
    view = game.view(seat)
    rules = game.rules
    lines = [f"--- {game.seat_name(seat)} to decide ---"]
    if log:
        lines += ["log:"] + [f"  {text}" for text in log]
    name_of = _namer(rules)
    lines += _own_lines(rules, view["players"][seat], name_of)
    lines += _table_lines(rules, view, name_of)
    others = [p for p in view["players"] if p["seat"] != seat]
    if others:
        lines.append("others:")
        for player in others:
            lines.append(f"  {_other_line(rules, player, name_of)}")
            lines += _grid_lines(rules, player, indent="    ")
    decision = view["decision"]
    lines.append(f"{game.seat_name(seat)}: {decision['prompt']}")
    lines += render.options(decision)
    lines.append("(answer with a number or an option's label; ? shows all of this again)")
    return lines


def _namer(rules):
    """Content ids as players read them: the record's printed name, if it has one."""
    def name_of(item):
        record = rules.entities.get(item) if isinstance(item, str) else None
        return record["name"] if isinstance(record, dict) and record.get("name") else str(item)
    return name_of


def _own_lines(rules, me: dict, name_of) -> list[str]:
    lines = [f"you ({me['name']}): {render.pairs(me['counters'])}"]
    if any(v not in (None, [], {}, "") for v in me["vars"].values()):
        lines.append(f"  {render.pairs(me['vars'], skip_empty=True)}")
    for name, value in me["zones"].items():
        lines.append(f"  {name}: {render.zone(value, name_of)}")
    lines += [f"  {text}" for text in _drawn(rules, me)]
    return lines + _grid_lines(rules, me, indent="  ")


def _drawn(rules, holder: dict) -> list[str]:
    """One line per component whose kind draws itself (a track's marker ...)."""
    out = []
    for section, kind in COMPONENTS.items():
        if kind.draw is None or not kind.state_key:
            continue
        for name, shown in holder.get(kind.state_key, {}).items():
            out.append(kind.draw(rules, name, rules.declared[section][name], shown))
    return out


def _grid_lines(rules, player: dict, indent: str) -> list[str]:
    """Every grid of this player the view shows, drawn."""
    lines = []
    for name, data in player["grids"].items():
        lines.append(f"{indent}{name}:")
        lines += [indent + line for line in render.draw_grid(data, rules.grids.get(name),
                                                             _item_names(rules, data))]
    return lines


def _table_lines(rules, view: dict, name_of) -> list[str]:
    lines = []
    if view["vars"]:
        lines.append(f"table: {render.pairs(view['vars'], skip_empty=True)}")
    for name, value in view["zones"].items():
        lines.append(f"  {name}: {render.zone(value, name_of)}")
    lines += [f"  {text}" for text in _drawn(rules, view)]
    for name, data in view.get("grids", {}).items():
        lines.append(f"  {name}:")
        lines += ["  " + line for line in render.draw_grid(data, rules.grids.get(name),
                                                          _item_names(rules, data))]
    return lines


def _other_line(rules, player: dict, name_of) -> str:
    # A ruleset may hide all of another player's counters from this seat.
    parts = [render.pairs(player["counters"]) if player["counters"] else "counters hidden"]
    parts += [f"{name} {render.zone(value, name_of)}" for name, value in player["zones"].items()]
    parts += _drawn(rules, player)
    if player["vars"]:
        parts.append(render.pairs(player["vars"], skip_empty=True))
    return f"{player['name']}: " + "; ".join(parts)


def _item_names(rules, data: dict) -> dict:
    names = {}
    for item in data.get("items", {}).values():
        record = rules.entities.get(item) if isinstance(item, str) else None
        if isinstance(record, dict) and record.get("name"):
            names[item] = record["name"]
    return names
