"""`rulebook simulate` and `rulebook report`: balance reports from many seeded bot games.

``simulate`` plays the games (on ``--jobs`` cores, or one ``--shard`` of
them), ``report`` merges the per-game rows that shards on other machines
wrote; both print the same tables from the same rows.
"""
from __future__ import annotations

import csv
import json
from pathlib import Path

import click

from ..workbench import balance         # parallel (processes) and rich: imported where used
from .common import CliError, err, out


def options(func):
    """The options of `simulate` beyond those it shares with `play`."""
    decorators = [
        click.option("--games", "-n", type=click.IntRange(min=1), default=20, show_default=True,
                     help="How many games (seeds SEED..SEED+N-1)."),
        click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                     help="Output format."),
        click.option("--jobs", "-j", type=click.IntRange(min=1),
                     help="Processes to play in (default: this machine's cores); "
                          "the output is the same for any number."),
        click.option("--rotate/--no-rotate", default=True, show_default=True,
                     help="Rotate the --seats bots so each sits in each seat equally often."),
        click.option("--vary", "vary", multiple=True, metavar="OPTION",
                     help="Cycle a game option through all its values (repeatable)."),
        click.option("--cluster", metavar="ADDRESS|local",
                     help="Play on a Dask cluster (the [cluster] extra): a scheduler address, "
                          "or 'local' for a local cluster of --jobs workers."),
        click.option("--shard", metavar="I/M",
                     help="Play only the I-th of M equal parts of the seeds (for many machines; "
                          "merge the --games-out files with `rulebook report`)."),
        click.option("--games-out", type=click.Path(dir_okay=False, writable=True),
                     help="Write one row per game: FILE.csv, or JSON lines (any other name; "
                          "what `rulebook report` merges)."),
        click.option("--report", "report_dir", type=click.Path(file_okay=False, writable=True),
                     help="Write a report folder: HTML page, JSON, and plots if the "
                          "[plots] extra (matplotlib) is installed."),
    ]
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


def run(setup, games, fmt, jobs, rotate, vary, cluster, shard, games_out, report_dir) -> None:
    """Play the games of ``setup`` and print or write what was asked."""
    from ..workbench import parallel
    plan = balance.Plan(setup.source, tuple(setup.rules.expansions), setup.players, setup.seed,
                        games, list(setup.seats), setup.options, rotate,
                        _varied(setup.rules, vary, setup.players))
    part = _shard(shard)
    which = parallel.indices(plan, part)
    with progress() as bar:
        advance = bar.task("playing", len(which))
        rows = (_on_cluster(plan, which, cluster, jobs, advance) if cluster else
                parallel.run(setup.rules, plan, which, jobs or parallel.default_jobs(), advance))
    _finish(plan.to_dict(), rows, fmt, games_out, report_dir, plan, part)


class progress:
    """Progress bars on stderr when it is a terminal, nothing when it is piped (simulate,
    compare, coverage). Drawn again at each step, never by a thread of its own, so the
    worker processes of ``--jobs`` fork from a process with one thread."""

    def __init__(self):
        from rich.progress import Progress
        console = err()
        self.bar = Progress(console=console, transient=True, auto_refresh=False,
                            disable=not console.is_terminal)

    def __enter__(self):
        self.bar.__enter__()
        return self

    def __exit__(self, *exc):
        return self.bar.__exit__(*exc)

    def task(self, label: str, total: int):
        """A new bar; returns its ``advance()``."""
        task = self.bar.add_task(label, total=total)
        self.bar.refresh()

        def advance():
            self.bar.advance(task)
            self.bar.refresh()
        return advance


def _on_cluster(plan, which, cluster, jobs, advance) -> list:
    from ..workbench import cluster as dask, parallel
    if not dask.available():
        raise CliError("--cluster needs the [cluster] extra: pip install 'rulebook[cluster]'")
    address = None if cluster == "local" else cluster
    return dask.run(plan, which, address, jobs or parallel.default_jobs(), advance)


