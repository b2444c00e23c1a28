"""Kinds: misuse the checker finds before play, at its line:col, at load, in `rulebook dsl`
and in Game.execute; correct content is never refused; every mechanic has a signature."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter import mechanics
from interpreter.cli.main import cli
from interpreter.content.ruleset import RULESETS, load_ruleset
from interpreter.diagnostics import ContentError
from interpreter.dsl import kinds
from interpreter.dsl.check import check
from interpreter.dsl.parser import parse_program
from interpreter.mechanics.seats import BUILTIN_KINDS, BUILTINS, PLAYER_ATTRIBUTE_KINDS, PLAYER_ATTRIBUTES
from interpreter.engine.game import Game
from interpreter.model.values import RuleError
from interpreter.mechanics import grids

# (text, line, col, code, message): each a Lairs text that used to pass validation
MISUSE = [
    ("gain self.difficulty coin", 1, 6, "dsl-kind",
     "'difficulty' is a field of boards, but self is a player"),
    ("move 1 from self.coin to display[1]", 1, 13, "dsl-kind",
     "'move ... from' needs a zone, but self's coin is a number"),
    ("if round > 1:\n  y = 1\ngain y coin", 3, 6, "dsl-unset",
     "'y' is read where it may not be set"),
    ("self = 3", 1, 1, "dsl-reserved", "'self' is the acting player: it cannot be assigned"),
    ("for each x in 3:\n  pass", 1, 15, "dsl-kind", "'for each' needs a list, but 3 is a number"),
    ('if phase < 2:\n  pass', 1, 4, "dsl-kind", "'<' needs a number, but phase is a string"),
    ('spend "a" coin', 1, 7, "dsl-kind", "'coin' needs a number, but \"a\" is a string"),
    ("x = rooms(3)", 1, 11, "dsl-kind", "rooms() needs a grid or a room, but 3 is a number"),
    ("x = round.seat", 1, 5, "dsl-kind", "'seat' is an attribute of players, but round is a number"),
    ("for each a in agents:\n  gain a.difficulty coin", 2, 8, "dsl-kind",
     "'difficulty' is a field of boards, but a is a record of agents"),
    ("move 1 from pile to box", 1, 13, "dsl-kind",
     "'move ... from' needs a zone, but pile is a group of zones"),
    ("simultaneously for each p in players:\n  x = 1\ngain x coin", 3, 6, "dsl-unset",
     "'x' is read before it is set"),           # each player's locals end with the block
    ("gain y coin\ny = 1", 1, 6, "dsl-unset", "'y' is read before it is set"),
    ("self.kit = 3", 1, 1, "dsl-kind", "'self.kit' holds a list, not a number"),
    ("x = self.lair[1]", 1, 5, "dsl-kind", "self's lair is a grid: it cannot be indexed"),
]

# Correct texts that must pass: kinds that cannot be known are accepted
CORRECT = [
    "gain polar_base.difficulty coin",
    "for each z in pile:\n  move 1 from z to box",
    "if round > 1:\n  y = 1\nelse:\n  y = 2\ngain y coin",
    "choose one: y = 1 | y = 2\ngain y coin",
    "as players[1]:\n  y = 1\ngain y coin",
    "choose i in [1, 2] label i:\n  y = i\notherwise:\n  y = 0\ngain y coin",
    "for each r in rooms(self.lair):\n  if r.empty:\n    put top(display[1]) at r\n    break",
    "x = first(list(r for r in rooms(self.lair) if r.empty))\nif x != none:\n  put top(display[1]) at x",
    "gain self.agent.bonus.mov mov",
    "self.visited += [self.here.name]\nself.used += \"ability\"",
    "gain count(agents) + sum(g.size for g in gadgets) coin",
    "x = card(1).kind == \"wall\" and explorer_of(self).met == []",
]


@pytest.fixture(scope="module")
def lairs():
    return load_ruleset("lairs")


def found(lairs, text):
    return [(p.code, *p.span()[:2], p.message) for p in check(parse_program(text), lairs.vocabulary())]


@pytest.mark.parametrize("text, line, col, code, message", MISUSE)
def test_misuse_is_found_at_its_line_and_column(lairs, text, line, col, code, message):
    [(got_code, got_line, got_col, got_message)] = found(lairs, text)
    assert (got_code, got_line, got_col) == (code, line, col)
    assert got_message.startswith(message)


@pytest.mark.parametrize("text", CORRECT)
def test_correct_content_is_accepted(lairs, text):
    assert found(lairs, text) == []


@pytest.mark.parametrize("text, line, col, code, message", MISUSE)
def test_misuse_is_refused_by_game_execute(lairs, text, line, col, code, message):
    game = Game.new(lairs, players=2, seed=1)
    before = game.to_json()
    with pytest.raises(RuleError, match=f"^{line}:{col}: "):
        game.execute(text, player=0)
    assert game.to_json() == before


@pytest.mark.parametrize("text, line, col, code, message", MISUSE[:4])
def test_misuse_is_refused_by_rulebook_dsl(text, line, col, code, message):
    result = CliRunner().invoke(cli, ["dsl", "lairs", text])
    assert result.exit_code == 1
    assert f"<dsl>:{line}:{col}: error[{code}]: {message}" in result.output


def test_rulebook_dsl_says_what_an_expression_gives():
    result = CliRunner().invoke(cli, ["dsl", "lairs", "-e", "first(rooms(self.lair))"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "  gives none or a room"


@pytest.mark.parametrize("text, line, col, code, message", MISUSE[:4])
def test_misuse_is_a_content_error_at_load(tmp_path, text, line, col, code, message):
    folder = tmp_path / "lairs"
    shutil.copytree(RULESETS / "lairs", folder)
    flow = folder / "flow.yaml"
    lines = flow.read_text().splitlines()
    body = "".join(f"      {t}\n" for t in text.split("\n"))
    flow.write_text(flow.read_text() + "\n  broken:\n    do: |\n" + body)
    with pytest.raises(ContentError) as caught:
        load_ruleset(str(folder))
    [diag] = caught.value.diagnostics
    assert (Path(diag.file).name, diag.line, diag.col, diag.code) == (
        "flow.yaml", len(lines) + 3 + line, 6 + col, code)
    assert diag.message.startswith(message)


def test_bundled_and_toy_rulesets_have_no_kind_problems():
    load_ruleset("lairs")
    load_ruleset(str(Path(__file__).parent / "rulesets" / "toy"))


def test_an_effect_field_knows_its_own_record(tmp_path):
    folder = tmp_path / "lairs"
    shutil.copytree(RULESETS / "lairs", folder)
    agents = folder / "data" / "agents.yaml"
    text = agents.read_text()
    assert "    ability: gain 3 mov\n" in text
    agents.write_text(text.replace("    ability: gain 3 mov\n", "    ability: gain this.difficulty mov\n"))
    with pytest.raises(ContentError) as caught:
        load_ruleset(str(folder))
    [diag] = caught.value.diagnostics
    line = text[:text.index("    ability: gain 3 mov")].count("\n") + 1
    assert (Path(diag.file).name, diag.line, diag.col) == ("agents.yaml", line, 19)
    assert diag.message == "'difficulty' is a field of boards, but this is a record of agents"


# ---------------------------------------------------------------- the table of signatures

def test_every_function_and_verb_declares_its_signature():
    for name, entry in mechanics.FUNCTIONS.items():
        assert isinstance(entry, mechanics.Function), f"function '{name}' has no signature"
        assert entry.signature.name == name, f"'{name}' is declared as {entry.signature.text!r}"
    for name, entry in mechanics.VERBS.items():
        assert isinstance(entry, mechanics.Verb), f"verb '{name}' has no signature"
        assert entry.signature.name == name, f"'{name}' is declared as {entry.signature.text!r}"


def test_signatures_give_arity_and_kinds():
    sig = mechanics.FUNCTIONS["rooms"].signature
    assert (sig.params, sig.result) == ((kinds.union(kinds.GRID, kinds.ROOM),),
                                        kinds.ListOf(kinds.ROOM))
    assert mechanics.FUNCTIONS["text"].signature.takes(0)
    assert not mechanics.FUNCTIONS["max"].signature.takes(0)
    move = mechanics.VERBS["move"]
    assert (move.keywords, move.required, move.arg) == (("from", "to", "at"), ("from", "to"), True)
    assert mechanics.VERBS["do"].required == ()
    with pytest.raises(ValueError, match="not a kind"):
        kinds.parse_signature("f(lst) -> number")


def test_attribute_kinds_cover_the_engine_attributes():
    assert set(PLAYER_ATTRIBUTE_KINDS) == set(PLAYER_ATTRIBUTES)
    assert set(BUILTIN_KINDS) | {"options"} == set(BUILTINS)
    assert set(grids.ATTRIBUTE_KINDS["room"]) == set(grids._ROOM_ATTRS)
    assert set(grids.ATTRIBUTE_KINDS["side"]) == set(grids._SIDE_ATTRS)


def test_kinds_read_as_words():
    assert str(kinds.ListOf(kinds.ROOM)) == "a list of rooms"
    assert str(kinds.Record("agents")) == "a record of agents"
    assert str(kinds.union(kinds.NONE, kinds.ROOM)) == "none or a room"
    assert str(kinds.Zone(kinds.Record("missions"))) == "a zone of missions"
    assert kinds.fits(kinds.Zone(kinds.Record("agents")), kinds.ListOf(kinds.Record("agents")))
    assert not kinds.fits(kinds.Group(), kinds.Zone())
    assert kinds.fits(kinds.ANY, kinds.NUMBER) and kinds.fits(kinds.STRING, kinds.Record("agents"))
