"""What every ruleset must pass, written against the public API and the declarations only.

Nothing here names a game: set-ups come from ``rules.players`` and
``rules.options``, bounds from ``rules.counters``, what is hidden from
``rules.zones[...]["visible"]`` and ``rules.visibility``. The only reads
of the state's inner layout are in ``_sheets`` and ``_layers``, so a
change of how the state is stored touches those two places.

Run as a script, it plays two seeded games (random, and a look-ahead bot's)
and prints the hashes of their final states (the cross-process determinism
test runs it under another hash seed):

    python tests/conformance/harness.py GAME PLAYERS SEED '{"option": "value"}'

A bundled game's expansions are variants of their own, named ``"GAME -x EXPANSION"``, and so is
each pair of them that loads together (``"GAME -x A -x B"``; ``EXPANSION_IDS``), so a new
expansion is tried at every player count, alone and beside each other one, by existing.
"""
from __future__ import annotations

import functools
import hashlib
import json
import random
import sys
from pathlib import Path

from interpreter.agents import GreedyBot, RandomBot
from interpreter.agents.driver import bot_mover, drive, random_mover, replay_mover
from interpreter.content.ruleset import available, load_ruleset
from interpreter.diagnostics import ContentError
from interpreter.engine import scoring
from interpreter.engine.game import Game

FIXTURES = Path(__file__).resolve().parents[1] / "rulesets"
TOY = FIXTURES / "toy"
# Every bundled game, and fixtures so the harness itself is tried on more than one game
# (the hooks fixture brings hook chains, scripted seats, tracks and key-list scores; fewest
# brings announced, sealed and secret choices, told lines, copies and a lowest-wins score;
# auction brings a row of lots, hidden bids and bidders that are not people;
# dice brings seeded rolls).
RULESET_IDS = available() + [str(TOY), str(FIXTURES / "hooks"), str(FIXTURES / "ttt"),
                             str(FIXTURES / "fewest"), str(FIXTURES / "auction"),
                             str(FIXTURES / "dice")]
MAX_DECISIONS = 20_000            # a random game that has not ended by then never will


@functools.cache
def rules_of(name: str):
    """A ruleset, loaded once per process; ``"GAME -x EXPANSION"`` with that expansion."""
    game, *expansions = name.split(" -x ")
    return load_ruleset(game, expansions=tuple(expansions))


def expansion_ids(game: str) -> list[str]:
    """``"GAME -x A"`` for each expansion, then ``"GAME -x A -x B"`` for each pair that loads
    together (two that clash are refused by the loader, and the overlay tests try that)."""
    names = sorted(load_ruleset(game).manifest.get("expansions") or {})
    pairs = [f"{game} -x {a} -x {b}" for i, a in enumerate(names) for b in names[i + 1:]]
    return [f"{game} -x {name}" for name in names] + [pair for pair in pairs if _loads(pair)]


def _loads(name: str) -> bool:
    try:
        rules_of(name)
    except ContentError:
        return False
    return True


# Each bundled game with each of its expansions, and each pair of them, as variants of their own.
EXPANSION_IDS = [name for game in available() for name in expansion_ids(game)]
RULESET_IDS += EXPANSION_IDS


def short_name(name: str) -> str:
    return Path(name).name if Path(name).is_absolute() else name.replace(" -x ", "+")


# ---------------------------------------------------------------- set-ups

def option_values(rules, name: str, players: int) -> list:
    """Values worth trying for one option: each choice, both booleans, a spread of sets
    (a ``per_seat`` option's games come from ``seat_lists`` instead)."""
    spec = rules.options[name]
    kind = spec.get("type", "choice")
    if name in rules.option_gates:                # an experimental expansion's switch: on, or no game
        return [True]
    if kind == "bool":
        return [False, True]
    if kind == "seats":
        return [[], [1], list(range(1, players + 1))]
    allowed = allowed_values(rules, name)
    if kind == "subset":
        return [[]] + [[v] for v in allowed] + [allowed]
    return allowed


def allowed_values(rules, name: str) -> list:
    spec = rules.options[name]
    return list(spec.get("values") or rules.tables.get(spec.get("table"), []))


def per_seat_options(rules) -> list[str]:
    return [name for name, spec in rules.options.items() if spec.get("type") == "per_seat"]