def _finish(plan: dict, rows, fmt, games_out, report_dir, whole=None, part=None) -> None:
    if games_out:
        _write_games(games_out, whole, plan, rows, part)
    figures = balance.report(plan, rows)
    if part:
        figures["shard"] = list(part)
    if report_dir:
        from ..workbench import page
        written = page.write(report_dir, figures, rows)
        err().print(f"report: {written}")
    if fmt == "json":
        click.echo(json.dumps(figures, indent=2, ensure_ascii=False))
    else:
        print_report(figures)


def _varied(rules, names, players) -> dict:
    """Each option named by --vary, with the values its games cycle through."""
    from ..content.options import resolve_options
    out = {}
    for name in names:
        spec = rules.options.get(name)
        if spec is None:
            raise CliError(f"'{rules.id}' has no option '{name}' to vary")
        kind = spec.get("type", "choice")
        if kind == "bool":
            values = [False, True]
        elif kind == "choice":
            values = list(spec.get("values") or rules.tables.get(spec.get("table"), []))
        else:
            raise CliError(f"--vary takes a choice or true/false option; '{name}' is a {kind}")
        for value in values:                       # each must be one the game accepts
            resolve_options(rules, {name: value}, players)
        out[name] = values
    return out


def _shard(text):
    if text is None:
        return None
    i, sep, m = text.partition("/")
    if not (sep and i.isdigit() and m.isdigit() and 1 <= int(i) <= int(m)):
        raise CliError(f"--shard expects I/M with 1 <= I <= M, got {text!r}")
    return int(i), int(m)


def _write_games(path, whole, plan: dict, rows, part) -> None:
    from ..workbench import parallel
    if Path(path).suffix.lower() == ".csv":
        _write_csv(path, rows)
    elif whole is not None:
        parallel.write_rows(path, whole, rows, part)
    else:                                          # from `report`: the merged plan as it was read
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(json.dumps({"format": parallel.ROWS_FORMAT, "plan": plan, "shard": None},
                                    sort_keys=True) + "\n")
            for row in rows:
                handle.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")


def _write_csv(path, rows) -> None:
    labels = rows[0]["labels"] if rows else []
    varied = sorted(rows[0]["varied"]) if rows else []
    header = ["index", "seed", "decisions", "winners", *varied]
    for label in labels:
        header += [f"{label} bot", f"{label} score", f"{label} rank", f"{label} holds"]
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        for row in rows:
            line = [row["index"], row["seed"], row["decisions"],
                    " ".join(labels[i] for i in row["winners"]), *(row["varied"][v] for v in varied)]
            for i in range(len(labels)):
                bot = row["seats"][i] if i < len(row["seats"]) else "scripted"
                holds = " ".join(f"{k}={v}" for k, v in sorted(row["held"][i].items()))
                line += [bot, row["scores"][i], row["ranks"][i], holds]
            writer.writerow(line)


# ---------------------------------------------------------------- report

@click.command("report")
@click.argument("files", nargs=-1, required=True, metavar="GAMES.jsonl...")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              help="Output format.")
@click.option("--games-out", type=click.Path(dir_okay=False, writable=True),
              help="Write the merged rows (FILE.csv, or JSON lines).")
@click.option("--report", "report_dir", type=click.Path(file_okay=False, writable=True),
              help="Write a report folder (HTML, JSON, plots).")
def report(files, fmt, games_out, report_dir):
    """Merge the per-game rows of `simulate --games-out` runs (shards) into one balance report.

    The shards of one simulation (`--shard 1/3`, `2/3`, `3/3`, each on any
    machine) merge into exactly the report of the whole run.
    """
    from ..workbench import parallel
    parts = []
    for name in files:
        try:
            parts.append((name, *parallel.read_rows(name)))
        except ValueError as exc:
            raise CliError(str(exc)) from None
    try:
        plan, rows, missing = parallel.merge(parts)
    except ValueError as exc:
        raise CliError(str(exc), code=1) from None
    if missing:
        shown = ", ".join(map(str, missing[:10])) + (" ..." if len(missing) > 10 else "")
        err().print(f"warning: {len(missing)} of {plan['games']} games are missing (index {shown})")
    _finish(plan, rows, fmt, games_out, report_dir)


