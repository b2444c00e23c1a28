"""Speed rewrites that must mean exactly what the slower code they replaced meant."""
from __future__ import annotations

import random
from pathlib import Path

import networkx as nx

from interpreter.content.ruleset import load_ruleset
from interpreter.engine.evaluate import Ctx
from interpreter.engine.game import Game
from interpreter.mechanics import grids
from interpreter.model.values import Room

RULESETS = Path(__file__).resolve().parent / "rulesets"


def _networkx_reachable(rows, cols, walls, start):
    """What ``reachable`` gave when it built a networkx graph per call."""
    g = nx.grid_2d_graph(rows, cols)
    g = nx.relabel_nodes(g, {(r, c): (r + 1, c + 1) for r, c in g.nodes})
    for key in walls:
        r, c, side = key.split(",")
        dr, dc = grids._STEP[side]
        a, b = (int(r), int(c)), (int(r) + dr, int(c) + dc)
        if g.has_edge(a, b):
            g.remove_edge(a, b)
    return sorted(nx.node_connected_component(g, start))


def test_reachable_walks_the_grid_as_the_graph_did():
    game = Game.new(load_ruleset("lairs"), players=2, seed=0)
    data = game.state["players"][0]["grids"]["lair"]
    spec = game.rules.grids["lair"]
    rnd = random.Random(3)
    edges = [grids.edge_key(r, c, s) for r in range(0, spec["rows"] + 1) for c in range(0, spec["cols"] + 1)
             for s in "es"]
    ctx = Ctx(game, {"self": None})
    for trial in range(40):
        data["walls"] = rnd.sample(edges, rnd.randrange(0, len(edges) // 2))
        start = (rnd.randrange(1, spec["rows"] + 1), rnd.randrange(1, spec["cols"] + 1))
        found = grids.reachable(ctx, [Room("lair", 0, *start)])
        assert [(room.r, room.c) for room in found] == _networkx_reachable(
            spec["rows"], spec["cols"], data["walls"], start)
        assert all(room == Room("lair", 0, room.r, room.c) for room in found)
