"""Any ruleset as a PettingZoo AEC environment (``pip install 'rulebook[rl]'``).

- Agents are the people's seats, ``player_0`` for P1 and so on; the agent to act is the
  first player with a pending decision (simultaneous answers come one by one
  and stay hidden from the others until all are in, as at the table).
- Actions: ``Discrete(max_actions)``; action ``k`` is option ``k`` of the
  acting player's decision. ``observe(agent)["action_mask"][k]`` is 1 exactly
  for the options that exist (none for an agent not acting). A decision with
  more options than ``max_actions`` raises an error naming the figure to use.
- Observations come from the agent's own view only (never the true state):
  ``{"observation": float32[features], "action_mask": int8[max_actions]}``.
  The view's leaves are feature-hashed: a number at path ``p`` adds its value
  to the slot of ``p``; any other value ``v`` adds 1 to the slot of ``p=v``
  (paths name dict keys; a player is named by their place after the
  viewer, 0 for oneself; other list positions are dropped, so a hand is a
  bag of its cards). Stable across runs and machines (blake2b), the same for every
  ruleset; a learner that wants more can read ``infos[agent]["view"]``.
- Rewards are the game's returns (engine.returns) once it is over, 0 before.
"""
from __future__ import annotations

import hashlib

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as exc:                       # the extra is not installed
    raise ImportError("the reinforcement-learning adapter needs the 'rl' extra: "
                      "pip install 'rulebook[rl]'") from exc

SKIPPED = {"log", "decision", "waiting_for"}       # text, and what the mask already says


class RulebookEnv(AECEnv):
    """One game of a ruleset per episode; ``reset(seed)`` starts it with that seed."""
    metadata = {"render_modes": ["ansi"], "name": "rulebook_v0", "is_parallelizable": False}

    def __init__(self, game, players: int | None = None, options: dict | None = None,
                 max_actions: int = 64, features: int = 256, max_steps: int = 100_000,
                 render_mode: str | None = None):
        super().__init__()
        from ..content.ruleset import load_ruleset
        self.rules = load_ruleset(game) if isinstance(game, str) else game
        self.players = players or self.rules.players.get("default", self.rules.players["min"])
        self.game_options = options or {}
        self.max_actions, self.features, self.max_steps = max_actions, features, max_steps
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.players)]   # seat i, P(i+1)
        self.action_spaces = {a: spaces.Discrete(max_actions) for a in self.possible_agents}
        observation = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (features,), np.float32),
            "action_mask": spaces.Box(0, 1, (max_actions,), np.int8),
        })
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.game = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        from ..engine.game import Game
        self.game = Game.new(self.rules, players=self.players, seed=0 if seed is None else seed,
                             options=self.game_options)
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._acting()

    def _acting(self) -> str:
        pending = self.game.pending()
        return self.possible_agents[pending[0].player] if pending else self.agents[0]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        view = self.game.view(seat)
        mask = np.zeros(self.max_actions, dtype=np.int8)
        decision = self.game.decision_for(seat)
        if agent == self.agent_selection and decision is not None and not self.game.over:
            count = decision.count
            if count > self.max_actions:
                raise ValueError(f"a decision has {count} options: make the environment with "
                                 f"max_actions={count} or more")
            mask[:count] = 1
        return {"observation": encode(view, self.features), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        seat = self.possible_agents.index(agent)
        count = self.game.decision_for(seat).count
        if action is None or not 0 <= int(action) < count:
            raise ValueError(f"{agent} chose action {action}, but only 0..{count - 1} are options now")
        self.game.apply(seat, int(action))
        self.steps += 1
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.game.over:
            for a, value in zip(self.possible_agents, self.game.result["returns"]):
                self.rewards[a] = float(value)
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self._acting()
        self._accumulate_rewards()

    def render(self):
        """The acting seat's screen as text (``render_mode="ansi"``)."""
        if self.render_mode is None or self.game is None:
            return None
        import io

        from rich.console import Console

        from ..cli import table
        console = Console(file=io.StringIO(), width=80, height=24, record=True)
        table.show(console, self.game, self.possible_agents.index(self.agent_selection), [])
        return console.export_text()

    def close(self):
        pass


def encode(view: dict, size: int) -> "np.ndarray":
    """A view as a fixed-size float vector by feature hashing (see the module's docstring)."""
    out = np.zeros(size, dtype=np.float32)
    stack = [(key, value) for key, value in view.items() if key not in SKIPPED | {"players"}]
    seats = len(view["players"])
    for player in view["players"]:              # named by place after the viewer: 0 is oneself
        stack.append((f"players/{(player['seat'] - view['you']) % seats}", player))
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            stack.extend((f"{path}/{k}", v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((path, v) for v in value)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            out[_slot(path, size)] += value
        else:
            out[_slot(f"{path}={value}", size)] += 1.0
    return out


def _slot(text: str, size: int) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") % size