def setups(rules, seeds: int = 1) -> list[tuple[int, dict, int]]:
    """``(players, options, seed)`` games: every player count, every option value at least once,
    and every pair of values of a ``per_seat`` option side by side in at least one game.

    Not the full product: the player counts come once each, largest first, then the largest
    until every ``per_seat`` option's pairs are seated (``seat_lists``: a small covering design,
    the same every run); the other options' values are dealt over the games in a fixed shuffled
    order, so every value appears and options vary independently of each other and of the player
    count. Once an option's pairs have all been seated, its later games leave it to the game.
    """
    counts = list(range(rules.players["min"], rules.players["max"] + 1))
    seated, plans = seat_lists({name: allowed_values(rules, name) for name in per_seat_options(rules)},
                               counts)
    plain = [name for name in rules.options if name not in plans]
    widths = {name: len(option_values(rules, name, counts[-1])) for name in plain}
    games = max([len(seated), len(counts), *widths.values()])
    picks = {name: _deal(width, games, random.Random(f"{rules.id}/{name}"))
             for name, width in widths.items()}
    out = []
    for k in range(games):
        players = seated[k] if k < len(seated) else counts[k % len(counts)]
        options = {name: plans[name][k] if k < len(seated) else [] for name in plans}
        options |= {name: option_values(rules, name, players)[picks[name][k]] for name in plain}
        out += [(players, dict((name, options[name]) for name in rules.options), 1000 * s + k)
                for s in range(seeds)]
    return out


def _count_order(counts: list[int]) -> list[int]:
    """Largest first: a bigger table seats more pairs per game."""
    return sorted(counts, reverse=True)


def seat_lists(options: dict[str, list], counts: list[int]) -> tuple[list[int], dict[str, list]]:
    """The games' player counts, and per option per game its values in seat order, so that every
    value and every pair of values sit in one game at least (a greedy covering design, the same
    every run).

    The games' player counts are shared by all the options: each count once, largest first, then
    the largest count until every option is covered. Each game's values are picked one at a time:
    the one seated beside the most of its unseen partners so far, then the one in the most unseen
    pairs, then the least used, then the first in the option's table. An option already covered
    gets an empty list (left to the game)."""
    missing = {name: {frozenset((a, b)) for i, a in enumerate(values) for b in values[i + 1:]}
               | {frozenset((v,)) for v in values} for name, values in options.items()}
    uses = {name: dict.fromkeys(values, 0) for name, values in options.items()}
    plans: dict[str, list] = {name: [] for name in options}
    order = _count_order(counts)
    seated: list[int] = []
    while options and (len(seated) < len(order) or any(missing.values())):
        players = order[len(seated)] if len(seated) < len(order) else order[0]
        for name, values in options.items():
            plans[name].append(_seat_game(values, players, missing[name], uses[name])
                               if missing[name] else [])
        seated.append(players)
    return seated, plans


def _seat_game(values: list, players: int, missing: set, uses: dict) -> list:
    """One game's values for one option, removing the pairs (and values) it seats from ``missing``."""
    chosen: list = []
    while len(chosen) < min(players, len(values)):
        def score(v):
            beside = sum(frozenset((c, v)) in missing for c in chosen)
            open_pairs = sum(1 for pair in missing if v in pair and len(pair) == 2)
            return (beside, open_pairs, frozenset((v,)) in missing, -uses[v])
        pick = max((v for v in values if v not in chosen), key=score)    # the first of the best
        chosen.append(pick)
    for i, a in enumerate(chosen):
        uses[a] += 1
        missing.discard(frozenset((a,)))
        for b in chosen[i + 1:]:
            missing.discard(frozenset((a, b)))
    return chosen


def _deal(width: int, games: int, rnd: random.Random) -> list[int]:
    """``games`` indices into ``width`` values, each index at least once (when games >= width)."""
    picks = list(range(width)) + [rnd.randrange(width) for _ in range(games - width)]
    rnd.shuffle(picks)
    return picks


# ---------------------------------------------------------------- invariants

def _sheets(game) -> list[dict]:
    """Each seat's counters, variables, zones and grids as stored (the one place that reads them)."""
    return game.state["players"]


def check_counters(game) -> None:
    """Every counter within its declared floor and ceiling, and never earned past its cap."""
    for seat, sheet in enumerate(_sheets(game)):
        for name, spec in game.rules.counters.items():
            value = sheet["counters"][name]
            assert spec.get("min") is None or value >= spec["min"], (seat, name, value, "below its floor")
            assert spec.get("max") is None or value <= spec["max"], (seat, name, value, "above its ceiling")
            if spec.get("earn_cap") is not None:
                earned = sheet["earned"].get(name, 0)
                assert earned <= spec["earn_cap"], (seat, name, earned, "earned past its cap")


