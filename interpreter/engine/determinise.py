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

from ..mechanics import COMPONENTS
from .game import Game
from ..model.rng import below, seed_state, shuffle
from ..model.values import plain_copy, truth
from .views import view as view_of


def determinise(game, viewer: int, seed: int = 0, view: dict | None = None):
    """A copy of ``game`` that depends only on what ``viewer`` sees, and ``seed``.

    - Cards in slots the viewer does not see (a face-down deck, a pile below
      what its top shows, another player's hand) are pooled per table over
      all zones and dealt back at random: every zone keeps its count, every
      card it shows and every ``top_fields`` value its top shows (a pile
      showing a back gets a top card with that back), and every card revealed
      to the viewer (``known`` in its view) stays where it is. A card's kind is
      treated as known, like the back of a physical card: a hidden card is
      only ever replaced by a hidden card of the same table kept by the same
      zones' ``from``/``where`` declarations (``CardKinds``), so it is dealt
      only where a card of its kind can be.
    - A counter, player variable or grid hidden from the viewer takes the
      viewer's own value of it (a value the viewer could hold), or its
      declared start or default when the viewer cannot see its own either.
      Earned totals follow their counter.
    - During simultaneous play everyone else is as the view shows them: as
      the round began.
    - Only the viewer's own knowledge is kept (``state["known"]``): what
      others were shown is theirs; no sealed line waits (``state["sealed"]``).
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
    players = [_sheet(game, view["players"][i], view["players"][viewer], shown["players"][i],
                      shown["players"][viewer], True, zones["players"][i])
               for i in range(len(state["players"]))]
    flow = {key: plain_copy(part) for key, part in state["flow"].items() if key != "snapshot"}
    flow["snapshot"] = None
    new = {key: plain_copy(value) for key, value in state.items()
           if key not in ("players", "flow", "log", "history")}
    new.update(_sheet(game, view, view, shown["table"], shown["table"], False, zones["table"]))
    for section, kind in COMPONENTS.items():
        for name in rules_dealt(game, section, kind):
            new[kind.state_key][name] = zones["dealt"][name]
    if "known" in state:
        new["known"] = [plain_copy(entry) for entry in state["known"] if entry["seat"] == viewer]
    if "sealed" in state:                          # lines still waiting for others are theirs
        new["sealed"] = []
    new.update(seed=seed, rng=rng, players=players, flow=flow, history=[],
               log=[{"text": line, "to": [viewer]} for line in view["log"]])
    if state["flow"].get("snapshot") is not None:     # the others as the view shows them, both ways
        flow["snapshot"] = {key: plain_copy(new[key]) for key in game.table_keys}
    return Game(game.rules, new)


def rules_dealt(game, section: str, kind) -> list:
    """The table's components of a kind that deals its own hidden cards."""
    if kind.deal is None or kind.where != "table":
        return []
    return list(game.rules.declared[section])


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
        return trial.standing(player)            # lowest-wins scores and tie-breaks turned
    return score


def _shown(state: dict, viewer: int) -> dict:
    """The data the view was read from: during simultaneous play, the round's start for others."""
    snapshot = state["flow"].get("snapshot")
    table = state if snapshot is None else snapshot
    players = [live if snapshot is None or i == viewer else snapshot["players"][i]
               for i, live in enumerate(state["players"])]
    return {"table": table, "zones": table["zones"], "players": players}


# ---------------------------------------------------------------- cards

def _deal(game, view: dict, shown: dict, rng: int):
    """Every zone rebuilt: seen cards kept, hidden ones dealt from per-table pools."""
    rules = game.rules
    table_of = CardKinds(game)
    slots, pools = [], {}
    out = {"table": {}, "players": []}
    for name, spec in rules.zones.items():
        if not spec.get("per_player"):
            out["table"][name] = _slots(shown["zones"][name], view["zones"][name], table_of, slots, pools)
    for i, data in enumerate(shown["players"]):
        seen = view["players"][i]["zones"]
        out["players"].append({name: _slots(data["zones"][name], seen[name], table_of, slots, pools)
                               for name in data["zones"]})
    out["dealt"] = {}                        # kinds holding cards of their own (an auction's bids)
    for section, kind in COMPONENTS.items():
        if kind.deal is not None and kind.where == "table":
            for name, spec in rules.declared[section].items():
                out["dealt"][name] = kind.deal(game, name, spec, shown["table"][kind.state_key][name],
                                               view[kind.state_key][name], table_of, slots, pools)
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
    for table in sorted(pools, key=str):     # a key is a table or (table, zones...): str orders both
        rng = shuffle(rng, pools[table])
    for cards, k, table, need in slots:
        if need is None:
            cards[k] = pools[table].pop()
    return out, rng


class CardKinds:
    """The pool a hidden card is dealt from: its table and, where zones are filled ``from`` that
    table with a ``where``, the zones that keep it (evaluated now, once per card). Two cards of
    one table that start in different zones (a player's set, a neutral bidder's) are two kinds."""

    def __init__(self, game):
        self.game = game
        self.table = {card: name for name, ids in game.rules.tables.items() for card in ids}
        self.fills: dict = {}                # table -> [(zone, where tree or None)]
        for name, spec in game.rules.zones.items():
            if "from" in spec:
                where = game.rules.zone_fill.get(name, (None, None))[0]
                self.fills.setdefault(spec["from"], []).append((name, where))
        self.memo: dict = {}

    def get(self, card):
        """The pool key of ``card`` (its table alone when no zone of that table sorts cards)."""
        if card not in self.memo:
            table = self.table.get(card)
            fills = self.fills.get(table, ())
            if all(where is None for _, where in fills):
                self.memo[card] = table
            else:
                game = self.game
                self.memo[card] = (table,) + tuple(
                    zone for zone, where in fills
                    if where is None or truth(game.evaluate(where, env={"this": card}), game.state))
        return self.memo[card]


def _slots(cards: list, seen, table_of: dict, slots: list, pools: dict):
    """A zone (or numbered group) with its seen cards in place and its hidden slots noted."""
    if type(seen) is list:                   # a numbered group
        return [_slots(zone, part, table_of, slots, pools) for zone, part in zip(cards, seen)]
    known = seen.get("cards")
    if known is not None:
        return list(known)
    out = [None] * seen["count"]
    revealed = {int(position) - 1: card for position, card in seen.get("known", {}).items()}
    for k, card in enumerate(cards):
        if k == 0 and "top" in seen:
            out[0] = seen["top"]
            continue
        if k in revealed:
            out[k] = revealed[k]
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

def _sheet(game, seen: dict, mine: dict, data: dict, own: dict, per_player: bool,
           zones: dict) -> dict:
    """One seat's (or the table's) components: what the view shows, else the viewer's own value.

    ``seen``/``mine`` are the view of this holder and of the viewer; ``data``/
    ``own`` the data they were read from. A value the viewer cannot see of
    its own either takes the declaration's starting value.
    """
    rules = game.rules
    out = {"zones": zones}
    if per_player:
        out["earned"] = {}
    for section, kind in COMPONENTS.items():
        key = kind.state_key
        if key is None or key == "zones" or kind.where not in (
                "declared", "player" if per_player else "table") or not kind.held(rules):
            continue
        part = out.setdefault(key, {})
        for name, spec in rules.declared[section].items():
            if kind.per_player(spec) is not per_player:
                continue
            holder = data if name in seen.get(key, {}) else own if name in mine.get(key, {}) else None
            part[name] = kind.new(spec, rules) if holder is None else plain_copy(holder[key][name])
            if section == "counters" and holder is not None and name in holder["earned"]:
                out["earned"][name] = holder["earned"][name]
    return out
