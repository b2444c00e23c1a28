"""Type tests the load settles (``codegen``): a zone's cards are texts when every table a zone is
filled from holds texts (``_zone_ids``, a scan of the loaded tables), and a record's plain field
read from a text has the one type every loaded record gives it (``field_sort``). Reads the
load cannot settle keep their tests, and every value of another kind still fails as the
closures fail."""
from __future__ import annotations

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.engine import codegen
from interpreter.engine.game import Game
from interpreter.model.values import RuleError

from test_call_depth import _body
from test_hostile_content import add_functions

FUNCTIONS = {
    "top_value": ([], "top(discard).value + 1"),
    "hand_values": ([], "list(c.value * 2 for c in self.hand)"),
}


@pytest.fixture
def toy_functions(toy):
    add_functions(toy, FUNCTIONS)
    return toy


def test_the_scan_of_the_tables_says_whether_zones_hold_texts(toy_functions):
    rules = load_ruleset(str(toy_functions))
    assert codegen._zone_ids(rules)
    rules.tables["cards"].append(7)               # as if a table held a number: nothing settled
    assert not codegen._zone_ids(rules)
    source = _body(codegen.program_of(rules), "top_value")
    assert "is str" in source and "is int" in source


def test_a_zone_of_texts_read_as_records_needs_no_type_test(toy_functions):
    program = codegen.program_of(load_ruleset(str(toy_functions)))
    source = _body(program, "top_value")
    assert "type(" not in source.split("try:", 1)[1]           # the card's, the field's: settled
    assert program.generator.field_sort("value") is int


def test_field_sorts_come_from_every_record():
    gen = codegen.program_of(load_ruleset("lairs")).generator
    assert gen.field_sort("kind") is str
    assert gen.field_sort("condition") is None           # a condition: any value
    assert gen.field_sort("id") is None


def _value(folder, text, generated: bool, monkeypatch, discard=()):
    with monkeypatch.context() as m:
        m.setattr(codegen, "ENABLED", generated)
        game = Game.new(load_ruleset(str(folder)), players=2, seed=1)
    for card in discard:
        game.execute(f"move {card} from {'deck' if card in game.state['zones']['deck'] else 'players[1].hand'} "
                     "to discard")
    try:
        return game.evaluate(text, player=0)
    except RuleError as exc:
        return f"error: {exc}"


@pytest.mark.parametrize("text, discard", [
    ("top_value()", ()),                          # an empty zone: none has no 'value'
    ("top_value()", ("c6",)),
    ("hand_values()", ()),
])
def test_settled_reads_give_what_the_closures_give(toy_functions, monkeypatch, text, discard):
    generated = _value(toy_functions, text, True, monkeypatch, discard)
    reference = _value(toy_functions, text, False, monkeypatch, discard)
    assert generated == reference
    assert text != "top_value()" or discard or "none has no 'value'" in generated
