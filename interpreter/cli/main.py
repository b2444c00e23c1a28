"""The `rulebook` command: list, inspect, validate and play data-driven board games.

Exit status: 0 fine, 1 problems found (invalid content, failed scenario or
replay), 2 usage or I/O errors, 3 an internal error (a bug in Rulebook).
"""
from __future__ import annotations

import importlib
import json

import click

from ..diagnostics import ContentError, Diagnostic, render_text
from ..model.values import InternalError, RuleError
from . import session, simulate_cmd, validate_cmd
from .common import (HUMAN, CliError, describe_error, echo_error, load, out,
                     parse_options, parse_seats, player_count)
from .render import wrap


class _Group(click.Group):
    """Turns the errors commands raise into one-line messages and exit statuses.

    Commands in ``LAZY`` are imported when named (or listed), so a command
    starts without importing the others' modules."""

    LAZY = {"coverage": ("coverage_cmd", "coverage_command"),
            "compare": ("compare_cmd", "compare_command")}

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(self.LAZY))

    def get_command(self, ctx, name):
        if name in self.LAZY and name not in self.commands:
            module, attribute = self.LAZY[name]
            self.add_command(getattr(importlib.import_module(f"{__package__}.{module}"), attribute))
        return super().get_command(ctx, name)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except CliError as exc:
            echo_error(str(exc))
            ctx.exit(exc.code)
        except ContentError as exc:
            click.echo(render_text(exc.diagnostics, sources=exc.sources), err=True)
            click.echo(_count(len(exc.diagnostics)), err=True)
            ctx.exit(1)
        except RuleError as exc:
            echo_error(f"the rules went wrong at run time: {exc}")
            ctx.exit(1)
        except InternalError as exc:       # never the author's fault: a status of its own
            echo_error(f"{exc} (please report it)")
            ctx.exit(3)
        except (OSError, ValueError) as exc:
            echo_error(describe_error(exc))
            ctx.exit(2)


def _version() -> str:
    from importlib import metadata        # here: reading it costs more than most commands
    try:
        return metadata.version("rulebook")
    except metadata.PackageNotFoundError:
        return "unknown"


def _show_version(ctx) -> None:
    """``--version``: the version is read only when asked for (click's own option reads it at
    import, which every command would pay)."""
    if not ctx.resilient_parsing:
        click.echo(f"rulebook, version {_version()}")
        ctx.exit()


def _exit(code: int) -> None:
    """End the command with exit status ``code``."""
    click.get_current_context().exit(code)


def _count(n: int) -> str:
    return f"{n} problem(s)"


def _table(*columns, title=None):
    from rich import box
    from rich.table import Table
    table = Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, title_justify="left")
    for column in columns:
        table.add_column(column)
    return table


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=lambda ctx, _, shown: _show_version(ctx) if shown else None,
              help="Show the version and exit.")
def cli():
    """Rulebook: a data-driven board-game rules interpreter."""


# ---------------------------------------------------------------- list / info

@cli.command("list")
def list_games():
    """List the bundled games."""
    from ..content.bundled import available
    table = _table("id", "name", "players", "summary")
    for game_id in available():
        manifest = _manifest(game_id)
        players = manifest.get("players", {})
        table.add_row(game_id, str(manifest.get("name", game_id)),
                      f"{players.get('min', '?')}-{players.get('max', '?')}",
                      str(manifest.get("summary", "")))
    out().print(table)


