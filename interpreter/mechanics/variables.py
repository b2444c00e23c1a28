"""Variables: values a ruleset names, each player's (``player_vars``) or the table's (``vars``).

Any plain value may sit in a variable (a number, text, a list, a record, a
player); assignments set them (``self.agent = a``, ``round += 1``).
"""
from __future__ import annotations

import copy

from ..model.values import to_plain
from .component import ComponentKind, visible_plain

SCHEMA = {'description': 'A value each player holds.',
 'type': 'object',
 'required': ['default'],
 'additionalProperties': False,
 'properties': {'default': {'description': 'The value every player starts with.',
                            '$ref': '#/definitions/any'},
                'visible_to': {'description': 'Who may see this value (default: everyone).',
                               '$ref': '#/definitions/visible_to'},
                'description': {'description': 'What the value means.', 'type': 'string'}}}


PLAYER_VARS = ComponentKind(
    section="player_vars", state_key="vars", schema=SCHEMA, where="player",
    new=lambda spec, rules: copy.deepcopy(spec.get("default") if isinstance(spec, dict) else spec),
    value=lambda ctx, name, owner: ctx.game.state["players"][owner]["vars"][name],
    view=visible_plain,
    language_kind=lambda spec, of_value: of_value(spec.get("default") if isinstance(spec, dict) else spec),
    summary="Values every player holds, by name.",
    read="{state}['players'][{owner}]['vars'][{name}]")

TABLE_VARS = ComponentKind(
    section="vars", state_key="vars", schema={"description": "The starting value."}, where="table",
    new=lambda spec, rules: copy.deepcopy(spec),
    value=lambda ctx, name, owner: ctx.game.state["vars"][name],
    view=lambda game, name, spec, data, viewer, owner, can_see: to_plain(data),   # public
    language_kind=lambda spec, of_value: of_value(spec),
    summary="Values of the whole game, by name, with their starting value.",
    read="{state}['vars'][{name}]")
