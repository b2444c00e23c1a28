"""Status's authored data keeps every fact the rulebook gives (shared/rules/status.md, DATA-01..13)."""
from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
import yaml

from interpreter.content.ruleset import load_ruleset
from interpreter.engine.game import Game


DATA = Path(__file__).resolve().parents[1] / "rulesets" / "status" / "data"


@pytest.fixture(scope="module")
def rules():
    return load_ruleset("status")


def records(rules, table):
    return [rules.entities[rid] for rid in rules.tables[table]]


def test_exactly_25_unique_storage_cards_with_capacity_no_requirement_no_status(rules):   # ST-STOR-01..05, DATA-02
    storage = [c for c in records(rules, "estates") if c["category"] == "storage"]
    assert len(storage) == 25 and len({c["name"] for c in storage}) == 25
    assert all(c["status"] == 0 and "needs" not in c and c["capacity"] >= 1 for c in storage)
    assert all(c.get("mods") or c.get("on") for c in storage)


def test_estate_cards_of_the_other_categories(rules):                                   # DATA-01, ST-REF-01..05
    cards = [c for c in records(rules, "estates") if c["category"] != "storage"]
    assert {c["category"] for c in cards} == {"art", "furniture", "innovation", "lighting"}
    assert all(c["status"] > 0 for c in cards)                                          # ST-EST-03
    assert all("rooms" not in c for c in cards if c["category"] == "lighting")         # no room requirement
    assert all("rooms" in c for c in cards if c["category"] != "lighting")
    printed = yaml.safe_load((DATA / "estates.yaml").read_text(encoding="utf-8"))["estates"]
    assert all("roll(6)" in c["effect"] for c in printed if c["category"] == "innovation")
    # Recall sits on the costliest cards only: those needing 3 icons or more
    assert all(sum(c.get("needs", {}).values()) >= 3 for c in cards if c.get("recall"))
    assert any(c.get("recall") for c in cards)


def test_grand_events_have_six_starters(rules):                                         # ST-COMP-05, DATA-05
    grand = records(rules, "grand_events")
    assert sum(1 for g in grand if g.get("starter")) == 6 and len(grand) > 6


def test_items_cover_every_slot_type(rules):                                            # ST-ITEM-01, DATA-03
    items = records(rules, "items")
    assert {i["slot"] for i in items} == {"event", "estate", "unique"}
    assert all(("icon" in i) == (i["slot"] != "unique") for i in items)


def test_characters_and_the_house(rules):                                               # DATA-06
    characters = records(rules, "characters")
    assert len(characters) >= 4 and all(c["ability"] for c in characters)
    bonuses = Counter(b["character"] for b in records(rules, "room_bonuses"))
    assert all(bonuses[c["id"]] >= 2 for c in characters)
    assert {r["floor"] for r in records(rules, "rooms")} == {1, 2, 3}


def test_solo_cards(rules):                                                             # ST-COMP-11, DATA-09/10
    cards = Counter(c["category"] for c in records(rules, "auto_cards"))
    assert cards == {"art": 3, "furniture": 3, "innovation": 3, "lighting": 3}
    scenarios = records(rules, "scenarios")
    assert len(scenarios) >= 3 and len({s["difficulty"] for s in scenarios}) == len(scenarios)
    for s in scenarios:
        slots = sorted(x["number"] for x in records(rules, "scenario_slots") if x["scenario"] == s["id"])
        assert slots == [1, 2, 3, 4, 5, 6], s["id"]


def test_every_authored_record_is_marked_assumed(rules):                                # DESIGN principle 6
    authored = ["estates", "items", "personal_events", "grand_events", "characters", "room_bonuses",
                "rooms", "auto_cards", "scenarios", "scenario_slots"]
    unmarked = [r["id"] for t in authored for r in records(rules, t) if not r.get("assumed")]
    assert unmarked == []


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_a_seeded_game_ends_with_a_finalist_winning(rules, players):                    # ST-END-05, ST-SOLO-20
    game = Game.new(rules, players=players, seed=players)
    pick = random.Random(players)
    for _ in range(20_000):
        if not game.pending():
            break
        decision = game.pending()[0]
        game.apply(decision.player, pick.randrange(decision.count))
    assert game.evaluate("phase") == "over"
    winners = game.evaluate("winners")
    assert winners and all(game.evaluate("p.track == final_space", env={"p": w}) for w in winners)
