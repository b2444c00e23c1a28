"""Determinisation: a whole game rebuilt from one player's view, for look-ahead.

A bot that looks ahead must not look at the true state: it plays its options
on ``determinise(game, viewer, seed)``, a game that gives ``viewer`` exactly
the view it has now, with everything the view hides sampled afresh. What is
hidden comes from the ruleset's declarations (``visible`` and ``top_fields``
on zones, ``visible_to`` on counters, player variables and grids), read
through ``engine.views``; nothing here knows any game.
"""
from __future__ import annotations

import hashlib
import json

from ..mechanics import grids
from .game import Game
from .rng import below, seed_state, shuffle
from .values import plain_copy
from .views import view as view_of


def determinise(game, viewer: int, seed: int = 0, view: dict | None = None):
    """A copy of ``game`` that depends only on what ``viewer`` sees, and ``seed``.

    - Cards in slots the viewer does not see (a face-down deck, a pile below
      what its top shows, another player's hand) are pooled per table over
      all zones and dealt back at random: every zone keeps its count, every
      card it shows and every ``top_fields`` value its top shows (a pile
      showing a back gets a top card with that back). A card's table is
      treated as known, like the back of a physical card: a hidden card is
      only ever replaced by a hidden card of the same table.
    - A counter, player variable or grid hidden from the viewer takes the
      viewer's own value of it (a value the viewer could hold), or its
      declared start or default when the viewer cannot see its own either.
      Earned totals follow their counter.
    - During simultaneous play everyone else is as the view shows them: as
      the round began.
    - The random stream and the game's seed are reseeded from ``seed`` and
      a hash of the view; the history is emptied; the log is the viewer's.

    Kept as they are, being where the rules stand rather than something
    hidden: options, grids of the table (views show none) and the flow,
    including other players' pending decisions and the local names of
    effects under way. A one-step look-ahead runs only the viewer's own
    thread (and what follows once every answer is in).
    """
    state = game.state
    view = view_of(game, viewer) if view is None else view
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    digest = hashlib.blake2b(f"{seed}:{text}".encode(), digest_size=8).digest()
    rng = seed_state(int.from_bytes(digest, "big"))
    shown = _shown(state, viewer)
    zones, rng = _deal(game, view, shown, rng)
    players = [_player(game, view, shown, viewer, i, zones["players"][i])
               for i in range(len(state["players"]))]
    flow = {key: plain_copy(part) for key, part in state["flow"].items() if key != "snapshot"}
    flow["snapshot"] = None
    new = {
        "format": state["format"], "game": state["game"], "expansions": list(state["expansions"]),
        "fingerprint": state["fingerprint"], "seed": seed,
        "options": plain_copy(state["options"]), "rng": rng,
        "players": players, "vars": plain_copy(view["vars"]), "zones": zones["table"],
        "grids": plain_copy(state["grids"]), "flow": flow,
        "log": [{"text": line, "to": [viewer]} for line in view["log"]],
        "history": [], "result": plain_copy(view["result"]),
    }
    if state["flow"].get("snapshot") is not None:     # the others as the view shows them, both ways
        flow["snapshot"] = {"players": plain_copy(players), "vars": plain_copy(new["vars"]),
                            "zones": plain_copy(new["zones"])}
    return Game(game.rules, new)


def previewer(game, player: int, seed: int = 0, view: dict | None = None):
    """A function scoring ``player``'s option ``index`` on one determinised copy.

    The copy is built once, on the first call, and every option is played on
    a clone of it, so options are compared in the same sampled world.
    """
    world = []

    def score(index: int) -> float:
        if not world:
            det = determinise(game, player, seed, view)
            det.state["log"] = []              # a preview writes no log anyone reads
            world.append(det)
        trial = world[0].clone()
        trial.apply(player, index)
        rules = trial.rules
        if "heuristic" in rules.functions:
            return trial.evaluate(rules.functions["heuristic"][1], player)
        return trial.state["players"][player]["counters"][rules.score]
    return score


