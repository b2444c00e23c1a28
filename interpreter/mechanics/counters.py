"""Counters: per-player numbers with a floor, a ceiling and an earning cap.

Declared in a ruleset's components (``counters: {coin: {start: 10, min: 0,
earn_cap: 40}}``). ``earn_cap`` limits the total ever gained, so spending
does not make room under it; the part of a gain above a cap or ceiling is
lost, as the rules of many games say. ``on_gain: PROCEDURE`` runs that
procedure (``self`` the gainer, its one parameter, if any, the amount) right
after every gain, even in the middle of an effect.
"""
from __future__ import annotations

from ..model.values import PLAYERS, RuleError
from ..dsl.kinds import NUMBER
from .component import ComponentKind, visible_plain


class Counters:
    """Gain, spend and lose on the counters of a game's players."""

    def __init__(self, game):
        self.game = game
        self.defs = game.rules.counters
        self.floors, self.caps, self.hooks = _limits(self.defs)

    def _section(self, i: int, name: str) -> dict:
        game = self.game
        if game.block_open:                       # ``guard`` refuses or keeps only inside a block
            game.guard(i, name)
        counters = game.state["players"][i]["counters"]
        if name not in counters:
            raise RuleError(f"'{name}' is not a counter")
        return counters

    def gain(self, i: int, name: str, amount: int) -> int:
        """Add up to ``amount``; returns what was really added."""
        game = self.game
        counters = self._section(i, name)
        limits = self.caps.get(name)
        if limits is not None:
            room = self.headroom(i, name)
            amount = 0 if room <= 0 or amount < 0 else amount if amount < room else room
            if limits[0] is not None:               # an earning cap: only what was really added counts
                earned = game.state["players"][i]["earned"]
                earned[name] = earned.get(name, 0) + amount
        counters[name] += amount
        if amount:
            game.log_to_viewers(f"{game.seat_name(i)} gains {amount} {name}", "counters", name, i)
            if name in self.hooks:
                self._after_gain(i, name, amount)
        return amount

    def _after_gain(self, i: int, name: str, amount: int) -> None:
        """A counter's ``on_gain`` procedure runs right after the gain, before the next statement."""
        params, root = self.game.rules.procedures[self.hooks[name]]
        env = {"self": PLAYERS[i]}
        if params:                                  # the procedure may take the amount gained
            env[params[0]] = amount
        self.game.call(root, env)

    def check_spend(self, i: int, name: str, amount: int) -> None:
        """Refuse (a content error) a payment that would go below the floor."""
        self._afford(self._section(i, name), i, name, amount)

    def _afford(self, counters: dict, i: int, name: str, amount: int) -> None:
        floor = self.floors[name]
        if floor is not None and counters[name] - amount < floor:
            raise RuleError(f"{self.game.seat_name(i)} cannot spend {amount} {name} (has {counters[name]})")

    def spend(self, i: int, name: str, amount: int) -> None:
        """Pay ``amount``; refused if it would go below the floor."""
        game = self.game
        counters = self._section(i, name)
        self._afford(counters, i, name, amount)
        counters[name] -= amount
        if amount:
            game.log_to_viewers(f"{game.seat_name(i)} spends {amount} {name}", "counters", name, i)

    def lose(self, i: int, name: str, amount: int) -> None:
        """Take away ``amount``, stopping at the floor."""
        counters = self._section(i, name)
        floor = self.floors[name]
        new = counters[name] - amount
        if floor is not None:
            new = max(floor, new)
        if new != counters[name]:
            self.game.log_to_viewers(f"{self.game.seat_name(i)} loses {counters[name] - new} {name}",
                                     "counters", name, i)
        counters[name] = new

    def headroom(self, i: int, name: str) -> int | None:
        """How much more ``name`` could still be gained (None: no limit)."""
        limits = self.caps.get(name)
        if limits is None:
            self.defs[name]                         # an unknown counter: a KeyError, as ever
            return None
        cap, top = limits
        player = self.game.state["players"][i]
        room = None if cap is None else cap - player["earned"].get(name, 0)
        if top is not None:
            left = top - player["counters"][name]
            room = left if room is None or left < room else room
        return room if room > 0 else 0


def _limits(defs: dict) -> tuple:
    """Each counter's floor; ``(earning cap, ceiling)`` of those a gain may be cut short on; the
    ``on_gain`` procedures (read once a game, not at every gain)."""
    return ({name: spec.get("min") for name, spec in defs.items()},
            {name: (spec.get("earn_cap"), spec.get("max")) for name, spec in defs.items()
             if spec.get("earn_cap") is not None or spec.get("max") is not None},
            {name: spec["on_gain"] for name, spec in defs.items() if spec.get("on_gain") is not None})


# ---------------------------------------------------------------- the component kind

SCHEMA = {'description': 'A number each player holds.',
 'type': 'object',
 'additionalProperties': False,
 'properties': {'start': {'description': 'The value every player starts with.',
                          'type': 'integer',
                          'default': 0},
                'min': {'description': 'The lowest value (spending below it is refused); null: '
                                       'no bound.',
                        'type': ['integer', 'null']},
                'max': {'description': 'The highest value (gains above it are lost); null: no '
                                       'bound.',
                        'type': ['integer', 'null']},
                'earn_cap': {'description': 'The most a player may gain in total over the game '
                                            '(spending frees nothing).',
                             'type': 'integer',
                             'minimum': 0},
                'on_gain': {'description': 'A procedure run right after every gain of this '
                                           'counter, before the next statement (self: the '
                                           'gainer; its one parameter, if any: the amount '
                                           'gained).',
                            '$ref': '#/definitions/name'},
                'visible_to': {'description': 'Who may see this counter (default: everyone).',
                               '$ref': '#/definitions/visible_to'},
                'description': {'description': 'What the counter measures.', 'type': 'string'}}}

KIND = ComponentKind(
    section="counters", state_key="counters", schema=SCHEMA, where="player",
    new=lambda spec, rules: spec.get("start", 0),
    value=lambda ctx, name, owner: ctx.game.state["players"][owner]["counters"][name],
    view=visible_plain,
    language_kind=lambda spec, of_value: NUMBER,
    summary="Numbers every player holds, by name.",
    read="{state}['players'][{owner}]['counters'][{name}]")
