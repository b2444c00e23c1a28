"""Search bots (agents/search.py) and seat specs: settings, users' own classes, and worlds
built from the bot's view alone. The match against the greedy bot is a benchmark
(tools/match.py), not a test."""
from __future__ import annotations

import math
import random
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


def _ttt_positions(ttt, wanted: int):
    """Positions of random games where the mover can win at once, or must stop the other from
    winning at once (and cannot win itself): (game, winning moves, blocking moves)."""
    found, seed = [], 0
    while len(found) < wanted:
        game, rnd, seed = Game.new(ttt, seed=seed), random.Random(seed), seed + 1
        while not game.over:
            me, count = game.pending()[0].player, game.pending()[0].count
            wins = [i for i in range(count) if _ends_won_by(game, me, i, me)]
            if wins:
                found.append((game.clone(), wins, None))
            else:
                blocks = [i for i in range(count) if not _other_wins_next(game, me, i)]
                if 0 < len(blocks) < count:
                    found.append((game.clone(), None, blocks))
            game.apply(me, rnd.randrange(count))
    return found[:wanted]


def _ends_won_by(game, me, index, winner):
    trial = game.clone()
    trial.apply(me, index)
    return trial.over and trial.result["winners"] == [winner]


def _other_wins_next(game, me, index):
    trial = game.clone()
    trial.apply(me, index)
    if trial.over:
        return False
    other = trial.pending()[0]
    return any(_ends_won_by(trial, other.player, r, other.player) for r in range(other.count))


@pytest.mark.parametrize("cls", [MCTSBot, ISMCTSBot])
def test_search_takes_a_win_and_blocks_a_loss_at_tic_tac_toe(ttt, cls):
    # Guaranteed, whatever the budget or seed: a move that wins at once is taken, and a move
    # after which the other can win at once is never taken while another is left.
    # (How often the bots beat random players is a benchmark: tools/match.py ttt mcts random.)
    positions = _ttt_positions(ttt, 24)
    assert any(w for _, w, _ in positions) and any(b for _, _, b in positions)
    for n, (game, wins, blocks) in enumerate(positions):
        me = game.pending()[0].player
        for iterations, margin in ((1, math.inf), (30, math.inf), (30, 0)):
            trial = game.clone()
            step(trial, {me: cls(n, iterations=iterations, margin=margin)})
            index = _chosen_index(game, trial, me)
            assert index in (wins or blocks), (n, iterations, wins, blocks, index)


def test_a_margin_shortlists_what_the_greedy_look_cannot_settle(ttt):
    # margin=0 searches only the options tied for the best one-step value; no margin, all.
    positions = [p for p in _ttt_positions(ttt, 24) if p[1]]
    game, wins, _ = positions[0]
    me, count = game.pending()[0].player, game.pending()[0].count
    assert 0 < len(wins) < count
    narrow = MCTSBot(1, margin=0)
    allowed, prior = narrow._shortlist(game, me, narrow._keys(game.pending()[0].options))
    assert allowed == set(wins) and [i for i in range(count) if prior[i] == max(prior)] == wins
    wide = MCTSBot(1)
    assert wide._shortlist(game, me, wide._keys(game.pending()[0].options))[0] == set(range(count))
    for playout in ("random", "greedy"):           # both playouts finish a game (ISMCTS too)
        bots = {0: ISMCTSBot(2, iterations=5, depth=4, margin=0, playout=playout), 1: RandomBot(3)}
        finished = Game.new(ttt, seed=5)
        play_out(finished, bots)
        assert finished.over
    with pytest.raises(ValueError, match="playout is one of"):
        make_bot("mcts:playout=clever", 1)


def _chosen_index(before, after, me):
    """Which option ``me`` took between two states (the one whose result equals ``after``)."""
    for i in range(before.pending()[0].count):
        trial = before.clone()
        trial.apply(me, i)
        if trial.state["grids"] == after.state["grids"]:
            return i
    raise AssertionError("no option gives that position")


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
    # The older door, choose(view, preview), still plays (deprecated).
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


def test_a_users_bot_with_only_decide_plays_a_game(tmp_path, monkeypatch, ttt):
    # The documented door: decide(view, decision), decision being the view's decision.
    (tmp_path / "deciders.py").write_text(
        "class Last:\n"
        "    seen = []\n"
        "    def __init__(self, seed):\n"
        "        self.seed = seed\n"
        "    def decide(self, view, decision):\n"
        "        assert decision is view['decision'] and decision['player'] == view['you']\n"
        "        Last.seen.append(decision['options'])\n"
        "        return len(decision['options']) - 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    game = Game.new(ttt, seed=4)
    bots = {0: make_bot("deciders:Last", 1), 1: RandomBot(2)}
    play_out(game, bots)
    last = sys.modules["deciders"].Last
    assert game.over and last.seen
    mine = [index for player, index in game.state["history"] if player == 0]
    assert mine == [len(options) - 1 for options in last.seen]
    result = CliRunner().invoke(cli, ["play", str(TTT), "--seats", "deciders:Last,random", "-q"])
    assert result.exit_code == 0, result.output
    (tmp_path / "deciders2.py").write_text("class Mute:\n    pass\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no decide"):
        make_bot("deciders2:Mute", 1)
    sys.modules.pop("deciders", None)
    sys.modules.pop("deciders2", None)


def test_the_match_tool_rotates_seats(ttt):
    sys.path.insert(0, str(ROOT / "tools"))
    from match import match
    report = match(ttt, "mcts:iterations=100", "random", games=2, players=2, seed=1)
    assert report["games"] == 4 and report["a_mean_return"] >= 0.5
    low, high = report["interval_95"]
    assert low <= report["a_mean_return"] <= high


def test_the_match_tool_gives_the_same_figures_in_processes(ttt):
    sys.path.insert(0, str(ROOT / "tools"))
    from match import match
    alone = match(ttt, "greedy", "random", games=2, players=2, seed=3)
    shared = match(ttt, "greedy", "random", games=2, players=2, seed=3, jobs=2, rules_ref=str(TTT))
    for report in (alone, shared):
        del report["cpu_seconds"], report["cpu_seconds_per_game"]
    assert alone == shared and alone["games"] == 4

