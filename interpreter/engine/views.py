"""Per-player views: exactly what one player may know, as plain data.

What is hidden is declared by the ruleset: ``visible_to`` conditions on
counters, player variables and grids (names ``viewer`` and ``owner``), and
``visible`` on zones (``all``, ``count``, ``top``, ``owner``, plus
``top_fields`` whose values show on the top card, like a card back).
While players choose simultaneously, everyone else's data is shown as it
was when the round began, so no answer is seen before all are in. Once the
game is over, the components the manifest names in ``reveal_at_end`` are
shown to everyone as their owner sees them.
"""
from __future__ import annotations



from .evaluate import Ctx, evaluate
from ..mechanics import COMPONENTS
from ..mechanics.component import HIDDEN
from ..model.values import PLAYERS, to_plain


def view(game, viewer: int) -> dict:
    """The state as player ``viewer`` (0-based) may see it."""
    state = game.state
    flow = state["flow"]
    snapshot = flow.get("snapshot")
    players = []
    # During simultaneous play others are shown as they were when it began;
    # only the viewer's own sheet is live (their own answers).
    table = state if snapshot is None else snapshot
    for i, live in enumerate(state["players"]):
        data = live if snapshot is None or i == viewer else snapshot["players"][i]
        out = {"seat": i, "name": game.seat_name(i), "scripted": i >= game.people}
        out.update(_components(game, data, viewer, i, per_player=True))
        players.append(out)
    decision = game.decision_for(viewer)
    return {
        "game": state["game"],
        "you": viewer,
        **_components(game, table, viewer, None, per_player=False),
        "players": players,
        "decision": decision.to_dict() if decision else None,
        "waiting_for": sorted({d.player for d in game.pending()}),
        "log": [line["text"] for line in state["log"] if line["to"] is None or viewer in line["to"]],
        "result": to_plain(state["result"]),
    }


def _components(game, data: dict, viewer: int, owner: int | None, per_player: bool) -> dict:
    """What ``viewer`` sees of one seat's (or the table's) components, by kind."""
    out: dict = {}
    memo: dict = {}                                   # one rule shared by many entries: read once
    revealed = set(game.rules.manifest.get("reveal_at_end", ())) if game.over else ()
    for section, kind in COMPONENTS.items():
        if not kind.state_key or kind.where not in ("declared", "player" if per_player else "table") \
                or not kind.held(game.rules):
            continue
        shown = out.setdefault(kind.state_key, {})
        declared = game.rules.declared[section]

        def can_see(name, whose, section=section):
            return _visible(game, f"{section}:{name}", viewer, whose, memo)

        for name, spec in declared.items():
            if kind.per_player(spec) is not per_player:
                continue
            if name in revealed:                     # over: everyone sees it as its owner does
                seen = kind.view(game, name, spec, data[kind.state_key][name],
                                 viewer if owner is None else owner, owner, _everyone)
            else:
                seen = kind.view(game, name, spec, data[kind.state_key][name], viewer, owner, can_see)
            if seen is not HIDDEN:
                shown[name] = seen
    return out


def _everyone(name, whose) -> bool:
    return True


def _visible(game, key: str, viewer: int, owner: int | None, memo: dict | None = None) -> bool:
    tree = game.rules.visibility.get(key)
    if tree is None:
        return True
    memo_key = (id(tree), owner)
    if memo is not None and memo_key in memo:
        return memo[memo_key]
    me = PLAYERS[viewer]                    # (shared player values: a value is never changed)
    env = {"viewer": me, "owner": None if owner is None else PLAYERS[owner], "self": me}
    seen = bool(evaluate(tree, Ctx(game, env)))
    if memo is not None:
        memo[memo_key] = seen
    return seen


def seeing(game, key: str, seats, owner: int | None) -> list:
    """The seats of ``seats`` for whom the ``visible_to`` rule ``key`` holds (all: no rule), as
    ``_visible`` tells one seat, in one loop (a log line's readers, at every change logged)."""
    tree = game.rules.visibility.get(key)
    if tree is None:
        return list(seats)
    env = {"viewer": None, "owner": None if owner is None else PLAYERS[owner], "self": None}
    ctx = Ctx(game, env)               # one for every seat: evaluating binds nothing it keeps
    out = []
    for i in seats:
        env["viewer"] = env["self"] = PLAYERS[i]
        if evaluate(tree, ctx):
            out.append(i)
    return out