def _shown(state: dict, viewer: int) -> dict:
    """The data the view was read from: during simultaneous play, the round's start for others."""
    snapshot = state["flow"].get("snapshot")
    table = state if snapshot is None else snapshot
    players = [live if snapshot is None or i == viewer else snapshot["players"][i]
               for i, live in enumerate(state["players"])]
    return {"zones": table["zones"], "players": players}


# ---------------------------------------------------------------- cards

def _deal(game, view: dict, shown: dict, rng: int):
    """Every zone rebuilt: seen cards kept, hidden ones dealt from per-table pools."""
    rules = game.rules
    table_of = {card: name for name, ids in rules.tables.items() for card in ids}
    slots, pools = [], {}
    out = {"table": {}, "players": []}
    for name, spec in rules.zones.items():
        if not spec.get("per_player"):
            out["table"][name] = _slots(shown["zones"][name], view["zones"][name], table_of, slots, pools)
    for i, data in enumerate(shown["players"]):
        seen = view["players"][i]["zones"]
        out["players"].append({name: _slots(data["zones"][name], seen[name], table_of, slots, pools)
                               for name in data["zones"]})
    for pool in pools.values():
        pool.sort(key=str)                   # canonical, so equal views give equal deals
    shows = {}
    for cards, k, table, need in slots:      # constrained tops first, then the rest
        if need is not None:
            pool = pools[table]
            want = tuple(need.values())
            fits = [j for j, card in enumerate(pool) if _shows(rules, shows, card, need) == want]
            rng, pick = below(rng, len(fits or pool))
            cards[k] = pool.pop(fits[pick] if fits else pick)
    for table in sorted(pools, key=str):
        rng = shuffle(rng, pools[table])
    for cards, k, table, need in slots:
        if need is None:
            cards[k] = pools[table].pop()
    return out, rng


def _slots(cards: list, seen, table_of: dict, slots: list, pools: dict):
    """A zone (or numbered group) with its seen cards in place and its hidden slots noted."""
    if type(seen) is list:                   # a numbered group
        return [_slots(zone, part, table_of, slots, pools) for zone, part in zip(cards, seen)]
    known = seen.get("cards")
    if known is not None:
        return list(known)
    out = [None] * seen["count"]
    for k, card in enumerate(cards):
        if k == 0 and "top" in seen:
            out[0] = seen["top"]
            continue
        table = table_of.get(card)
        pools.setdefault(table, []).append(card)
        need = seen.get("top_fields") if k == 0 else None
        slots.append((out, k, table, need))
    return out


def _shows(rules, cache: dict, card, need: dict) -> tuple:
    """The values a card would show of these fields on top (remembered per call)."""
    key = (card, *need)
    if key not in cache:
        record = rules.entities.get(card, {})
        cache[key] = tuple(record.get(field) for field in need)
    return cache[key]


# ---------------------------------------------------------------- sheets

def _player(game, view: dict, shown: dict, viewer: int, i: int, zones: dict) -> dict:
    """Player ``i``'s sheet: what the view shows, the viewer's own values for the rest."""
    rules = game.rules
    seen, mine = view["players"][i], view["players"][viewer]
    counters, earned = {}, {}
    for name, spec in rules.counters.items():
        source = i if name in seen["counters"] else viewer if name in mine["counters"] else None
        if source is None:
            counters[name] = spec.get("start", 0)
            continue
        counters[name] = view["players"][source]["counters"][name]
        if name in shown["players"][source]["earned"]:
            earned[name] = shown["players"][source]["earned"][name]
    player_vars = {}
    for name, spec in rules.player_vars.items():
        holder = seen if name in seen["vars"] else mine if name in mine["vars"] else None
        default = spec.get("default") if isinstance(spec, dict) else spec
        player_vars[name] = plain_copy(default if holder is None else holder["vars"][name])
    sheets = {}
    for name, spec in rules.grids.items():
        if spec.get("per_player"):
            holder = seen if name in seen["grids"] else mine if name in mine["grids"] else None
            sheets[name] = grids.new_data() if holder is None else plain_copy(holder["grids"][name])
    return {"counters": counters, "earned": earned, "vars": player_vars, "zones": zones, "grids": sheets}