def check_decisions(game) -> None:
    """Someone decides until the end; each decision is a real seat's, with options."""
    pending = game.pending()
    people = game.people                     # scripted seats are never asked
    if game.over:
        assert not pending, "decisions are still pending after the end"
        return
    assert pending, "nobody has a decision, yet the game is not over"
    owners = [d.player for d in pending]
    assert len(owners) == len(set(owners)), f"a seat has two decisions at once: {owners}"
    for d in pending:
        assert type(d.player) is int and 0 <= d.player < people, f"a decision for seat {d.player!r}"
        assert d.options, f"P{d.player + 1}'s decision '{d.prompt}' has no options"


def check_round_trip(game) -> None:
    """The saved state reads back exactly, and the loaded game waits for the same decisions."""
    text = game.to_json()
    loaded = Game.from_json(game.rules, text)
    assert loaded.to_json() == text, "the JSON round trip of the state is not exact"
    assert loaded.pending() == game.pending()


def check_result(game) -> None:
    """Scores, winners and places are well formed and agree with each other."""
    result = game.result
    seats = len(game.state["players"])
    assert set(result) >= {"scores", "winners", "ranks"}, result
    scores, winners, ranks = result["scores"], result["winners"], result["ranks"]
    assert len(scores) == len(ranks) == seats, result
    standings = [game.standing(i) for i in range(seats)]     # the score (and tie-breaks), higher better
    rivals = [i for i in range(seats) if i not in scoring.unranked(game)]   # not a `ranked: false` seat
    best = max(standings[i] for i in rivals)
    assert winners == [i for i in rivals if standings[i] == best], result
    assert ranks == [1 + sum(standings[j] > standings[i] for j in rivals) if i in rivals
                     else len(rivals) + 1 for i in range(seats)], result
    score = game.rules.score
    if isinstance(score, str) and score in game.rules.counters:
        assert scores == [sheet["counters"][score] for sheet in _sheets(game)], result


# ---------------------------------------------------------------- hidden information

def zone_mode(game, name: str, viewer: int, owner: int | None) -> str:
    """How ``viewer`` sees a zone (``all``, ``count`` or ``top``), from its declaration."""
    spec = game.rules.zones[name]
    mode = spec.get("visible", "all")
    if mode == "owner":                                         # a table zone has no owner to hide from
        mode = "all" if owner in (None, viewer) else "count"
    if not sees(game, f"zones:{name}", viewer, viewer if owner is None else owner):
        mode = "count"
    return mode


def sees(game, key: str, viewer: int, owner: int) -> bool:
    """The ruleset's ``visible_to`` for ``key`` (``counters:coin``...), or True if it has none."""
    tree = game.rules.visibility.get(key)
    if tree is None:
        return True
    seats = game.evaluate("seats")                 # people, then scripted seats
    return bool(game.evaluate(tree, env={"viewer": seats[viewer], "owner": seats[owner],
                                         "self": seats[viewer]}))


def hidden_variant(game, viewer: int, rnd: random.Random) -> tuple[Game, bool]:
    """A copy of the game in which only what ``viewer`` cannot see is dealt again.

    Face-down cards are shuffled (a seen top card, or one whose
    ``top_fields`` show, stays), hidden hands are pooled and dealt back in
    the same sizes, and counters, variables and grids hidden from the
    viewer are exchanged between their owners (or nudged, if there is only
    one). Returns the copy and whether anything in it changed.
    """
    other = Game.from_json(game.rules, game.to_json())
    for layer in _layers(other):
        _redeal_zones(game, layer, viewer, rnd)
        _exchange_hidden(game, layer["players"], viewer)
        _swap_auction_cards(game, layer, viewer, rnd)
    return other, other.to_json() != game.to_json()


def _layers(game) -> list[dict]:
    """The live table and players, and the copy views show while players answer at once.

    Each is ``{"players": [{"counters", "vars", "zones", "grids"}...], "zones": {...}}``;
    with ``_sheets``, the only places that know how the state is laid out.
    """
    snapshot = game.state["flow"].get("snapshot")
    return [game.state] + ([snapshot] if snapshot else [])