# ---------------------------------------------------------------- the text tables

def print_report(figures: dict) -> None:
    """The balance report on the terminal: seats, bots, held records, varied options, length."""
    console = out()
    seeds = f"seeds {figures['seed']}..{figures['seed'] + figures['games'] - 1}"
    if figures.get("shard"):
        seeds += f", shard {figures['shard'][0]}/{figures['shard'][1]}"
    rotation = ", seats rotated" if figures["rotation"] else ""
    console.print(f"{figures['game']}: {figures['games']} games, {figures['players']} players, "
                  f"{seeds}{rotation}")
    _whole(console, _table("seat", figures["seats"], first="seat", bot=True))
    if len(figures["bots"]) > 1:
        _whole(console, _table("bot", figures["bots"]))
    if figures["records"]:
        _whole(console, _table("held record", figures["records"]))
    for name, values in figures["varied"].items():
        _whole(console, _varied_table(name, values))
    length = figures["length"]
    console.print(f"average decisions per game: {length['mean']:.1f} (sd {_num(length['sd'])}, "
                  f"{length['min']}..{length['max']})")
    first = figures["first_player"]
    if first:
        console.print(f"first seat: wins {first['win_rate']:.1%} {_interval(first['interval'])}, "
                      f"an even game gives {first['even']:.1%} ({first['advantage']:+.1%})")
    if figures["taken"]:
        top = ", ".join(f"{t['record']} {t['share']:.0%}" for t in figures["taken"][:8])
        console.print(f"most taken (share of games): {top}")
    for warning in figures["warnings"]:
        console.print(f"warning: {warning}")


def _whole(console, table) -> None:
    """Print a table at its own width when it is wider than the console: no figure cut short."""
    console.print(table, width=max(console.width, console.measure(table).maximum))


def _table(title, rows, first="name", bot=False):
    from rich import box
    from rich.table import Table
    table = Table(box=box.SIMPLE_HEAD, show_edge=False)
    columns = [title] + (["bot"] if bot else []) + ["games", "wins", "win", "95% interval",
                                                    "avg score", "sd", "range", "avg return"]
    for column in columns:
        table.add_column(column, no_wrap=True)
    for row in rows:
        table.add_row(str(row[first]), *([row["bot"]] if bot else []), str(row["games"]),
                      f"{row['wins']:g}", _pct(row["win_rate"]), _interval(row["interval"]),
                      _num(row["average"]), _num(row["sd"]), f"{_num(row['min'])}..{_num(row['max'])}",
                      _num(row["returns"], 3))
    return table


def _varied_table(name, values):
    from rich import box
    from rich.table import Table
    table = Table(title=f"option {name}", box=box.SIMPLE_HEAD, show_edge=False, title_justify="left")
    seats = [s["seat"] for s in values[0]["seats"]] if values else []
    for column in ["value", "games", "avg decisions", *(f"{s} wins" for s in seats)]:
        table.add_column(column)
    for value in values:
        table.add_row(value["value"], str(value["games"]), _num(value["length"]),
                      *(f"{_pct(s['win_rate'])} {_interval(s['interval'])}" for s in value["seats"]))
    return table


def _pct(value) -> str:
    return "-" if value is None else f"{value:.1%}"


def _interval(pair) -> str:
    return f"{pair[0] * 100:.1f}-{pair[1] * 100:.1f}%"


def _num(value, places: int = 2) -> str:
    if value is None:
        return "-"
    return str(value) if isinstance(value, int) else f"{value:.{places}f}"
