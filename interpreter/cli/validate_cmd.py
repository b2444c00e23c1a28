"""`rulebook validate`: every problem of every ruleset given, in one run, for people or machines."""
from __future__ import annotations

import sys

import click

from ..diagnostics import ContentError, Diagnostic, render_json, render_text
from ..workbench import formats
from .common import CliError, describe_error, echo_error, load

FORMATS = ("text", "json", "github", "sarif")


@click.command()
@click.argument("targets", nargs=-1, required=True, metavar="PATH|GAME...")
@click.option("--expansion", "-x", "expansions", multiple=True, help="Apply an expansion (repeatable).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text",
              help="text: compiler-style messages (coloured on a terminal unless NO_COLOR); "
                   "json: a list of diagnostics; github: workflow annotations; sarif: SARIF 2.1.0.")
@click.option("--no-smoke", is_flag=True,
              help="Skip the short random game per player count that checks the flow runs.")
def validate(targets, expansions, fmt, no_smoke):
    """Load rulesets and report every problem in their content, all in one run.

    Every file is checked as far as it can be: a broken entry is set aside
    and the rest still checked; what only follows from it is not repeated.
    Unless --no-smoke, each ruleset also plays one short seeded random game
    per player count (at most 100 decisions), so a flow that crashes or never
    reaches a decision at the start is reported where it goes wrong.
    """
    problems: list[Diagnostic] = []
    left_out = 0
    io_error = False
    text = fmt == "text"
    for target in targets:
        try:
            rules = load(target, expansions)
        except ContentError as exc:
            problems += exc.diagnostics
            left_out += getattr(exc, "left_out", 0)
            if text:
                _say(render_text(exc.diagnostics, sources=exc.sources))
            continue
        except (CliError, OSError) as exc:
            echo_error(str(exc) if isinstance(exc, CliError) else describe_error(exc))
            io_error = True
            continue
        smoke = [] if no_smoke else _smoke(rules)
        problems += smoke
        if text:
            _say(render_text(smoke) if smoke else
                 f"ok: {rules.id} ({len(rules.entities)} records, {text_count(rules)} effect texts)")
    if fmt == "json":
        click.echo(render_json(problems))
    elif fmt == "github":
        if problems:
            click.echo(formats.github(problems))
    elif fmt == "sarif":
        from .main import _version
        click.echo(formats.sarif(problems, _version()))
    elif problems:
        click.echo("\n".join(formats.summary(problems, left_out)))
    click.get_current_context().exit(2 if io_error else 1 if problems else 0)


def _smoke(rules) -> list[Diagnostic]:
    """The smoke games' problems; none when these very rules passed them under this code before
    (``content/checked.py``: the games are seeded, so the same rules play the same games)."""
    from ..content import checked
    from ..engine import budget
    from ..model import limits
    bounds = [(m.__name__, k, v) for m in (budget, limits) for k, v in vars(m).items()
              if k.startswith("MAX_")]           # a test may lower them: part of what was checked
    key = checked.digest("smoke", rules.fingerprint, repr(rules.players), repr(bounds))
    if checked.passed(key):
        return []
    from ..engine.smoke import smoke_problems     # the engine only when a game is played
    found = smoke_problems(rules)
    if not found:
        checked.remember(key)
    return found


def _say(text: str) -> None:
    click.echo(formats.colour(text) if formats.use_colour(sys.stdout) else text)


def text_count(rules) -> int:
    """How many effect-language texts the ruleset compiled."""
    return (len(rules.procedures) + len(rules.functions) + len(rules.effects)
            + len(rules.expressions) + len(rules.visibility) + (rules.start is not None))