def _redeal_zones(game, layer: dict, viewer: int, rnd: random.Random) -> None:
    """Shuffle the cards ``viewer`` sees only the count (or top) of, pooling hidden hands."""
    sheets = layer["players"]
    for name, spec in game.rules.zones.items():
        keep_top = spec.get("visible") == "top" or bool(spec.get("top_fields"))
        if spec.get("per_player"):
            owners = [i for i in range(len(sheets)) if zone_mode(game, name, viewer, i) != "all"]
            piles = [sheets[i]["zones"][name] for i in owners]
        elif zone_mode(game, name, viewer, None) != "all":
            piles = [layer["zones"][name]]
        else:
            continue
        if spec.get("count"):                                   # numbered groups of zones
            piles = [zone for group in piles for zone in group]
        _redeal(piles, keep_top, rnd)


def _swap_auction_cards(game, layer: dict, viewer: int, rnd: random.Random) -> None:
    """Swap each face-down bid card and lot ``viewer`` cannot see with a hidden card of its table."""
    entities = game.rules.entities
    spots = []                                               # (pile, index) of cards hidden in zones
    for name, spec in game.rules.zones.items():
        skip = 1 if spec.get("visible") == "top" or spec.get("top_fields") else 0
        owners = range(len(layer["players"])) if spec.get("per_player") else [None]
        for i in owners:
            if zone_mode(game, name, viewer, i) == "all":
                continue
            zone = layer["zones"][name] if i is None else layer["players"][i]["zones"][name]
            for pile in (zone if spec.get("count") else [zone]):
                spots += [(pile, k) for k in range(skip, len(pile))]
    for name, data in layer.get("auctions", {}).items():
        for holder, key in _hidden_in_auction(game, name, data, viewer):
            table = entities[holder[key]]["table"]
            fits = [(pile, k) for pile, k in spots if entities.get(pile[k], {}).get("table") == table]
            if fits:
                pile, k = rnd.choice(fits)
                holder[key], pile[k] = pile[k], holder[key]


def _hidden_in_auction(game, name: str, data: dict, viewer: int) -> list:
    """(bid, "card") and (lot, "id") slots the rules hide from ``viewer`` (SS-BID-08's reading):
    a face-down bid unless the viewer placed or owns it or was shown it; a face-down lot unless
    the auction's ``visible_to`` holds for the viewer or they were shown it."""
    shown = {(what, n) for seat, what, n in data["seen"] if seat == viewer}
    tree = game.rules.visibility.get(f"auctions:{name}")
    me = game.evaluate("seats")[viewer]
    sees_lots = tree is not None and bool(game.evaluate(tree, env={"viewer": me, "owner": None,
                                                                   "self": me}))
    slots = [(bid, "card") for bid in data["bids"] if bid["down"] and bid["card"] is not None
             and viewer not in (bid["by"], bid["owner"]) and ("bid", bid["n"]) not in shown]
    slots += [(lot, "id") for k, lot in enumerate(data["lots"], 1)
              if lot["down"] and not sees_lots and ("lot", k) not in shown]
    return slots


def _exchange_hidden(game, sheets: list[dict], viewer: int) -> None:
    """Pass counters, variables and grids hidden from ``viewer`` round their owners."""
    rules = game.rules
    for kind, part in (("counters", "counters"), ("player_vars", "vars"), ("grids", "grids")):
        for name in getattr(rules, kind):
            owners = [i for i in range(len(sheets)) if not sees(game, f"{kind}:{name}", viewer, i)]
            bounds = rules.counters.get(name) if kind == "counters" else None
            _exchange([sheets[i][part] for i in owners], name, bounds)


def _redeal(piles: list[list], keep_top: bool, rnd: random.Random) -> None:
    """Shuffle the unseen cards of ``piles`` together and deal them back, each pile its own size."""
    skip = 1 if keep_top else 0
    pool = [card for pile in piles for card in pile[skip:]]
    rnd.shuffle(pool)
    for pile in piles:
        n = max(0, len(pile) - skip)
        pile[skip:] = pool[:n]
        del pool[:n]


def _exchange(holders: list[dict], name: str, bounds: dict | None) -> None:
    """Pass hidden values round their owners; a lone whole number moves one step within bounds."""
    values = [h[name] for h in holders]
    if len(values) > 1 and any(v != values[0] for v in values):
        for holder, value in zip(holders, values[1:] + values[:1]):
            holder[name] = value
        return
    for holder in holders:
        value = holder[name]
        if type(value) is bool:
            holder[name] = not value
        elif type(value) is int:
            top = (bounds or {}).get("max")
            holder[name] = value + 1 if top is None or value + 1 <= top else value - 1


