"""Write rulesets/lairs/data/plan_cards.yaml: the 108 Lairs plan cards.

The rulebook gives the card families but not the deck list (DATA-01), so the
list is authored here, following the reference's suggested placeholder:
54 red and 54 blue backs with each number 1..5 about equally often; 24
walls, 42 improvements (4 of each trap and guard, 6 of each secret), 30
training cards (10 per stat, 1..4 points) and 12 gadget cards. Fronts are
paired with backs by a fixed shuffle so the file is reproducible. Run:
    python tools/make_plan_cards.py
"""
from __future__ import annotations

import random
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "rulesets" / "lairs" / "data" / "plan_cards.yaml"
TRAPS_AND_GUARDS = ["laser", "giant_saw", "shark_pools", "guard_dog", "security_guard", "robot"]
SECRETS = ["blueprints", "gold_bars", "microfilm"]
NAMES = {"laser": "Laser", "giant_saw": "Giant Saw", "shark_pools": "Shark Pools",
         "guard_dog": "Guard Dog", "security_guard": "Security Guard", "robot": "Robot",
         "blueprints": "Blueprints", "gold_bars": "Gold Bars", "microfilm": "Microfilm"}


def fronts() -> list[dict]:
    cards = [{"kind": "wall", "name": "Wall"} for _ in range(24)]
    for item in TRAPS_AND_GUARDS:
        cards += [{"kind": "improvement", "item": item, "name": NAMES[item]} for _ in range(4)]
    for item in SECRETS:
        cards += [{"kind": "improvement", "item": item, "name": NAMES[item]} for _ in range(6)]
    for stat in ("mov", "stl", "cmb"):
        for points in (1, 1, 1, 2, 2, 2, 3, 3, 4, 4):
            cards.append({"kind": "training", "stat": stat, "points": points,
                          "name": f"Training {stat.upper()} +{points}"})
    cards += [{"kind": "gadget", "name": "Gadget"} for _ in range(12)]
    return cards


def backs() -> list[dict]:
    out = []
    for color in ("red", "blue"):
        numbers = [1 + i % 5 for i in range(54)]           # 11,11,11,11,10 of 1..5
        out += [{"color": color, "number": n} for n in numbers]
    return out


def line(i: int, front: dict, back: dict) -> str:
    fields = [f"id: plan_{i:03d}", f"name: {front['name']}", f"kind: {front['kind']}"]
    for key in ("item", "stat", "points"):
        if key in front:
            fields.append(f"{key}: {front[key]}")
    fields.append(f"back: {{color: {back['color']}, number: {back['number']}}}")
    fields.append("assumed: DATA-01")
    return "  - {" + ", ".join(fields) + "}"


def main() -> None:
    rng = random.Random(2)                                  # fixed: the file never changes
    f, b = fronts(), backs()
    assert len(f) == len(b) == 108
    rng.shuffle(b)
    lines = ["# yaml-language-server: $schema=../../../schemas/data/lairs.schema.json",
             "# The 108 plan cards (LR-COMP-01..03). The deck list is not printed in the",
             "# rulebook (DATA-01): this one is assumed, written by tools/make_plan_cards.py.",
             "plan_cards:"]
    lines += [line(i + 1, front, back) for i, (front, back) in enumerate(zip(f, b))]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
