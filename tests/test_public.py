"""What is public reaches every player: the tic-tac-toe fixture (tests/rulesets/ttt).

A table grid with no ``visible_to`` is in every view; a move on it is in
every player's log; options of every type can be set as text; the game's
declared returns; what is revealed when the game is over.
"""
from __future__ import annotations

import pytest

from interpreter.agents.driver import drive, random_mover
from interpreter.content.ruleset import load_ruleset
from interpreter.diagnostics import ContentError
from interpreter.engine.game import Game
from interpreter.model.values import RuleError
from support import RULESETS, edit


@pytest.fixture(scope="module")
def ttt():
    return load_ruleset(str(RULESETS / "ttt"))


@pytest.fixture(scope="module")
def toy():
    return load_ruleset(str(RULESETS / "toy"))


def play(game, squares):
    """Answer each decision with the square named (``"B2"``), whoever's turn it is."""
    for square in squares:
        decision = game.pending()[0]
        game.apply(decision.player, list(decision.options).index(square))


def test_the_table_grid_is_in_both_views_at_every_step(ttt):
    game = Game.new(ttt, seed=3)
    steps = 0

    def both_see_it(g, step):
        nonlocal steps
        steps += 1
        for seat in (0, 1):
            assert g.view(seat)["grids"]["board"] == g.state["grids"]["board"]
    both_see_it(game, None)
    drive(game, random_mover(3), on_step=both_see_it)
    assert game.over and steps > 5


def test_a_move_on_the_table_grid_is_in_the_opponents_log(ttt):
    game = Game.new(ttt, seed=1)
    mover = game.pending()[0].player
    play(game, ["B2"])
    for seat in (0, 1):
        assert game.view(seat)["log"][-1] == "x placed in B2", seat
    assert mover == 0


def test_a_change_to_a_hidden_grid_is_logged_to_those_who_may_see_it_only(lairs):
    game = Game.new(lairs, players=4, seed=2)
    game.execute('put "marker" at room(players[1].lair, 1, 1)', player=0)
    seers = [i for i in range(4) if "lair" in game.view(i)["players"][0]["grids"]]
    assert 0 in seers and len(seers) < 4                       # the seat across sees nothing
    for i in range(4):
        assert any("placed in A1" in text for text in game.view(i)["log"]) == (i in seers), i


MORE_OPTIONS = """
  style: {description: A choice of strings., values: [plain, fancy], default: plain}
  first_card: {description: A choice among a table's ids., table: cards, default: c1}
  banned: {description: Some of a table's ids., type: subset, table: cards, default: []}
  sizes: {description: Some of a list of numbers., type: subset, values: [2, 4, 8], default: []}
  by_seat: {description: Ids in the order given., type: subset, ordered: true, table: cards, default: []}
  starters: {description: Seat numbers., type: seats, default: []}
  fast: {description: A flag., type: bool, default: false}
"""


def toy_copy(parent):
    """A copy of the toy fixture under ``parent``, for a test to edit."""
    import shutil
    folder = parent / "toy"
    shutil.copytree(RULESETS / "toy", folder)
    return folder


@pytest.fixture(scope="module")
def optioned(tmp_path_factory):
    """The toy ruleset with an option of every type."""
    folder = toy_copy(tmp_path_factory.mktemp("options"))
    edit(folder / "game.yaml", "    default: 1\n", "    default: 1\n" + MORE_OPTIONS.lstrip("\n"))
    return folder


@pytest.mark.parametrize("typed, expected", [
    ("rounds=2", ("rounds", 2)),                          # a choice of numbers
    ("style=fancy", ("style", "fancy")),                  # a choice of strings
    ("first_card=c4", ("first_card", "c4")),              # a choice of a table's ids
    ("banned=c2,c5", ("banned", ["c2", "c5"])),           # a subset of a table's ids
    ("sizes=8,2", ("sizes", [2, 8])),                     # a subset of numbers, in declared order
    ("by_seat=c5,c2,c5", ("by_seat", ["c5", "c2"])),      # an ordered subset: as given, each once
    ("starters=2", ("starters", [2])),                    # seats
    ("fast=true", ("fast", True)),                        # a flag
])
def test_every_option_type_is_set_from_text_as_typed_on_the_command_line(optioned, typed, expected):
    from interpreter.cli.common import parse_options
    rules = load_ruleset(str(optioned))
    name, value = expected
    game = Game.new(rules, seed=1, options=parse_options([typed]))
    assert game.state["options"][name] == value
    assert Game.new(rules, seed=1, options={name: value}).state["options"][name] == value   # the API's typed form