def view_text(game, seat: int) -> str:
    return json.dumps(game.view(seat), sort_keys=True, ensure_ascii=False)


def first_difference(a, b, path="view"):
    """The path of the first place two JSON values differ (for a readable failure)."""
    if type(a) is not type(b):
        return path
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}"
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path} (length)"
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if a == b else path


def check_no_leak(game, viewer: int, rnd: random.Random) -> bool:
    """``viewer``'s view (log lines included) is the same when only what they cannot see changes.

    Returns whether the hidden variant differed from the game at all.
    """
    variant, changed = hidden_variant(game, viewer, rnd)
    seen, other = view_text(game, viewer), view_text(variant, viewer)
    if seen != other:
        where = first_difference(json.loads(seen), json.loads(other))
        raise AssertionError(f"P{viewer + 1}'s view changes with things hidden from them, at {where}")
    return changed


# ---------------------------------------------------------------- whole games

def random_playout(rules, players: int, options: dict, seed: int) -> dict:
    """Play one seeded random game, checking every invariant; returns what was seen.

    Round trips and leak checks happen at random steps drawn from their own
    stream, so the game played is the same with or without them. Leak
    checks come at the start and then ever further apart (about twice the
    step each time), so a short game gets a few and a long one a dozen.
    """
    game = Game.new(rules, players=players, seed=seed, options=options)
    rnd = random.Random(f"checks/{seed}")
    stats = {"leak_checks": 0, "changed": 0}
    next_leak_check = [0]

    def every_step(g, step):
        number = step.number if step else 0
        check_counters(g)
        check_decisions(g)
        if rnd.random() < 0.04:
            check_round_trip(g)
        if not g.over and number >= next_leak_check[0]:
            next_leak_check[0] = number + 1 + rnd.randrange(number + 1)
            stats["leak_checks"] += 1
            stats["changed"] += check_no_leak(g, rnd.randrange(players), rnd)
    check_round_trip(game)
    every_step(game, None)
    stats["decisions"] = drive(game, random_mover(seed, any_seat=True), on_step=every_step,
                               max_steps=MAX_DECISIONS)
    check_result(game)
    check_round_trip(game)
    reloads = sorted(rnd.sample(range(stats["decisions"]), min(3, stats["decisions"])))
    again = replay(rules, game, reloads)
    assert again.to_json() == game.to_json(), (
        f"seed + history, saved and loaded after decisions {reloads}, end in another state")
    return stats


def replay(rules, game, reloads=()) -> Game:
    """A new game from the same seed and options, fed the same history.

    After each decision number in ``reloads`` the game is saved as JSON and
    the rest is played on the game loaded from it.
    """
    state = game.state
    history = state["history"]
    again = Game.new(rules, players=state["people"], seed=state["seed"], options=state["options"])
    for stop in [*reloads, len(history)]:
        drive(again, replay_mover(history), until=lambda g: len(g.state["history"]) >= stop,
              max_steps=len(history))
        again = Game.from_json(rules, again.to_json())
    return again


def switched_on(rules, options: dict | None = None) -> dict:
    """The options with every experimental expansion's switch on (a game refuses to start without)."""
    return {**dict.fromkeys(rules.option_gates, True), **(options or {})}


def final_hashes(name: str, players: int, seed: int, options: dict) -> list[str]:
    """The sha256 of the final states of two seeded games: a random one, and a look-ahead bot's."""
    rules = rules_of(name)
    options = switched_on(rules, options)
    random_game = Game.new(rules, players=players, seed=seed, options=options)
    drive(random_game, random_mover(seed, any_seat=True), max_steps=MAX_DECISIONS)
    bot_game = Game.new(rules, players=players, seed=seed, options=options)
    bots = {0: GreedyBot(seed)} | {i: RandomBot(seed + i) for i in range(1, players)}
    drive(bot_game, bot_mover(bots), max_steps=MAX_DECISIONS)
    return [hashlib.sha256(g.to_json().encode("utf-8")).hexdigest() for g in (random_game, bot_game)]


if __name__ == "__main__":
    game_id, count, seed_text, options_text = sys.argv[1:5]
    print(" ".join(final_hashes(game_id, int(count), int(seed_text), json.loads(options_text))))
