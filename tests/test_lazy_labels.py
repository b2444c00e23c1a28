"""Labels of options are built only when read; a count needs none of them."""
from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.engine import machine
from interpreter.engine.game import Game
from interpreter.model.values import RuleError, decode

TOY = Path(__file__).parent / "rulesets" / "toy"


@pytest.fixture(scope="module")
def lairs():
    return load_ruleset("lairs")


def test_a_random_playout_builds_only_the_chosen_labels(lairs, monkeypatch):
    built = []
    real, real_one = machine.labels, machine.label

    def counting(game, th, ks=None):
        built.append(None if ks is None else len(ks))
        return real(game, th, ks)

    def counting_one(game, th, k):               # the chosen option's label, for its log line
        built.append(1)
        return real_one(game, th, k)
    monkeypatch.setattr(machine, "labels", counting)
    monkeypatch.setattr(machine, "label", counting_one)
    game, rnd, decisions = Game.new(lairs, players=3, seed=5), random.Random(5), 0
    while not game.over:
        d = game.pending()[0]
        game.apply(d.player, rnd.randrange(d.count))
        decisions += 1
    assert decisions > 100 and len(built) >= decisions and set(built) == {1}   # a log line each, never a list


def test_lazy_labels_equal_labels_after_save_and_load_at_every_decision(lairs):
    game, rnd = Game.new(lairs, players=4, seed=9), random.Random(9)
    for _ in range(120):
        loaded = Game.from_json(lairs, game.to_json())
        assert loaded.pending() == game.pending()
        d = game.pending()[0]
        assert [d.options[k] for k in range(d.count)] == list(d.options)    # one at a time, or all
        game.apply(d.player, rnd.randrange(d.count))
        flow = game.state["flow"]
        waiting = [th["pending"] for th in [flow["main"]] + flow["threads"] if th["pending"]]
        assert waiting and all("labels" not in p for p in waiting)       # the state holds counts


def test_an_answered_decision_refuses_to_label_its_options_late(lairs):
    game = Game.new(lairs, players=2, seed=1)
    d = game.pending()[0]
    kept = game.pending()[0].options.freeze()
    game.apply(d.player, 0)
    with pytest.raises(RuntimeError, match="answered"):
        list(d.options)
    assert kept[0] and len(kept) == d.count


def test_a_state_saved_with_built_labels_still_loads(lairs):
    game = Game.new(lairs, players=2, seed=3)
    saved = game.to_data()
    for th in [saved["flow"]["main"]] + saved["flow"]["threads"]:
        if th["pending"] is not None:                  # the format before labels were lazy
            th["pending"] = {"player": th["pending"]["player"], "prompt": th["pending"]["prompt"],
                             "labels": ["one", "two"]}
    old = Game.load(lairs, json.loads(json.dumps(saved), object_hook=decode))
    d = old.pending()[0]
    assert list(d.options) == ["one", "two"] and d.count == 2
    old.apply(d.player, "two")
    assert any(line["text"].endswith("chose: two") for line in old.state["log"])


def test_a_label_that_fails_is_placed_and_changes_nothing(tmp_path):
    folder = tmp_path / "toy"
    shutil.copytree(TOY, folder)
    flow = (folder / "flow.yaml").read_text()
    assert "c in self.hand label c:" in flow
    (folder / "flow.yaml").write_text(flow.replace("c in self.hand label c:",
                                                   "c in self.hand label 1 / 0:"))
    game = Game.new(load_ruleset(str(folder)), players=2, seed=1)
    before = game.to_json()
    d = game.pending()[0]
    with pytest.raises(RuleError, match=r"flow\.yaml:7:\d+: .*division by zero"):
        game.apply(d.player, 0)
    assert game.to_json() == before
