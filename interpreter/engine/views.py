"""Per-player views: exactly what one player may know, as plain data.

What is hidden is declared by the ruleset: ``visible_to`` conditions on
counters, player variables and grids (names ``viewer`` and ``owner``), and
``visible`` on zones (``all``, ``count``, ``top``, ``owner``, plus
``top_fields`` whose values show on the top card, like a card back).
While players choose simultaneously, everyone else's data is shown as it
was when the round began, so no answer is seen before all are in.
"""
from __future__ import annotations



from .evaluate import Ctx, evaluate
from .values import plain_copy


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
        players.append(_player_view(game, viewer, i, data))
    decision = game.decision_for(viewer)
    return {
        "game": state["game"],
        "you": viewer,
        "vars": plain_copy(table["vars"]),
        "zones": {name: _zone_view(game, spec, table["zones"][name], viewer, None, name)
                  for name, spec in game.rules.zones.items() if not spec.get("per_player")},
        "players": players,
        "decision": decision.to_dict() if decision else None,
        "waiting_for": sorted({d.player for d in game.pending()}),
        "log": [line["text"] for line in state["log"] if line["to"] is None or viewer in line["to"]],
        "result": plain_copy(state["result"]),
    }


def _visible(game, key: str, viewer: int, owner: int, memo: dict | None = None) -> bool:
    tree = game.rules.visibility.get(key)
    if tree is None:
        return True
    if memo is not None and id(tree) in memo:        # one rule shared by many keys
        return memo[id(tree)]
    env = {"viewer": {"player": viewer}, "owner": {"player": owner}, "self": {"player": viewer}}
    seen = bool(evaluate(tree, Ctx(game, env)))
    if memo is not None:
        memo[id(tree)] = seen
    return seen


def _player_view(game, viewer: int, i: int, data: dict) -> dict:
    rules = game.rules
    out = {"seat": i, "counters": {}, "vars": {}, "zones": {}, "grids": {}}
    memo = {}                                         # same viewer, owner and state
    for name, value in data["counters"].items():
        if _visible(game, f"counters:{name}", viewer, i, memo):
            out["counters"][name] = value
    for name, value in data["vars"].items():
        if _visible(game, f"player_vars:{name}", viewer, i, memo):
            out["vars"][name] = plain_copy(value)
    for name, value in data["zones"].items():
        out["zones"][name] = _zone_view(game, rules.zones[name], value, viewer, i, name)
    for name, value in data["grids"].items():
        if _visible(game, f"grids:{name}", viewer, i, memo):
            out["grids"][name] = plain_copy(value)
    return out


def _zone_view(game, spec: dict, cards: list, viewer: int, owner: int | None, name: str):
    if cards and type(cards[0]) is list:                     # a numbered group
        return [_zone_view(game, spec, zone, viewer, owner, name) for zone in cards]
    mode = spec.get("visible", "all")
    if mode == "owner" and owner is not None and viewer != owner:
        mode = "count"
    if not _visible(game, f"zones:{name}", viewer, viewer if owner is None else owner):
        mode = "count"
    out = {"count": len(cards)}
    if mode in ("all", "owner"):
        out["cards"] = list(cards)
    elif mode == "top" and cards:
        out["top"] = cards[0]
    if cards and spec.get("top_fields"):
        record = game.rules.entities.get(cards[0], {})
        out["top_fields"] = {f: plain_copy(record.get(f)) for f in spec["top_fields"]}
    return out
