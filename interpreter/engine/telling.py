"""Telling players what happened: lines the content writes, and who learns a choice.

A log line goes to everyone (``to`` None) or to a list of seats. While
players choose at once, a line for anyone but the thread's own player
would tell them something before all answers are in, so it is *sealed*:
the thread's player reads it now, the others when the block ends (or at
``announce``). Sealed lines wait in ``state["sealed"]`` (made by the
first one; ``{"text", "to"}`` each), which a failed call restores like
any other part of the state.

A choice says who learns what was chosen: ``openly`` (everyone, now),
``secretly`` (the chooser only, ever) or ``sealed`` (the chooser now,
everyone else when the simultaneous block ends or at the next
``announce``). Unsaid, a choice inside ``simultaneously`` is sealed
(the others learn the bids once all are in) and any other is secret: a
label may name a card from a hidden hand, and a line once shown cannot be
taken back, so telling the table is left to the designer to declare.
"""
from __future__ import annotations



TOLD = ("openly", "secretly", "sealed")


def in_block(game, th) -> bool:
    """Whether ``th`` is one of the open ``simultaneously`` block's threads (the same object)."""
    threads = game.state["flow"]["threads"]
    if not threads:
        return False
    me = th["envs"][0]["self"]                     # a block over the players: seat k's thread is k-th
    if me is not None and me.seat < len(threads) and threads[me.seat] is th:
        return True
    for t in threads:                              # a loop, not any(...): this runs at every answer
        if t is th:
            return True
    return False


def block_player(game) -> int | None:
    """The seat whose thread is running inside an open ``simultaneously`` block, or None."""
    th = game.thread
    if th is None or not game.block_open or not in_block(game, th):
        return None
    me = th["envs"][0].get("self")
    return None if me is None else me.seat


def own_line(game, text: str) -> bool:
    """Inside ``simultaneously``: ``text`` logged for the running thread's player alone (the
    others see the block's start), and True; outside it nothing, and False. The one place a
    line the engine writes inside the block is given its reader (``Game.log`` and the verbs'
    ``log_to_viewers`` and ``log_move``)."""
    th = game.thread
    if th is None or not game.block_open or not in_block(game, th):
        return False
    game.state["log"].append({"text": text, "to": [th["envs"][0]["self"].seat]})
    return True


def write(game, text: str, to: list | None) -> None:
    """A line for ``to`` (None: everyone); inside ``simultaneously``, sealed for the others."""
    me = block_player(game)
    if me is None:
        game.state["log"].append({"text": text, "to": to})
        return
    everyone = range(len(game.state["players"]))
    if to is None or me in to:
        game.state["log"].append({"text": text, "to": [me]})
    others = [i for i in (everyone if to is None else to) if i != me]
    if others:
        seal(game, text, others)


def seal(game, text: str, to: list) -> None:
    game.state.setdefault("sealed", []).append({"text": text, "to": list(to)})


def unseal(game) -> None:
    """Every sealed line reaches the seats it was written for, in the order written."""
    waiting = game.state.get("sealed")
    if not waiting:
        return
    seats = len(game.state["players"])
    for line in waiting:
        game.state["log"].append({"text": line["text"],
                                  "to": None if len(line["to"]) == seats else line["to"]})
    game.state["sealed"] = []


def log_choice(game, th: dict, node, player: int, text: str) -> None:
    """The line saying what ``player`` chose at ``node`` (the choice, or a verb's call) of ``th``,
    told as that choice declares: its own word, else the default for where it is (sealed inside
    ``simultaneously``, else secretly)."""
    how = getattr(node, "told", None)                  # (only choices have the field)
    if how is None:
        how = "sealed" if in_block(game, th) else "secretly"
    if how == "secretly":
        game.state["log"].append({"text": text, "to": [player]})
        return
    state = game.state
    if how == "openly":
        state["log"].append({"text": text, "to": None})
        return
    state["log"].append({"text": text, "to": [player]})
    others = [*range(len(state["players"]))]
    del others[player]
    if others:
        seal(game, text, others)