def test_a_number_option_is_set_from_the_command_line():
    from click.testing import CliRunner
    from interpreter.cli.main import cli
    result = CliRunner().invoke(cli, ["play", str(RULESETS / "toy"), "-o", "rounds=2"])
    assert result.exit_code == 0, result.output
    bad = CliRunner().invoke(cli, ["play", str(RULESETS / "toy"), "-o", "rounds=7"])
    assert bad.exit_code != 0 and "must be one of 1, 2, 3, not '7'" in bad.output


X_WINS = ["A1", "A2", "B1", "B2", "C1"]                        # x takes row 1
DRAW = ["A1", "B1", "C1", "B2", "A2", "A3", "C2", "C3"]        # x then takes B3, the one square left


def ttt_with(tmp_path, returns: str, functions: str = ""):
    """A copy of tic-tac-toe declaring other returns (and more flow functions)."""
    import shutil
    folder = tmp_path / "ttt"
    shutil.copytree(RULESETS / "ttt", folder)
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("returns: win_loss", f"returns: {returns}"),
                        encoding="utf-8")
    flow = folder / "flow.yaml"
    flow.write_text(flow.read_text(encoding="utf-8") + functions, encoding="utf-8")
    return load_ruleset(str(folder))


def finished(rules, squares):
    game = Game.new(rules, seed=1)
    play(game, squares)
    assert game.over
    return game


def test_returns_for_a_win_a_loss_and_a_draw(ttt):
    won = finished(ttt, X_WINS)
    assert won.result["winners"] == [0] and won.result["returns"] == [1.0, 0.0]
    drawn = finished(ttt, DRAW)
    assert drawn.result["winners"] == [0, 1] and drawn.result["returns"] == [0.5, 0.5]
    assert "returns" not in drawn.state["result"]               # worked out, never stored
    assert all(type(v) is int for v in drawn.state["result"]["scores"])


MARGIN = """  margin:
    expr: if winner == self then 1 else if winner == none then 0 else -1
"""


@pytest.mark.parametrize("returns, win, draw", [
    ("rank_points", [1.0, 0.0], [0.5, 0.5]),
    ("score_minus_mean", [0.5, -0.5], [0.0, 0.0]),
    ("margin", [1.0, -1.0], [0.0, 0.0]),
])
def test_each_declared_kind_of_returns(tmp_path, returns, win, draw):
    rules = ttt_with(tmp_path, returns, MARGIN)
    assert finished(rules, X_WINS).result["returns"] == win
    assert finished(rules, DRAW).result["returns"] == draw


def test_returns_naming_nothing_is_refused_at_load(tmp_path):
    from interpreter.diagnostics import ContentError
    with pytest.raises(ContentError, match="returns 'win_lose' is neither"):
        ttt_with(tmp_path, "win_lose")


def test_simulate_reports_the_average_return_per_seat():
    from click.testing import CliRunner
    from interpreter.cli.main import cli
    import json
    result = CliRunner().invoke(cli, ["simulate", str(RULESETS / "ttt"), "-n", "6", "--format", "json"])
    assert result.exit_code == 0, result.output
    seats = json.loads(result.output)["seats"]
    assert [s["returns"] for s in seats] == [round(s["wins"] / 6, 4) for s in seats]   # win_loss: wins shared
    assert round(sum(s["returns"] for s in seats), 6) == 1.0


def test_hands_and_secrets_are_revealed_to_everyone_at_the_end(toy):
    game = Game.new(toy, seed=4)
    while not game.over:
        before = [game.view(i) for i in (0, 1)]
        decision = game.pending()[0]
        game.apply(decision.player, 0)
    other = before[0]["players"][1]                            # the last view before the end
    assert "cards" not in other["zones"]["hand"] and "secret" not in other["vars"]
    end = game.view(0)["players"][1]
    sheet = game.state["players"][1]
    assert end["zones"]["hand"]["cards"] == sheet["zones"]["hand"] and sheet["zones"]["hand"]
    assert end["vars"]["secret"] == sheet["vars"]["secret"] is not None
    assert "cards" not in game.view(0)["zones"]["deck"]        # not named: still hidden


def test_revealing_an_undeclared_name_is_refused_at_load(tmp_path):
    folder = toy_copy(tmp_path)
    edit(folder / "game.yaml", "[hand, secret]", "[hands]")
    with pytest.raises(ContentError, match="'hands' to reveal at the end is not a declared component"):
        load_ruleset(str(folder))


