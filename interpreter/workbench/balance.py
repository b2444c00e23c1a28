"""Balance reports: play many seeded games, keep one row per game, sum the rows up.

A *plan* says what each game is (its seed, which bot sits where, the value
of any option being varied); ``play_row`` plays one game of a plan to a
plain row; ``report`` turns rows, in plan order, into the figures: per seat
position, per bot, per record a seat holds (an agent, a faction, a
character: any player variable holding one record id), per varied option
value, game length, first-player advantage and how often each record ends
up taken. Rows are plain JSON, so games played in other processes or on
other machines merge by sorting on their index (``parallel.py``).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from .stats import games_to_separate, mean_sd, overlap, wilson


@dataclass
class Plan:
    """Everything needed to play game ``k`` of a simulation, anywhere."""
    source: str                     # the ruleset id or folder, as given
    expansions: tuple
    players: int
    seed: int                       # game k plays seed + k
    games: int
    seats: list                     # a bot name per person's seat, before rotation
    options: dict                   # resolved options
    rotate: bool = True             # each bot in each seat equally often
    vary: dict = field(default_factory=dict)   # option -> the values games cycle through
    trace: bool = False             # coverage: each row also lists what its game ran ("hits")

    def rotating(self) -> bool:
        return self.rotate and len(set(self.seats)) > 1

    def game(self, k: int) -> dict:
        """Seed, seats and options of game ``k`` (rotation first, then each varied option)."""
        turn = k % self.players if self.rotating() else 0
        seats = self.seats[-turn:] + self.seats[:-turn] if turn else list(self.seats)
        options, varied, block = dict(self.options), {}, self.players if self.rotating() else 1
        for name, values in self.vary.items():
            varied[name] = options[name] = values[(k // block) % len(values)]
            block *= len(values)
        return {"index": k, "seed": self.seed + k, "seats": seats, "options": options,
                "varied": varied}

    def to_dict(self) -> dict:
        return {"source": self.source, "expansions": list(self.expansions),
                "players": self.players, "seed": self.seed, "games": self.games,
                "seats": list(self.seats), "options": self.options, "rotate": self.rotating(),
                "vary": self.vary}


def play_row(rules, plan: Plan, k: int, tracer=None) -> dict:
    """Play game ``k`` of ``plan`` with bots and return its row (plain JSON); ``tracer``: see
    ``Game.tracer``."""
    from ..agents import make_bot, play_out
    from ..engine.game import Game
    spec = plan.game(k)
    hits = None
    if plan.trace and tracer is None:              # this game alone, not its bots' look-ahead
        from .trace import Hits
        tracer = hits = Hits(rules.fingerprint)
    game = Game.new(rules, players=plan.players, seed=spec["seed"], options=spec["options"],
                    tracer=tracer)
    bots = {i: make_bot(name, spec["seed"] * 1000 + i) for i, name in enumerate(spec["seats"])}
    play_out(game, bots)
    result = game.result
    held, taken = _records(rules, game)
    row = {**spec, "game": rules.id, "labels": list(game.seat_names),
           "scores": [s[0] if isinstance(s, list) else s for s in result["scores"]],
           "winners": list(result["winners"]), "ranks": list(result["ranks"]),
           "returns": list(result["returns"]), "decisions": len(game.state["history"]),
           "held": held, "taken": taken}
    if hits is not None:
        row["hits"] = [list(hit) for hit in hits.hits]       # (node number, arm) pairs
    return row


def _records(rules, game) -> tuple[list, list]:
    """Per seat at the end: ``{variable: record id}`` held alone, and every record id in a list or zone."""
    held, taken = [], []
    for player in game.state["players"]:
        one, many = {}, set()
        for name, value in player.get("vars", {}).items():
            if isinstance(value, str) and value in rules.entities:
                one[name] = value
            elif isinstance(value, list):
                many |= {v for v in value if isinstance(v, str) and v in rules.entities}
        for cards in player.get("zones", {}).values():
            many |= {v for v in cards if isinstance(v, str) and v in rules.entities}
        held.append(one)
        taken.append(sorted(many))
    return held, taken


# ---------------------------------------------------------------- the report

def report(plan: dict, rows: list[dict]) -> dict:
    """The balance figures of ``rows`` (all games of one plan, any order), as plain JSON."""
    rows = sorted(rows, key=lambda r: r["index"])
    n = len(rows)
    labels = rows[0]["labels"] if rows else []
    seats = [_seat(rows, i, label) for i, label in enumerate(labels)]
    lengths = [r["decisions"] for r in rows]
    mean, sd = mean_sd(lengths)
    out = {
        "game": rows[0]["game"] if rows else None, "games": n, "players": plan["players"],
        "seed": plan["seed"], "options": plan["options"], "rotation": plan["rotate"],
        "seats": seats,
        "bots": _groups(rows, lambda r, i: r["seats"][i] if i < len(r["seats"]) else None),
        "records": _groups(rows, lambda r, i: _held(r, i), many=True),
        "varied": {name: _by_value(rows, name) for name in plan.get("vary", {})},
        "length": {"mean": _round(mean), "sd": _round(sd), "min": min(lengths, default=None),
                   "max": max(lengths, default=None)},
        "decisions_per_game": _round(mean),
        "first_player": _first(seats, plan["players"]),
        "taken": _taken(rows),
    }
    out["warnings"] = _warnings(out)
    return out


def _seat(rows, i, label) -> dict:
    bots = {r["seats"][i] for r in rows if i < len(r["seats"])}
    fixed = bots.pop() if len(bots) == 1 else ("rotated" if bots else "scripted")
    return {"seat": label, "bot": fixed, **_figures(rows, lambda r: i)}


def _figures(rows, seat_of) -> dict:
    """Games, wins (shared wins split), win rate with its 95% Wilson interval, score and return."""
    games = wins = 0.0
    scores, returns = [], []
    for row in rows:
        for i in _as_list(seat_of(row)):
            games += 1
            wins += 1 / len(row["winners"]) if i in row["winners"] else 0
            scores.append(row["scores"][i])
            returns.append(row["returns"][i])
    low, high = wilson(wins, int(games))
    mean, sd = mean_sd(scores)
    return {"games": int(games), "wins": _round(wins), "win_rate": _round(wins / games if games else None),
            "interval": [_round(low), _round(high)], "average": _round(mean), "sd": _round(sd),
            "min": min(scores, default=None), "max": max(scores, default=None),
            "returns": _round(sum(returns) / len(returns)) if returns else None}


def _as_list(seats):
    return seats if isinstance(seats, list) else [seats]


def _groups(rows, key_of, many=False) -> list[dict]:
    """Figures per group (a bot name, a held record), each seat of each game counted once."""
    keys: dict = defaultdict(list)
    for k, row in enumerate(rows):
        for i in range(len(row["labels"])):
            for key in (key_of(row, i) if many else [key_of(row, i)]):
                if key is not None:
                    keys[key].append((k, i))
    out = []
    for key in sorted(keys):
        where = defaultdict(list)
        for k, i in keys[key]:
            where[k].append(i)
        chosen = [rows[k] for k in sorted(where)]
        seats = {id(rows[k]): where[k] for k in where}
        out.append({"name": key, **_figures(chosen, lambda r: seats[id(r)])})
    return out


def _held(row, i) -> list:
    return [f"{var}={rid}" for var, rid in sorted(row["held"][i].items())] if i < len(row["held"]) else []


def _by_value(rows, name) -> list[dict]:
    """Per value of a varied option: games, game length and the seat-by-seat win rates."""
    values: dict = defaultdict(list)
    for row in rows:
        values[str(row["varied"][name])].append(row)
    out = []
    for value, chosen in values.items():
        mean, sd = mean_sd(r["decisions"] for r in chosen)
        seats = [_figures(chosen, lambda r, i=i: i) for i in range(len(chosen[0]["labels"]))]
        out.append({"value": value, "games": len(chosen), "length": _round(mean),
                    "seats": [{"seat": label, "win_rate": s["win_rate"], "interval": s["interval"],
                               "average": s["average"]}
                              for label, s in zip(chosen[0]["labels"], seats)]})
    return out


def _first(seats, players) -> dict | None:
    """The first seat's win rate against the 1/players an even game would give."""
    if not seats:
        return None
    first = seats[0]
    return {"win_rate": first["win_rate"], "interval": first["interval"],
            "even": _round(1 / players), "advantage": _round(first["win_rate"] - 1 / players)}


def _taken(rows) -> list[dict]:
    """Per record: in how many games some seat ended with it (in a zone or a list)."""
    counts: dict = defaultdict(int)
    for row in rows:
        for rid in {rid for seat in row["taken"] for rid in seat}:
            counts[rid] += 1
    return [{"record": rid, "games": n, "share": _round(n / len(rows))}
            for rid, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def _warnings(out: dict) -> list[str]:
    """Say when the games are too few for the seat intervals to tell the seats apart."""
    seats = [s for s in out["seats"] if s["games"]]
    if len(seats) < 2:
        return []
    best = max(seats, key=lambda s: s["win_rate"])
    worst = min(seats, key=lambda s: s["win_rate"])
    if not overlap(best["interval"], worst["interval"]):
        return []
    need = games_to_separate(best["win_rate"], worst["win_rate"])
    if need is None:                       # equal rates: no number of games separates them
        return []
    return [f"{out['games']} games are too few for the seats' 95% intervals to separate; about "
            f"{need} games per seat would separate {best['seat']} ({best['win_rate']:.1%}) from "
            f"{worst['seat']} ({worst['win_rate']:.1%})"]


def _round(value, places: int = 4):
    return None if value is None else round(value, places)
