"""A person at the keyboard: their screen (cli/table), their answers, undo and leaving.

An answer is an option's number (from 1), its label, or any part of a label
that fits one option only; ``?`` shows the whole screen with every rival's
board, the full text of every card the options or the sheet name, and the
earlier log; ``u`` undoes back to this player's previous decision when
nothing hidden has been revealed since (see ``undo_point``); ``q`` or the
end of input leaves the game (the caller saves it).
"""
from __future__ import annotations

import sys

from rich.text import Text

from ..workbench.trace import seat_log
from . import table

COMMANDS = {"?": "help", "help": "help", "u": "undo", "undo": "undo", "q": "quit", "quit": "quit"}


class Interrupted(Exception):
    """The person left the game: end of input, or ``q``."""


class Rewind(Exception):
    """Undo: the game goes back to its first ``keep`` decisions."""

    def __init__(self, keep: int, seat: int):
        super().__init__(f"back to decision {keep + 1}")
        self.keep, self.seat = keep, seat


class Human:
    """Answers decisions for the human seats of one game.

    ``rebuild(actions)`` returns a new game that took ``actions`` (the undo
    check replays with it); ``hand_over`` shows a screen between two people's
    turns, so one player's hidden cards are not left for the next.
    """

    def __init__(self, game, console, stdin=None, *, rebuild=None, hand_over: bool = False):
        self.game = game
        self.console = console
        self.stdin = stdin or sys.stdin
        self.rebuild = rebuild
        self.hand_over = hand_over
        self.seen: dict = {}       # seat -> how many of their log lines their last screen came after
        self.last_seat = None

    def decide(self, seat: int) -> None:
        """Show the seat's screen, then read lines until one is a legal answer."""
        from ..engine.game import IllegalAction
        self._hand_over(seat)
        log = seat_log(self.game, seat)              # with each line's file:line when traced
        table.show(self.console, self.game, seat, log[self.seen.get(seat, 0):])
        while True:
            answer = self.ask(seat)
            command = COMMANDS.get(answer.casefold())
            if command == "help":
                self.help(seat)
                continue
            if command == "quit":
                raise Interrupted("left the game")
            if command == "undo":
                self.undo(seat)
                continue
            labels = list(self.game.decision_for(seat).options)
            index, problem = choose(labels, answer)
            if problem:
                self.say(problem)
                continue
            try:
                self.game.apply(seat, index)
            except IllegalAction as exc:
                self.say(f"not allowed: {exc}")
                continue
            self.seen[seat] = len(log)     # what the answer set off (a round it ends) is news next time
            return

    def ask(self, seat: int) -> str:
        """One non-empty answer line; the end of input leaves the game."""
        while True:
            self.console.print(f"{self.game.seat_name(seat)}> ", end="")
            self.console.file.flush()
            line = self.stdin.readline()
            if not line:
                self.console.print()
                raise Interrupted(f"end of input while {self.game.seat_name(seat)} had a decision to make")
            if line.strip():
                return line.strip()

    def say(self, message: str) -> None:
        self.console.print(Text(message, style="yellow"))

    def help(self, seat: int) -> None:
        """The full screen, every card text in play for this seat, and how to answer."""
        log = seat_log(self.game, seat)
        table.show(self.console, self.game, seat, log, full=True)
        view = self.game.view(seat)
        texts = table.card_texts(self.game, view["decision"]["options"], view["players"][seat])
        if texts:
            self.console.print(Text("Cards", style=table.PANEL))
            for line in texts:
                self.console.print("  " + line, soft_wrap=False)
        self.console.print(Text("Answer with an option's number, its label or any part of a label "
                                "that fits only one option. u undoes your last decision (when "
                                "nothing hidden was revealed since), q saves and leaves.", style="dim"))

    def undo(self, seat: int) -> None:
        """Go back to this seat's previous decision, or say why not."""
        keep, reason = undo_point(self.game, seat, self.rebuild)
        if reason:
            self.say(f"cannot undo: {reason}")
            return
        raise Rewind(keep, seat)

    def _hand_over(self, seat: int) -> None:
        """Between two people's turns: clear the screen and wait for the next one."""
        if self.hand_over and self.last_seat is not None and self.last_seat != seat:
            self.console.clear()
            self.console.print(Text(f"Pass the keyboard to {self.game.seat_name(seat)}, "
                                    "then press Enter.", style="bold"))
            self.console.file.flush()
            if not self.stdin.readline():
                raise Interrupted("end of input at the hand-over")
            self.console.clear()
        self.last_seat = seat


def choose(labels: list[str], answer: str) -> tuple[int | None, str | None]:
    """``(index, None)`` for an answer that names one option, else ``(None, why not)``.

    A number counts from 1; a label matches case and spacing aside; any part
    of a label is enough when it fits one option only.
    """
    if answer.isdigit():
        number = int(answer)
        if 1 <= number <= len(labels):
            return number - 1, None
        return None, f"there is no option {number} (choose 1 to {len(labels)})"
    folded = [" ".join(label.casefold().split()) for label in labels]
    wanted = " ".join(answer.casefold().split())
    if wanted in folded:
        return folded.index(wanted), None
    fits = [i for i, label in enumerate(folded) if wanted in label]
    if len(fits) == 1:
        return fits[0], None
    if not fits:
        return None, f"no option fits '{answer}' (answer with a number from 1 to {len(labels)})"
    shown = ", ".join(f"{i + 1} {labels[i]}" for i in fits[:4]) + (" ..." if len(fits) > 4 else "")
    return None, f"'{answer}' fits {len(fits)} options ({shown}): type more of it, or the number"


def undo_point(game, seat: int, rebuild) -> tuple[int | None, str | None]:
    """How many decisions to keep to put ``seat`` back at its previous decision, or why it cannot.

    The rule: undo goes back to the player's last answer if since then
    nothing was drawn or shuffled at random and no player's view shows a
    card, record or component that it did not show at that decision. So an
    undo can never show something and take the choice back.
    """
    history = game.state["history"]
    mine = [k for k, (player, _) in enumerate(history) if player == seat]
    if not mine or rebuild is None:
        return None, "you have not decided anything yet"
    keep = mine[-1]
    before = rebuild(history[:keep])
    if before.state["rng"] != game.state["rng"]:
        return None, "something was drawn or shuffled at random since your last decision"
    for other in range(game.people):
        if not _known(game, other) <= _known(before, other):
            return None, f"{game.seat_name(other)} has seen something new since your last decision"
    return keep, None


def _known(game, seat: int) -> set:
    """What a view shows: the records it names and which components it holds."""
    view = game.view(seat)
    out: set = set()
    entities = game.rules.entities
    for holder in [view] + view["players"]:
        for key, value in holder.items():
            if key in ("log", "decision", "waiting_for", "players") or not isinstance(value, dict):
                continue
            owner = holder.get("seat")
            out.update((owner, key, name) for name in value)
            out.update(text for text in table.strings_in(value) if text in entities)
    return out