def _manifest(game_id: str) -> dict:
    """A bundled game's manifest, read without loading the whole ruleset."""
    import yaml
    from ..content.bundled import MANIFEST, ruleset_path
    try:
        data = yaml.safe_load((ruleset_path(game_id) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return {"summary": "(unreadable manifest)"}
    return data if isinstance(data, dict) else {}


@cli.command()
@click.argument("game")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              help="Output format.")
def info(game, fmt):
    """Show a game's summary, player counts, options and expansions."""
    rules = load(game)
    data = _info(rules)
    if fmt == "json":
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    _print_info(data)


def _info(rules) -> dict:
    options = {}
    for name, spec in rules.options.items():
        kind = spec.get("type", "choice")
        allowed = spec.get("values") or rules.tables.get(spec.get("table"), [])
        if kind == "bool":
            allowed = [True, False]
        elif kind == "seats":
            allowed = list(range(1, rules.players["max"] + 1))
        options[name] = {"type": kind, "values": list(allowed), "default": spec.get("default"),
                         "description": spec.get("description", "")}
        if spec.get("table"):
            options[name]["table"] = spec["table"]
            options[name]["records"] = [_record_info(rules, rid) for rid in allowed]
    return {"id": rules.id, "name": rules.title, "summary": rules.manifest.get("summary", ""),
            "version": rules.manifest.get("version"),
            "players": dict(rules.players), "options": options,
            "expansions": sorted(rules.manifest.get("expansions") or {}),
            "expansion_changes": {name: _expansion_info(rules, name)
                                  for name in sorted(rules.manifest.get("expansions") or {})}}


def _record_info(rules, rid: str) -> dict:
    """A choosable record as a player reads it: its id, name and text (its abilities, if any)."""
    record = rules.entities.get(rid, {})
    text = record.get("text")
    return {"id": rid, "name": record.get("name", rid), "text": text if isinstance(text, str) else ""}


def _expansion_info(rules, name: str) -> dict:
    """What expansion ``name`` adds, replaces and removes (or why it cannot be loaded)."""
    from ..content.ruleset import load_ruleset
    from ..diagnostics import ContentError
    try:
        extended = load_ruleset(str(rules.folder), expansions=(name,))
    except ContentError as exc:
        return {"problems": len(exc.diagnostics)}
    src = extended.overlays[0]["source"].data
    return {"name": src.get("name", name), "summary": src.get("summary", ""),
            "fits": src.get("fits"), "experimental": src.get("experimental"),
            **extended.expansion_summary[name]}


def _print_info(data: dict) -> None:
    console = out()
    p = data["players"]
    console.print(f"{data['name']} ({data['id']})")
    if data["summary"]:
        console.print(data["summary"])
    if data.get("version"):
        console.print(f"version: {data['version']}")
    console.print(f"players: {p['min']}..{p['max']} (default {p.get('default', p['min'])})")
    console.print("options:" if data["options"] else "options: none")
    for name, spec in data["options"].items():
        console.print(f"  {name} ({spec['type']}, default {_plain(spec['default'])})")
        _say(console, f"    values: {_values(spec)}")
        if spec["description"]:
            _say(console, f"    {spec['description']}")
        for record in spec.get("records", []):
            if record["text"]:
                _say(console, f"      {record['name']} ({record['id']}): {record['text']}")
    console.print(f"expansions: {', '.join(data['expansions']) or 'none'}")
    for name, change in data["expansion_changes"].items():
        if "problems" in change:
            console.print(f"  {name}: cannot be loaded ({change['problems']} problem(s); "
                          f"rulebook validate {data['id']} -x {name})")
            continue
        fits = f", fits {data['id']} {change['fits']}" if change.get("fits") else ""
        console.print(f"  {name} ({change['name']}{fits})")
        if change["summary"]:
            _say(console, f"    {change['summary']}")
        if change.get("experimental"):                 # an authored reading: said before anything else
            gate = change["experimental"]
            _say(console, f"    EXPERIMENTAL, not the published game: {gate['why'].strip()} "
                          f"Play it with --option {gate['option']}=true.")
        for kind in ("adds", "replaces", "removes"):
            for line in change[kind]:
                _say(console, f"    {kind} {line}")


def _say(console, line: str) -> None:
    """Print a line, wrapped under its own indent."""
    for part in wrap(line, console.width):
        console.print(part, soft_wrap=True)


def _values(spec: dict) -> str:
    values = spec["values"]
    if spec["type"] == "seats":
        return f"seat numbers {values[0]}..{values[-1]}, comma-separated"
    shown = ", ".join(_plain(v) for v in values)
    if spec["type"] == "subset":
        shown = f"any of {shown}, comma-separated"
    if spec["type"] == "per_seat":
        shown = f"one per seat from seat 1, in order, of {shown}, comma-separated"
    return f"{shown} (table {spec['table']})" if spec.get("table") else shown


def _plain(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(map(str, value)) or "(none)"
    return "(none)" if value is None else str(value)


# ---------------------------------------------------------------- validate (validate_cmd.py)

cli.add_command(validate_cmd.validate)


# ---------------------------------------------------------------- dsl

@cli.command()
@click.argument("game")
@click.option("--expansion", "-x", "expansions", multiple=True, help="Apply an expansion (repeatable).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False),
              help="Write DIR/<id>.schema.json (<id>+<expansion> with -x; the folder is made if "
                   "needed) instead of printing it.")
def schema(game, expansions, out_dir):
    """Write the JSON Schema of a game's data files (its declared tables), for editors."""
    from pathlib import Path
    from ..content.export import data_schema_text
    rules = load(game, expansions)
    text = data_schema_text(rules)
    if out_dir is None:
        click.echo(text, nl=False)
        return
    path = Path(out_dir) / f"{'+'.join([rules.id, *rules.expansions])}.schema.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    click.echo(f"wrote {path}")


@cli.command()
@click.argument("game")
@click.argument("text")
@click.option("--expression", "-e", is_flag=True, help="Read TEXT as one expression.")
def dsl(game, text, expression):
    """Check effect-language TEXT against a game and say it in plain words."""
    from ..dsl import ast
    from ..dsl.check import check, kind_of
    from ..dsl.explain import explain
    from ..dsl.parser import DslError, parse_expression, parse_program
    rules = load(game)
    try:
        tree = parse_expression(text) if expression else parse_program(text)
    except DslError as exc:
        tree = None if expression else _as_expression(text, parse_expression, DslError)
        if tree is None:
            _dsl_fail(text, [Diagnostic(exc.code, exc.message, "<dsl>", exc.line, exc.col,
                                        exc.end_col, exc.hint)])
    problems = check(tree, rules.vocabulary())
    if problems:
        _dsl_fail(text, [Diagnostic(p.code, p.message, "<dsl>", *p.span(), p.hint)
                         for p in problems])
    click.echo(explain(tree))
    if not isinstance(tree, ast.Block):                 # an expression: say what it gives
        click.echo(f"  gives {kind_of(tree, rules.vocabulary())}")


@cli.command()
@click.argument("game", required=False)
def vocab(game):
    """Print the effect language's verbs, functions and names; with GAME, also its own names."""
    from ..mechanics import reference
    click.echo(reference.language())
    if game is not None:
        click.echo(reference.game(load(game)))


def _as_expression(text, parse_expression, error):
    try:
        return parse_expression(text)
    except error:
        return None


def _dsl_fail(text: str, diagnostics) -> None:
    click.echo(render_text(diagnostics, sources={"<dsl>": text}))
    _exit(1)


# ---------------------------------------------------------------- play / replay / simulate

def _game_options(func):
    """The options `play` and `simulate` share."""
    func = click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
                        help="Set a game option (repeatable).")(func)
    func = click.option("--expansion", "-x", "expansions", multiple=True,
                        help="Apply an expansion (repeatable).")(func)
    func = click.option("--seats", metavar="NAME,...",
                        help="Who plays each seat (default: random); the last name repeats.")(func)
    func = click.option("--seed", type=int, default=1, show_default=True, help="Random seed.")(func)
    func = click.option("--players", "-p", type=int, help="Number of players (default: the game's).")(func)
    func = click.argument("option_flags", nargs=-1, type=click.UNPROCESSED, metavar="[--OPTION VALUE]...",
                          callback=_option_flags)(func)
    return click.argument("game")(func)


# `play` and `simulate` take any game option as its own flag too: `--factions a,b` is `-o factions=a,b`.
OPTION_FLAGS = {"ignore_unknown_options": True}


def _option_flags(ctx, param, words) -> tuple[str, ...]:
    """``("--factions", "a,b", "--hqs=x")`` -> ``("factions=a,b", "hqs=x")``."""
    pairs, words = [], list(words)
    while words:
        word = words.pop(0)
        if not word.startswith("--") or len(word) < 3:
            raise click.BadParameter(f"expected --OPTION VALUE, got {word!r}", ctx, param)
        name, sep, value = word[2:].partition("=")
        if not sep:
            if not words:
                raise click.BadParameter(f"--{name} needs a value", ctx, param)
            value = words.pop(0)
        pairs.append(f"{name}={value}")
    return tuple(pairs)


def _setup(game, players, seed, seats, options, expansions, humans: bool) -> session.Setup:
    from ..agents import BOTS
    from ..content.options import resolve_options
    rules = load(game, expansions)
    count = player_count(rules, players)
    allowed = list(BOTS) + ([HUMAN] if humans else [])
    names = parse_seats(seats, count, allowed)
    resolved = resolve_options(rules, parse_options(options), count)
    return session.Setup(rules, game, count, seed, resolved, names)


@cli.command(context_settings=OPTION_FLAGS)
@_game_options
@click.option("--log", "log_file", type=click.Path(dir_okay=False, writable=True),
              help="Write a JSON log of the game, for `rulebook replay` (after every answer).")
@click.option("--save", "save_file", type=click.Path(dir_okay=False, writable=True),
              help="Save the game after every answer, for `rulebook resume`.")
@click.option("--watch", is_flag=True, help="Show every decision's screen (a bot game to watch).")
@click.option("--pace", type=click.FloatRange(min=0), metavar="SECONDS",
              help="With --watch: wait this long between decisions (default: until Enter).")
@click.option("--as", "seat", type=int, default=1, show_default=True,
              help="With --watch: the seat whose view is shown.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the result table and the winner.")
@click.option("--trace", is_flag=True,
              help="Show each log line with the file:line (and rule ids) of the statement that wrote it; "
                   "a --log file then replays so too.")
def play(game, option_flags, players, seed, seats, options, expansions, log_file, save_file, watch,
         pace, seat, quiet, trace):
    """Play one game to the end, with bots and/or people (`--seats human,random`).

    Any game option may also be given as its own flag: `--NAME VALUE` is `-o NAME=VALUE`.
    """
    setup = _setup(game, players, seed, seats, options + option_flags, expansions, humans=True)
    setup.trace = trace
    match = setup.new_game()
    if HUMAN in setup.seats or watch or save_file:         # a person at the table
        from . import games                                # the screen: only for a table
        _exit(games.at_table(setup, match, save_to=save_file, log_to=log_file, watch=watch,
                             pace=pace, seat=seat))
    console = out()
    session.play(match, setup.bots())
    if log_file:
        session.write_log(log_file, session.game_log(setup, match))
    if trace:
        _print_trace(match)
    if not quiet:
        console.print(f"{setup.rules.title}: {setup.players} players, seed {setup.seed}, "
                      f"{len(match.state['history'])} decisions")
    _print_result(console, setup, match)


def _print_trace(match) -> None:
    """The whole log, each line with its readers (when not everyone) and its file:line."""
    from ..workbench.trace import whole_log
    for line in whole_log(match):
        click.echo(line)


@cli.command()
@click.argument("save_file", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("--save", "save_to", type=click.Path(dir_okay=False, writable=True),
              help="Save to this file instead of FILE.")
def resume(save_file, save_to):
    """Continue a game saved by `play --save` (or left with Ctrl-C), saving as it goes."""
    from . import games
    setup, match = games.resume(save_file)
    _exit(games.at_table(setup, match, save_to=save_to or save_file))


def _print_result(console, setup, match) -> None:
    """Score and place per seat, plus the player variables the game asks to show."""
    result = match.result
    extra = setup.rules.manifest.get("show", [])
    table = _table("seat", "who", "score", "place", *extra)
    from ..engine.scoring import unranked
    for i, score in enumerate(result["scores"]):
        if i in unranked(match):
            continue                              # a seat that is no one's rival (ranked: false)
        who = setup.seats[i] if i < match.people else "scripted"
        shown = [str(match.state["players"][i]["vars"].get(v, "")) for v in extra]
        table.add_row(match.seat_name(i), who, _score_text(score), str(result["ranks"][i]), *shown)
    console.print(table)
    console.print(session.outcome_line(match))


def _score_text(score) -> str:
    """A score, or a tie-break key as its numbers joined by slashes."""
    return "/".join(map(str, score)) if isinstance(score, list) else str(score)


@cli.command()
@click.argument("log_file", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("--step", is_flag=True, help="Step through the game decision by decision.")
@click.option("--as", "seat", type=int, default=1, show_default=True,
              help="With --step or --to: the seat whose view is shown.")
@click.option("--to", "upto", type=click.IntRange(min=0), metavar="K",
              help="Show the game after K decisions (with --step: start there).")
@click.option("--trace", is_flag=True,
              help="Show each log line with the file:line of the statement that wrote it "
                   "(the default for a log played with --trace).")
def replay(log_file, step, seat, upto, trace):
    """Re-play a game log and check that it ends in the same state (or step through it)."""
    log = session.read_log(log_file)
    rules = load(log.get("ruleset") or log["game"], log.get("expansions", ()))
    if rules.id != log["game"]:
        raise CliError(f"the log is a game of '{log['game']}', not '{rules.id}'")
    trace = trace or bool(log.get("trace"))
    game, failure = session.replay(rules, log, trace=trace and not (step or upto is not None))
    if failure:
        click.echo(failure)
        _exit(1)
    if step or upto is not None:
        import sys
        from . import games
        if not 1 <= seat <= log["players"]:
            raise CliError(f"--as {seat}: the game has seats 1 to {log['players']}")
        setup = session.Setup(rules, log.get("ruleset") or log["game"], log["players"],
                              log["seed"], log["options"], list(log.get("seats") or []), trace)
        games.step_through(setup, log, games.table_console(), seat - 1, sys.stdin, upto,
                           interactive=step)
        return
    if trace:
        _print_trace(game)
    click.echo(f"replay ok: {log['final']}")


@cli.command(context_settings=OPTION_FLAGS)
@_game_options
@simulate_cmd.options
def simulate(game, option_flags, players, seed, seats, options, expansions, **more):
    """Play many bot-only games and report balance: per seat, bot, held record and option value.

    Win rates come with 95% Wilson intervals; the --seats bots rotate so
    each sits in each seat equally often; `--NAME VALUE` sets an option.
    See also `rulebook report`.
    """
    setup = _setup(game, players, seed, seats, options + option_flags, expansions, humans=False)
    simulate_cmd.run(setup, **more)


cli.add_command(simulate_cmd.report)       # coverage and compare: _Group.LAZY


# ---------------------------------------------------------------- check

@cli.command("check")
@click.argument("scenarios", nargs=-1, required=True, metavar="SCENARIO...")
def check_scenarios(scenarios):
    """Run scenario files and report which pass."""
    try:
        from ..scenarios import check_paths
    except ImportError as exc:
        raise CliError(f"scenarios are not available: {exc}") from None
    from pathlib import Path
    missing = [name for name in scenarios if not Path(name).exists()]
    if missing:
        raise CliError(f"no such scenario file or folder: {', '.join(missing)}")
    passed, failed, lines = check_paths(list(scenarios))
    for line in lines:
        click.echo(line)
    click.echo(f"{passed} passed, {failed} failed")
    _exit(1 if failed else 0)


if __name__ == "__main__":
    cli()
