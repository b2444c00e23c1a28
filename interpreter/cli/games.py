"""Playing at the table: saving after every answer, resuming, undoing, watching, stepping.

A save file is a game log (``session.game_log``) of the game so far: the
set-up and every answer. Resuming replays it; so does undoing, to fewer
answers. Bots at the table restart their random stream from their seed and
the decision's number before each decision, so a resumed or undone game
goes on exactly as the uninterrupted one would have.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

from rich.text import Text

from ..workbench.trace import seat_log
from . import session, table
from .common import HUMAN, CliError
from .human import Human, Interrupted, Rewind

INTERRUPTED = 130              # the exit status of a game left at a prompt (as for Ctrl-C)


def rebuild(setup: session.Setup, actions) -> object:
    """A new game of ``setup`` that has taken ``actions`` (``[player, index]`` pairs)."""
    game = setup.new_game()
    for player, index in actions:
        game.apply(player, index)
    return game


def save(path, setup: session.Setup, game) -> None:
    """Write the game so far to ``path`` (whole or not at all: a new file renamed over it)."""
    path = Path(path)
    partial = path.with_name(path.name + ".partial")
    session.write_log(str(partial), session.game_log(setup, game))
    os.replace(partial, path)


def resume(path) -> tuple[session.Setup, object]:
    """The set-up and the game a save file holds, replayed and checked."""
    from .common import load
    log = session.read_log(str(path))
    rules = load(log.get("ruleset") or log["game"], log.get("expansions", ()))
    if rules.id != log["game"]:
        raise CliError(f"{path} is a game of '{log['game']}', not '{rules.id}'")
    game, failure = session.replay(rules, log)
    if failure:
        raise CliError(f"{path}: {failure}", code=1)
    seats = log.get("seats") or ["random"] * log["players"]
    setup = session.Setup(rules, log.get("ruleset") or log["game"], log["players"], log["seed"],
                          log["options"], list(seats))
    return setup, game


def fresh_streams(bots: dict, game) -> None:
    """Restart every bot's random stream from its seed and the number of decisions taken."""
    step = len(game.state["history"])
    for bot in bots.values():
        bot.rng.seed(f"{bot.seed}:{step}")


def play(setup: session.Setup, game, console, stdin=None, *, save_to=None, log_to=None,
         watch=None) -> None:
    """Play ``game`` to the end at the table; ``save_to`` and ``log_to`` are written after
    every answer. Raises Interrupted (after saving) when a person leaves.

    ``watch(game, step)`` is called after every decision (``play --watch``).
    """
    from ..agents.driver import GameDidNotEnd, bot_mover, drive
    bots = setup.bots()
    humans = [i for i, name in enumerate(setup.seats) if name == HUMAN]
    human = Human(game, console, stdin, rebuild=lambda actions: rebuild(setup, actions),
                  hand_over=len(humans) > 1)

    def person(game, pending):
        human.decide(pending[0].player)

    mover = bot_mover(bots, person)

    def move(game, pending):
        fresh_streams(bots, game)
        mover(game, pending)

    def after(game, step):
        for path in (save_to, log_to):
            if path:
                save(path, setup, game)
        if watch:
            watch(game, step)

    while True:
        try:
            drive(game, move, on_step=after)
            return
        except Rewind as back:
            game.__dict__.update(rebuild(setup, game.state["history"][:back.keep]).__dict__)
            human.seen.pop(back.seat, None)
            console.print(Text("undone: your last answer is taken back", style="yellow"))
        except (Interrupted, KeyboardInterrupt):
            for path in (save_to, log_to):
                if path:
                    save(path, setup, game)
            raise Interrupted("left the game") from None
        except GameDidNotEnd as exc:
            raise CliError(str(exc)) from None


def watcher(console, seat: int, pace: float | None, stdin=None):
    """A ``watch`` for ``play``: each decision's screen as ``seat`` saw it, then a pause
    (``pace`` seconds) or, without a pace, a press of Enter."""
    def watch(game, step):
        who = step.decision.player             # another seat's answer may be secret: not named
        what = f"chose {step.decision.options[step.index]}" if who == seat else "decided"
        console.print(Text(f"decision {step.number}: {game.seat_name(who)} {what}", style="bold"))
        table.show(console, game, seat, seat_log(game, seat)[-table.LOG_MAX:])
        if pace is not None:
            time.sleep(pace)
        elif stdin is not None and not stdin.readline():
            raise Interrupted("end of input while watching")
    return watch


def step_through(setup: session.Setup, log: dict, console, seat: int, stdin, upto=None,
                 interactive: bool = True) -> None:
    """Show a logged game as ``seat`` saw it, decision by decision (Enter: next, a number:
    jump there, q: stop); ``upto`` starts at that decision."""
    actions = log["actions"]
    at = min(upto if upto is not None else 0, len(actions))
    game = rebuild(setup, actions[:at])
    seen = 0
    while True:
        console.print(Text(f"after decision {at} of {len(actions)}", style="bold"))
        lines = seat_log(game, seat)
        table.show(console, game, seat, lines[seen:] if at else lines[-table.LOG_MAX:])
        seen = len(lines)
        if not interactive or at >= len(actions):
            return
        console.print("Enter: next · a number: go to that decision · q: stop> ", end="")
        console.file.flush()
        answer = stdin.readline()
        if not answer or answer.strip().casefold() == "q":
            return
        target = int(answer) if answer.strip().isdigit() else at + 1
        target = max(0, min(target, len(actions)))
        if target < at:
            game, at, seen = rebuild(setup, actions[:target]), target, 0
        else:
            for player, index in actions[at:target]:
                game.apply(player, index)
            at = target


def end_screen(console, game, seat: int | None) -> None:
    """The final screen: the board as ``seat`` sees it, then the score breakdown."""
    if seat is not None:
        table.show(console, game, seat, [])
    console.print(table.score_table(game))
    console.print(session.outcome_line(game))


def table_console():
    """The console of a person at the table: the terminal's real size, colour on a terminal."""
    from rich.console import Console
    return Console(highlight=False, markup=False, emoji=False)


def default_save(setup: session.Setup) -> str:
    """Where a game left without ``--save`` is kept: the current folder."""
    return f"{setup.rules.id}-seed{setup.seed}.save.json"


def at_table(setup: session.Setup, game, *, save_to=None, log_to=None, watch=False,
             pace=None, seat=1, stdin=None) -> int:
    """Play at the table to the end and show the final screen; returns the exit status.

    A person leaving (``q``, end of input, Ctrl-C) saves the game (to ``save_to``,
    else a file in the current folder) and returns 130.
    """
    import sys
    import click
    console = table_console()
    stdin = stdin or sys.stdin
    humans = [i for i, name in enumerate(setup.seats) if name == HUMAN]
    shown = seat - 1
    if not 0 <= shown < setup.players:
        raise CliError(f"--as {seat}: the game has seats 1 to {setup.players}")
    watching = watcher(console, shown, pace, stdin) if watch else None
    try:
        play(setup, game, console, stdin, save_to=save_to, log_to=log_to, watch=watching)
    except Interrupted:
        where = save_to or log_to or default_save(setup)
        if not (save_to or log_to):
            save(where, setup, game)
        click.echo(f"game saved to {where}; continue it with: rulebook resume {where}", err=True)
        return INTERRUPTED
    end_screen(console, game, humans[0] if humans else (shown if watch else None))
    return 0
