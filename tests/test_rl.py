"""The PettingZoo adapter (agents/rl.py): PettingZoo's own API and seed tests on every
fixture-sized game, masks from the options, rewards from the returns, views only."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the 'rl' extra is not installed")
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")   # PettingZoo's style hints
from pettingzoo.test import api_test, seed_test  # noqa: E402

from interpreter.agents.rl import RulebookEnv, encode  # noqa: E402
from interpreter.content.ruleset import load_ruleset  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TTT = str(ROOT / "tests" / "rulesets" / "ttt")


@pytest.fixture(scope="module")
def ttt():
    return load_ruleset(TTT)


@pytest.fixture(scope="module")
def lairs():
    return load_ruleset("lairs")


def test_pettingzoo_api_test(ttt):
    api_test(RulebookEnv(ttt, max_actions=16), num_cycles=200)


def test_pettingzoo_api_test_on_a_game_with_hidden_cards(lairs):
    api_test(RulebookEnv(lairs, players=2, max_actions=64), num_cycles=60)


def test_pettingzoo_seed_test(ttt):
    seed_test(lambda: RulebookEnv(ttt, max_actions=16), num_cycles=100)


def test_masks_rewards_and_an_episode(ttt):
    env = RulebookEnv(ttt, max_actions=16)
    env.reset(seed=3)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, done, cut, _ = env.last()
        total[agent] += reward
        if done or cut:
            env.step(None)
            continue
        mask = observation["action_mask"]
        count = env.game.decision_for(env.possible_agents.index(agent)).count
        assert mask.sum() == count and mask[:count].all()
        env.step(int(mask.nonzero()[0][-1]))
    assert env.game.over and sorted(total.values()) in ([0.0, 1.0], [0.5, 0.5])
    assert list(total.values()) == env.game.result["returns"][:2]


def test_an_illegal_action_is_refused(ttt):
    env = RulebookEnv(ttt, max_actions=16)
    env.reset(seed=1)
    before = env.game.to_json()
    with pytest.raises(ValueError, match="only 0..8"):
        env.step(12)
    assert env.game.to_json() == before


def test_observations_come_from_the_view(lairs):
    env = RulebookEnv(lairs, players=2)
    env.reset(seed=5)
    hand = env.game.state["players"][1]["zones"]["hand"]
    deck = env.game.state["zones"]["agent_deck"]
    first = env.observe("player_0")["observation"].copy()
    hand[0], deck[0] = deck[0], hand[0]                  # hidden from P1
    assert (env.observe("player_0")["observation"] == first).all()
    assert (encode(env.game.view(0), 256) == first).all()


def test_too_small_an_action_space_says_what_to_use(ttt):
    env = RulebookEnv(ttt, max_actions=4)
    env.reset(seed=1)
    with pytest.raises(ValueError, match="max_actions=9"):
        env.observe(env.agent_selection)


def test_the_documented_example_runs():
    import re
    text = (ROOT / "docs" / "table.md").read_text(encoding="utf-8")
    [code] = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "RulebookEnv" in b]
    scope: dict = {}
    exec(compile(code, "docs/table.md", "exec"), scope)
    assert scope["env"].game.over
