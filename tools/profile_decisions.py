"""Where a decision's time goes, counted so that a busy machine does not move the figures.

Random playouts (the chooser of ``compare.py`` and ``tools/bench.py``) after warm games, counted
four ways, each repeatable run to run:

    python tools/profile_decisions.py bytecodes lairs --players 4 --games 2
        Python bytecodes executed a decision (``pending`` + ``apply``), by file and by
        function, with calls a decision. Generated code shows as ``<rulebook rulesets/...>``:
        F<n> ruleset functions, B<n> blocks, C<n> choice filters, E<n> expressions, D<n>
        condition fields (``codegen.program_of(rules).source`` holds them).
    python tools/profile_decisions.py unspecialised lairs
        The hot instructions CPython's specialising interpreter (3.11+) left generic after
        warm games, by place and by attribute name: a generic attribute read costs about
        three times a specialised one, which bytecode counts do not see. (FOR_ITER, CALL and
        PRECALL are left out unless asked: on 3.11 FOR_ITER has no specialised form and a
        call's rows are not meaningful; a function first run here shows its plain opcodes.)
    python tools/profile_decisions.py lines lairs --top 60
        Bytecodes a decision by line of the generated code, with the line: which constructs the
        generator writes cost most (a type test repeated, a guard no proof removed).
    python tools/profile_decisions.py instructions lairs --games 4
        Machine instructions of the games alone (valgrind's callgrind: a run with the games
        minus one without), C included: the figure that follows time most closely. Needs
        valgrind; set PYTHONHASHSEED for figures that repeat to the instruction.

Performance is measured here and in ``tools/bench.py``, never asserted in tests.
"""
from __future__ import annotations

import collections
import dis
import gc
import os
import random
import re
import subprocess
import sys
import tempfile
import types
from pathlib import Path

import click

from interpreter.content.ruleset import load_ruleset
from interpreter.engine.game import Game

ROOT = Path(__file__).resolve().parents[1]

# The generic forms of instructions that have specialised ones (3.11's names; later versions
# name some differently, and this lists what it finds).
_GENERIC = re.compile(r"^(LOAD_ATTR|STORE_ATTR|LOAD_METHOD|LOAD_GLOBAL|BINARY_SUBSCR|STORE_SUBSCR|"
                      r"COMPARE_OP|BINARY_OP|UNPACK_SEQUENCE|PRECALL|CALL|FOR_ITER)(_ADAPTIVE)?$")


def play(rules, players: int, seed: int) -> int:
    """One random game, as ``compare.py`` plays it; the number of decisions."""
    rnd, game, n = random.Random(seed), Game.new(rules, players=players, seed=seed), 0
    while not game.over:
        d = game.pending()[0]
        game.apply(d.player, rnd.randrange(len(d.options)))
        n += 1
    return n


def warmed(ruleset: str, players: int, warm: int):
    """The ruleset loaded, after ``warm`` uncounted games (seeds 100 on): its code generated and
    CPython's instructions specialised before anything is counted."""
    rules = load_ruleset(ruleset)
    for seed in range(100, 100 + warm):
        play(rules, players, seed)
    return rules


def counted(rules, players: int, games: int, on_event) -> int:
    """Play ``games`` games (seeds 1..games) with ``on_event(frame, event)`` told of every call
    and bytecode inside ``pending`` and ``apply`` (not ``Game.new``); the number of decisions."""
    def tracer(frame, event, arg):
        frame.f_trace_opcodes = True
        if event == "opcode" or event == "call":
            on_event(frame, event)
        return tracer

    n = 0
    for seed in range(1, games + 1):
        rnd, game = random.Random(seed), Game.new(rules, players=players, seed=seed)
        while not game.over:
            sys.settrace(tracer)
            try:
                d = game.pending()[0]
                game.apply(d.player, rnd.randrange(len(d.options)))
            finally:
                sys.settrace(None)
            n += 1
    return n


def _where(code) -> str:
    name = code.co_filename
    return name.split("/interpreter/")[-1] if "/interpreter/" in name else name


@click.group()
def main():
    """Bytecodes, unspecialised instructions and machine instructions a decision."""


def _common(fn):
    fn = click.option("--players", default=4, show_default=True)(fn)
    fn = click.option("--games", default=2, show_default=True, help="Games counted (seeds 1..N).")(fn)
    fn = click.option("--warm", default=3, show_default=True, help="Games played first, uncounted.")(fn)
    return click.argument("ruleset")(fn)


@main.command()
@_common
@click.option("--top", default=40, show_default=True, help="Functions listed.")
def bytecodes(ruleset, players, games, warm, top):
    """Bytecodes a decision, by file and function."""
    rules = warmed(ruleset, players, warm)
    ops, calls = collections.Counter(), collections.Counter()

    def on_event(frame, event):
        (ops if event == "opcode" else calls)[frame.f_code] += 1
    n = counted(rules, players, games, on_event)
    by_file = collections.Counter()
    for code, count in ops.items():
        by_file[_where(code)] += count
    click.echo(f"{n} decisions, {sum(ops.values()) / n:,.0f} bytecodes a decision")
    for where, count in by_file.most_common(15):
        click.echo(f"  {count / n:8.1f}  {where}")
    click.echo("functions (bytecodes, calls a decision):")
    for code, count in ops.most_common(top):
        click.echo(f"  {count / n:8.1f}  {calls[code] / n:6.2f}  {_where(code).split('/')[-1]}:{code.co_name}")


