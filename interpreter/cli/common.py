"""Helpers shared by the commands: consoles, errors, argument parsing, loading."""
from __future__ import annotations

import hashlib
from pathlib import Path

import click

HUMAN = "human"


class CliError(Exception):
    """A problem to report in one line on stderr; ``code`` is the exit status."""

    def __init__(self, message: str, code: int = 2):
        super().__init__(message)
        self.code = code


def out():
    """The console for results: same bytes for the same input, never colours."""
    from rich.console import Console       # here: `validate` prints without rich
    return Console(force_terminal=False, highlight=False, markup=False, emoji=False, width=100)


def err():
    """A console on stderr, for progress bars (only shown on a terminal)."""
    from rich.console import Console
    return Console(stderr=True, highlight=False, markup=False, emoji=False)


def describe_error(exc: Exception) -> str:
    """One readable line for an I/O or value error."""
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"cannot read {exc.filename}: {exc.strerror or exc}"
    return str(exc) or exc.__class__.__name__


def state_hash(game) -> str:
    """The sha256 of a game's whole state, as saved."""
    return hashlib.sha256(game.to_json().encode("utf-8")).hexdigest()


def parse_options(pairs) -> dict:
    """``("board=x", "flag=true")`` -> ``{"board": "x", "flag": "true"}``."""
    given = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise CliError(f"--option expects KEY=VALUE, got {pair!r}")
        given[key.strip()] = value.strip()
    return given


def parse_seats(text: str | None, players: int, allowed) -> list[str]:
    """``"random,greedy"`` -> one name per seat; the last name fills the remaining seats."""
    names = [n.strip() for n in (text or "").split(",") if n.strip()] or ["random"]
    if HUMAN in names and HUMAN not in allowed:
        raise CliError(f"'{HUMAN}' cannot take a seat here: only bots ({', '.join(allowed)})")
    if len(names) > players:
        raise CliError(f"--seats names {len(names)} seats but the game has {players} players")
    for name in names:
        if name not in allowed and not _bot_spec(name):
            raise CliError(f"unknown seat '{name}' (choose from {', '.join(allowed)}, "
                           "mcts, ismcts or module:Class)")
    return names + [names[-1]] * (players - len(names))


def _bot_spec(spec: str) -> bool:
    """Whether ``spec`` names a bot with settings, a search bot or a user's ``module:Class``."""
    from ..agents import bot_class, split_spec
    try:
        bot_class(split_spec(spec)[0])
    except ValueError as exc:
        if ":" in spec:
            raise CliError(str(exc)) from None
        return False
    return True


def load(name_or_path: str, expansions=()):
    """Load a ruleset by id or path; a missing folder or manifest is an I/O error."""
    from ..content.ruleset import MANIFEST, load_ruleset, ruleset_path
    from ..diagnostics import ContentError
    folder = ruleset_path(name_or_path)
    if not (Path(folder) / MANIFEST).is_file():
        raise CliError(f"no {MANIFEST} in {folder}")
    try:
        return load_ruleset(name_or_path, expansions=tuple(expansions))
    except ContentError as exc:
        wrong = [d for d in exc.diagnostics if d.code == "unknown-expansion"]
        if wrong and len(wrong) == len(exc.diagnostics):      # a bad --expansion: usage
            raise CliError("; ".join(d.message + (f" ({d.hint})" if d.hint else "")
                                     for d in wrong)) from None
        raise


def player_count(rules, players: int | None) -> int:
    """The requested player count, or the ruleset's default; checked against its range."""
    spec = rules.players
    count = players if players is not None else spec.get("default", spec["min"])
    if not spec["min"] <= count <= spec["max"]:
        raise CliError(f"{rules.title} is for {spec['min']} to {spec['max']} players, not {count}")
    return count


def echo_error(message: str) -> None:
    click.echo(f"error: {message}", err=True)