@pytest.fixture(scope="module")
def libraries(tmp_path_factory):
    """The toy ruleset where the table's deck and each player's library draw copies of one table."""
    folder = toy_copy(tmp_path_factory.mktemp("copies"))
    edit(folder / "components.yaml", "  discard: {visible: all}\n", "  discard: {visible: all}\n"
         "  library: {per_player: true, from: cards, visible: count}\n")
    return load_ruleset(str(folder))


def test_arrange_takes_the_named_zones_own_copy_then_its_owners(libraries):
    game = Game.new(libraries, seed=1)
    sheets, deck = game.state["players"], list(game.state["zones"]["deck"])
    first, second = deck[:2]                                   # copies on the table and in both libraries
    assert all(first in s["zones"]["library"] and second in s["zones"]["library"] for s in sheets)
    game.execute(f'arrange players[2].library to ["{first}"]')
    assert sheets[1]["zones"]["library"][0] == first and len(sheets[1]["zones"]["library"]) == 6
    assert len(sheets[0]["zones"]["library"]) == 6 and game.state["zones"]["deck"] == deck
    hand = list(sheets[1]["zones"]["hand"])
    game.execute(f'arrange players[2].hand to ["{second}"]')   # not in the hand: from P2's library
    assert sheets[1]["zones"]["hand"] == [second] + hand and second not in sheets[1]["zones"]["library"]
    assert second in sheets[0]["zones"]["library"] and game.state["zones"]["deck"] == deck


def test_an_override_during_a_simultaneous_block_reaches_every_view(toy):
    from interpreter.model.values import RuleError
    game = Game.new(toy, seed=2)
    assert len(game.pending()) == 2 and game.state["flow"]["snapshot"] is not None
    game.execute("set players[2].coin to 9")
    assert [game.view(i)["players"][1]["counters"]["coin"] for i in (0, 1)] == [9, 9]
    game.apply(0, 0)                                           # P1 answers: their secret is set
    assert game.state["flow"]["snapshot"] is not None
    saved = game.to_json()
    with pytest.raises(RuleError, match="already changed by a player choosing in 'simultaneously'"):
        game.execute('set players[1].secret to "c1"')
    assert game.to_json() == saved                             # refused: nothing changed
    game.execute("set players[1].coin to 7")                   # a part P1 did not touch
    assert game.view(1)["players"][0]["counters"]["coin"] == 7


# ---------------------------------------------------------------- zones filled from a table, limited

def _toy_deck(tmp_path, **deck):
    import json as _json
    from interpreter.content.yaml_source import load_yaml
    from test_language import PARKED, toy_with
    toy_with(tmp_path, PARKED)
    path = tmp_path / "toy" / "components.yaml"
    data, _ = load_yaml(path)
    data["zones"]["deck"].update(deck)
    path.write_text(_json.dumps(data, indent=1))
    return load_ruleset(str(tmp_path / "toy"))


def test_a_zone_from_a_table_keeps_where_and_limit(tmp_path):
    rules = _toy_deck(tmp_path, where="this.value > 2", limit="player_count + 1")
    assert Game.new(rules, players=2, seed=1).evaluate("list(deck)") == ["c3", "c4", "c5"]
    assert Game.new(rules, players=3, seed=1).evaluate("list(deck)") == ["c3", "c4", "c5", "c6"]


def test_a_zone_limit_must_be_a_whole_number(tmp_path):
    rules = _toy_deck(tmp_path, limit='"many"')
    with pytest.raises(RuleError, match="limit must be a whole number"):
        Game.new(rules, players=2, seed=1)


def test_where_is_checked_at_load(tmp_path):
    with pytest.raises(ContentError) as err:
        _toy_deck(tmp_path, where="this.vlaue > 2")
    assert err.value.diagnostics[0].code == "dsl-unknown-attribute"


def test_a_move_is_logged_by_name_to_who_sees_the_cards_and_as_a_count_to_the_rest(tmp_path):
    from test_language import PARKED, toy_with
    game = Game.new(toy_with(tmp_path, PARKED), players=2, seed=1)
    game.execute("move c1 from deck to players[1].hand")         # a hand: its owner sees it
    game.execute("move c1 from players[1].hand to discard")      # the discard is public
    mine, theirs = game.view(0)["log"], game.view(1)["log"]
    assert "c1 from deck to P1's hand" in mine and "c1 from deck to P1's hand" not in theirs
    assert "1 card from deck to P1's hand" in theirs
    assert "c1 from P1's hand to discard" in mine and "c1 from P1's hand to discard" in theirs