@main.command()
@_common
@click.option("--top", default=40, show_default=True, help="Lines listed.")
def lines(ruleset, players, games, warm, top):
    """Bytecodes a decision by line of the generated code."""
    from interpreter.engine.codegen import program_of
    rules = warmed(ruleset, players, warm)
    runs = collections.Counter()

    def on_event(frame, event):
        if event == "opcode" and frame.f_code.co_filename.startswith("<rulebook "):
            runs[frame.f_code.co_filename, frame.f_lineno] += 1
    n = counted(rules, players, games, on_event)
    source = program_of(rules).source.split("\n")
    click.echo(f"{n} decisions, {sum(runs.values()) / n:,.0f} bytecodes a decision in generated code")
    for (filename, line), count in runs.most_common(top):
        if filename.endswith(" text>"):                 # generated in play, from a text given then
            text = "(an expression made in play)"
        else:                                           # no line: a function's first instructions
            text = source[line - 1].strip() if line else "(entering a function)"
        click.echo(f"  {count / n:8.1f}  {line or 0:6}  {text[:140]}")


@main.command()
@_common
@click.option("--top", default=30, show_default=True, help="Places listed.")
@click.option("--skip", default="FOR_ITER,CALL,PRECALL", show_default=True,
              help="Instructions left out (on 3.11 these rows are not meaningful; '' lists all).")
def unspecialised(ruleset, players, games, warm, top, skip):
    """Hot instructions left generic after warm games."""
    rules = warmed(ruleset, players, max(warm, 8))             # long enough to specialise
    adaptive = {}                      # read before tracing: a traced instruction runs generic
    for obj in gc.get_objects():
        if type(obj) is types.FunctionType:
            code = obj.__code__
            adaptive[code] = {i.offset: i for i in dis.get_instructions(code, adaptive=True)}
    runs = collections.Counter()

    def on_event(frame, event):
        if event == "opcode":
            runs[frame.f_code, frame.f_lasti] += 1
    n = counted(rules, players, games, on_event)
    places, names = [], collections.Counter()
    skipped = set(filter(None, skip.split(",")))
    for (code, offset), count in runs.items():
        ins = adaptive.get(code, {}).get(offset)
        found = _GENERIC.match(ins.opname) if ins is not None else None
        if found is None or found.group(1) in skipped:
            continue
        places.append((count, ins.opname, ins.argrepr, f"{_where(code).split('/')[-1]}:{code.co_name}",
                       ins.positions.lineno))
        if ins.opname.startswith(("LOAD_ATTR", "STORE_ATTR", "LOAD_METHOD")):
            names[f"{ins.opname.split('_')[0].lower()} .{ins.argrepr}"] += count
    click.echo(f"{n} decisions; the hottest generic instructions, a decision:")
    for count, op, arg, where, line in sorted(places, reverse=True)[:top]:
        click.echo(f"  {count / n:7.2f}  {op:24} {arg[:28]:28} {where}:{line}")
    click.echo("generic attribute reads and writes by name, a decision:")
    for name, count in names.most_common(15):
        click.echo(f"  {count / n:7.2f}  {name}")


_GAMES = """import random, sys
sys.path.insert(0, {root!r})
from interpreter.content.ruleset import load_ruleset
from interpreter.engine.game import Game
sys.path.insert(0, {tools!r})
from profile_decisions import play
rules = load_ruleset({ruleset!r})
Game.new(rules, players={players}, seed=99)          # its code generated, in both runs
for seed in range(100, 100 + {warm}):
    play(rules, {players}, seed)
for seed in range(1, 1 + {games}):
    play(rules, {players}, seed)
"""


def _callgrind_total(script: str, env: dict) -> int:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        result = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                                 sys.executable, "-c", script], capture_output=True, text=True, env=env)
        found = re.search(r"Collected : (\d+)", result.stderr)
        if result.returncode != 0 or found is None:
            raise click.ClickException(f"valgrind failed: {result.stderr[-600:]}")
        return int(found.group(1))


@main.command()
@_common
def instructions(ruleset, players, games, warm):
    """Machine instructions of the counted games alone (callgrind)."""
    args = dict(root=str(ROOT), tools=str(ROOT / "tools"), ruleset=ruleset, players=players, warm=warm)
    with tempfile.TemporaryDirectory() as cache:     # a cache of its own: another process's
        env = {**os.environ, "RULEBOOK_CACHE_DIR": cache}      # writes would count as ours
        subprocess.run([sys.executable, "-c", _GAMES.format(games=0, **args)], check=True, env=env)
        without = _callgrind_total(_GAMES.format(games=0, **args), env)
        with_games = _callgrind_total(_GAMES.format(games=games, **args), env)
    seed = os.environ.get("PYTHONHASHSEED", "random")
    click.echo(f"{(with_games - without) / 1e6:,.1f} M instructions for {games} games of {ruleset} "
               f"at {players} players (PYTHONHASHSEED={seed})")


if __name__ == "__main__":
    main()
