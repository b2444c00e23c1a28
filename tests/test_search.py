"""Search bots (agents/search.py) and seat specs: settings, users' own classes, and worlds
built from the bot's view alone. The match against the greedy bot is a benchmark
(tools/match.py), not a test."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.agents import RandomBot, make_bot, play_out, split_spec, step
from interpreter.agents.search import ISMCTSBot, MCTSBot
from interpreter.cli.main import cli
from interpreter.content.ruleset import load_ruleset
from interpreter.engine.game import Game

ROOT = Path(__file__).resolve().parents[1]
TTT = ROOT / "tests" / "rulesets" / "ttt"


@pytest.fixture(scope="module")
def ttt():
    return load_ruleset(str(TTT))


@pytest.fixture(scope="module")
def lairs():
    return load_ruleset("lairs")


def test_seat_specs_carry_settings():
    assert split_spec("ismcts:iterations=5:depth=2") == ("ismcts", {"iterations": "5", "depth": "2"})
    assert split_spec("mybots:Bot:x=1") == ("mybots:Bot", {"x": "1"})
    bot = make_bot("ismcts:iterations=7", 3)
    assert isinstance(bot, ISMCTSBot) and bot.params["iterations"] == 7
    with pytest.raises(ValueError, match="unknown setting"):
        make_bot("mcts:iterationz=7", 3)
    with pytest.raises(ValueError, match="KEY=VALUE"):
        make_bot("mcts:7", 3)
    with pytest.raises(ValueError, match="no bot"):
        make_bot("nobody", 3)


@pytest.mark.parametrize("cls", [MCTSBot, ISMCTSBot])
def test_search_beats_random_at_tic_tac_toe(ttt, cls):
    # Seat-rotated, seeded: the search never loses to a random player here.
    for seed in range(3):
        for me in range(2):
            game = Game.new(ttt, seed=seed)
            bots = {me: cls(seed, iterations=150), 1 - me: RandomBot(seed)}
            play_out(game, bots)
            assert game.result["returns"][me] >= 0.5, (seed, me, game.state["history"])


def _swap_hidden_card(game):
    """Exchange P2's face-down hand card with one in the face-down deck: P1 cannot tell."""
    state = game.state
    hand, deck = state["players"][1]["zones"]["hand"], state["zones"]["agent_deck"]
    hand[0], deck[0] = deck[0], hand[0]


def test_ismcts_sees_only_its_own_view(lairs):
    first = Game.new(lairs, players=2, seed=5)
    second = Game.new(lairs, players=2, seed=5)
    _swap_hidden_card(second)
    assert first.state != second.state and first.view(0) == second.view(0)
    from interpreter.engine.determinise import determinise
    assert determinise(first, 0, 4).state == determinise(second, 0, 4).state
    chosen = []
    for game in (first, second):
        bot = ISMCTSBot(9, iterations=25, depth=3)
        step(game, {0: bot})
        chosen.append(game.state["history"][-1])
    assert chosen[0] == chosen[1]


def test_a_users_bot_takes_a_seat(tmp_path, monkeypatch):
    (tmp_path / "mybots.py").write_text(
        "class Last:\n"
        "    needs_view = True\n"
        "    def __init__(self, seed):\n"
        "        self.seed = seed\n"
        "    def choose(self, view, preview):\n"
        "        return len(view['decision']['options']) - 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    result = CliRunner().invoke(cli, ["play", str(TTT), "--seats", "mybots:Last,random", "-q"])
    assert result.exit_code == 0, result.output
    assert "mybots:Last" in result.output
    bad = CliRunner().invoke(cli, ["play", str(TTT), "--seats", "nosuchmodule:Bot", "-q"])
    assert bad.exit_code == 2 and "cannot load the bot" in bad.stderr
    sys.modules.pop("mybots", None)


def test_the_match_tool_rotates_seats(ttt):
    sys.path.insert(0, str(ROOT / "tools"))
    from match import match
    report = match(ttt, "mcts:iterations=100", "random", games=2, players=2, seed=1)
    assert report["games"] == 4 and report["a_mean_return"] >= 0.5
    low, high = report["interval_95"]
    assert low <= report["a_mean_return"] <= high
